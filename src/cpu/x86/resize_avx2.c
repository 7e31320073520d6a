/* AVX2 resize row kernels: the vector vocabulary for 8 x 32-bit lanes,
 * then the shared kernel source. Compiled with -mavx2 (CMake sets it for
 * this file only); reached only when the CPU has AVX2. */
#include <immintrin.h>
#include <string.h>

#include "cpu/resize_exec.h"
#include "cpu/x86/resize_c1_x86.h"
#include "cpu/x86/resize_tv_x86.h"
#include "cpu/x86/resize_x86_pixel.h"
#include "cpu/x86/resize_x86_pairs.h"
#include "kernels/resize_math.h"

#define PFS_N 8
#define PFS(name) name##_avx2
typedef __m256i VI;
typedef __m256 VF;
#define vi_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define vi_store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define vi_set1(x) _mm256_set1_epi32((int)(x))
#define vi_zero() _mm256_setzero_si256()
#define vi_add _mm256_add_epi32
#define vi_mullo _mm256_mullo_epi32
#define vi_srai(v, n) _mm256_srai_epi32((v), (n))
#define vi_slli(v, n) _mm256_slli_epi32((v), (n))
#define vi_and _mm256_and_si256
#define vi_or _mm256_or_si256
#define vi_madd16 _mm256_madd_epi16
#define vi_gather8(b, i) _mm256_i32gather_epi32((const int *)(const void *)(b), (i), 1)
#define vi_gather16(b, i) _mm256_i32gather_epi32((const int *)(const void *)(b), (i), 2)
#define vi_gather32(b, i) _mm256_i32gather_epi32((const int *)(const void *)(b), (i), 4)
#define vf_load(p) _mm256_loadu_ps(p)
#define vf_store(p, v) _mm256_storeu_ps((p), (v))
#define vf_set1 _mm256_set1_ps
#define vf_add _mm256_add_ps
#define vf_mul _mm256_mul_ps
#define vf_from_vi _mm256_cvtepi32_ps
#define vf_cast_vi _mm256_castsi256_ps
#define vi_round _mm256_cvtps_epi32 /* MXCSR default: round half to even */

static inline VI vi_load_u8(const uint8_t *p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
}
static inline void store_u8_sat(uint8_t *d, VI v) {
    __m256i w = _mm256_packs_epi32(v, v);   /* i16, per 128-bit lane */
    w = _mm256_packus_epi16(w, w);          /* u8, per lane */
    w = _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
    _mm_storel_epi64((__m128i *)(void *)d, _mm256_castsi256_si128(w));
}
static inline void store_u16_sat(uint16_t *d, VI v) {
    __m256i w = _mm256_packus_epi32(v, v);
    w = _mm256_permute4x64_epi64(w, 0x08);
    _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(w));
}

static inline void store_i16(int16_t *d, VI v) {
    __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(v, v), 0x08);
    _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(w));
}
#define vs_set1(x) _mm256_set1_epi16((short)(x))
#define vs_mulhi _mm256_mulhi_epi16
#define vs_add _mm256_add_epi16
#define vs_srai(v, n) _mm256_srai_epi16((v), (n))
static inline void store_u8_from16(uint8_t *d, VI v) {
    __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0x08);
    _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(w));
}

#define vi_sra(v, n) _mm256_sra_epi32((v), _mm_cvtsi32_si128(n))
#define vb_unpacklo8 _mm256_unpacklo_epi8
#define vb_unpackhi8 _mm256_unpackhi_epi8
#define vi_packs32 _mm256_packs_epi32
#define vi_packus16 _mm256_packus_epi16
#define PFS_TV_PIXELS pfi_x86_tv_pixels
#define PFS_C1_TV pfi_x86_c1_tv
#define PFS_C1_LIN16 pfi_x86_c1_lin16
#define PFS_C1_AA pfi_x86_c1_aa
#define PFS_C1_I32 pfi_x86_c1_i32
#define PFS_AA_PIXELS pfi_x86_aa_pixels
#define PFS_PAIR16_PIXELS pfi_x86_pair16_pixels
#define PFS_PAIR_PIXELS pfi_x86_pair_pixels
#include "cpu/x86/resize_simd_impl.h"

/* 3 channels: each 128-bit half holds two source pixel pairs (12 bytes,
 * loaded from 6x and 6x + 12), so one in-lane shuffle serves both halves;
 * 4 output pixels per step, stored as two 8-byte pieces whose last 2 bytes
 * the next step (or the stop condition) covers. */
static int area2_u8_c3_avx2(const uint8_t *r0, const uint8_t *r1, uint8_t *d, int x0, int x1) {
    const __m256i shuf = _mm256_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1,
                                          0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1);
    const __m256i ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2);
    int x = x0;
    /* loads end at 6x + 28 and stores at 3x + 14: both inside the x1 cells */
    for (; x + 5 <= x1; x += 4) {
        size_t o = (size_t)x * 6;
        __m256i a = _mm256_loadu2_m128i((const __m128i *)(const void *)(r0 + o + 12),
                                        (const __m128i *)(const void *)(r0 + o));
        __m256i b = _mm256_loadu2_m128i((const __m128i *)(const void *)(r1 + o + 12),
                                        (const __m128i *)(const void *)(r1 + o));
        __m256i sa = _mm256_maddubs_epi16(_mm256_shuffle_epi8(a, shuf), ones);
        __m256i sb = _mm256_maddubs_epi16(_mm256_shuffle_epi8(b, shuf), ones);
        __m256i v = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(sa, sb), two), 2);
        v = _mm256_packus_epi16(v, v); /* 6 valid bytes at the start of each half */
        _mm_storel_epi64((__m128i *)(void *)(d + (size_t)x * 3), _mm256_castsi256_si128(v));
        _mm_storel_epi64((__m128i *)(void *)(d + (size_t)x * 3 + 6), _mm256_extracti128_si256(v, 1));
    }
    return x;
}

/* u8 2x2 area-fast cells, 1 and 4 channels: per row, a byte shuffle puts
 * each output element's two source bytes side by side, vpmaddubsw with
 * ones sums them as int16, and the two rows' sums plus 2 are shifted by
 * 2: (a + b + c + d + 2) >> 2 exactly. 16 outputs per step. */
static int area2_u8_avx2(const uint8_t *r0, const uint8_t *r1, uint8_t *d, int cn, int x0, int x1) {
    if (cn == 3) return area2_u8_c3_avx2(r0, r1, d, x0, x1);
    if (cn != 1 && cn != 4) return x0;
    const __m256i shuf = cn == 1 ? _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
                                 : _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
                                                    0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    const __m256i ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2);
    int step = 16 / cn; /* output pixels per 32 source bytes */
    int x = x0;
    for (; x + step <= x1; x += step) {
        size_t o = (size_t)x * 2 * (size_t)cn;
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(r0 + o));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(r1 + o));
        __m256i sa = _mm256_maddubs_epi16(_mm256_shuffle_epi8(a, shuf), ones);
        __m256i sb = _mm256_maddubs_epi16(_mm256_shuffle_epi8(b, shuf), ones);
        __m256i v = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(sa, sb), two), 2);
        v = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0x08);
        _mm_storeu_si128((__m128i *)(void *)(d + (size_t)x * (size_t)cn), _mm256_castsi256_si128(v));
    }
    return x;
}

void pfi_resize_fill_avx2(pfi_resize_kernels *k) {
    PFS(fill)(k);
    k->tv_quads_two_rows = 1; /* pfi_x86_tv_pixels takes src2 */
    k->c1_groups = 1;        /* pfi_x86_c1_tv, _aa, _lin16, _i32 */
    k->lin16_pixels_whole = 1; /* pfi_x86_pair16_pixels ends rows on their copy */
    k->area2_u8 = area2_u8_avx2;
}
