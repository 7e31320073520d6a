/* x86 pixel kernels of the torchvision u8 horizontal pass (PFK_H_TV_U8)
 * for 3 and 4 channels, over the quad tables of resize_tv_prep.c. torch's
 * taps of a pixel are consecutive source pixels, so one 16-byte load holds
 * four taps of every channel; two byte shuffles make the (tap 2j, tap
 * 2j+1) u16 pairs per channel and pmaddwd against the int16 weight pairs
 * gives tap0*w0 + tap1*w1 per channel in int32: the reference's integer
 * sum (exact in any grouping), then its rounding half, arithmetic shift by
 * the axis precision and clamp (packs/packus). Included by the SSE4.1
 * (one pixel per step) and AVX2 / AVX-512 (four, then two pixels per
 * step) files; every level ends the row on a zero-padded copy of its
 * last bytes (pfi_h_tv_u8_finish), where the reference took the pixels
 * whose quad loads would leave the row: on this CPU's random crops that
 * scalar tail was ~14 % of the pass. */
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

/* One pixel's rounded, shifted per-channel sums (int32 lanes): its nq
 * quads read from px (the pixel's first tap) with weights c (its half of
 * the pair's quads). */
static inline __m128i pfi_tv_px_sum(const uint8_t *px, const int32_t *c, int nq, int cn, __m128i slo, __m128i shi,
                                    __m128i half, __m128i sh) {
    __m128i acc = half;
    for (int q = 0; q < nq; q++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(px + 4 * q * cn));
        __m128i w01 = _mm_loadu_si128((const __m128i *)(const void *)(c + 16 * q));
        __m128i w23 = _mm_loadu_si128((const __m128i *)(const void *)(c + 16 * q + 8));
        acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_shuffle_epi8(v, slo), w01));
        acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_shuffle_epi8(v, shi), w23));
    }
    return _mm_sra_epi32(acc, sh);
}
static inline int32_t pfi_tv_px_u8(__m128i acc) {
    return _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(acc, acc), acc));
}

/* One pixel per step, from element x0 (a pixel boundary) while the quad
 * loads stay in the row and a 4-byte store stays inside [x0, x1). The
 * table pointers are copied out first: the u8 stores may alias anything,
 * so fields read through r would be loaded again after every store. */
static inline int pfi_h_tv_u8_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *off = r->pair_off, *nq = r->pair_n, *coef = r->pair_coef;
    const size_t qs = (size_t)r->pair_max * 16;
    const __m128i slo = pfi_tv_shuf_lo(cn), shi = pfi_tv_shuf_hi(cn);
    const __m128i half = _mm_set1_epi32(1 << (r->shift - 1)), sh = _mm_cvtsi32_si128(r->shift);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx < end && e + 4 <= x1; dx++, e += cn) {
        const int32_t *c = coef + (size_t)(dx / 2) * qs + (size_t)(dx & 1) * 4;
        int32_t o = pfi_tv_px_u8(pfi_tv_px_sum(s + off[dx], c, nq[dx], cn, slo, shi, half, sh));
        memcpy(d + e, &o, 4);
    }
    return e;
}

/* win = the n row bytes at src, zero-padded to PFI_TV_TAIL_MAX, in
 * 16-byte moves (a variable-length memcpy of a few dozen bytes compiles
 * to a byte loop, and the zeroing to `rep stos`, both slow for once per
 * row); the last piece is the 16 bytes ending at the row's end when the
 * row has them. */
static inline void pfi_tv_tail_copy(uint8_t *win, const uint8_t *src, int n) {
    const __m128i z = _mm_setzero_si128();
    for (int i = 0; i < PFI_TV_TAIL_MAX; i += 16) _mm_storeu_si128((__m128i *)(void *)(win + i), z);
    int i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(win + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
    if (i == n) return;
    if (n >= 16) {
        _mm_storeu_si128((__m128i *)(void *)(win + n - 16),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + n - 16)));
        return;
    }
    for (; i < n; i++) win[i] = src[i];
}

/* The row's last pixels, from element x0 (a pixel boundary) to x1: those
 * before pair_safe_end read the row, the rest a zero-padded copy of the
 * row's last pair_tail_len bytes (their weights past the real taps are
 * zero, so the pad bytes add nothing: the reference's sums exactly); the
 * last pixel's store is cut to its cn bytes. Without a tail copy it stops
 * at pair_safe_end, as the other pixel kernels do. */
static inline int pfi_h_tv_u8_finish(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *off = r->pair_off, *nq = r->pair_n, *coef = r->pair_coef;
    const size_t qs = (size_t)r->pair_max * 16;
    const __m128i slo = pfi_tv_shuf_lo(cn), shi = pfi_tv_shuf_hi(cn);
    const __m128i half = _mm_set1_epi32(1 << (r->shift - 1)), sh = _mm_cvtsi32_si128(r->shift);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    const int tail = r->pair_tail_len, base = r->pair_tail_base;
    const int dlim = tail > 0 ? r->width / cn : end;
    uint8_t win[PFI_TV_TAIL_MAX];
    if (tail > 0 && x1 > end * cn) pfi_tv_tail_copy(win, s + base, tail);
    for (; dx < dlim && e + cn <= x1; dx++, e += cn) {
        const uint8_t *px = dx < end ? s + off[dx] : win + (off[dx] - base);
        const int32_t *c = coef + (size_t)(dx / 2) * qs + (size_t)(dx & 1) * 4;
        int32_t o = pfi_tv_px_u8(pfi_tv_px_sum(px, c, nq[dx], cn, slo, shi, half, sh));
        if (e + 4 <= x1) memcpy(d + e, &o, 4);
        else memcpy(d + e, &o, 3); /* the row's last 3-channel pixel */
    }
    return e;
}

static inline int pfi_sse4_tv_pixels(const pfi_hrow *r, int x0, int x1) {
    return pfi_h_tv_u8_finish(r, pfi_h_tv_u8_pixels(r, x0, x1), x1);
}

#if defined(__AVX2__)
/* Pixels 2m (low half) and 2m+1 (high half): their nq quads, summed
 * from the rounding half, shifted. */
static inline __m256i pfi_tv_pair_sum_avx2(const uint8_t *pa, const uint8_t *pb, const int32_t *c, int nq, int cn,
                                           __m256i slo, __m256i shi, __m256i half, __m128i sh) {
    __m256i acc = half;
    for (int q = 0; q < nq; q++) {
        __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)(pb + 4 * q * cn),
                                        (const __m128i *)(const void *)(pa + 4 * q * cn));
        const __m256i *w = (const __m256i *)(const void *)(c + 16 * q);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, slo), _mm256_loadu_si256(w)));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shi), _mm256_loadu_si256(w + 1)));
    }
    return _mm256_sra_epi32(acc, sh);
}

/* The same for two rows (pa2 / pb2: the second row's taps), sharing each
 * quad's weight loads. */
static inline void pfi_tv_pair_sum2_avx2(const uint8_t *pa, const uint8_t *pb, ptrdiff_t row2, const int32_t *c,
                                         int nq, int cn, __m256i slo, __m256i shi, __m256i half, __m128i sh,
                                         __m256i *o1, __m256i *o2) {
    __m256i acc = half, acc2 = half;
    for (int q = 0; q < nq; q++) {
        const uint8_t *qa = pa + 4 * q * cn, *qb = pb + 4 * q * cn;
        __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)qb, (const __m128i *)(const void *)qa);
        __m256i v2 = _mm256_loadu2_m128i((const __m128i *)(const void *)(qb + row2),
                                         (const __m128i *)(const void *)(qa + row2));
        const __m256i *w = (const __m256i *)(const void *)(c + 16 * q);
        __m256i w01 = _mm256_loadu_si256(w), w23 = _mm256_loadu_si256(w + 1);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, slo), w01));
        acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_shuffle_epi8(v2, slo), w01));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shi), w23));
        acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_shuffle_epi8(v2, shi), w23));
    }
    *o1 = _mm256_sra_epi32(acc, sh);
    *o2 = _mm256_sra_epi32(acc2, sh);
}

/* Four pixels' bytes from their pair sums a = [2m | 2m+1] and
 * b = [2m+2 | 2m+3]: packed to [2m | 2m+2] and [2m+1 | 2m+3] (int16,
 * then u8), put in order by one dword permute, and for 3 channels the
 * 4th byte of each pixel dropped (the 16-byte store's last 4 bytes are
 * the next pixel's, written again by the next step). */
static inline __m128i pfi_tv_pack_shuf(int cn) {
    return cn == 3 ? _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1)
                   : _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
static inline void pfi_tv_store4(uint8_t *d, __m256i a, __m256i b, __m256i order, __m128i pack3) {
    __m256i t = _mm256_packs_epi32(a, b);
    t = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(t, t), order);
    _mm_storeu_si128((__m128i *)(void *)d, _mm_shuffle_epi8(_mm256_castsi256_si128(t), pack3));
}

/* Four pixels per step: two pixel pairs, pixel 2m in the low 128-bit
 * half of its pair's accumulator and 2m+1 in the high one. The two
 * accumulators pack into one vector of the four pixels' bytes (one
 * cross-lane dword permute puts them in order; a byte shuffle drops the
 * 4th byte of 3-channel pixels), so a step ends in one 16-byte store
 * where the 2-pixel step needs two 4-byte ones. From a pixel that is a
 * multiple of 4; the stores stay inside [x0, x1). */
static inline int pfi_h_tv_u8_quads_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % (4 * cn) != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *off = r->pair_off, *nq = r->pair_n, *coef = r->pair_coef;
    const size_t qs = (size_t)r->pair_max * 16;
    const __m256i slo = _mm256_broadcastsi128_si256(pfi_tv_shuf_lo(cn));
    const __m256i shi = _mm256_broadcastsi128_si256(pfi_tv_shuf_hi(cn));
    const __m256i half = _mm256_set1_epi32(1 << (r->shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(r->shift);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m128i pack3 = pfi_tv_pack_shuf(cn);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx + 3 < end && e + 16 <= x1; dx += 4, e += 4 * cn) {
        const int32_t *ca = coef + (size_t)(dx / 2) * qs;
        __m256i a = pfi_tv_pair_sum_avx2(s + off[dx], s + off[dx + 1], ca, nq[dx], cn, slo, shi, half, sh);
        __m256i b = pfi_tv_pair_sum_avx2(s + off[dx + 2], s + off[dx + 3], ca + qs, nq[dx + 2], cn, slo, shi, half, sh);
        pfi_tv_store4(d + e, a, b, order, pack3);
    }
    return e;
}

/* As pfi_h_tv_u8_quads_avx2 over src and src2 at once (the executor's
 * two-row calls): each step's offsets, quad counts and weights are loaded
 * once for both rows. */
static inline int pfi_h_tv_u8_quads2_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % (4 * cn) != 0) return x0;
    const uint8_t *s = r->src;
    const ptrdiff_t row2 = (const uint8_t *)r->src2 - s;
    uint8_t *d = r->buf, *d2 = r->buf2;
    const int32_t *off = r->pair_off, *nq = r->pair_n, *coef = r->pair_coef;
    const size_t qs = (size_t)r->pair_max * 16;
    const __m256i slo = _mm256_broadcastsi128_si256(pfi_tv_shuf_lo(cn));
    const __m256i shi = _mm256_broadcastsi128_si256(pfi_tv_shuf_hi(cn));
    const __m256i half = _mm256_set1_epi32(1 << (r->shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(r->shift);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m128i pack3 = pfi_tv_pack_shuf(cn);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx + 3 < end && e + 16 <= x1; dx += 4, e += 4 * cn) {
        const int32_t *ca = coef + (size_t)(dx / 2) * qs;
        __m256i a, b, a2, b2;
        pfi_tv_pair_sum2_avx2(s + off[dx], s + off[dx + 1], row2, ca, nq[dx], cn, slo, shi, half, sh, &a, &a2);
        pfi_tv_pair_sum2_avx2(s + off[dx + 2], s + off[dx + 3], row2, ca + qs, nq[dx + 2], cn, slo, shi, half, sh, &b,
                              &b2);
        pfi_tv_store4(d + e, a, b, order, pack3);
        pfi_tv_store4(d2 + e, a2, b2, order, pack3);
    }
    return e;
}

/* Two pixels per step (pixel 2m in the low 128-bit half, 2m+1 in the
 * high one), from an even pixel; the single-pixel kernel continues. */
static inline int pfi_h_tv_u8_pairs_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % (2 * cn) != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *off = r->pair_off, *nq = r->pair_n, *coef = r->pair_coef;
    const size_t qs = (size_t)r->pair_max * 16;
    const __m256i slo = _mm256_broadcastsi128_si256(pfi_tv_shuf_lo(cn));
    const __m256i shi = _mm256_broadcastsi128_si256(pfi_tv_shuf_hi(cn));
    const __m256i half = _mm256_set1_epi32(1 << (r->shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(r->shift);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx + 1 < end && e + cn + 4 <= x1; dx += 2, e += 2 * cn) {
        __m256i acc = pfi_tv_pair_sum_avx2(s + off[dx], s + off[dx + 1], coef + (size_t)(dx / 2) * qs, nq[dx], cn,
                                           slo, shi, half, sh);
        acc = _mm256_packus_epi16(_mm256_packs_epi32(acc, acc), acc);
        int32_t o0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(acc));
        int32_t o1 = _mm_cvtsi128_si32(_mm256_extracti128_si256(acc, 1));
        memcpy(d + e, &o0, 4);
        memcpy(d + e + cn, &o1, 4);
    }
    return e;
}

/* Four, then two, then one pixel per step, then the row's end. With a
 * second row (src2, only for whole-row tables: the executor's two-row
 * calls), the four-pixel steps take both rows, and each row's end is
 * done on its own; both rows end at the same element. */
static inline int pfi_x86_tv_row(const pfi_hrow *r, int e, int x1) {
    e = pfi_h_tv_u8_pairs_avx2(r, e, x1);
    e = pfi_h_tv_u8_pixels(r, e, x1);
    return pfi_h_tv_u8_finish(r, e, x1);
}
static inline int pfi_x86_tv_pixels(const pfi_hrow *r, int x0, int x1) {
    if (r->src2 == NULL) return pfi_x86_tv_row(r, pfi_h_tv_u8_quads_avx2(r, x0, x1), x1);
    int e = pfi_h_tv_u8_quads2_avx2(r, x0, x1);
    pfi_hrow r2 = *r;
    r2.src = r->src2;
    r2.buf = r->buf2;
    r2.src2 = NULL;
    r2.buf2 = NULL;
    pfi_x86_tv_row(&r2, e, x1);
    return pfi_x86_tv_row(r, e, x1);
}
#endif

#endif
