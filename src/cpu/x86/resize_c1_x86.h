/* x86 kernels of the u8 horizontal passes for 1-channel rows (CHW
 * planes, grey images) over the groups of resize_c1_prep.c, 8 pixels per
 * step: torchvision's PFK_H_TV_U8, the Pillow antialias PFK_H_AA_U8 and
 * OpenCV's LINEAR PFK_H_U8_LIN16 and CUBIC / LANCZOS4 PFK_H_U8_I32.
 * Their taps come from plain loads:
 *  - windows (four neighbouring pixels' taps in 16 bytes: up to ~3x
 *    torchvision antialiased, ~4.6x LINEAR, downscales): one load per
 *    lane of 4 pixels, then per tap pair one pshufb makes each pixel's
 *    (tap 2j, tap 2j+1) u16 pair and pmaddwd against its weight pair adds
 *    tap0*w0 + tap1*w1 in int32;
 *  - dots (antialias kinds, any tap count): per pixel, 16 bytes widened to
 *    u16 times its 16 int16 weights per chunk (pmaddwd), the pixels' 8
 *    partial sums each added across by a phaddd tree.
 * Both are the reference's integer sums (exact in any grouping; the
 * antialias kind's 22-bit weights as hi * 2048 + lo, two pmaddwd), then
 * its rounding and store: the half, shift by the axis precision (22 for
 * Pillow's) and u8 clamp; LINEAR's >> 4 to int16; CUBIC's int32 as is.
 * Without them the AVX2 kernels took every tap with a vpgatherdd (on a
 * Zen 4 ~5x slower than the windows at 500x375 -> 224, torchvision
 * antialiased), the SSE4.1 ones with scalar loads. Levels: SSE4.1 (two
 * 128-bit lanes in turn) and AVX2 (both at once; the AVX-512 table uses
 * it too). */
#ifndef PF_CPU_RESIZE_C1_X86_H
#define PF_CPU_RESIZE_C1_X86_H

#include <immintrin.h>
#include <string.h>

#include "kernels/resize_math.h"
#include "ref/resize_rows.h"

#if defined(__SSE4_1__)
/* The first `bytes` (<= 16) of o to d: one store when all 16 are the
 * row's, else a copy (the row's last group). */
static inline void pfi_c1_put(void *d, __m128i o, size_t bytes) {
    if (bytes >= 16) {
        _mm_storeu_si128((__m128i *)d, o);
    } else {
        uint8_t tmp[16];
        _mm_storeu_si128((__m128i *)(void *)tmp, o);
        memcpy(d, tmp, bytes);
    }
}
static inline size_t pfi_c1_left(int e, int x1) { return (size_t)(x1 - e < 8 ? x1 - e : 8); }

/* The SSE4.1 level (CPUs without AVX2: Nehalem to Ivy Bridge): the same
 * tables, each group's two lanes in turn on 128-bit vectors. */
static inline __m128i pfi_c1_lane_sse4(const uint8_t *s, const uint8_t *g, int l, __m128i half, int split) {
    const int32_t *hdr = (const int32_t *)(const void *)g;
    const __m128i *c = (const __m128i *)(const void *)(g + 64), two = _mm_set1_epi8(2);
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + hdr[l]));
    __m128i ix = _mm_load_si128((const __m128i *)(const void *)(g + 32 + 16 * l));
    __m128i acc = split ? _mm_setzero_si128() : half, lo = half;
    for (int j = 0, np = hdr[2]; j < np; j++) {
        __m128i t = _mm_shuffle_epi8(v, ix);
        acc = _mm_add_epi32(acc, _mm_madd_epi16(t, _mm_load_si128(c + 2 * (1 + split) * j + l)));
        if (split) lo = _mm_add_epi32(lo, _mm_madd_epi16(t, _mm_load_si128(c + 2 * (2 * j + 1) + l)));
        ix = _mm_add_epi8(ix, two);
    }
    return split ? _mm_add_epi32(_mm_slli_epi32(acc, 11), lo) : acc;
}
/* Pixel i's 4 partial sums over its nc chunks (dots kind). */
static inline __m128i pfi_c1_dot_sse4(const uint8_t *px, const __m128i *w, int nc, int split) {
    __m128i a = _mm_setzero_si128(), b = _mm_setzero_si128();
    for (int c = 0; c < nc; c++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(px + 16 * c));
        __m128i t0 = _mm_cvtepu8_epi16(v), t1 = _mm_cvtepu8_epi16(_mm_srli_si128(v, 8));
        const __m128i *wc = w + 2 * (1 + split) * c;
        a = _mm_add_epi32(a, _mm_add_epi32(_mm_madd_epi16(t0, wc[0]), _mm_madd_epi16(t1, wc[1])));
        if (split) b = _mm_add_epi32(b, _mm_add_epi32(_mm_madd_epi16(t0, wc[2]), _mm_madd_epi16(t1, wc[3])));
    }
    return split ? _mm_add_epi32(_mm_slli_epi32(a, 11), b) : a;
}
/* The group's 8 sums as two vectors of 4 (rounding half in). */
static inline void pfi_c1_sums_sse4(const uint8_t *s, const uint8_t *g, int nc, __m128i half, int split,
                                    __m128i *s0, __m128i *s1) {
    if (nc == 0) {
        *s0 = pfi_c1_lane_sse4(s, g, 0, half, split);
        *s1 = pfi_c1_lane_sse4(s, g, 1, half, split);
        return;
    }
    const int32_t *lo = (const int32_t *)(const void *)g;
    const __m128i *w = (const __m128i *)(const void *)(g + 32);
    __m128i p[8];
    for (int i = 0; i < 8; i++) p[i] = pfi_c1_dot_sse4(s + lo[i], w + 2 * i * nc * (1 + split), nc, split);
    *s0 = _mm_add_epi32(_mm_hadd_epi32(_mm_hadd_epi32(p[0], p[1]), _mm_hadd_epi32(p[2], p[3])), half);
    *s1 = _mm_add_epi32(_mm_hadd_epi32(_mm_hadd_epi32(p[4], p[5]), _mm_hadd_epi32(p[6], p[7])), half);
}
static inline int pfi_c1_u8_sse4(const pfi_hrow *r, int x0, int x1, int shift, int split) {
    if (r->c1 == NULL || r->cn != 1 || x0 != 0) return x0;
    const uint8_t *s = r->src, *g = r->c1;
    uint8_t *d = r->buf;
    const __m128i half = _mm_set1_epi32(1 << (shift - 1)), sh = _mm_cvtsi32_si128(shift);
    int e = 0;
    for (int k = 0; k < r->c1_n && e < x1; k++, e += 8, g += r->c1_stride) {
        __m128i a, b;
        pfi_c1_sums_sse4(s, g, r->c1_chunks, half, split, &a, &b);
        __m128i o = _mm_packs_epi32(_mm_sra_epi32(a, sh), _mm_sra_epi32(b, sh));
        o = _mm_packus_epi16(o, o);
        if (x1 - e >= 8) _mm_storel_epi64((__m128i *)(void *)(d + e), o);
        else pfi_c1_put(d + e, o, pfi_c1_left(e, x1));
    }
    return e < x1 ? e : x1;
}
static inline int pfi_sse4_c1_tv(const pfi_hrow *r, int x0, int x1) { return pfi_c1_u8_sse4(r, x0, x1, r->shift, 0); }
static inline int pfi_sse4_c1_aa(const pfi_hrow *r, int x0, int x1) {
    return pfi_c1_u8_sse4(r, x0, x1, PFK_AA_BITS, 1);
}
/* LINEAR's int16 (>> 4) and CUBIC / LANCZOS4's int32 rows */
static inline int pfi_sse4_c1_lin16(const pfi_hrow *r, int x0, int x1) {
    if (r->c1 == NULL || r->cn != 1 || r->c1_chunks != 0 || x0 != 0) return x0;
    int16_t *d = r->buf;
    const uint8_t *g = r->c1;
    int e = 0;
    for (int k = 0; k < r->c1_n && e < x1; k++, e += 8, g += r->c1_stride) {
        __m128i a = pfi_c1_lane_sse4(r->src, g, 0, _mm_setzero_si128(), 0);
        __m128i b = pfi_c1_lane_sse4(r->src, g, 1, _mm_setzero_si128(), 0);
        __m128i o = _mm_packs_epi32(_mm_srai_epi32(a, 4), _mm_srai_epi32(b, 4));
        if (x1 - e >= 8) _mm_storeu_si128((__m128i *)(void *)(d + e), o);
        else pfi_c1_put(d + e, o, 2 * pfi_c1_left(e, x1));
    }
    return e < x1 ? e : x1;
}
static inline int pfi_sse4_c1_i32(const pfi_hrow *r, int x0, int x1) {
    if (r->c1 == NULL || r->cn != 1 || r->c1_chunks != 0 || x0 != 0) return x0;
    int32_t *d = r->buf;
    const uint8_t *g = r->c1;
    int e = 0;
    for (int k = 0; k < r->c1_n && e < x1; k++, e += 8, g += r->c1_stride) {
        size_t n = pfi_c1_left(e, x1);
        pfi_c1_put(d + e, pfi_c1_lane_sse4(r->src, g, 0, _mm_setzero_si128(), 0), 4 * (n < 4 ? n : 4));
        if (n > 4) pfi_c1_put(d + e + 4, pfi_c1_lane_sse4(r->src, g, 1, _mm_setzero_si128(), 0), 4 * (n - 4));
    }
    return e < x1 ? e : x1;
}
#endif

#if defined(__AVX2__)
/* The 8 pixels' sums (int32, rounding half in) to bytes at d, all 8 or
 * the row's last n < 8. */
static inline void pfi_c1_store8(uint8_t *d, int n, __m256i acc, __m128i sh) {
    acc = _mm256_sra_epi32(acc, sh);
    __m256i t = _mm256_packus_epi16(_mm256_packs_epi32(acc, acc), acc); /* per lane: its 4 pixels, 4 times */
    __m128i o = _mm_unpacklo_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
    if (n >= 8) _mm_storel_epi64((__m128i *)(void *)d, o);
    else pfi_c1_put(d, o, (size_t)n);
}

/* split (the antialias kind): each tap pair has hi and lo weights, and
 * the sum is (hi's << 11) + lo's, exactly the 22-bit weights' sum. */
static inline __m256i pfi_c1_window_sum(const uint8_t *s, const uint8_t *g, __m256i half, int split) {
    const int32_t *hdr = (const int32_t *)(const void *)g;
    const __m256i *c = (const __m256i *)(const void *)(g + 64), two = _mm256_set1_epi8(2);
    __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)(s + hdr[1]),
                                    (const __m128i *)(const void *)(s + hdr[0]));
    __m256i ix = _mm256_load_si256((const __m256i *)(const void *)(g + 32));
    __m256i acc = split ? _mm256_setzero_si256() : half, lo = half;
    for (int j = 0, np = hdr[2]; j < np; j++) {
        __m256i t = _mm256_shuffle_epi8(v, ix);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(t, _mm256_load_si256(c + (1 + split) * j)));
        if (split) lo = _mm256_add_epi32(lo, _mm256_madd_epi16(t, _mm256_load_si256(c + 2 * j + 1)));
        ix = _mm256_add_epi8(ix, two); /* 0x80 + 2j keeps its high bit: still a zero byte */
    }
    return split ? _mm256_add_epi32(_mm256_slli_epi32(acc, 11), lo) : acc;
}

/* One pixel's 8 partial sums over its nc chunks (split: each chunk's hi
 * and lo weights, combined as in pfi_c1_window_sum). */
static inline __m256i pfi_c1_dot(const uint8_t *px, const __m256i *w, int nc, int split) {
    __m256i a = _mm256_setzero_si256(), b = _mm256_setzero_si256();
    for (int c = 0; c < nc; c++) {
        __m256i t = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(px + 16 * c)));
        a = _mm256_add_epi32(a, _mm256_madd_epi16(t, _mm256_load_si256(w + (1 + split) * c)));
        if (split) b = _mm256_add_epi32(b, _mm256_madd_epi16(t, _mm256_load_si256(w + 2 * c + 1)));
    }
    return split ? _mm256_add_epi32(_mm256_slli_epi32(a, 11), b) : a;
}
static inline __m256i pfi_c1_dots_sum(const uint8_t *s, const uint8_t *g, int nc, __m256i half, int split) {
    const int32_t *lo = (const int32_t *)(const void *)g;
    const __m256i *w = (const __m256i *)(const void *)(g + 32);
    __m256i p[8];
    for (int i = 0; i < 8; i++) p[i] = pfi_c1_dot(s + lo[i], w + i * nc * (1 + split), nc, split);
    /* two levels of phaddd: per lane [sum of 4 of p0 .. p3] (low lane: their
     * elements 0-3, high lane: 4-7), then the lanes added across */
    __m256i a = _mm256_hadd_epi32(_mm256_hadd_epi32(p[0], p[1]), _mm256_hadd_epi32(p[2], p[3]));
    __m256i b = _mm256_hadd_epi32(_mm256_hadd_epi32(p[4], p[5]), _mm256_hadd_epi32(p[6], p[7]));
    __m256i sum = _mm256_add_epi32(_mm256_permute2x128_si256(a, b, 0x20), _mm256_permute2x128_si256(a, b, 0x31));
    return _mm256_add_epi32(sum, half);
}

/* Pixels [x0, x1) of a 1-channel row from its groups (x0 = 0 only: the
 * groups start the row), rounded at bit `shift`; returns the first pixel
 * not done. */
static inline __attribute__((always_inline)) int pfi_c1_u8(const pfi_hrow *r, int x0, int x1, int shift, int split) {
    if (r->c1 == NULL || r->cn != 1 || x0 != 0) return x0;
    const uint8_t *s = r->src, *g = r->c1;
    uint8_t *d = r->buf;
    const size_t stride = (size_t)r->c1_stride;
    const int nc = r->c1_chunks;
    const __m256i half = _mm256_set1_epi32(1 << (shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    int e = 0;
    for (int k = 0; k < r->c1_n && e < x1; k++, e += 8, g += stride)
        pfi_c1_store8(d + e, x1 - e,
                      nc == 0 ? pfi_c1_window_sum(s, g, half, split) : pfi_c1_dots_sum(s, g, nc, half, split), sh);
    return e < x1 ? e : x1;
}
/* torchvision: the axis precision's rounding */
static inline int pfi_x86_c1_tv(const pfi_hrow *r, int x0, int x1) { return pfi_c1_u8(r, x0, x1, r->shift, 0); }
/* Pillow antialias: 22 fraction bits, split weights */
static inline int pfi_x86_c1_aa(const pfi_hrow *r, int x0, int x1) { return pfi_c1_u8(r, x0, x1, PFK_AA_BITS, 1); }

/* OpenCV CUBIC / LANCZOS4 (PFK_H_U8_I32): the windows' int32 sums as
 * they are. */
static inline int pfi_x86_c1_i32(const pfi_hrow *r, int x0, int x1) {
    if (r->c1 == NULL || r->cn != 1 || r->c1_chunks != 0 || x0 != 0) return x0;
    const uint8_t *s = r->src, *g = r->c1;
    int32_t *d = r->buf;
    const size_t stride = (size_t)r->c1_stride;
    int e = 0;
    for (int k = 0; k < r->c1_n && e < x1; k++, e += 8, g += stride) {
        __m256i v = pfi_c1_window_sum(s, g, _mm256_setzero_si256(), 0);
        if (x1 - e >= 8) {
            _mm256_storeu_si256((__m256i *)(void *)(d + e), v);
        } else {
            int32_t tmp[8];
            _mm256_storeu_si256((__m256i *)(void *)tmp, v);
            memcpy(d + e, tmp, sizeof(int32_t) * (size_t)(x1 - e));
        }
    }
    return e < x1 ? e : x1;
}

/* OpenCV LINEAR (int16 sums >> 4): the same, from windows of one tap
 * pair. */
static inline int pfi_x86_c1_lin16(const pfi_hrow *r, int x0, int x1) {
    if (r->c1 == NULL || r->cn != 1 || r->c1_chunks != 0 || x0 != 0) return x0;
    const uint8_t *s = r->src, *g = r->c1;
    int16_t *d = r->buf;
    const size_t stride = (size_t)r->c1_stride;
    int e = 0;
    for (int k = 0; k < r->c1_n && e < x1; k++, e += 8, g += stride) {
        const int32_t *hdr = (const int32_t *)(const void *)g;
        __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)(s + hdr[1]),
                                        (const __m128i *)(const void *)(s + hdr[0]));
        __m256i sum = _mm256_madd_epi16(_mm256_shuffle_epi8(v, _mm256_load_si256((const __m256i *)(const void *)(g + 32))),
                                        _mm256_load_si256((const __m256i *)(const void *)(g + 64)));
        __m256i t = _mm256_packs_epi32(_mm256_srai_epi32(sum, 4), sum); /* per lane: its 4 pixels first */
        __m128i o = _mm256_castsi256_si128(_mm256_permute4x64_epi64(t, 0x08));
        if (x1 - e >= 8) _mm_storeu_si128((__m128i *)(void *)(d + e), o);
        else pfi_c1_put(d + e, o, 2 * pfi_c1_left(e, x1));
    }
    return e < x1 ? e : x1;
}
#endif

#endif
