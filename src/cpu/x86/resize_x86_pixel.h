/* SSE4.1 helper shared by the x86 resize kernels: u8 two-tap horizontal
 * resize one pixel at a time for 3 and 4 channels, where a pixel's two
 * taps are adjacent source pixels (every interior output of LINEAR). One
 * 8-byte load holds both taps; a byte shuffle pairs tap0/tap1 per channel
 * as 16-bit lanes and pmaddwd applies (a0, a1): exactly tap0*a0 + tap1*a1
 * in int32, the reference arithmetic. */
#ifndef PF_CPU_RESIZE_X86_PIXEL_H
#define PF_CPU_RESIZE_X86_PIXEL_H

#include <smmintrin.h>
#include <string.h>

#include "kernels/resize_math.h"
#include "ref/resize_rows.h"

/* Processes whole pixels from element x0 (a pixel boundary) while the taps
 * are adjacent and a 16-byte store stays inside [x0, x1 + 1); returns the
 * first element not processed. */
static inline int pfi_h_u8_pair_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->ksize != 2 || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    int32_t *d = r->buf;
    const int32_t *off0 = r->e_off, *off1 = r->e_off + r->width, *cw = r->e_coef;
    const __m128i shuf = cn == 3 ? _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
                                 : _mm_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    int e = x0;
    for (; e + 4 <= x1 && off1[e] == off0[e] + cn; e += cn) {
        __m128i px = _mm_loadl_epi64((const __m128i *)(const void *)(s + off0[e]));
        __m128i v = _mm_madd_epi16(_mm_shuffle_epi8(px, shuf), _mm_set1_epi32(cw[e]));
        _mm_storeu_si128((__m128i *)(void *)(d + e), v);
    }
    return e;
}

/* The same for PFK_H_U8_LIN16: the int32 sums shifted by 4 and packed to
 * int16 (exact: they fit), one 8-byte store per pixel. */
static inline int pfi_h_u8_pair16_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->ksize != 2 || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    int16_t *d = r->buf;
    const int32_t *off0 = r->e_off, *off1 = r->e_off + r->width, *cw = r->e_coef;
    const __m128i shuf = cn == 3 ? _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
                                 : _mm_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    int e = x0;
    for (; e + 4 <= x1 && off1[e] == off0[e] + cn; e += cn) {
        __m128i px = _mm_loadl_epi64((const __m128i *)(const void *)(s + off0[e]));
        __m128i v = _mm_madd_epi16(_mm_shuffle_epi8(px, shuf), _mm_set1_epi32(cw[e]));
        v = _mm_srai_epi32(v, 4);
        _mm_storel_epi64((__m128i *)(void *)(d + e), _mm_packs_epi32(v, v));
    }
    return e;
}

/* Nearest u8, 3/4 channels: one 4-byte copy per pixel (a 3-channel store
 * also writes the next pixel's first byte, rewritten by the next step;
 * the row's last pixel and loads from safe_end on are left to the
 * reference). */
static inline int pfi_nn_u8_pixels(const pfi_nnrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    uint8_t *d = r->dst;
    const int32_t *nx = r->nn_x;
    int end = x1 < r->safe_end ? x1 : r->safe_end;
    if (r->cn == 4) {
        for (int x = x0; x < end; x++) memcpy(d + 4 * (size_t)x, s + 4 * (size_t)nx[x], 4);
        return end > x0 ? end : x0;
    }
    if (end > x1 - 1) end = x1 - 1;
    int x = x0;
    for (; x + 4 <= end; x += 4) {
        uint32_t a, b, c, e;
        memcpy(&a, s + 3 * (size_t)nx[x], 4);
        memcpy(&b, s + 3 * (size_t)nx[x + 1], 4);
        memcpy(&c, s + 3 * (size_t)nx[x + 2], 4);
        memcpy(&e, s + 3 * (size_t)nx[x + 3], 4);
        memcpy(d + 3 * (size_t)x, &a, 4);
        memcpy(d + 3 * (size_t)x + 3, &b, 4);
        memcpy(d + 3 * (size_t)x + 6, &c, 4);
        memcpy(d + 3 * (size_t)x + 9, &e, 4);
    }
    for (; x < end; x++) memcpy(d + 3 * (size_t)x, s + 3 * (size_t)nx[x], 4);
    return x;
}

/* Many-tap horizontal passes over u8 with 3 or 4 channels (antialias
 * and fractional AREA), one output pixel per step: per tap, the pixel's
 * channels are loaded once (4 bytes, zero-extended) and weighted by the
 * tap's broadcast weight, so no gathers are needed. Same arithmetic and tap
 * order as the reference. Stops at safe_end (4-byte loads) and before a
 * 4-lane store could pass x1. */
static inline int pfi_h_aa_u8_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if ((cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    int e = x0;
    for (; e + 4 <= x1; e += cn) {
        __m128i ss = _mm_set1_epi32(1 << (PFK_AA_BITS - 1));
        for (int k = 0; k < r->ksize; k++) {
            size_t t = (size_t)k * W + (size_t)e;
            int32_t v;
            memcpy(&v, s + r->e_off[t], 4);
            ss = _mm_add_epi32(ss, _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(v)),
                                                   _mm_set1_epi32(cw[t])));
        }
        ss = _mm_srai_epi32(ss, PFK_AA_BITS);
        int32_t o = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(ss, ss), ss));
        memcpy(d + e, &o, 4);
    }
    return e;
}

static inline int pfi_h_f32_u8_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if ((cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    float *d = r->buf;
    const float *cw = r->e_coef;
    size_t W = (size_t)r->width;
    int e = x0;
    for (; e + 4 <= x1; e += cn) {
        __m128 acc = _mm_setzero_ps();
        for (int k = 0; k < r->ksize; k++) {
            size_t t = (size_t)k * W + (size_t)e;
            int32_t v;
            memcpy(&v, s + r->e_off[t], 4);
            __m128 px = _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(v)));
            __m128 term = _mm_mul_ps(px, _mm_set1_ps(cw[t]));
            acc = k == 0 ? term : _mm_add_ps(acc, term);
        }
        _mm_storeu_ps(d + e, acc);
    }
    return e;
}

#endif
