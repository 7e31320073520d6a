/* Row tables derived from a resize plan (see resize_prep.h): the element
 * tap tables every horizontal kernel can use, the per-pixel tables of the
 * 3/4-channel u8 kernels, and the byte-permute blocks of the LINEAR u8
 * pass. Each table carries the index where it stops being valid, so the
 * kernels have no per-element checks. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cpu/resize_prep.h"

static pf_status oom(void) { return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row tables"); }

/* Tap-pair tables for the antialiased u8 pass (see pfi_hrow). */
static pf_status build_pair_tabs(const pfi_resize_plan *p, pfi_resize_prep *t) {
    int cn = p->cn, ks = p->h.ksize, dw = p->dw;
    int pm = (ks + 1) / 2;
    size_t n = (size_t)dw * 2 + (size_t)dw * (size_t)pm * 8;
    t->pair_mem = calloc(n, sizeof(int32_t));
    if (t->pair_mem == NULL) return oom();
    t->bytes += n * sizeof(int32_t);
    int32_t *off = t->pair_mem, *np = off + dw, *coef = np + dw;
    size_t row_bytes = (size_t)p->sw * (size_t)cn;
    t->pair_max = pm;
    t->pair_safe_end = dw;
    for (int dx = 0; dx < dw; dx++) {
        const int32_t *idx = p->h.idx + (size_t)dx * (size_t)ks;
        const int32_t *w = p->h.acoef + (size_t)dx * (size_t)ks;
        int cnt = p->h.count[dx];
        off[dx] = idx[0] * cn;
        np[dx] = (cnt + 1) / 2;
        for (int j = 0; j < np[dx]; j++) {
            int32_t w0 = w[2 * j], w1 = 2 * j + 1 < cnt ? w[2 * j + 1] : 0;
            uint32_t hi = (uint32_t)(uint16_t)(int16_t)(w0 >> 11) | ((uint32_t)(uint16_t)(int16_t)(w1 >> 11) << 16);
            uint32_t lo = (uint32_t)(w0 & 2047) | ((uint32_t)(w1 & 2047) << 16);
            int32_t *c = coef + ((size_t)dx * (size_t)pm + (size_t)j) * 8;
            for (int l = 0; l < 4; l++) { c[l] = (int32_t)hi; c[4 + l] = (int32_t)lo; }
        }
        size_t last = (size_t)off[dx] + (size_t)(np[dx] > 0 ? np[dx] - 1 : 0) * 2 * (size_t)cn + 16;
        if (t->pair_safe_end == dw && last > row_bytes) t->pair_safe_end = dx;
    }
    return PF_OK;
}

void pfi_pixel_tail(pfi_resize_prep *t, int32_t dw, int64_t row_bytes, const int32_t *off, const int32_t *nq,
                    int step, int load) {
    int first = t->pair_safe_end & ~3;
    t->pair_tail_first = t->pair_safe_end;
    t->pair_tail_base = t->pair_tail_len = t->pair_tail_reach = 0;
    if (t->pair_safe_end >= dw) return;
    /* the copy starts at the first pixel's first tap: later ones must not
     * start before it (torch's and OpenCV's first taps never move left) */
    int64_t base = off[first], reach = row_bytes - base;
    for (int dx = first; dx < dw; dx++) {
        int64_t r = off[dx] - base + (int64_t)(nq != NULL && nq[dx] > 0 ? nq[dx] - 1 : 0) * step + load;
        if (off[dx] < base) return;
        if (r > reach) reach = r;
    }
    if (reach > PFI_ROW_TAIL_MAX) return;
    t->pair_tail_first = first;
    t->pair_tail_base = (int32_t)base;
    t->pair_tail_len = (int32_t)(row_bytes - base);
    t->pair_tail_reach = (int32_t)reach;
}

/* Per-pixel tables for the LINEAR u8 pass (see pfi_hrow). A pixel whose
 * two taps are the same source pixel (the right border's clamp) is
 * written as adjacent taps with weights (w0 + w1, 0): the same integer
 * sum, so the pixel kernels take it too. */
static pf_status build_linear_pixel_tabs(const pfi_resize_plan *p, pfi_resize_prep *t, const pfi_resize_kernels *K) {
    int cn = p->cn, dw = p->dw;
    size_t n = (size_t)dw * 6 + 4;
    t->pair_mem = malloc(sizeof(int32_t) * n);
    if (t->pair_mem == NULL) return oom();
    t->bytes += n * sizeof(int32_t);
    int32_t *off = t->pair_mem, *np = off + dw, *coef = np + dw;
    size_t row_bytes = (size_t)p->sw * (size_t)cn;
    t->pair_max = 1;
    t->pair_safe_end = dw;
    for (int dx = 0; dx < dw; dx++) {
        const int32_t *idx = p->h.idx + (size_t)dx * 2;
        const int16_t *w = p->h.icoef + (size_t)dx * 2;
        off[dx] = idx[0] * cn;
        np[dx] = 1;
        int32_t w0 = w[0], w1 = w[1];
        int same = idx[1] == idx[0] && w0 + w1 >= INT16_MIN && w0 + w1 <= INT16_MAX;
        if (same) {
            w0 += w1;
            w1 = 0;
        }
        int32_t pair = (int32_t)((uint32_t)(uint16_t)w0 | ((uint32_t)(uint16_t)w1 << 16));
        for (int l = 0; l < 4; l++) coef[(size_t)dx * 4 + (size_t)l] = pair;
        if (t->pair_safe_end == dw && ((idx[1] != idx[0] + 1 && !same) || (size_t)off[dx] + 8 > row_bytes))
            t->pair_safe_end = dx;
    }
    pfi_pixel_tail(t, dw, (int64_t)row_bytes, off, NULL, 0, 8);
    /* the copy's pixels must all be adjacent (or same-pixel) pairs */
    for (int dx = t->pair_tail_first; t->pair_tail_len > 0 && dx < dw; dx++) {
        const int32_t *idx = p->h.idx + (size_t)dx * 2;
        if (idx[1] != idx[0] + 1 && idx[1] != idx[0]) {
            t->pair_tail_first = t->pair_safe_end;
            t->pair_tail_base = t->pair_tail_len = t->pair_tail_reach = 0;
        }
    }
    t->pair_whole = K->lin16_pixels_whole && (t->pair_safe_end >= dw || t->pair_tail_len > 0);
    return PF_OK;
}

/* Byte-permute blocks (pfi_hblock) for PFK_H_U8_LIN16: per 16 elements,
 * the fewest 64-byte windows (greedy, in element order) that hold every
 * tap. A window that would pass the row end is moved back to end at it.
 * The valid prefix stops at the first block needing more windows than
 * PFI_HBLOCK_WIN (strong downscales) or any block when the row is
 * shorter than one window. */
static pf_status build_hblocks(const pfi_resize_plan *p, pfi_resize_prep *t) {
    int32_t W = p->dw * p->cn, nb = W / 16;
    int32_t row_bytes = p->sw * p->cn;
    if (nb == 0 || row_bytes < 64) return PF_OK;
    size_t bytes = (size_t)nb * sizeof(pfi_hblock);
    t->blk = aligned_alloc(64, bytes);
    if (t->blk == NULL) return oom();
    t->bytes += bytes;
    int win_max = 1, valid = 0;
    for (int32_t b = 0; b < nb; b++) {
        pfi_hblock *B = &t->blk[b];
        memset(B, 0, sizeof *B);
        int nw = 0, ok = 1;
        for (int i = 0; i < 16 && ok; i++) {
            size_t e = (size_t)b * 16 + (size_t)i;
            for (int tap = 0; tap < 2; tap++) {
                int32_t o = t->e_off[(size_t)tap * (size_t)W + e];
                int w = 0;
                while (w < nw && !(B->base[w] <= o && o < B->base[w] + 64)) w++;
                if (w == nw) {
                    if (nw == PFI_HBLOCK_WIN) { ok = 0; break; }
                    B->base[nw++] = o + 64 <= row_bytes ? o : row_bytes - 64;
                }
                int byte = 4 * i + 2 * tap;
                B->idx[byte] = (uint8_t)(o - B->base[w]);
                B->mask[w] |= 1ull << byte;
            }
        }
        if (!ok) break;
        for (int w = nw; w < PFI_HBLOCK_WIN; w++) B->base[w] = B->base[0];
        if (nw > win_max) win_max = nw;
        valid++;
    }
    t->blk_n = valid;
    t->blk_win = win_max;
    return PF_OK;
}

static pf_status build_htabs(const pfi_resize_plan *p, pfi_resize_prep *t, const pfi_resize_kernels *K) {
    int cn = p->cn, ks = p->h.ksize;
    size_t W = (size_t)p->dw * (size_t)cn;
    size_t es = pf_dtype_size(p->dtype);
    int paired = p->hk == PFK_H_U8_I32 || p->hk == PFK_H_U8_LIN16 || p->hk == PFK_H_TV_U8;
    size_t row_bytes = (size_t)p->sw * (size_t)cn * es;
    t->safe_end = (int32_t)W;
    int safe_open = 1;
    /* torchvision: elements its permute steps cover never read the
     * element tables (the plan changes with every random crop, so not
     * filling them is worth it) */
    size_t e_start = 0;
    if (p->hk == PFK_H_TV_U8) {
        pf_status st = pfi_tv_prep_tables(p, t, K);
        if (st != PF_OK) return st;
        e_start = t->pair_whole ? W : (size_t)t->tvb_n * 16 < W ? (size_t)t->tvb_n * 16 : W;
    }
    /* 1 channel on kernels that gather taps: their groups cover the row
     * (VBMI's permute steps and blocks take the torchvision and LINEAR
     * kinds' rows themselves) */
    int c1_kind = (p->hk == PFK_H_TV_U8 && !K->want_tvblocks) || (p->hk == PFK_H_U8_LIN16 && !K->want_hblocks) ||
                  p->hk == PFK_H_AA_U8 || p->hk == PFK_H_U8_I32;
    if (K->c1_groups && c1_kind) {
        pf_status st = pfi_c1_prep_tables(p, t);
        if (st != PF_OK) return st;
        if (t->c1 != NULL) e_start = W;
    }
    /* LINEAR without byte-permute blocks (which are made from the element
     * tables): the per-pixel tables first; where they finish every row by
     * themselves (pair_whole) the element tables are not filled */
    int lin_pixels_first = p->hk == PFK_H_U8_LIN16 && !K->want_hblocks && (cn == 3 || cn == 4);
    if (lin_pixels_first) {
        pf_status st = build_linear_pixel_tabs(p, t, K);
        if (st != PF_OK) return st;
        if (t->pair_whole) e_start = W;
    }
    /* rows the pixel kernels finish need no element tables at all: not
     * even allocated (a plan per random crop) */
    if (e_start < W) {
        t->e_off = malloc(W * (size_t)ks * sizeof(int32_t));
        t->e_coef = malloc(W * (size_t)ks * sizeof(int32_t)); /* every coef type is 4 bytes */
        if (t->e_off == NULL || t->e_coef == NULL) return oom();
        t->bytes += 2 * W * (size_t)ks * sizeof(int32_t);
    }
    for (size_t e = e_start; e < W; e++) {
        size_t dx = e / (size_t)cn, c = e % (size_t)cn;
        const int32_t *idx = p->h.idx + dx * (size_t)ks;
        for (int k = 0; k < ks; k++) {
            int32_t off = idx[k] * cn + (int32_t)c;
            t->e_off[(size_t)k * W + e] = off;
            if (safe_open && (size_t)off * es + 8 > row_bytes) {
                t->safe_end = (int32_t)e;
                safe_open = 0;
            }
            size_t src_t = dx * (size_t)ks + (size_t)k, dst_t = (size_t)k * W + e;
            if (paired) {
                if (k % 2 == 0) {
                    const int16_t *ic = p->h.icoef + src_t;
                    ((int32_t *)t->e_coef)[(size_t)(k / 2) * W + e] =
                        (int32_t)((uint32_t)(uint16_t)ic[0] | ((uint32_t)(uint16_t)ic[1] << 16));
                }
            } else if (p->hk == PFK_H_AA_U8) {
                ((int32_t *)t->e_coef)[dst_t] = p->h.acoef[src_t];
            } else {
                ((float *)t->e_coef)[dst_t] = p->h.fcoef[src_t];
            }
        }
    }
    if (p->hk == PFK_H_AA_U8 && (cn == 3 || cn == 4)) return build_pair_tabs(p, t);
    if (p->hk == PFK_H_U8_LIN16 && !lin_pixels_first) {
        pf_status st = K->want_hblocks ? build_hblocks(p, t) : PF_OK;
        /* the per-pixel tables serve where the blocks do not reach */
        int blocks_cover = t->blk != NULL && (int64_t)t->blk_n * 16 == (int64_t)W;
        if (st == PF_OK && (cn == 3 || cn == 4) && !blocks_cover) st = build_linear_pixel_tabs(p, t, K);
        return st;
    }
    return PF_OK;
}

static int32_t nn_safe_end(const pfi_resize_plan *p) {
    size_t row_bytes = (size_t)p->sw * (size_t)p->cn;
    int32_t x = p->dw;
    while (x > 0 && (size_t)p->nn_x[x - 1] * (size_t)p->cn + 4 > row_bytes) x--;
    return x;
}

pf_status pfi_resize_prep_build(pfi_resize_prep *r, const pfi_resize_key *k) {
    memset(r, 0, sizeof *r);
    r->key = *k;
    int win = k->win.rw > 0;
    pf_status st = pfi_resize_plan_build(&r->p, k->sw, k->sh, win ? k->win.rw : k->dw, win ? k->win.rh : k->dh,
                                         k->cn, k->dtype, k->interp, k->flavor, k->antialias);
    if (st == PF_OK && win) st = pfi_resize_plan_window(&r->p, k->win.wx, k->win.wy, k->dw, k->dh);
    if (st != PF_OK) {
        pfi_resize_plan_free(&r->p);
        return st;
    }
    const pfi_resize_plan *p = &r->p;
    r->bytes = sizeof *r + (size_t)p->dw * 4 + (size_t)p->dh * 4 +
               (size_t)(p->h.n * p->h.ksize + p->v.n * p->v.ksize) * 14;
    if (p->kind == PFK_RZ_SEP) st = build_htabs(p, r, k->K);
    if (p->kind == PFK_RZ_NN && p->dtype == PF_U8) r->nn_safe_end = nn_safe_end(p);
    if (st != PF_OK) pfi_resize_prep_free(r);
    return st;
}

void pfi_resize_prep_free(pfi_resize_prep *r) {
    if (r == NULL) return;
    pfi_resize_plan_free(&r->p);
    free(r->e_off);
    free(r->e_coef);
    free(r->pair_mem);
    free(r->blk);
    free(r->tvb);
    free(r->tvw);
    free(r->tvb_first);
    free(r->c1);
    memset(r, 0, sizeof *r);
}
