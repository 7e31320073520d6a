/* x86 pixel kernels of the torchvision u8 horizontal pass (PFK_H_TV_U8)
 * for 3 and 4 channels, over the quad tables of resize_tv_prep.c. torch's
 * taps of a pixel are consecutive source pixels, so one 16-byte load holds
 * four taps of every channel; two byte shuffles make the (tap 2j, tap
 * 2j+1) u16 pairs per channel and pmaddwd against the int16 weight pairs
 * gives tap0*w0 + tap1*w1 per channel in int32: the reference's integer
 * sum (exact in any grouping), then its rounding half, arithmetic shift by
 * the axis precision and clamp (packs/packus). Included by the SSE4.1
 * (one pixel per step) and AVX2 / AVX-512 (two pixels per step) files. */
#ifndef PF_CPU_RESIZE_TV_X86_H
#define PF_CPU_RESIZE_TV_X86_H

#include <immintrin.h>
#include <string.h>

#include "ref/resize_rows.h"

/* Byte shuffles: taps 0,1 (lo) and 2,3 (hi) of a 4-tap quad per channel. */
static inline __m128i pfi_tv_shuf_lo(int cn) {
    return cn == 3 ? _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
                   : _mm_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
}
static inline __m128i pfi_tv_shuf_hi(int cn) {
    return cn == 3 ? _mm_setr_epi8(6, -1, 9, -1, 7, -1, 10, -1, 8, -1, 11, -1, -1, -1, -1, -1)
                   : _mm_setr_epi8(8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1);
}

/* One pixel per step, from element x0 (a pixel boundary) while the quad
 * loads stay in the row and a 4-byte store stays inside [x0, x1). */
static inline int pfi_h_tv_u8_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const __m128i slo = pfi_tv_shuf_lo(cn), shi = pfi_tv_shuf_hi(cn);
    const __m128i half = _mm_set1_epi32(1 << (r->shift - 1)), sh = _mm_cvtsi32_si128(r->shift);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx < end && e + 4 <= x1; dx++, e += cn) {
        const uint8_t *px = s + r->pair_off[dx];
        const int32_t *c = r->pair_coef + (size_t)(dx / 2) * (size_t)r->pair_max * 16 + (size_t)(dx & 1) * 4;
        __m128i acc = half;
        for (int q = 0; q < r->pair_n[dx]; q++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(px + 4 * q * cn));
            __m128i w01 = _mm_loadu_si128((const __m128i *)(const void *)(c + 16 * q));
            __m128i w23 = _mm_loadu_si128((const __m128i *)(const void *)(c + 16 * q + 8));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_shuffle_epi8(v, slo), w01));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_shuffle_epi8(v, shi), w23));
        }
        acc = _mm_sra_epi32(acc, sh);
        int32_t o = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(acc, acc), acc));
        memcpy(d + e, &o, 4);
    }
    return e;
}

#if defined(__AVX2__)
/* Two pixels per step (pixel 2m in the low 128-bit half, 2m+1 in the
 * high one), from an even pixel; the single-pixel kernel continues. */
static inline int pfi_h_tv_u8_pairs_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % (2 * cn) != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const __m256i slo = _mm256_broadcastsi128_si256(pfi_tv_shuf_lo(cn));
    const __m256i shi = _mm256_broadcastsi128_si256(pfi_tv_shuf_hi(cn));
    const __m256i half = _mm256_set1_epi32(1 << (r->shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(r->shift);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx + 1 < end && e + cn + 4 <= x1; dx += 2, e += 2 * cn) {
        const uint8_t *pa = s + r->pair_off[dx], *pb = s + r->pair_off[dx + 1];
        const int32_t *c = r->pair_coef + (size_t)(dx / 2) * (size_t)r->pair_max * 16;
        __m256i acc = half;
        for (int q = 0; q < r->pair_n[dx]; q++) {
            __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)(pb + 4 * q * cn),
                                            (const __m128i *)(const void *)(pa + 4 * q * cn));
            __m256i w01 = _mm256_loadu_si256((const __m256i *)(const void *)(c + 16 * q));
            __m256i w23 = _mm256_loadu_si256((const __m256i *)(const void *)(c + 16 * q + 8));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, slo), w01));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shi), w23));
        }
        acc = _mm256_sra_epi32(acc, sh);
        acc = _mm256_packus_epi16(_mm256_packs_epi32(acc, acc), acc);
        int32_t o0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(acc));
        int32_t o1 = _mm_cvtsi128_si32(_mm256_extracti128_si256(acc, 1));
        memcpy(d + e, &o0, 4);
        memcpy(d + e + cn, &o1, 4);
    }
    return e;
}

static inline int pfi_x86_tv_pixels(const pfi_hrow *r, int x0, int x1) {
    int e = pfi_h_tv_u8_pairs_avx2(r, x0, x1);
    return pfi_h_tv_u8_pixels(r, e, x1);
}
#endif

#endif
