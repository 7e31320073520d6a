/* AVX2 helper shared by resize_avx2.c and resize_avx512.c: the antialiased
 * u8 horizontal pass for 3/4 channels, two taps per step. The 16 source
 * bytes at a tap pair are broadcast to both 128-bit halves, a byte shuffle
 * interleaves tap 2j and 2j+1 per channel as 16-bit lanes, and one
 * vpmaddwd against [hi pair x4 | lo pair x4] gives the high- and low-part
 * sums of the 22-bit weights (w = hi * 2048 + lo). The final
 * (hi << 11) + lo + 2^21 is the reference's integer sum, exactly. */
#ifndef PF_CPU_RESIZE_X86_PAIRS_H
#define PF_CPU_RESIZE_X86_PAIRS_H

#include <immintrin.h>

#include "cpu/x86/resize_x86_pixel.h"
#include "cpu/x86/resize_x86_tail.h"
#include "kernels/resize_math.h"
#include "ref/resize_rows.h"

static inline int pfi_h_aa_u8_pairs_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const __m256i shuf = cn == 3
        ? _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1,
                           0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
        : _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1,
                           0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m128i half = _mm_set1_epi32(1 << (PFK_AA_BITS - 1));
    int dx = x0 / cn, end = r->pair_safe_end;
    int e = x0;
    for (; dx < end && e + 4 <= x1; dx++, e += cn) {
        const uint8_t *px = s + r->pair_off[dx];
        const __m256i *c = (const __m256i *)(const void *)(r->pair_coef + (size_t)dx * (size_t)r->pair_max * 8);
        __m256i acc = _mm256_setzero_si256();
        int n = r->pair_n[dx];
        for (int j = 0; j < n; j++, px += 2 * cn) {
            __m256i v = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)px));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shuf), _mm256_loadu_si256(c + j)));
        }
        __m128i hi = _mm256_castsi256_si128(acc), lo = _mm256_extracti128_si256(acc, 1);
        __m128i ss = _mm_add_epi32(_mm_add_epi32(_mm_slli_epi32(hi, 11), lo), half);
        ss = _mm_srai_epi32(ss, PFK_AA_BITS);
        int32_t o = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(ss, ss), ss));
        memcpy(d + e, &o, 4);
    }
    return e;
}

/* LINEAR u8 horizontal, 3/4 channels, two output pixels per AVX2 step:
 * as pfi_h_u8_pair_pixels (resize_x86_pixel.h) with one pixel per 128-bit
 * half, driven by the per-pixel tables (offsets, 4x-replicated weights;
 * adjacency decided once when the tables are built). The int32 and the
 * int16 (LIN16) kernels differ only in how they store the sums, so the
 * step itself is one function. */
static inline __m256i pfi_pair_shuf_avx2(int cn) {
    return cn == 3
        ? _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1,
                           0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
        : _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1,
                           0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
}
/* Output pixels dx (low half) and dx + 1 (high half): per-channel sums. */
static inline __m256i pfi_pair_step_avx2(const pfi_hrow *r, int dx, __m256i shuf) {
    const uint8_t *s = r->src;
    const int32_t *po = r->pair_off;
    __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)(s + po[dx]));
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(s + po[dx + 1]));
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
    __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(r->pair_coef + (size_t)dx * 4));
    return _mm256_madd_epi16(_mm256_shuffle_epi8(v, shuf), w);
}

static inline int pfi_h_u8_pair_pixels_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->ksize != 2 || r->pair_off == NULL || x0 % cn != 0) return x0;
    int32_t *d = r->buf;
    const __m256i shuf = pfi_pair_shuf_avx2(cn);
    int dx = x0 / cn, end = r->pair_safe_end;
    int e = x0;
    for (; dx + 1 < end && e + cn + 4 <= x1; dx += 2, e += 2 * cn) {
        __m256i t = pfi_pair_step_avx2(r, dx, shuf);
        _mm_storeu_si128((__m128i *)(void *)(d + e), _mm256_castsi256_si128(t));
        _mm_storeu_si128((__m128i *)(void *)(d + e + cn), _mm256_extracti128_si256(t, 1));
    }
    return e;
}

/* PFK_H_U8_LIN16 over the per-pixel tables, from explicit sources: pixel
 * dx's taps at src + (pair_off[dx] - adj) (adj = 0 on the row, the copy's
 * start in it on the row-end copy). The tables are read through locals:
 * the stores may alias the row struct, whose fields would otherwise be
 * loaded again after each of them. */
typedef struct pfi_lin16_tabs {
    const int32_t *off, *coef;
    int cn;
} pfi_lin16_tabs;

/* Four output pixels per step from dx (pixels [dx, dlim), while they fit
 * before x1): the two pixel pairs' sums pack into one vector, one qword
 * permute puts the pixels in order, and for 3 channels a byte shuffle
 * closes each half's gap: two 16-byte stores (one 32-byte one for 4
 * channels) where the 2-pixel step needs two per pair. Returns the next
 * pixel. */
static inline int pfi_lin16_quads_avx2(const pfi_lin16_tabs *t, const uint8_t *src, int32_t adj, int16_t *d, int dx,
                                       int dlim, int e, int x1) {
    const int cn = t->cn;
    const int32_t *po = t->off, *pc = t->coef;
    const __m256i shuf = pfi_pair_shuf_avx2(cn);
    const __m256i close = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1,
                                           0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1);
    /* 3 channels: the second half's store ends 2 elements past the 4 pixels */
    const int span = cn == 3 ? 14 : 16;
    for (; dx + 3 < dlim && e + span <= x1; dx += 4, e += 4 * cn) {
        __m256i v[2];
        for (int h = 0; h < 2; h++) {
            __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)(src + (po[dx + 2 * h] - adj)));
            __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(src + (po[dx + 2 * h + 1] - adj)));
            __m256i ab = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
            __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(pc + (size_t)(dx + 2 * h) * 4));
            v[h] = _mm256_srai_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(ab, shuf), w), 4);
        }
        /* [dx | dx+2] [dx+1 | dx+3] as int16 qwords, then in pixel order */
        __m256i q = _mm256_permute4x64_epi64(_mm256_packs_epi32(v[0], v[1]), 0xD8);
        if (cn == 4) {
            _mm256_storeu_si256((__m256i *)(void *)(d + e), q);
        } else {
            q = _mm256_shuffle_epi8(q, close);
            _mm_storeu_si128((__m128i *)(void *)(d + e), _mm256_castsi256_si128(q));
            _mm_storeu_si128((__m128i *)(void *)(d + e + 6), _mm256_extracti128_si256(q, 1));
        }
    }
    return dx;
}

/* Single pixels [dx, dlim) while they fit before x1; a pixel whose 8-byte
 * store would pass x1 stores its 6 bytes. Returns the next element. */
static inline int pfi_lin16_singles(const pfi_lin16_tabs *t, const uint8_t *src, int32_t adj, int16_t *d, int dx,
                                    int dlim, int e, int x1) {
    const int cn = t->cn;
    const __m128i shuf = _mm256_castsi256_si128(pfi_pair_shuf_avx2(cn));
    for (; dx < dlim && e + cn <= x1; dx++, e += cn) {
        __m128i px = _mm_loadl_epi64((const __m128i *)(const void *)(src + (t->off[dx] - adj)));
        __m128i v = _mm_madd_epi16(_mm_shuffle_epi8(px, shuf), _mm_set1_epi32(t->coef[(size_t)dx * 4]));
        v = _mm_packs_epi32(_mm_srai_epi32(v, 4), v);
        if (e + 4 <= x1) {
            _mm_storel_epi64((__m128i *)(void *)(d + e), v);
        } else { /* the row's last 3-channel pixel */
            int64_t q = _mm_cvtsi128_si64(v);
            memcpy(d + e, &q, 6);
        }
    }
    return e;
}

/* LIN16 from element x0 (a pixel boundary): four pixels per step up to
 * pair_tail_first, single pixels for the (< 4) left before it, then the
 * same over the row-end copy. Without a copy, the element-table pixel
 * kernel continues from pair_safe_end as before. */
static inline int pfi_x86_pair16_pixels(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->ksize != 2 || r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const pfi_lin16_tabs t = {r->pair_off, r->pair_coef, cn};
    const uint8_t *s = r->src;
    int16_t *d = r->buf;
    const int first = r->pair_tail_first;
    int dx = pfi_lin16_quads_avx2(&t, s, 0, d, x0 / cn, first, x0, x1);
    int e = pfi_lin16_singles(&t, s, 0, d, dx, first, dx * cn, x1);
    if (r->pair_tail_len <= 0) return r->pair_whole ? e : pfi_h_u8_pair16_pixels(r, e, x1);
    if (e != first * cn || e >= x1) return e;
    uint8_t win[PFI_ROW_WIN_BYTES];
    const int32_t base = r->pair_tail_base, dw = r->width / cn;
    pfi_row_tail_copy(win, s + base, r->pair_tail_len, r->pair_tail_reach);
    int dq = pfi_lin16_quads_avx2(&t, win, base, d, first, dw, e, x1);
    return pfi_lin16_singles(&t, win, base, d, dq, dw, dq * cn, x1);
}

/* The per-pixel entry points the AVX2 and AVX-512 kernel tables use:
 * AVX2 steps where the tables allow, SSE4.1 single steps after. */
static inline int pfi_x86_aa_pixels(const pfi_hrow *r, int x0, int x1) {
    int e = pfi_h_aa_u8_pairs_avx2(r, x0, x1);
    return e != x0 ? e : pfi_h_aa_u8_pixels(r, x0, x1);
}
static inline int pfi_x86_pair_pixels(const pfi_hrow *r, int x0, int x1) {
    int e = pfi_h_u8_pair_pixels_avx2(r, x0, x1);
    return pfi_h_u8_pair_pixels(r, e, x1);
}


#endif
