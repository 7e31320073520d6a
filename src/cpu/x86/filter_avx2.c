/* AVX2 filter row kernels: the vector vocabulary for 256-bit registers,
 * then the shared kernel source. Compiled with -mavx2 (this file only);
 * reached only when the CPU has AVX2. No FMA: -mavx2 does not enable it. */
#include <immintrin.h>

#include "cpu/filter_exec.h"

#define PFS(name) name##_avx2
#define PFS_B8 32
#define PFS_B16 16
#define PFS_F 8
typedef __m256i VI;
typedef __m256 VF;

#define ld8(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define st8(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define ld16(p) ld8(p)
#define st16(p, v) st8(p, v)
#define ld8w16(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define ld8f(p) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#define set16(x) _mm256_set1_epi16((short)(x))
#define set32(x) _mm256_set1_epi32((int)(x))
#define zero_v() _mm256_setzero_si256()
#define xor_v _mm256_xor_si256
#define add16 _mm256_add_epi16
#define mul16 _mm256_mullo_epi16
#define add32 _mm256_add_epi32
#define mullo32 _mm256_mullo_epi32
#define srli32(v, n) _mm256_srli_epi32((v), (n))
#define srl16 _mm256_srl_epi16
#define madd16 _mm256_madd_epi16
#define unpacklo16 _mm256_unpacklo_epi16
#define unpackhi16 _mm256_unpackhi_epi16
#define packus32 _mm256_packus_epi32
#define minu8 _mm256_min_epu8
#define maxu8 _mm256_max_epu8
#define ldf(p) _mm256_loadu_ps(p)
#define stf(p, v) _mm256_storeu_ps((p), (v))
#define setf(x) _mm256_set1_ps(x)
#define addf _mm256_add_ps
#define mulf _mm256_mul_ps
#define subf _mm256_sub_ps
#define minf _mm256_min_ps
#define maxf _mm256_max_ps
#define cvtf_i32 _mm256_cvtps_epi32
#define cvttf_i32 _mm256_cvttps_epi32
#define cvti32_f _mm256_cvtepi32_ps
#define minu16 _mm256_min_epu16
#define maxu16 _mm256_max_epu16
#define PFS_D 4
typedef __m256d VD;
#define ldf_d(p) _mm256_cvtps_pd(_mm_loadu_ps(p))
#define ldd(p) _mm256_loadu_pd(p)
#define std(p, v) _mm256_storeu_pd((p), (v))
#define std_f(p, v) _mm_storeu_ps((p), _mm256_cvtpd_ps(v))
#define zerod() _mm256_setzero_pd()
#define setd(x) _mm256_set1_pd(x)
#define addd _mm256_add_pd
#define muld _mm256_mul_pd

/* x + g * d for 8 f32 lanes in two halves of 4 double lanes, each
 * rounded once to f32 (the sharpen blend, pfk_sharpen_blend) */
static inline __m256 blend_d(__m256 x, __m256 d, __m256d g) {
    __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)),
                               _mm256_mul_pd(g, _mm256_cvtps_pd(_mm256_castps256_ps128(d))));
    __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)),
                               _mm256_mul_pd(g, _mm256_cvtps_pd(_mm256_extractf128_ps(d, 1))));
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

/* 16 u16 lanes -> 16 bytes, saturated at 255 */
static inline void st16n8(uint8_t *p, __m256i v) {
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    _mm_storeu_si128((__m128i *)(void *)p, _mm_packus_epi16(lo, hi));
}

/* 8 i32 lanes -> 8 saturated bytes */
static inline void stf8(uint8_t *p, __m256i v) {
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    __m128i w = _mm_packs_epi32(lo, hi);
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi16(w, w));
}

#include "cpu/x86/filter_simd_impl.h"

void pfi_filter_fill_avx2(pfi_filter_kernels *k) { fill_avx2(k); }
