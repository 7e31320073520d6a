/* AVX2 warp coordinate rows (the u8 samplers are in warp_u8_avx2.c).
 *
 * Affine coordinates: 16 pixels per step, OpenCV's fixed-point shifts and
 * int16 saturation (packs) in vector form. */
#include <immintrin.h>
#include <string.h>

#include "cpu/warp_exec.h"
#include "kernels/warp_math.h"

static void affine_xy(const int32_t *ad, const int32_t *bd, int32_t X0, int32_t Y0, int32_t n, int nearest,
                      int16_t *xy, uint16_t *a) {
    const __m256i vx0 = _mm256_set1_epi32(X0), vy0 = _mm256_set1_epi32(Y0);
    const __m256i mask = _mm256_set1_epi32(PFK_INTER_TAB - 1);
    int32_t k = 0;
    for (; k + 16 <= n; k += 16) {
        __m256i x0 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(ad + k)), vx0);
        __m256i x1 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(ad + k + 8)), vx0);
        __m256i y0 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(bd + k)), vy0);
        __m256i y1 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(bd + k + 8)), vy0);
        __m256i sx, sy;
        if (nearest) {
            sx = _mm256_packs_epi32(_mm256_srai_epi32(x0, PFK_AB_BITS), _mm256_srai_epi32(x1, PFK_AB_BITS));
            sy = _mm256_packs_epi32(_mm256_srai_epi32(y0, PFK_AB_BITS), _mm256_srai_epi32(y1, PFK_AB_BITS));
            _mm256_storeu_si256((__m256i *)(void *)(a + k), _mm256_setzero_si256());
        } else {
            x0 = _mm256_srai_epi32(x0, PFK_AB_BITS - PFK_INTER_BITS);
            x1 = _mm256_srai_epi32(x1, PFK_AB_BITS - PFK_INTER_BITS);
            y0 = _mm256_srai_epi32(y0, PFK_AB_BITS - PFK_INTER_BITS);
            y1 = _mm256_srai_epi32(y1, PFK_AB_BITS - PFK_INTER_BITS);
            __m256i f0 = _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(y0, mask), PFK_INTER_BITS),
                                          _mm256_and_si256(x0, mask));
            __m256i f1 = _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(y1, mask), PFK_INTER_BITS),
                                          _mm256_and_si256(x1, mask));
            __m256i f = _mm256_permute4x64_epi64(_mm256_packs_epi32(f0, f1), 0xD8);
            _mm256_storeu_si256((__m256i *)(void *)(a + k), f);
            sx = _mm256_packs_epi32(_mm256_srai_epi32(x0, PFK_INTER_BITS), _mm256_srai_epi32(x1, PFK_INTER_BITS));
            sy = _mm256_packs_epi32(_mm256_srai_epi32(y0, PFK_INTER_BITS), _mm256_srai_epi32(y1, PFK_INTER_BITS));
        }
        /* packs left lanes as [0-3, 8-11 | 4-7, 12-15]: the 16-bit
         * interleave puts pixels 0..7 in `lo` and 8..15 in `hi`, in order */
        _mm256_storeu_si256((__m256i *)(void *)(xy + 2 * k), _mm256_unpacklo_epi16(sx, sy));
        _mm256_storeu_si256((__m256i *)(void *)(xy + 2 * k + 16), _mm256_unpackhi_epi16(sx, sy));
    }
    if (k < n) pfi_warp_affine_xy_ref(ad + k, bd + k, X0, Y0, n - k, nearest, xy + 2 * k, a + k);
}

/* Stores 4 pixels' coordinates from 32-bit X, Y (1/32 pixel, or whole
 * pixels for NEAREST): int16-saturated integer parts interleaved, and the
 * table index. */
static inline void store4(__m128i X, __m128i Y, int nearest, int16_t *xy, uint16_t *a) {
    const __m128i inter = _mm_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    if (nearest) {
        _mm_storel_epi64((__m128i *)(void *)a, _mm_setzero_si128());
    } else {
        const __m128i mask = _mm_set1_epi32(PFK_INTER_TAB - 1);
        __m128i f = _mm_add_epi32(_mm_slli_epi32(_mm_and_si128(Y, mask), PFK_INTER_BITS), _mm_and_si128(X, mask));
        _mm_storel_epi64((__m128i *)(void *)a, _mm_packs_epi32(f, f));
        X = _mm_srai_epi32(X, PFK_INTER_BITS);
        Y = _mm_srai_epi32(Y, PFK_INTER_BITS);
    }
    _mm_storeu_si128((__m128i *)(void *)xy, _mm_shuffle_epi8(_mm_packs_epi32(X, Y), inter));
}

/* Perspective: the scalar double operations 4 lanes at a time (no FMA:
 * this file is compiled with -mavx2 only); cvtpd2dq rounds half to even
 * like cvRound. W == 0 (or NaN, unordered) follows the scalar select. */
static void persp_xy(const double m[9], const double o[3], int32_t x1_0, int32_t n, int nearest, int16_t *xy,
                     uint16_t *a) {
    const __m256d m0 = _mm256_set1_pd(m[0]), m3 = _mm256_set1_pd(m[3]), m6 = _mm256_set1_pd(m[6]);
    const __m256d o0 = _mm256_set1_pd(o[0]), o1 = _mm256_set1_pd(o[1]), o2 = _mm256_set1_pd(o[2]);
    const __m256d scale = _mm256_set1_pd(nearest ? 1.0 : (double)PFK_INTER_TAB);
    const __m256d hi = _mm256_set1_pd(2147483647.0), lo = _mm256_set1_pd(-2147483648.0);
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        __m256d x1 = _mm256_cvtepi32_pd(_mm_add_epi32(_mm_set1_epi32(x1_0 + k), _mm_setr_epi32(0, 1, 2, 3)));
        __m256d w = _mm256_add_pd(o2, _mm256_mul_pd(m6, x1));
        w = _mm256_and_pd(_mm256_cmp_pd(w, _mm256_setzero_pd(), _CMP_NEQ_UQ), _mm256_div_pd(scale, w));
        __m256d fx = _mm256_mul_pd(_mm256_add_pd(o0, _mm256_mul_pd(m0, x1)), w);
        __m256d fy = _mm256_mul_pd(_mm256_add_pd(o1, _mm256_mul_pd(m3, x1)), w);
        fx = _mm256_max_pd(_mm256_min_pd(fx, hi), lo);
        fy = _mm256_max_pd(_mm256_min_pd(fy, hi), lo);
        store4(_mm256_cvtpd_epi32(fx), _mm256_cvtpd_epi32(fy), nearest, xy + 2 * k, a + k);
    }
    if (k < n) pfi_warp_persp_xy_ref(m, o, x1_0 + k, n - k, nearest, xy + 2 * k, a + k);
}

/* Remap: cvtps2dq gives INT_MIN for NaN and out-of-range values, as
 * cvRound(float) does; map * 32 is exact. */
static void remap_xy(const float *fx, const float *fy, int32_t n, int nearest, int16_t *xy, uint16_t *a) {
    const __m128 scale = _mm_set1_ps(nearest ? 1.f : (float)PFK_INTER_TAB);
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        __m128i X = _mm_cvtps_epi32(_mm_mul_ps(_mm_loadu_ps(fx + k), scale));
        __m128i Y = _mm_cvtps_epi32(_mm_mul_ps(_mm_loadu_ps(fy + k), scale));
        store4(X, Y, nearest, xy + 2 * k, a + k);
    }
    if (k < n) pfi_warp_remap_xy_ref(fx + k, fy + k, n - k, nearest, xy + 2 * k, a + k);
}

void pfi_warp_fill_avx2(pfi_warp_kernels *k) {
    k->persp_xy = persp_xy;
    k->remap_xy = remap_xy;
    k->affine_xy = affine_xy;
}
