/* AVX-512 VBMI resize kernels (compiled with -mavx512vbmi for this file
 * only; installed only when CPUID reports VBMI):
 *  - LINEAR u8 horizontal (PFK_H_U8_LIN16) for any channel count: per 16
 *    output elements, vpermb from one to PFI_HBLOCK_WIN 64-byte source
 *    windows builds the (tap0, tap1) u16 pairs, one vpmaddwd applies the
 *    elements' weight pairs, >> 4 and a narrowing store give the int16
 *    row. The blocks (pfi_hblock, built with the plan) already decide
 *    which window holds each tap, so there are no per-element checks and
 *    no gathers; where the blocks stop (a strong downscale, the row end)
 *    the AVX-512 per-pixel / gather kernel continues.
 *  - torchvision u8 horizontal (PFK_H_TV_U8): the same idea per tap pair
 *    over one or two 128-byte windows (h_tv_u8_vbmi below), and its
 *    vertical pass with the row pairs' bytes interleaved by vpermi2b;
 *  - u8 2x2 area-fast cells (1/3/4 channels): vpermb puts each output
 *    element's two bytes side by side, vpmaddubsw with ones sums them,
 *    (row0 + row1 + 2) >> 2 in int16: OpenCV's (a + b + c + d + 2) >> 2. */
#include <immintrin.h>

#include "cpu/resize_exec.h"
#include "pixflow/core.h"

static inline __attribute__((always_inline)) int lin16_blocks(const pfi_hrow *r, int b0, int b1, int nw) {
    const uint8_t *s = r->src;
    int16_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    for (int b = b0; b < b1; b++) {
        const pfi_hblock *B = r->blk + b;
        __m512i idx = _mm512_load_si512((const void *)B->idx);
        __m512i v = _mm512_maskz_permutexvar_epi8(B->mask[0], idx, _mm512_loadu_si512((const void *)(s + B->base[0])));
        for (int w = 1; w < nw; w++)
            v = _mm512_mask_permutexvar_epi8(v, B->mask[w], idx, _mm512_loadu_si512((const void *)(s + B->base[w])));
        __m512i t = _mm512_madd_epi16(v, _mm512_loadu_si512((const void *)(cw + (size_t)b * 16)));
        _mm256_storeu_si256((__m256i *)(void *)(d + (size_t)b * 16), _mm512_cvtepi32_epi16(_mm512_srai_epi32(t, 4)));
    }
    return b1 > b0 ? b1 * 16 : b0 * 16;
}

/* Two rows, blocks interleaved. */
static inline __attribute__((always_inline)) int lin16_blocks2(const pfi_hrow *r, int b0, int b1, int nw) {
    const uint8_t *s = r->src, *s2 = r->src2;
    int16_t *d = r->buf, *d2 = r->buf2;
    const int32_t *cw = r->e_coef;
    for (int b = b0; b < b1; b++) {
        const pfi_hblock *B = r->blk + b;
        __m512i idx = _mm512_load_si512((const void *)B->idx);
        __m512i v = _mm512_maskz_permutexvar_epi8(B->mask[0], idx, _mm512_loadu_si512((const void *)(s + B->base[0])));
        __m512i u = _mm512_maskz_permutexvar_epi8(B->mask[0], idx, _mm512_loadu_si512((const void *)(s2 + B->base[0])));
        for (int w = 1; w < nw; w++) {
            v = _mm512_mask_permutexvar_epi8(v, B->mask[w], idx, _mm512_loadu_si512((const void *)(s + B->base[w])));
            u = _mm512_mask_permutexvar_epi8(u, B->mask[w], idx, _mm512_loadu_si512((const void *)(s2 + B->base[w])));
        }
        __m512i c = _mm512_loadu_si512((const void *)(cw + (size_t)b * 16));
        __m512i t = _mm512_srai_epi32(_mm512_madd_epi16(v, c), 4), t2 = _mm512_srai_epi32(_mm512_madd_epi16(u, c), 4);
        _mm256_storeu_si256((__m256i *)(void *)(d + (size_t)b * 16), _mm512_cvtepi32_epi16(t));
        _mm256_storeu_si256((__m256i *)(void *)(d2 + (size_t)b * 16), _mm512_cvtepi32_epi16(t2));
    }
    return b1 > b0 ? b1 * 16 : b0 * 16;
}

static int h_u8_lin16_vbmi(const pfi_hrow *r, int x0, int x1) {
    int e = x0;
    if (r->blk != NULL && x0 % 16 == 0) {
        int b0 = x0 / 16, b1 = x1 / 16 < r->blk_n ? x1 / 16 : r->blk_n;
        if (b1 > b0 && r->src2 == NULL) {
            switch (r->blk_win) { /* constant window counts: the inner loop unrolls */
            case 1: e = lin16_blocks(r, b0, b1, 1); break;
            case 2: e = lin16_blocks(r, b0, b1, 2); break;
            case 3: e = lin16_blocks(r, b0, b1, 3); break;
            default: e = lin16_blocks(r, b0, b1, PFI_HBLOCK_WIN); break;
            }
        } else if (b1 > b0) {
            switch (r->blk_win) {
            case 1: e = lin16_blocks2(r, b0, b1, 1); break;
            case 2: e = lin16_blocks2(r, b0, b1, 2); break;
            case 3: e = lin16_blocks2(r, b0, b1, 3); break;
            default: e = lin16_blocks2(r, b0, b1, PFI_HBLOCK_WIN); break;
            }
        }
    }
    /* the blocks carry their own bounds; the per-pixel / gather kernel
     * stops at safe_end (for both rows: where it stops depends only on
     * the tables, so both return the same element) */
    int lim = x1 < r->safe_end ? x1 : r->safe_end;
    if (e >= lim) return e;
    if (r->src2 != NULL) {
        pfi_hrow r2 = *r;
        r2.src = r->src2;
        r2.buf = r->buf2;
        r2.src2 = NULL;
        r2.buf2 = NULL;
        pfi_rz_h_u8_lin16_avx512(&r2, e, lim);
    }
    return pfi_rz_h_u8_lin16_avx512(r, e, lim);
}

static int area2_u8_vbmi(const uint8_t *r0, const uint8_t *r1, uint8_t *d, int cn, int x0, int x1) {
    if (cn != 1 && cn != 3 && cn != 4) return x0;
    /* per step: 64 source bytes per row -> 32 outputs (30 = 10 pixels for 3 channels) */
    int step = cn == 3 ? 10 : 32 / cn, nout = step * cn;
    uint8_t ib[64] = {0};
    for (int j = 0; j < nout; j++) {
        ib[2 * j] = (uint8_t)(2 * (j / cn) * cn + j % cn);
        ib[2 * j + 1] = (uint8_t)(ib[2 * j] + cn);
    }
    const __m512i idx = _mm512_loadu_si512((const void *)ib);
    const __m512i ones = _mm512_set1_epi8(1), two = _mm512_set1_epi16(2);
    const __mmask32 m = nout == 32 ? 0xffffffffu : (1u << nout) - 1;
    /* the 64-byte loads stay inside the 2 * x1 * cn bytes of full cells */
    int end = x1 - (64 - 2 * nout + 2 * cn - 1) / (2 * cn);
    int x = x0;
    for (; x + step <= end; x += step) {
        size_t o = (size_t)x * 2 * (size_t)cn;
        __m512i a = _mm512_loadu_si512((const void *)(r0 + o)), b = _mm512_loadu_si512((const void *)(r1 + o));
        __m512i sa = _mm512_maddubs_epi16(_mm512_permutexvar_epi8(idx, a), ones);
        __m512i sb = _mm512_maddubs_epi16(_mm512_permutexvar_epi8(idx, b), ones);
        __m512i v = _mm512_srli_epi16(_mm512_add_epi16(_mm512_add_epi16(sa, sb), two), 2);
        _mm256_mask_storeu_epi8(d + (size_t)x * (size_t)cn, m, _mm512_cvtepi16_epi8(v));
    }
    return x;
}

/* torchvision u8 horizontal (PFK_H_TV_U8), any channel count: per block
 * of 16 elements and tap pair, vpermi2b over one or two 128-byte source
 * windows (masked loads: bytes past the row are never touched) builds the
 * (tap 2j, tap 2j+1) u16 pairs, vpmaddwd applies the pair weights; then
 * the rounding half, the shift by the axis precision and an unsigned
 * saturating narrow after max(0): the reference's clamp. Where the steps
 * stop, the AVX-512 pixel / gather kernel continues. With a second row
 * (src2 -> buf2) the blocks whose steps share one window of 64 or 128
 * bytes (every block of 3/4 channels) filter both rows per step: each
 * step's index and weight vectors are loaded once for two rows. */
#define TV_PAIRS 0x5555555555555555ull /* the u16 pairs' low bytes, as a zeroing mask */

/* Block b of one row: the int32 sums (rounding half included). */
static inline __attribute__((always_inline)) __m512i tv_block(const pfi_hrow *r, const uint8_t *s, int b, int nbt) {
    __m512i acc = _mm512_set1_epi32(1 << (r->shift - 1));
    const pfi_tvblk *t = r->tvb + r->tvb_first[b], *t1 = r->tvb + r->tvb_first[b + 1];
    int shared = r->tvb_base[b] >= 0 ? r->tvb_base[nbt + b] : -1;
    if (shared == 0) { /* a 64-byte window for the block: vpermb */
        __m512i w = _mm512_loadu_si512((const void *)(s + r->tvb_base[b]));
        for (; t < t1; t++) {
            __m512i v = _mm512_maskz_permutexvar_epi8(TV_PAIRS, _mm512_load_si512((const void *)t->idx), w);
            acc = _mm512_add_epi32(acc, _mm512_madd_epi16(v, _mm512_load_si512((const void *)t->coef)));
        }
    } else if (shared == 1) { /* one 128-byte window for the block, loaded once */
        const uint8_t *w = s + r->tvb_base[b];
        __m512i lo = _mm512_loadu_si512((const void *)w), hi = _mm512_loadu_si512((const void *)(w + 64));
        for (; t < t1; t++) {
            __m512i v = _mm512_maskz_permutex2var_epi8(TV_PAIRS, lo, _mm512_load_si512((const void *)t->idx), hi);
            acc = _mm512_add_epi32(acc, _mm512_madd_epi16(v, _mm512_load_si512((const void *)t->coef)));
        }
    } else if (shared == 2) { /* two 128-byte windows for the block */
        const uint8_t *w = s + r->tvb_base[b];
        const pfi_tvwin *tw = r->tvw + r->tvb_first[b];
        __m512i l0 = _mm512_loadu_si512((const void *)w), h0 = _mm512_loadu_si512((const void *)(w + 64));
        __m512i l1 = _mm512_loadu_si512((const void *)(w + 128)), h1 = _mm512_loadu_si512((const void *)(w + 192));
        for (; t < t1; t++, tw++) {
            __m512i idx = _mm512_load_si512((const void *)t->idx);
            __m512i v = _mm512_or_si512(_mm512_maskz_permutex2var_epi8(tw->pmask[0], l0, idx, h0),
                                        _mm512_maskz_permutex2var_epi8(tw->pmask[1], l1, idx, h1));
            acc = _mm512_add_epi32(acc, _mm512_madd_epi16(v, _mm512_load_si512((const void *)t->coef)));
        }
    } else {
        const pfi_tvwin *tw = r->tvw + r->tvb_first[b];
        for (; t < t1; t++, tw++) {
            __m512i idx = _mm512_load_si512((const void *)t->idx);
            const uint8_t *w0 = s + tw->base[0];
            __m512i v;
            if (tw->inrow && tw->nwin == 1) {
                v = _mm512_maskz_permutex2var_epi8(TV_PAIRS, _mm512_loadu_si512((const void *)w0), idx,
                                                   _mm512_loadu_si512((const void *)(w0 + 64)));
            } else {
                v = _mm512_maskz_permutex2var_epi8(tw->pmask[0], _mm512_maskz_loadu_epi8(tw->lmask[0][0], w0),
                                                   idx, _mm512_maskz_loadu_epi8(tw->lmask[0][1], w0 + 64));
                if (tw->nwin > 1) {
                    const uint8_t *w1 = s + tw->base[1];
                    v = _mm512_or_si512(v, _mm512_maskz_permutex2var_epi8(
                                               tw->pmask[1], _mm512_maskz_loadu_epi8(tw->lmask[1][0], w1), idx,
                                               _mm512_maskz_loadu_epi8(tw->lmask[1][1], w1 + 64)));
                }
            }
            acc = _mm512_add_epi32(acc, _mm512_madd_epi16(v, _mm512_load_si512((const void *)t->coef)));
        }
    }
    return acc;
}

/* Block b's 16 outputs (x1: the row's end; the last block may be partial). */
static inline __attribute__((always_inline)) void tv_store(uint8_t *d, int b, int x1, __m512i acc, __m128i sh) {
    acc = _mm512_max_epi32(_mm512_sra_epi32(acc, sh), _mm512_setzero_si512());
    int left = x1 - b * 16;
    if (left >= 16)
        _mm_storeu_si128((__m128i *)(void *)(d + (size_t)b * 16), _mm512_cvtusepi32_epi8(acc));
    else /* only the row's bytes */
        _mm_mask_storeu_epi8(d + (size_t)b * 16, (__mmask16)((1u << left) - 1), _mm512_cvtusepi32_epi8(acc));
}

/* Block b of two rows over the block's shared window (64 bytes: shared
 * 0, 128: shared 1), the step vectors loaded once for both. */
static inline __attribute__((always_inline)) void tv_block2(const pfi_hrow *r, int b, int shared, __m512i *pa,
                                                            __m512i *pb) {
    __m512i a = _mm512_set1_epi32(1 << (r->shift - 1)), c = a;
    const pfi_tvblk *t = r->tvb + r->tvb_first[b], *t1 = r->tvb + r->tvb_first[b + 1];
    const uint8_t *w = (const uint8_t *)r->src + r->tvb_base[b], *u = (const uint8_t *)r->src2 + r->tvb_base[b];
    if (shared == 0) {
        __m512i wa = _mm512_loadu_si512((const void *)w), wb = _mm512_loadu_si512((const void *)u);
        for (; t < t1; t++) {
            __m512i idx = _mm512_load_si512((const void *)t->idx), k = _mm512_load_si512((const void *)t->coef);
            a = _mm512_add_epi32(a, _mm512_madd_epi16(_mm512_maskz_permutexvar_epi8(TV_PAIRS, idx, wa), k));
            c = _mm512_add_epi32(c, _mm512_madd_epi16(_mm512_maskz_permutexvar_epi8(TV_PAIRS, idx, wb), k));
        }
    } else {
        __m512i la = _mm512_loadu_si512((const void *)w), ha = _mm512_loadu_si512((const void *)(w + 64));
        __m512i lb = _mm512_loadu_si512((const void *)u), hb = _mm512_loadu_si512((const void *)(u + 64));
        for (; t < t1; t++) {
            __m512i idx = _mm512_load_si512((const void *)t->idx), k = _mm512_load_si512((const void *)t->coef);
            a = _mm512_add_epi32(a, _mm512_madd_epi16(_mm512_maskz_permutex2var_epi8(TV_PAIRS, la, idx, ha), k));
            c = _mm512_add_epi32(c, _mm512_madd_epi16(_mm512_maskz_permutex2var_epi8(TV_PAIRS, lb, idx, hb), k));
        }
    }
    *pa = a;
    *pb = c;
}

static int h_tv_u8_vbmi(const pfi_hrow *r, int x0, int x1) {
    int nb = r->tvb != NULL && x0 == 0 ? r->tvb_n : 0;
    if (nb > (x1 + 15) / 16) nb = (x1 + 15) / 16; /* the last block may be partial */
    const __m128i sh = _mm_cvtsi32_si128(r->shift);
    const int nbt = (r->width + 15) / 16; /* blocks of the row: the sizes follow the bases */
    const uint8_t *s = r->src, *s2 = r->src2;
    uint8_t *d = r->buf, *d2 = r->buf2;
    for (int b = 0; b < nb; b++) {
        int shared = r->tvb_base[b] >= 0 ? r->tvb_base[nbt + b] : -1;
        if (s2 != NULL && (shared == 0 || shared == 1)) {
            __m512i a, c;
            tv_block2(r, b, shared, &a, &c);
            tv_store(d, b, x1, a, sh);
            tv_store(d2, b, x1, c, sh);
        } else {
            tv_store(d, b, x1, tv_block(r, s, b, nbt), sh);
            if (s2 != NULL) tv_store(d2, b, x1, tv_block(r, s2, b, nbt), sh);
        }
    }
    int e = nb > 0 ? (nb * 16 < x1 ? nb * 16 : x1) : x0;
    int lim = x1 < r->safe_end ? x1 : r->safe_end;
    if (lim <= e) return e;
    /* where the steps stop, the same element for both rows (the tables decide it) */
    if (s2 != NULL) {
        pfi_hrow r2 = *r;
        r2.src = s2;
        r2.buf = d2;
        r2.src2 = NULL;
        r2.buf2 = NULL;
        pfi_rz_h_tv_u8_avx512(&r2, e, lim);
    }
    return pfi_rz_h_tv_u8_avx512(r, e, lim);
}

/* torchvision u8 vertical (PFK_V_TV_U8), 64 elements per step: per tap
 * pair, four zero-masking vpermi2b make the (row a, row b) u16 pairs of
 * 16 elements each straight from the two rows' bytes (the AVX-512 kernel
 * needs six unpacks for that), vpmaddwd applies the pair weights. The
 * permutes put element 16L + 4q + i in dword 4L + i of sum q, which is
 * the order the in-lane packs at the end undo. Exact integer sums as the
 * reference; rows under 64 elements and more than 16 taps go to the
 * AVX-512 kernel. */
/* TV_VIDX[q] byte 4d: element 16 (d / 4) + 4q + d % 4 of row a, byte
 * 4d + 2: the same of row b (64 + it); bytes 4d + 1, 4d + 3 are zeroed by
 * the TV_PAIRS mask (generated: e = 16 * (d // 4) + 4 * q + d % 4). */
static const uint8_t TV_VIDX[4][64] __attribute__((aligned(64))) = {
    {0, 0, 64, 0, 1, 0, 65, 0, 2, 0, 66, 0, 3, 0, 67, 0,
     16, 0, 80, 0, 17, 0, 81, 0, 18, 0, 82, 0, 19, 0, 83, 0,
     32, 0, 96, 0, 33, 0, 97, 0, 34, 0, 98, 0, 35, 0, 99, 0,
     48, 0, 112, 0, 49, 0, 113, 0, 50, 0, 114, 0, 51, 0, 115, 0},
    {4, 0, 68, 0, 5, 0, 69, 0, 6, 0, 70, 0, 7, 0, 71, 0,
     20, 0, 84, 0, 21, 0, 85, 0, 22, 0, 86, 0, 23, 0, 87, 0,
     36, 0, 100, 0, 37, 0, 101, 0, 38, 0, 102, 0, 39, 0, 103, 0,
     52, 0, 116, 0, 53, 0, 117, 0, 54, 0, 118, 0, 55, 0, 119, 0},
    {8, 0, 72, 0, 9, 0, 73, 0, 10, 0, 74, 0, 11, 0, 75, 0,
     24, 0, 88, 0, 25, 0, 89, 0, 26, 0, 90, 0, 27, 0, 91, 0,
     40, 0, 104, 0, 41, 0, 105, 0, 42, 0, 106, 0, 43, 0, 107, 0,
     56, 0, 120, 0, 57, 0, 121, 0, 58, 0, 122, 0, 59, 0, 123, 0},
    {12, 0, 76, 0, 13, 0, 77, 0, 14, 0, 78, 0, 15, 0, 79, 0,
     28, 0, 92, 0, 29, 0, 93, 0, 30, 0, 94, 0, 31, 0, 95, 0,
     44, 0, 108, 0, 45, 0, 109, 0, 46, 0, 110, 0, 47, 0, 111, 0,
     60, 0, 124, 0, 61, 0, 125, 0, 62, 0, 126, 0, 63, 0, 127, 0},
};

static int v_tv_u8_vbmi(const pfi_vrow *r, int x0, int x1) {
    int K = r->ksize, np = (K + 1) / 2, x = x0;
    if (np > 8 || x1 - x0 < 64) return pfi_rz_v_tv_u8_avx512(r, x0, x1);
    const __m512i i0 = _mm512_load_si512((const void *)TV_VIDX[0]), i1 = _mm512_load_si512((const void *)TV_VIDX[1]);
    const __m512i i2 = _mm512_load_si512((const void *)TV_VIDX[2]), i3 = _mm512_load_si512((const void *)TV_VIDX[3]);
    const __m512i half = _mm512_set1_epi32(1 << (r->shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(r->shift);
    const uint8_t *pa[8], *pb[8];
    __m512i pw[8];
    for (int j = 0; j < np; j++) {
        int k = 2 * j;
        int16_t wb = k + 1 < K ? r->icoef[k + 1] : 0;
        pa[j] = (const uint8_t *)r->rows[k];
        pb[j] = k + 1 < K ? (const uint8_t *)r->rows[k + 1] : pa[j];
        pw[j] = _mm512_set1_epi32((int32_t)((uint32_t)(uint16_t)r->icoef[k] | ((uint32_t)(uint16_t)wb << 16)));
    }
    uint8_t *d = r->dst;
    /* the row's last < 64 elements: one more step ending at x1, over
     * elements already stored too (the same values: dst is none of the
     * rows, so rewriting them is exact) */
    for (int last = 0; !last; x += 64) {
        if (x + 64 > x1) {
            if (x >= x1) break;
            x = x1 - 64;
            last = 1;
        }
        __m512i a0 = half, a1 = half, a2 = half, a3 = half;
        for (int j = 0; j < np; j++) {
            __m512i p = _mm512_loadu_si512((const void *)(pa[j] + x)), q = _mm512_loadu_si512((const void *)(pb[j] + x));
            a0 = _mm512_add_epi32(a0, _mm512_madd_epi16(_mm512_maskz_permutex2var_epi8(TV_PAIRS, p, i0, q), pw[j]));
            a1 = _mm512_add_epi32(a1, _mm512_madd_epi16(_mm512_maskz_permutex2var_epi8(TV_PAIRS, p, i1, q), pw[j]));
            a2 = _mm512_add_epi32(a2, _mm512_madd_epi16(_mm512_maskz_permutex2var_epi8(TV_PAIRS, p, i2, q), pw[j]));
            a3 = _mm512_add_epi32(a3, _mm512_madd_epi16(_mm512_maskz_permutex2var_epi8(TV_PAIRS, p, i3, q), pw[j]));
        }
        a0 = _mm512_sra_epi32(a0, sh);
        a1 = _mm512_sra_epi32(a1, sh);
        a2 = _mm512_sra_epi32(a2, sh);
        a3 = _mm512_sra_epi32(a3, sh);
        _mm512_storeu_si512((void *)(d + x),
                            _mm512_packus_epi16(_mm512_packs_epi32(a0, a1), _mm512_packs_epi32(a2, a3)));
    }
    return x1;
}

void pfi_resize_fill_avx512vbmi(pfi_resize_kernels *k) {
    k->h_tv_u8 = h_tv_u8_vbmi;
    k->v_tv_u8 = v_tv_u8_vbmi;
    k->want_tvblocks = 1;
    k->tv_quads_whole = 0; /* its blocks' fallback starts mid-pixel, on the element tables */
    k->tv_quads_two_rows = 0;
    /* c1_groups stays: the Pillow antialias and CUBIC / LANCZOS4 kinds are
     * the AVX-512 kernels' (the torchvision and LINEAR kinds' 1-channel
     * rows take the permute steps and blocks, resize_prep.c) */
    k->h_u8_lin16 = h_u8_lin16_vbmi;
    k->want_hblocks = 1;
    k->lin16_pixels_whole = 0; /* its blocks come from the element tables */
    k->area2_u8 = area2_u8_vbmi;
}
