/* Row tables of the torchvision u8 horizontal pass (PFK_H_TV_U8), built
 * from the plan once per (sizes, channels, kernel table):
 *  - 3/4 channels: per pixel pair, the 4-tap quads of int16 weight pairs
 *    the x86 pixel kernels multiply with one pmaddwd per two taps;
 *  - for kernel tables that want them (AVX-512 VBMI): per block of 16
 *    elements and tap pair, a byte-permute index over at most two
 *    128-byte source windows.
 * torch's taps of one output are contiguous source pixels, which is what
 * makes both layouts possible. Each table records where it stops being
 * valid, so the kernels need no per-element checks. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cpu/resize_prep.h"

static pf_status oom(void) { return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row tables"); }

static int32_t wpair(int32_t w0, int32_t w1) {
    return (int32_t)((uint32_t)(uint16_t)(int16_t)w0 | ((uint32_t)(uint16_t)(int16_t)w1 << 16));
}

/* Weight of tap k of output pixel dx (0 past its real taps). */
static int32_t tap_w(const pfi_resize_plan *p, int dx, int k) {
    return k < p->h.count[dx] ? p->h.acoef[(size_t)dx * (size_t)p->h.ksize + (size_t)k] : 0;
}

static pf_status build_quads(const pfi_resize_plan *p, pfi_resize_prep *t) {
    int cn = p->cn, dw = p->dw;
    int qmax = (p->h.ksize + 3) / 4, npair = (dw + 1) / 2;
    size_t n = (size_t)dw * 2 + (size_t)npair * (size_t)qmax * 16;
    t->pair_mem = calloc(n, sizeof(int32_t));
    if (t->pair_mem == NULL) return oom();
    t->bytes += n * sizeof(int32_t);
    int32_t *off = t->pair_mem, *nq = off + dw, *coef = nq + dw;
    int64_t row_bytes = (int64_t)p->sw * cn;
    t->pair_max = qmax;
    t->pair_safe_end = dw;
    for (int dx = 0; dx < dw; dx++) off[dx] = p->h.idx[(size_t)dx * (size_t)p->h.ksize] * cn;
    for (int m = 0; m < npair; m++) {
        int a = 2 * m, b = a + 1 < dw ? a + 1 : a;
        int na = (p->h.count[a] + 3) / 4, nb = (p->h.count[b] + 3) / 4;
        int q_n = na > nb ? na : nb;
        nq[a] = q_n;
        if (b != a) nq[b] = q_n;
        for (int q = 0; q < q_n; q++) {
            int32_t *c = coef + ((size_t)m * (size_t)qmax + (size_t)q) * 16;
            for (int l = 0; l < 4; l++) {
                c[l] = wpair(tap_w(p, a, 4 * q), tap_w(p, a, 4 * q + 1));
                c[4 + l] = b != a ? wpair(tap_w(p, b, 4 * q), tap_w(p, b, 4 * q + 1)) : 0;
                c[8 + l] = wpair(tap_w(p, a, 4 * q + 2), tap_w(p, a, 4 * q + 3));
                c[12 + l] = b != a ? wpair(tap_w(p, b, 4 * q + 2), tap_w(p, b, 4 * q + 3)) : 0;
            }
        }
        /* every quad load of both pixels reads 16 bytes */
        int64_t end_a = off[a] + (int64_t)(q_n > 0 ? q_n - 1 : 0) * 4 * cn + 16;
        int64_t end_b = off[b] + (int64_t)(q_n > 0 ? q_n - 1 : 0) * 4 * cn + 16;
        if (t->pair_safe_end == dw && (end_a > row_bytes || end_b > row_bytes)) t->pair_safe_end = a;
    }
    pfi_pixel_tail(t, p->dw, row_bytes, off, nq, 4 * cn, 16);
    return PF_OK;
}

/* Per element: the byte offset of its first tap and its tap count, so
 * that tap k sits at first + min(k, count - 1) * cn (pads repeat the last
 * real tap). */
typedef struct tv_elems {
    int32_t *first, *count;
    int32_t *pix; /* output pixel of the element's weights, -1 for the pads of the last block */
} tv_elems;

static int32_t tap_off(const pfi_resize_plan *p, const tv_elems *el, int e, int k) {
    int n = el->count[e];
    return el->first[e] + (k < n ? k : (n > 0 ? n - 1 : 0)) * p->cn;
}

static uint64_t load_mask(int64_t base, int64_t row_bytes) {
    int64_t avail = row_bytes - base;
    return avail >= 64 ? ~0ull : avail <= 0 ? 0ull : (1ull << avail) - 1;
}

/* One step (block b, tap pair j), over the block's shared window when
 * shared >= 0 (shared_nw windows); 0 when the taps need more than two
 * windows. */
static int build_step(const pfi_resize_plan *p, const tv_elems *el, int b, int j, int32_t shared, int shared_nw,
                      pfi_tvblk *s, pfi_tvwin *sw) {
    int64_t row_bytes = (int64_t)p->sw * p->cn;
    int32_t o[32];
    memset(s, 0, sizeof *s);
    memset(sw, 0, sizeof *sw);
    for (int i = 0; i < 16; i++) {
        o[2 * i] = tap_off(p, el, 16 * b + i, 2 * j);
        o[2 * i + 1] = tap_off(p, el, 16 * b + i, 2 * j + 1);
    }
    int32_t lo = INT32_MAX;
    for (int q = 0; q < 32; q++)
        if (o[q] < lo) lo = o[q];
    if (shared >= 0) lo = shared;
    int32_t base[2] = {lo, lo};
    int nwin = 1;
    if (shared >= 0 && shared_nw == 2) {
        base[1] = shared + 128;
        nwin = 2;
    } else {
        for (int q = 0; q < 32; q++)
            if (o[q] >= lo + 128) { base[1] = o[q]; nwin = 2; break; }
    }
    for (int q = 0; q < 32; q++) {
        int w = o[q] < base[0] + 128 ? 0 : 1;
        if (w == 1 && (nwin < 2 || o[q] < base[1] || o[q] >= base[1] + 128)) return 0;
        int byte = 4 * (q / 2) + 2 * (q % 2);
        s->idx[byte] = (uint8_t)(o[q] - base[w]);
        sw->pmask[w] |= 1ull << byte;
    }
    for (int i = 0; i < 16; i++) {
        int dx = el->pix[16 * b + i];
        s->coef[i] = dx < 0 ? 0 : wpair(tap_w(p, dx, 2 * j), tap_w(p, dx, 2 * j + 1));
    }
    for (int w = 0; w < nwin; w++) {
        sw->base[w] = base[w];
        sw->lmask[w][0] = load_mask(base[w], row_bytes);
        sw->lmask[w][1] = load_mask((int64_t)base[w] + 64, row_bytes);
    }
    sw->nwin = nwin;
    sw->inrow = (int64_t)base[nwin - 1] + 128 <= row_bytes;
    return 1;
}

/* The first and last byte block b's taps read. An element's taps are
 * consecutive pixels: its first and last real taps bound them (elements
 * of a block are not in tap order: pixels share first taps when
 * upscaling). */
static void block_span(const pfi_resize_plan *p, const tv_elems *el, int b, int32_t *plo, int32_t *phi) {
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (int i = 0; i < 16; i++) {
        int32_t f = el->first[16 * b + i], o = tap_off(p, el, 16 * b + i, el->count[16 * b + i] - 1);
        if (f < lo) lo = f;
        if (o > hi) hi = o;
    }
    *plo = lo;
    *phi = hi;
}

/* The first byte of a window of `span` bytes every tap of a block read
 * from [lo, hi] fits in, inside the row, or -1. */
static int32_t shared_window(const pfi_resize_plan *p, int32_t lo, int32_t hi, int32_t span) {
    int64_t row_bytes = (int64_t)p->sw * p->cn;
    if (hi - lo >= span) return -1;
    /* move it back to end at the row end when it would pass it */
    if ((int64_t)lo + span > row_bytes) lo = (int32_t)(row_bytes - span);
    return lo >= 0 && hi < lo + span ? lo : -1;
}

/* The np steps of block b over its shared window from byte lo (64 or 128
 * bytes, so every tap is inside it): what build_step makes for such a
 * block, element by element without its window search. The kernels read
 * no pfi_tvwin for these blocks; theirs are left zero. */
static void shared_steps(const pfi_resize_plan *p, const tv_elems *el, int b, int np, int32_t lo, pfi_tvblk *s,
                         pfi_tvwin *sw) {
    int cn = p->cn, ks = p->h.ksize;
    memset(s, 0, sizeof *s * (size_t)np);
    memset(sw, 0, sizeof *sw * (size_t)np);
    for (int i = 0; i < 16; i++) {
        int e = 16 * b + i, n = el->count[e], dx = el->pix[e];
        int32_t f = el->first[e] - lo, last = n > 0 ? n - 1 : 0;
        const int32_t *w = dx >= 0 ? p->h.acoef + (size_t)dx * (size_t)ks : NULL;
        for (int j = 0; j < np; j++) {
            int k0 = 2 * j, k1 = k0 + 1;
            s[j].idx[4 * i] = (uint8_t)(f + (k0 < last ? k0 : last) * cn);
            s[j].idx[4 * i + 2] = (uint8_t)(f + (k1 < last ? k1 : last) * cn);
            s[j].coef[i] = w == NULL ? 0 : wpair(k0 < n ? w[k0] : 0, k1 < n ? w[k1] : 0);
        }
    }
}

static pf_status build_blocks(const pfi_resize_plan *p, pfi_resize_prep *t) {
    /* the last block may be partial: its pads repeat the last element's
     * first tap with zero weights, and the kernel stores only the row */
    int32_t W = p->dw * p->cn, nb = (W + 15) / 16;
    if (W < 16) return PF_OK;
    int kp = p->h.ksize / 2;
    size_t bytes = (size_t)nb * (size_t)kp * sizeof(pfi_tvblk);
    t->tvb = aligned_alloc(64, bytes);
    t->tvw = malloc((size_t)nb * (size_t)kp * sizeof(pfi_tvwin));
    t->tvb_first = malloc(sizeof(int32_t) * (3 * (size_t)nb + 1));
    size_t ne = (size_t)nb * 16;
    tv_elems el = {malloc(sizeof(int32_t) * 3 * ne), NULL, NULL};
    if (t->tvb == NULL || t->tvw == NULL || t->tvb_first == NULL || el.first == NULL) {
        free(el.first);
        return oom();
    }
    el.count = el.first + ne;
    el.pix = el.count + ne;
    for (int32_t e = 0, dx = 0, c = 0; e < W; e++) {
        el.first[e] = p->h.idx[(size_t)dx * (size_t)p->h.ksize] * p->cn + c;
        el.count[e] = p->h.count[dx];
        el.pix[e] = dx;
        if (++c == p->cn) { c = 0; dx++; }
    }
    for (size_t e = (size_t)W; e < ne; e++) {
        el.first[e] = el.first[W - 1];
        el.count[e] = 0;
        el.pix[e] = -1;
    }
    t->bytes += bytes + (size_t)nb * (size_t)kp * sizeof(pfi_tvwin) + sizeof(int32_t) * (3 * (size_t)nb + 1);
    int32_t *shared = t->tvb_first + nb + 1, *shared_nw = shared + nb;
    int32_t steps = 0, valid = 0;
    for (int b = 0; b < nb; b++) {
        /* pairs this block needs: its elements' largest tap count */
        int np = 0;
        for (int i = 0; i < 16; i++) {
            int c = el.count[16 * b + i];
            if ((c + 1) / 2 > np) np = (c + 1) / 2;
        }
        t->tvb_first[b] = steps;
        /* one window loaded per block: 64 bytes (one vpermb), else 128
         * (vpermi2b), else 256 (two); else each step its own */
        int32_t lo, hi;
        block_span(p, &el, b, &lo, &hi);
        shared_nw[b] = 0;
        shared[b] = shared_window(p, lo, hi, 64);
        if (shared[b] < 0) {
            shared_nw[b] = 1;
            shared[b] = shared_window(p, lo, hi, 128);
        }
        if (shared[b] < 0 && p->cn < 3) {
            shared_nw[b] = 2;
            shared[b] = shared_window(p, lo, hi, 256);
        }
        /* 3/4 channels: a block without one shared window costs more than
         * the pixel-pair kernel, which takes over from here */
        if (shared[b] < 0 && p->cn >= 3) break;
        int ok = 1;
        if (shared[b] >= 0 && shared_nw[b] < 2)
            shared_steps(p, &el, b, np, shared[b], &t->tvb[steps], &t->tvw[steps]);
        else
            for (int j = 0; j < np && ok; j++)
                ok = build_step(p, &el, b, j, shared[b], shared_nw[b], &t->tvb[steps + j], &t->tvw[steps + j]);
        if (!ok) break;
        steps += np;
        valid++;
    }
    free(el.first);
    t->tvb_first[valid] = steps;
    /* where the blocks stop early the pixel-pair kernel continues, at an
     * even pixel: 3 blocks are 16 pixels of 3 channels, 2 blocks 8 pixels
     * of 4 (tvb_first of the shorter prefix is already its end) */
    if (valid < nb && p->cn == 3) valid -= valid % 3;
    if (valid < nb && p->cn == 4) valid -= valid % 2;
    t->tvb_n = valid;
    return PF_OK;
}

pf_status pfi_tv_prep_tables(const pfi_resize_plan *p, pfi_resize_prep *t, const pfi_resize_kernels *K) {
    pf_status st = K->want_tvblocks ? build_blocks(p, t) : PF_OK;
    /* the pixel kernels take 3/4-channel rows where the blocks stop */
    int covered = t->tvb != NULL && (int64_t)t->tvb_n * 16 >= (int64_t)p->dw * p->cn;
    if (st == PF_OK && (p->cn == 3 || p->cn == 4) && !covered) st = build_quads(p, t);
    /* the x86 pixel kernels then finish every row by themselves */
    t->pair_whole = st == PF_OK && t->pair_mem != NULL && K->tv_quads_whole &&
                    (t->pair_safe_end >= p->dw || t->pair_tail_len > 0);
    return st;
}
