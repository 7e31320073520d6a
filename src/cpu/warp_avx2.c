/* AVX2 warp kernels.
 *
 * u8 LINEAR (inlier pixels only, see ref/warp_rows.h): each output pixel
 * is sum(tap_i * w_i) over its 2x2 neighbourhood with the 15-bit weights
 * of the table entry a[k], rounded by 15 bits: integer arithmetic, so the
 * result is OpenCV's to the bit whatever the grouping. Two pixels share a
 * 256-bit register (one per 128-bit lane): an 8-byte load of each
 * neighbourhood row, bytes reordered into (left, right) pairs per channel
 * and widened to 16 bits, one multiply-add per row with the (w0, w1) and
 * (w2, w3) weight pairs.
 *
 * Affine coordinates: 16 pixels per step, OpenCV's fixed-point shifts and
 * int16 saturation (packs) in vector form. */
#include <immintrin.h>
#include <string.h>

#include "cpu/warp_exec.h"
#include "kernels/warp_math.h"

static inline const uint8_t *tap(const pfi_warp_src *s, const int16_t *xy, int32_t k, ptrdiff_t px) {
    return s->data + (ptrdiff_t)xy[2 * k + 1] * s->row_stride + (ptrdiff_t)xy[2 * k] * px;
}

static inline __m128i rows8(const uint8_t *p, ptrdiff_t stride) {
    return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p),
                              _mm_loadl_epi64((const __m128i *)(const void *)(p + stride)));
}

/* Sums of two pixels p, q (lane 0, lane 1): 32-bit per channel, 4 lanes
 * per pixel (channel 3 is 0 for 3-channel pixels). `pairs` reorders a
 * lane's [row0 8 bytes | row1 8 bytes] into channel pairs. */
static inline __m256i two_px(const uint8_t *p, const uint8_t *q, ptrdiff_t stride, const int16_t *wp,
                             const int16_t *wq, __m256i pairs) {
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(rows8(p, stride)), rows8(q, stride), 1);
    v = _mm256_shuffle_epi8(v, pairs);
    __m256i zero = _mm256_setzero_si256();
    __m256i top = _mm256_unpacklo_epi8(v, zero), bot = _mm256_unpackhi_epi8(v, zero);
    __m256i w = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(const void *)wp)),
                                        _mm_loadl_epi64((const __m128i *)(const void *)wq), 1);
    return _mm256_add_epi32(_mm256_madd_epi16(top, _mm256_shuffle_epi32(w, 0x00)),
                            _mm256_madd_epi16(bot, _mm256_shuffle_epi32(w, 0x55)));
}

/* 4 pixels -> 16 bytes [p0 p1 p2 p3], 4 bytes each (rounded, saturated). */
static inline __m128i four_px(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, const int16_t *tab,
                              int32_t k, ptrdiff_t px, __m256i pairs) {
    const __m256i half = _mm256_set1_epi32(1 << (PFK_REMAP_COEF_BITS - 1));
    __m256i s01 = two_px(tap(s, xy, k, px), tap(s, xy, k + 1, px), s->row_stride, tab + 4 * a[k],
                         tab + 4 * a[k + 1], pairs);
    __m256i s23 = two_px(tap(s, xy, k + 2, px), tap(s, xy, k + 3, px), s->row_stride, tab + 4 * a[k + 2],
                         tab + 4 * a[k + 3], pairs);
    s01 = _mm256_srai_epi32(_mm256_add_epi32(s01, half), PFK_REMAP_COEF_BITS);
    s23 = _mm256_srai_epi32(_mm256_add_epi32(s23, half), PFK_REMAP_COEF_BITS);
    __m256i w16 = _mm256_packs_epi32(s01, s23);   /* lane 0: p0 p2, lane 1: p1 p3 */
    __m256i b8 = _mm256_packus_epi16(w16, w16);   /* lane 0 bytes 0..7: p0 p2; lane 1: p1 p3 */
    return _mm_unpacklo_epi32(_mm256_castsi256_si128(b8), _mm256_extracti128_si256(b8, 1));
}

static void linear_u8_c3(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n) {
    const __m256i pairs = _mm256_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 8, 11, 9, 12, 10, 13, -1, -1, 0, 3, 1, 4, 2, 5,
                                           -1, -1, 8, 11, 9, 12, 10, 13, -1, -1);
    const __m128i pack3 = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const int16_t *tab = pfi_warp_tab_i(0);
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        __m128i v = _mm_shuffle_epi8(four_px(s, xy, a, tab, k, 3, pairs), pack3);
        _mm_storel_epi64((__m128i *)(void *)(dst + 3 * k), v);
        uint32_t hi = (uint32_t)_mm_extract_epi32(v, 2);
        memcpy(dst + 3 * k + 8, &hi, 4);
    }
    if (k < n) pfi_warp_linear_u8_ref(s, xy + 2 * k, a + k, dst + 3 * k, n - k);
}

static void linear_u8_c4(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n) {
    const __m256i pairs = _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15, 0, 4, 1, 5, 2, 6, 3,
                                           7, 8, 12, 9, 13, 10, 14, 11, 15);
    const int16_t *tab = pfi_warp_tab_i(0);
    int32_t k = 0;
    for (; k + 4 <= n; k += 4)
        _mm_storeu_si128((__m128i *)(void *)(dst + 4 * k), four_px(s, xy, a, tab, k, 4, pairs));
    if (k < n) pfi_warp_linear_u8_ref(s, xy + 2 * k, a + k, dst + 4 * k, n - k);
}

/* 1 channel: 8 pixels per step; each pixel's 2x2 taps are one dword
 * [row0 left, right, row1 left, right], widened and multiplied by the
 * pixel's 4 weights; pairs of products are then added horizontally. */
static inline uint32_t taps_c1(const uint8_t *p, ptrdiff_t stride) {
    uint16_t t, b;
    memcpy(&t, p, 2);
    memcpy(&b, p + stride, 2);
    return (uint32_t)t | ((uint32_t)b << 16);
}

static void linear_u8_c1(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n) {
    const int16_t *tab = pfi_warp_tab_i(0);
    const __m256i half = _mm256_set1_epi32(1 << (PFK_REMAP_COEF_BITS - 1));
    int32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint32_t t[8];
        int64_t w[8];
        for (int i = 0; i < 8; i++) {
            t[i] = taps_c1(tap(s, xy, k + i, 1), s->row_stride);
            memcpy(&w[i], tab + 4 * a[k + i], 8);
        }
        __m256i tv = _mm256_loadu_si256((const __m256i *)(const void *)t);
        __m256i lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(tv));       /* pixels 0..3 */
        __m256i hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(tv, 1));  /* pixels 4..7 */
        __m256i mlo = _mm256_madd_epi16(lo, _mm256_loadu_si256((const __m256i *)(const void *)w));
        __m256i mhi = _mm256_madd_epi16(hi, _mm256_loadu_si256((const __m256i *)(const void *)(w + 4)));
        /* hadd: lane 0 = p0 p1 p4 p5, lane 1 = p2 p3 p6 p7 */
        __m256i sum = _mm256_srai_epi32(_mm256_add_epi32(_mm256_hadd_epi32(mlo, mhi), half), PFK_REMAP_COEF_BITS);
        sum = _mm256_permutevar8x32_epi32(sum, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
        __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        _mm_storel_epi64((__m128i *)(void *)(dst + k), _mm_packus_epi16(w16, w16));
    }
    if (k < n) pfi_warp_linear_u8_ref(s, xy + 2 * k, a + k, dst + k, n - k);
}

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

void pfi_warp_fill_avx2(pfi_kfn *slots) {
    slots[PFI_WARP_PERSP_XY] = (pfi_kfn)persp_xy;
    slots[PFI_WARP_REMAP_XY] = (pfi_kfn)remap_xy;
    slots[PFI_WARP_LINEAR_U8_C1] = (pfi_kfn)linear_u8_c1;
    slots[PFI_WARP_LINEAR_U8_C3] = (pfi_kfn)linear_u8_c3;
    slots[PFI_WARP_LINEAR_U8_C4] = (pfi_kfn)linear_u8_c4;
    slots[PFI_WARP_AFFINE_XY] = (pfi_kfn)affine_xy;
}
