/* x86 pixel kernels of the torchvision u8 horizontal pass (PFK_H_TV_U8)
 * for 3 and 4 channels, over the quad tables of resize_tv_prep.c. torch's
 * taps of a pixel are consecutive source pixels, so one 16-byte load holds
 * four taps of every channel; two byte shuffles make the (tap 2j, tap
 * 2j+1) u16 pairs per channel and pmaddwd against the int16 weight pairs
 * gives tap0*w0 + tap1*w1 per channel in int32: the reference's integer
 * sum (exact in any grouping), then its rounding half, arithmetic shift by
 * the axis precision and clamp (packs/packus). Included by the SSE4.1
 * (one pixel per step) and AVX2 / AVX-512 (four pixels per step, one or
 * two rows) files.
 *
 * The pixels from pair_tail_first on read a zero-padded copy of the
 * row's last bytes (pfi_hrow.pair_tail_*) with the same steps, where the
 * scalar reference used to take every pixel whose quad loads would leave
 * the row: on this CPU's random crops that tail was ~14 % of the pass. A
 * source is a base pointer and an adjustment: pixel dx's taps are at
 * src + (pair_off[dx] - adj) (adj = 0 on the row, the copy's start in
 * it on the copy). The table pointers are copied out of the row struct
 * first: the u8 stores may alias anything, so fields read through it
 * would be loaded again after every store. */
#ifndef PF_CPU_RESIZE_TV_X86_H
#define PF_CPU_RESIZE_TV_X86_H

#include <immintrin.h>
#include <string.h>

#include "cpu/x86/resize_x86_tail.h"
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

/* The quad tables, read once per call. */
typedef struct pfi_tv_tabs {
    const int32_t *off, *nq, *coef;
    size_t qs;   /* int32 per pixel pair's quads */
    int cn, shift;
} pfi_tv_tabs;
static inline pfi_tv_tabs pfi_tv_tabs_of(const pfi_hrow *r) {
    pfi_tv_tabs t = {r->pair_off, r->pair_n, r->pair_coef, (size_t)r->pair_max * 16, r->cn, r->shift};
    return t;
}
/* The pixel kernels take rows of 3/4 channels with quad tables, from a
 * pixel boundary. */
static inline int pfi_tv_takes(const pfi_hrow *r, int x0) {
    return r->pair_off != NULL && (r->cn == 3 || r->cn == 4) && x0 % r->cn == 0;
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

/* Single pixels [dx, dlim) from src (see the file comment) into d from
 * element e, while the element fits before x1; a pixel whose 4-byte store
 * would pass x1 stores its 3 bytes. Returns the next element. */
static inline int pfi_tv_singles(const pfi_tv_tabs *t, const uint8_t *src, int32_t adj, uint8_t *d, int dx, int dlim,
                                 int e, int x1) {
    const int cn = t->cn;
    const __m128i slo = pfi_tv_shuf_lo(cn), shi = pfi_tv_shuf_hi(cn);
    const __m128i half = _mm_set1_epi32(1 << (t->shift - 1)), sh = _mm_cvtsi32_si128(t->shift);
    for (; dx < dlim && e + cn <= x1; dx++, e += cn) {
        const int32_t *c = t->coef + (size_t)(dx / 2) * t->qs + (size_t)(dx & 1) * 4;
        int32_t o = pfi_tv_px_u8(pfi_tv_px_sum(src + (t->off[dx] - adj), c, t->nq[dx], cn, slo, shi, half, sh));
        if (e + 4 <= x1) memcpy(d + e, &o, 4);
        else memcpy(d + e, &o, 3); /* the row's last 3-channel pixel */
    }
    return e;
}

/* One pixel per step over the whole row: the row up to pair_tail_first,
 * then its copy (or a stop there when there is none). */
static inline int pfi_sse4_tv_pixels(const pfi_hrow *r, int x0, int x1) {
    if (!pfi_tv_takes(r, x0)) return x0;
    const pfi_tv_tabs t = pfi_tv_tabs_of(r);
    const uint8_t *s = r->src;
    int dx = x0 / t.cn, first = r->pair_tail_first;
    int e = pfi_tv_singles(&t, s, 0, r->buf, dx, first, x0, x1);
    if (r->pair_tail_len <= 0 || e != first * t.cn || e >= x1) return e;
    uint8_t win[PFI_ROW_WIN_BYTES];
    pfi_row_tail_copy(win, s + r->pair_tail_base, r->pair_tail_len, r->pair_tail_reach);
    return pfi_tv_singles(&t, win, r->pair_tail_base, r->buf, first, r->width / t.cn, e, x1);
}

#if defined(__AVX2__)
/* Pixels 2m (low half) and 2m+1 (high half): their nq quads, summed from
 * the rounding half and shifted, for one row (pa, pb) and, when two is
 * set, also for the row `row2` bytes further (o2); each quad's weights
 * are loaded once for both. */
static inline void pfi_tv_pair_sums_avx2(const uint8_t *pa, const uint8_t *pb, int two, ptrdiff_t row2,
                                         const int32_t *c, int nq, int cn, __m256i slo, __m256i shi, __m256i half,
                                         __m128i sh, __m256i *o1, __m256i *o2) {
    __m256i acc = half, acc2 = half;
    for (int q = 0; q < nq; q++) {
        const uint8_t *qa = pa + 4 * q * cn, *qb = pb + 4 * q * cn;
        const __m256i *w = (const __m256i *)(const void *)(c + 16 * q);
        __m256i w01 = _mm256_loadu_si256(w), w23 = _mm256_loadu_si256(w + 1);
        __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)qb, (const __m128i *)(const void *)qa);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, slo), w01));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shi), w23));
        if (two) {
            __m256i v2 = _mm256_loadu2_m128i((const __m128i *)(const void *)(qb + row2),
                                             (const __m128i *)(const void *)(qa + row2));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_shuffle_epi8(v2, slo), w01));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_shuffle_epi8(v2, shi), w23));
        }
    }
    *o1 = _mm256_sra_epi32(acc, sh);
    if (two) *o2 = _mm256_sra_epi32(acc2, sh);
}

/* Four pixels' bytes from their pair sums a = [2m | 2m+1] and
 * b = [2m+2 | 2m+3]: packed to [2m | 2m+2] and [2m+1 | 2m+3] (int16,
 * then u8), put in order by one dword permute, and for 3 channels the
 * 4th byte of each pixel dropped. Stored as 16 bytes when they fit
 * before x1 (for 3 channels the last 4 are the next pixel's, written
 * again by the next step), else as exactly the pixels' 12. */
static inline __m128i pfi_tv_pack_shuf(int cn) {
    return cn == 3 ? _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1)
                   : _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
static inline void pfi_tv_store4(uint8_t *d, int room, __m256i a, __m256i b, __m256i order, __m128i pack) {
    __m256i t = _mm256_packs_epi32(a, b);
    t = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(t, t), order);
    __m128i v = _mm_shuffle_epi8(_mm256_castsi256_si128(t), pack);
    if (room >= 16) {
        _mm_storeu_si128((__m128i *)(void *)d, v);
    } else {
        _mm_storel_epi64((__m128i *)(void *)d, v);
        int32_t hi = _mm_extract_epi32(v, 2);
        memcpy(d + 8, &hi, 4);
    }
}

/* Four pixels per step, [dx, dlim) from src (and, when d2 is set, the
 * same pixels of the row row2 bytes further into d2), from element e
 * while the four fit before x1; dx a multiple of 4 (the tables' pixel
 * pairs). Returns the next pixel. */
static inline __attribute__((always_inline)) int pfi_tv_quads_body(const pfi_tv_tabs *t, const uint8_t *src,
                                                                   int32_t adj, ptrdiff_t row2, uint8_t *d,
                                                                   uint8_t *d2, int dx, int dlim, int e, int x1,
                                                                   int one) {
    const int cn = t->cn, two = d2 != NULL;
    const __m256i slo = _mm256_broadcastsi128_si256(pfi_tv_shuf_lo(cn));
    const __m256i shi = _mm256_broadcastsi128_si256(pfi_tv_shuf_hi(cn));
    const __m256i half = _mm256_set1_epi32(1 << (t->shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(t->shift);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m128i pack = pfi_tv_pack_shuf(cn);
    const int32_t *off = t->off;
    for (; dx + 3 < dlim && e + 4 * cn <= x1; dx += 4, e += 4 * cn) {
        const int32_t *ca = t->coef + (size_t)(dx / 2) * t->qs;
        __m256i a, b, a2 = half, b2 = half;
        pfi_tv_pair_sums_avx2(src + (off[dx] - adj), src + (off[dx + 1] - adj), two, row2, ca,
                              one ? 1 : t->nq[dx], cn, slo, shi, half, sh, &a, &a2);
        pfi_tv_pair_sums_avx2(src + (off[dx + 2] - adj), src + (off[dx + 3] - adj), two, row2, ca + t->qs,
                              one ? 1 : t->nq[dx + 2], cn, slo, shi, half, sh, &b, &b2);
        pfi_tv_store4(d + e, x1 - e, a, b, order, pack);
        if (two) pfi_tv_store4(d2 + e, x1 - e, a2, b2, order, pack);
    }
    return dx;
}
/* Rows of at most 4 taps a pixel (bilinear and bicubic without
 * antialias, mild antialiased downscales) have one quad a pixel: that
 * body is compiled without the quad loop (measured: the loop's counters
 * and spills took more than its one pass's work). */
static inline int pfi_tv_quads_avx2(const pfi_tv_tabs *t, const uint8_t *src, int32_t adj, ptrdiff_t row2,
                                    uint8_t *d, uint8_t *d2, int dx, int dlim, int e, int x1) {
    if (t->qs == 16) return pfi_tv_quads_body(t, src, adj, row2, d, d2, dx, dlim, e, x1, 1);
    return pfi_tv_quads_body(t, src, adj, row2, d, d2, dx, dlim, e, x1, 0);
}

/* The whole row from x0 (an even pixel, else the single-pixel kernel):
 * four pixels per step up to pair_tail_first, single pixels for the
 * (< 4) left before it, then the same over the row-end copy. With a
 * second row (src2, only for whole-row tables: the executor's two-row
 * calls) the four-pixel steps take both rows (their copies WIN bytes
 * apart); both rows end at the same element. */
static inline int pfi_x86_tv_pixels(const pfi_hrow *r, int x0, int x1) {
    if (!pfi_tv_takes(r, x0)) return x0;
    if (x0 % (2 * r->cn) != 0) return pfi_sse4_tv_pixels(r, x0, x1);
    const pfi_tv_tabs t = pfi_tv_tabs_of(r);
    const int cn = t.cn, first = r->pair_tail_first, dw = r->width / cn;
    const uint8_t *s = r->src, *s2 = r->src2;
    uint8_t *d = r->buf, *d2 = s2 != NULL ? r->buf2 : NULL;
    int dx = pfi_tv_quads_avx2(&t, s, 0, s2 != NULL ? s2 - s : 0, d, d2, x0 / cn, first, x0, x1);
    int e = pfi_tv_singles(&t, s, 0, d, dx, first, dx * cn, x1);
    if (d2 != NULL) pfi_tv_singles(&t, s2, 0, d2, dx, first, dx * cn, x1);
    if (r->pair_tail_len <= 0 || e != first * cn || e >= x1) return e;
    enum { WIN = PFI_ROW_WIN_BYTES };
    uint8_t win[2 * WIN];
    const int32_t base = r->pair_tail_base;
    pfi_row_tail_copy(win, s + base, r->pair_tail_len, r->pair_tail_reach);
    if (d2 != NULL) pfi_row_tail_copy(win + WIN, s2 + base, r->pair_tail_len, r->pair_tail_reach);
    int dq = pfi_tv_quads_avx2(&t, win, base, WIN, d, d2, first, dw, e, x1);
    if (d2 != NULL) pfi_tv_singles(&t, win + WIN, base, d2, dq, dw, dq * cn, x1);
    return pfi_tv_singles(&t, win, base, d, dq, dw, dq * cn, x1);
}
#endif

#endif
