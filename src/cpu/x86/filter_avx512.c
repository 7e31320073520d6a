/* AVX-512 (F + BW) filter row kernels: the vector vocabulary for 512-bit
 * registers, then the shared kernel source. Compiled with -mavx512f/bw/vl
 * (this file only); reached only when the CPU has them. The compiler may
 * not fuse multiply-adds: the library builds with -ffp-contract=off. */
#include <immintrin.h>

#include "cpu/filter_exec.h"

#define PFS(name) name##_avx512
#define PFS_B8 64
#define PFS_B16 32
#define PFS_F 16
typedef __m512i VI;
typedef __m512 VF;

#define ld8(p) _mm512_loadu_si512((const void *)(p))
#define st8(p, v) _mm512_storeu_si512((void *)(p), (v))
#define ld16(p) ld8(p)
#define st16(p, v) st8(p, v)
#define ld8w16(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define ld8f(p) _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#define set16(x) _mm512_set1_epi16((short)(x))
#define set32(x) _mm512_set1_epi32((int)(x))
#define zero_v() _mm512_setzero_si512()
#define xor_v _mm512_xor_si512
#define add16 _mm512_add_epi16
#define mul16 _mm512_mullo_epi16
#define add32 _mm512_add_epi32
#define mullo32 _mm512_mullo_epi32
#define srli32(v, n) _mm512_srli_epi32((v), (n))
#define srl16 _mm512_srl_epi16
#define madd16 _mm512_madd_epi16
#define unpacklo16 _mm512_unpacklo_epi16
#define unpackhi16 _mm512_unpackhi_epi16
#define packus32 _mm512_packus_epi32
#define minu8 _mm512_min_epu8
#define maxu8 _mm512_max_epu8
#define ldf(p) _mm512_loadu_ps(p)
#define stf(p, v) _mm512_storeu_ps((p), (v))
#define setf(x) _mm512_set1_ps(x)
#define addf _mm512_add_ps
#define mulf _mm512_mul_ps
#define subf _mm512_sub_ps
#define minf _mm512_min_ps
#define maxf _mm512_max_ps
#define cvtf_i32 _mm512_cvtps_epi32
#define cvttf_i32 _mm512_cvttps_epi32
#define cvti32_f _mm512_cvtepi32_ps
#define minu16 _mm512_min_epu16
#define maxu16 _mm512_max_epu16
#define PFS_D 8
typedef __m512d VD;
#define ldf_d(p) _mm512_cvtps_pd(_mm256_loadu_ps(p))
#define ldd(p) _mm512_loadu_pd(p)
#define std(p, v) _mm512_storeu_pd((p), (v))
#define std_f(p, v) _mm256_storeu_ps((p), _mm512_cvtpd_ps(v))
#define zerod() _mm512_setzero_pd()
#define setd(x) _mm512_set1_pd(x)
#define addd _mm512_add_pd
#define muld _mm512_mul_pd

/* x + g * d for 16 f32 lanes in two halves of 8 double lanes, each
 * rounded once to f32 (the sharpen blend, pfk_sharpen_blend); the halves
 * move through pd casts, which need only AVX-512F */
static inline __m512 blend_d(__m512 x, __m512 d, __m512d g) {
    __m256 xl = _mm512_castps512_ps256(x), dl = _mm512_castps512_ps256(d);
    __m256 xh = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1));
    __m256 dh = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(d), 1));
    __m256 lo = _mm512_cvtpd_ps(_mm512_add_pd(_mm512_cvtps_pd(xl), _mm512_mul_pd(g, _mm512_cvtps_pd(dl))));
    __m256 hi = _mm512_cvtpd_ps(_mm512_add_pd(_mm512_cvtps_pd(xh), _mm512_mul_pd(g, _mm512_cvtps_pd(dh))));
    return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1));
}

/* 32 u16 lanes -> 32 bytes, saturated at 255 */
static inline void st16n8(uint8_t *p, __m512i v) {
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtusepi16_epi8(v));
}

/* 16 i32 lanes -> 16 saturated bytes (signed saturation to i8 range would
 * be wrong; clamp to [0, 255] first) */
static inline void stf8(uint8_t *p, __m512i v) {
    v = _mm512_min_epi32(_mm512_max_epi32(v, _mm512_setzero_si512()), _mm512_set1_epi32(255));
    _mm_storeu_si128((__m128i *)(void *)p, _mm512_cvtepi32_epi8(v));
}

#include "cpu/x86/filter_simd_impl.h"

void pfi_filter_fill_avx512(pfi_filter_kernels *k) { fill_avx512(k); }
