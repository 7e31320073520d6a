/* AVX2+FMA photometric row kernels: the 8-lane vocabulary, then the shared
 * kernel source photo_simd_impl.h. Compiled with -mavx2 -mfma (CMake sets
 * it for this file only); installed only when the CPU has both (the
 * reference's fmaf must be a hardware FMA to give the same bits). */
#include <immintrin.h>

#include "cpu/photo_exec.h"
#include "kernels/philox.h"
#include "kernels/photo_math.h"
#include "pixflow/core.h"

#define PFS_N 8
#define PFS(name) name##_avx2
#define PFS_AI static inline __attribute__((always_inline))
typedef __m256 VF;
typedef __m256i VI;
typedef __m256 VM; /* all-ones / all-zeros lanes */

#define vf_set1 _mm256_set1_ps
#define vf_zero _mm256_setzero_ps
#define vf_add _mm256_add_ps
#define vf_sub _mm256_sub_ps
#define vf_mul _mm256_mul_ps
#define vf_div _mm256_div_ps
#define vf_min _mm256_min_ps
#define vf_max _mm256_max_ps
#define vf_sqrt _mm256_sqrt_ps
#define vf_floor _mm256_floor_ps
#define vf_fmadd _mm256_fmadd_ps
#define vf_from_vi _mm256_cvtepi32_ps
#define vf_ld(p) _mm256_loadu_ps(p)
#define vf_st(p, v) _mm256_storeu_ps((p), (v))
#define vf_eq(a, b) _mm256_cmp_ps((a), (b), _CMP_EQ_OQ)
#define vf_lt(a, b) _mm256_cmp_ps((a), (b), _CMP_LT_OQ)
#define vf_ge(a, b) _mm256_cmp_ps((a), (b), _CMP_GE_OQ)
#define vf_sel(m, t, f) _mm256_blendv_ps((f), (t), (m))
#define vm_or _mm256_or_ps
#define vf_as_vi _mm256_castps_si256
#define vi_as_vf _mm256_castsi256_ps

#define vi_set1(x) _mm256_set1_epi32((int)(x))
#define vi_iota() _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define vi_add _mm256_add_epi32
#define vi_sub _mm256_sub_epi32
#define vi_mullo _mm256_mullo_epi32
#define vi_xor _mm256_xor_si256
#define vi_and _mm256_and_si256
#define vi_or _mm256_or_si256
#define vi_srli(v, n) _mm256_srli_epi32((v), (n))
#define vi_slli(v, n) _mm256_slli_epi32((v), (n))
#define vi_min _mm256_min_epi32
#define vi_max _mm256_max_epi32
#define vi_eq(a, b) _mm256_castsi256_ps(_mm256_cmpeq_epi32((a), (b)))
#define vi_gt(a, b) _mm256_castsi256_ps(_mm256_cmpgt_epi32((a), (b)))
#define vi_sel(m, t, f) _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(f), _mm256_castsi256_ps(t), (m)))
#define vi_trunc _mm256_cvttps_epi32
#define vi_round _mm256_cvtps_epi32 /* MXCSR default: round half to even */

PFS_AI VI vi_mulhi_u32(VI a, VI m) {
    __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(a, m), 32);
    __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
    return _mm256_blend_epi32(even, odd, 0xAA);
}

PFS_AI uint64_t vi_hsum(VI v) {
    uint32_t l[8];
    _mm256_storeu_si256((__m256i *)(void *)l, v);
    uint64_t s = 0;
    for (int i = 0; i < 8; i++) s += l[i];
    return s;
}

/* 8 pixels = bytes [0, 24): lane 0 holds bytes 0..15 (pixels 0..3 at
 * 0..11), lane 1 bytes 8..23 (pixels 4..7 at 4..15); nothing past the 24
 * bytes is read. Channel c of each pixel goes to its dword. */
PFS_AI void ld3u8(const uint8_t *p, VI *r, VI *g, VI *b) {
    __m256i v = _mm256_set_m128i(_mm_loadu_si128((const __m128i *)(const void *)(p + 8)),
                                 _mm_loadu_si128((const __m128i *)(const void *)p));
    const char z = -128;
    *r = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, z, z, z, 3, z, z, z, 6, z, z, z, 9, z, z, z,
                                                 4, z, z, z, 7, z, z, z, 10, z, z, z, 13, z, z, z));
    *g = _mm256_shuffle_epi8(v, _mm256_setr_epi8(1, z, z, z, 4, z, z, z, 7, z, z, z, 10, z, z, z,
                                                 5, z, z, z, 8, z, z, z, 11, z, z, z, 14, z, z, z));
    *b = _mm256_shuffle_epi8(v, _mm256_setr_epi8(2, z, z, z, 5, z, z, z, 8, z, z, z, 11, z, z, z,
                                                 6, z, z, z, 9, z, z, z, 12, z, z, z, 15, z, z, z));
}

PFS_AI void ld3u8_2p23(const uint8_t *p, VF *r, VF *g, VF *b) {
    VI a, c, e;
    ld3u8(p, &a, &c, &e);
    const VI bias = _mm256_set1_epi32(0x4B000000);
    *r = vi_as_vf(vi_or(a, bias));
    *g = vi_as_vf(vi_or(c, bias));
    *b = vi_as_vf(vi_or(e, bias));
}

/* Saturating packs (int32 -> int16 -> u8 clamp each lane to [0, 255]):
 * per 128-bit lane the bytes are r0..3 g0..3 b0..3 b0..3; one pshufb
 * interleaves the first 12, a dword permute joins the two lanes. */
PFS_AI void st3u8(uint8_t *p, VI r, VI g, VI b) {
    __m256i x = _mm256_packus_epi16(_mm256_packs_epi32(r, g), _mm256_packs_epi32(b, b));
    const char z = -128;
    x = _mm256_shuffle_epi8(x, _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, z, z, z, z,
                                                0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, z, z, z, z));
    x = _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(x));
    _mm_storel_epi64((__m128i *)(void *)(p + 16), _mm256_extracti128_si256(x, 1));
}

PFS_AI VI ld1u8(const uint8_t *p) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p)); }

PFS_AI void st1u8(uint8_t *p, VI v) {
    __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi16(w, w));
}

/* 8 RGB f32 pixels in three vectors a, b, c (element j = channel j % 3 of
 * pixel j / 3). Channel r sits at positions {0,3,6} of a, {1,4,7} of b and
 * {2,5} of c: disjoint, so two blends gather it and one permute orders
 * it; g and b likewise. The store runs the same steps backwards. */
PFS_AI void ld3f(const float *p, VF *r, VF *g, VF *b) {
    VF a = _mm256_loadu_ps(p), bb = _mm256_loadu_ps(p + 8), c = _mm256_loadu_ps(p + 16);
    VF tr = _mm256_blend_ps(_mm256_blend_ps(a, bb, 0x92), c, 0x24);
    VF tg = _mm256_blend_ps(_mm256_blend_ps(a, bb, 0x24), c, 0x49);
    VF tb = _mm256_blend_ps(_mm256_blend_ps(a, bb, 0x49), c, 0x92);
    *r = _mm256_permutevar8x32_ps(tr, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    *g = _mm256_permutevar8x32_ps(tg, _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    *b = _mm256_permutevar8x32_ps(tb, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

PFS_AI void st3f(float *p, VF r, VF g, VF b) {
    VF pr = _mm256_permutevar8x32_ps(r, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    VF pg = _mm256_permutevar8x32_ps(g, _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2));
    VF pb = _mm256_permutevar8x32_ps(b, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    _mm256_storeu_ps(p, _mm256_blend_ps(_mm256_blend_ps(pr, pg, 0x92), pb, 0x24));
    _mm256_storeu_ps(p + 8, _mm256_blend_ps(_mm256_blend_ps(pr, pg, 0x24), pb, 0x49));
    _mm256_storeu_ps(p + 16, _mm256_blend_ps(_mm256_blend_ps(pr, pg, 0x49), pb, 0x92));
}

/* z_c lane l = component c of block l -> elements 4l + c in order. */
PFS_AI void transpose4(VF z0, VF z1, VF z2, VF z3, VF out[4]) {
    VF a = _mm256_unpacklo_ps(z0, z1), b = _mm256_unpackhi_ps(z0, z1);
    VF c = _mm256_unpacklo_ps(z2, z3), d = _mm256_unpackhi_ps(z2, z3);
    VF e0 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(a), _mm256_castps_pd(c))); /* blocks 0 | 4 */
    VF e1 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(a), _mm256_castps_pd(c))); /* 1 | 5 */
    VF e2 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(b), _mm256_castps_pd(d))); /* 2 | 6 */
    VF e3 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(b), _mm256_castps_pd(d))); /* 3 | 7 */
    out[0] = _mm256_permute2f128_ps(e0, e1, 0x20);
    out[1] = _mm256_permute2f128_ps(e2, e3, 0x20);
    out[2] = _mm256_permute2f128_ps(e0, e1, 0x31);
    out[3] = _mm256_permute2f128_ps(e2, e3, 0x31);
}

/* n is a multiple of 16: 64-byte steps, then 16-byte steps. */
PFS_AI void inv_bytes(const uint8_t *s, uint8_t *d, int32_t n) {
    const __m256i ones = _mm256_set1_epi8(-1);
    int32_t j = 0;
    for (; j + 64 <= n; j += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + j));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + j + 32));
        _mm256_storeu_si256((__m256i *)(void *)(d + j), _mm256_xor_si256(a, ones));
        _mm256_storeu_si256((__m256i *)(void *)(d + j + 32), _mm256_xor_si256(b, ones));
    }
    for (; j < n; j += 16)
        _mm_storeu_si128((__m128i *)(void *)(d + j),
                         _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + j)), _mm_set1_epi8(-1)));
}

#include "cpu/x86/photo_simd_impl.h"

void pfi_photo_fill_avx2(pfi_photo_kernels *k) { PFS(fill)(k); }
