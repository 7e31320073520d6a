/* AVX2 colour row kernels: the 8 x 32-bit lane vocabulary (with the
 * pshufb (de)interleave of 3-byte pixels), then the shared kernel source
 * color_simd_impl.h. Compiled with -mavx2 -mfma (CMake sets it for this
 * file only); reached only when the CPU has AVX2; the one kernel that
 * needs FMA is installed only when the CPU has it. */
#include <immintrin.h>

#include "cpu/color_exec.h"
#include "kernels/color_math.h"
#include "pixflow/core.h"

#define PFS_N 8
#define PFS(name) name##_avx2
#define PFS_SHUFFLES 1
#define PFS_FMA 1
typedef __m256i VI;
typedef __m256 VF;
typedef __m256i VM; /* all-ones / all-zeros lanes */

#define vi_set1(x) _mm256_set1_epi32((int)(x))
#define vi_add _mm256_add_epi32
#define vi_sub _mm256_sub_epi32
#define vi_mullo _mm256_mullo_epi32
#define vi_srai(v, n) _mm256_srai_epi32((v), (n))
#define vi_slli(v, n) _mm256_slli_epi32((v), (n))
#define vi_min _mm256_min_epi32
#define vi_max _mm256_max_epi32
#define vi_eq _mm256_cmpeq_epi32
#define vi_lt(a, b) _mm256_cmpgt_epi32((b), (a))
#define vi_sel(m, t, f) _mm256_blendv_epi8((f), (t), (m))
#define vf_set1 _mm256_set1_ps
#define vf_from_vi _mm256_cvtepi32_ps
#define vf_mul _mm256_mul_ps
#define vf_sub _mm256_sub_ps
#define vf_div _mm256_div_ps
#define vf_fnmadd _mm256_fnmadd_ps
#define vf_floor _mm256_floor_ps
#define vf_ge(a, b) _mm256_castps_si256(_mm256_cmp_ps((a), (b), _CMP_GE_OQ))
#define vf_sel(m, t, f) _mm256_blendv_ps((f), (t), _mm256_castsi256_ps(m))
#define vi_trunc _mm256_cvttps_epi32
#define vi_round _mm256_cvtps_epi32 /* MXCSR default: round half to even */

static inline VI ld1(const uint8_t *p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
}

/* 8 pixels of 3 bytes = bytes [0, 24): lane 0 holds bytes 0..15 (pixels
 * 0..3 at 0..11), lane 1 bytes 8..23 (pixels 4..7 at 4..15), so nothing
 * past the 24 bytes is read. Channel c of each pixel goes to its dword. */
static inline void ld3(const uint8_t *p, VI *a, VI *b, VI *c) {
    __m256i v = _mm256_set_m128i(_mm_loadu_si128((const __m128i *)(const void *)(p + 8)),
                                 _mm_loadu_si128((const __m128i *)(const void *)p));
    const char z = -128;
    *a = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, z, z, z, 3, z, z, z, 6, z, z, z, 9, z, z, z,
                                                 4, z, z, z, 7, z, z, z, 10, z, z, z, 13, z, z, z));
    *b = _mm256_shuffle_epi8(v, _mm256_setr_epi8(1, z, z, z, 4, z, z, z, 7, z, z, z, 10, z, z, z,
                                                 5, z, z, z, 8, z, z, z, 11, z, z, z, 14, z, z, z));
    *c = _mm256_shuffle_epi8(v, _mm256_setr_epi8(2, z, z, z, 5, z, z, z, 8, z, z, z, 11, z, z, z,
                                                 6, z, z, z, 9, z, z, z, 12, z, z, z, 15, z, z, z));
}

static inline void ld4a(const uint8_t *p, VI *a, VI *b, VI *c, VI *d) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i m = _mm256_set1_epi32(0xff);
    *a = _mm256_and_si256(v, m);
    *b = _mm256_and_si256(_mm256_srli_epi32(v, 8), m);
    *c = _mm256_and_si256(_mm256_srli_epi32(v, 16), m);
    *d = _mm256_srli_epi32(v, 24);
}
static inline void ld4(const uint8_t *p, VI *a, VI *b, VI *c) {
    VI d;
    ld4a(p, a, b, c, &d);
}

static inline void st1(uint8_t *p, VI v) {
    __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi16(w, w));
}

/* Bytes (a, b, c) of each dword packed to 24 bytes, stored as 16 + 8. */
static inline void st3(uint8_t *p, VI a, VI b, VI c) {
    __m256i v = _mm256_or_si256(_mm256_or_si256(a, _mm256_slli_epi32(b, 8)), _mm256_slli_epi32(c, 16));
    const char z = -128;
    v = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, z, z, z, z,
                                                0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, z, z, z, z));
    v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
    _mm_storel_epi64((__m128i *)(void *)(p + 16), _mm256_extracti128_si256(v, 1));
}

static inline void st4(uint8_t *p, VI a, VI b, VI c, VI d) {
    __m256i v = _mm256_or_si256(_mm256_or_si256(a, _mm256_slli_epi32(b, 8)),
                                _mm256_or_si256(_mm256_slli_epi32(c, 16), _mm256_slli_epi32(d, 24)));
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

#include "cpu/x86/color_simd_impl.h"

void pfi_color_fill_avx2(pfi_color_kernels *k) { PFS(fill)(k); }
