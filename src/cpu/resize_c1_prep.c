/* The 1-channel groups of the u8 horizontal passes that the SSE4.1 /
 * AVX2 / AVX-512 kernels read instead of gathering taps (pfi_hrow.c1,
 * kernel tables that set c1_groups; resize_c1_x86.h): torchvision's
 * PFK_H_TV_U8 and the Pillow antialias PFK_H_AA_U8 (windows, or dots
 * past ~3x downscales), and OpenCV's LINEAR PFK_H_U8_LIN16 and CUBIC /
 * LANCZOS4 PFK_H_U8_I32 (windows). The antialias weights have 22
 * fraction bits, too many for pmaddwd: each is stored split, w = hi *
 * 2048 + lo with lo in [0, 2047], as two int16 weight sets (the kernels
 * add hi's sums << 11 to lo's, exactly w's sum). Built once per plan,
 * like every row table; a row is taken in one kind or left to the
 * element tables. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cpu/resize_prep.h"

static pf_status oom(void) { return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row tables"); }

static int32_t wpair(int32_t w0, int32_t w1) {
    return (int32_t)((uint32_t)(uint16_t)(int16_t)w0 | ((uint32_t)(uint16_t)(int16_t)w1 << 16));
}
/* The antialias kind's split (see above): part 0 = hi, 1 = lo; others
 * store w as is (part 0 only). */
static int32_t wpart(int split, int part, int32_t w) {
    if (!split) return w;
    return part == 0 ? w >> 11 : w & 2047;
}

/* Pixel dx's taps: byte offsets o[k] and weights w[k] for k < the count
 * returned (at most ksize; -1 when they cannot be written so). torch's
 * and Pillow's are consecutive bytes from the first; OpenCV LINEAR's are
 * its two (the same pixel twice at the borders); OpenCV CUBIC's and
 * LANCZOS4's, clamped at the borders, are folded into consecutive taps
 * from the first (a clamped tap's weight added to the pixel it repeats:
 * the same integer sum). */
static int c1_taps(const pfi_resize_plan *p, int dx, int32_t *o, int32_t *w) {
    int ks = p->h.ksize;
    const int32_t *idx = p->h.idx + (size_t)dx * (size_t)ks;
    if (p->hk == PFK_H_U8_I32) {
        int32_t lo = idx[0], hi = idx[0];
        for (int k = 1; k < ks; k++) {
            if (idx[k] < lo) lo = idx[k];
            if (idx[k] > hi) hi = idx[k];
        }
        int n = hi - lo + 1;
        if (n > ks) return -1;
        for (int k = 0; k < n; k++) {
            o[k] = lo + k;
            w[k] = 0;
        }
        for (int k = 0; k < ks; k++) w[idx[k] - lo] += p->h.icoef[(size_t)dx * (size_t)ks + (size_t)k];
        for (int k = 0; k < n; k++)
            if (w[k] < INT16_MIN || w[k] > INT16_MAX) return -1;
        return n;
    }
    if (p->hk == PFK_H_U8_LIN16) {
        for (int k = 0; k < 2; k++) {
            o[k] = idx[k];
            w[k] = p->h.icoef[(size_t)dx * 2 + (size_t)k];
        }
        return 2;
    }
    int n = p->h.count[dx]; /* torch's and Pillow's antialias taps are consecutive */
    for (int k = 0; k < n; k++) {
        o[k] = idx[0] + k;
        w[k] = p->h.acoef[(size_t)dx * (size_t)ks + (size_t)k];
    }
    return n;
}

/* Windows kind: pixels [8g, 8g + 8) as two lanes of 4, each lane's taps
 * read from one 16-byte window that starts at its first pixel's first
 * tap, moved back to end at the row end where it would pass it (the
 * taps, inside the row, then still lie in it). Pair j's index is pair
 * 0's plus 2j, which holds for torch's consecutive taps (LINEAR has one
 * pair). Pads of the last group read byte 0 of their window with zero
 * weights. Returns the lane's tap pairs (its largest pixel's), or -1 when
 * its taps do not fit its window; *base: the window. */
static int c1_lane(const pfi_resize_plan *p, int dx0, int32_t *base, uint8_t *idx, int32_t *coef, int np_max,
                   int split) {
    int32_t o[32], w[32];
    int np = 0;
    for (int i = 0; i < 4; i++) {
        int dx = dx0 + i, n = dx < p->dw ? c1_taps(p, dx, o, w) : 0;
        if (n < 0 || (i == 0 && dx < p->dw && n < 1)) return -1;
        if (i == 0 && dx < p->dw) { /* the lane's window; an empty lane keeps the one given (lane 0's) */
            *base = n > 1 && o[1] < o[0] ? o[1] : o[0];
            if ((int64_t)*base + 16 > p->sw) *base = p->sw - 16;
        }
        for (int k = 0; k < n; k++)
            if (o[k] < *base || o[k] >= *base + 16) return -1;
        if ((n + 1) / 2 > np) np = (n + 1) / 2;
        idx[4 * i] = (uint8_t)(n > 0 ? o[0] - *base : 0);
        idx[4 * i + 1] = 0x80;
        idx[4 * i + 2] = (uint8_t)(n > 1 ? o[1] - *base : idx[4 * i] + 1);
        idx[4 * i + 3] = 0x80;
        for (int j = 0; j < np_max; j++)
            for (int part = 0; part <= split; part++)
                coef[8 * ((1 + split) * j + part) + i] = wpair(2 * j < n ? wpart(split, part, w[2 * j]) : 0,
                                                               2 * j + 1 < n ? wpart(split, part, w[2 * j + 1]) : 0);
    }
    return np;
}

/* Every group as windows, or none (t->c1 left NULL). split: the
 * antialias kind's two weight sets per tap pair (hi's 8 pairs, then lo's). */
static pf_status c1_windows(const pfi_resize_plan *p, pfi_resize_prep *t, int np_max, int split) {
    int dw = p->dw, ng = (dw + 7) / 8;
    size_t stride = 64 + (size_t)np_max * 32 * (size_t)(1 + split), bytes = stride * (size_t)ng;
    uint8_t *m = aligned_alloc(32, bytes);
    if (m == NULL) return oom();
    memset(m, 0, bytes);
    for (int g = 0; g < ng; g++) {
        uint8_t *gp = m + stride * (size_t)g;
        int32_t *hdr = (int32_t *)(void *)gp, *coef = (int32_t *)(void *)(gp + 64);
        int32_t base = 0;
        int np = 0;
        for (int l = 0; l < 2; l++) {
            int nl = c1_lane(p, 8 * g + 4 * l, &base, gp + 32 + 16 * l, coef + 4 * l, np_max, split);
            if (nl < 0) {
                free(m);
                return PF_OK;
            }
            hdr[l] = base;
            if (nl > np) np = nl;
        }
        hdr[2] = np;
    }
    t->c1 = m;
    t->c1_n = ng;
    t->c1_stride = (int32_t)stride;
    t->c1_chunks = 0;
    t->bytes += bytes;
    return PF_OK;
}

/* Dots kind (torchvision, antialias), for any tap count: per pixel its
 * chunks of 16 taps as int16 weights against 16 bytes loaded from lo[dx],
 * the pixel's first tap moved back so the loads end in the row (the
 * weights then start at the tap's place in them); split: each chunk's hi
 * weights, then its lo ones. */
static pf_status c1_dots(const pfi_resize_plan *p, pfi_resize_prep *t, int kmax, int split) {
    int dw = p->dw, ng = (dw + 7) / 8, nc = (kmax + 15) / 16, parts = 1 + split;
    if (p->sw < 16 * nc) return PF_OK;
    size_t stride = 32 + (size_t)8 * (size_t)nc * 32 * (size_t)parts, bytes = stride * (size_t)ng;
    uint8_t *m = aligned_alloc(32, bytes);
    if (m == NULL) return oom();
    memset(m, 0, bytes);
    for (int g = 0; g < ng; g++) {
        uint8_t *gp = m + stride * (size_t)g;
        int32_t *lo = (int32_t *)(void *)gp;
        for (int i = 0; i < 8; i++) {
            int dx = 8 * g + i < dw ? 8 * g + i : dw - 1, n = 8 * g + i < dw ? p->h.count[dx] : 0;
            int32_t f = p->h.idx[(size_t)dx * (size_t)p->h.ksize], l = f;
            if ((int64_t)l + 16 * nc > p->sw) l = p->sw - 16 * nc;
            lo[i] = l;
            int16_t *wt = (int16_t *)(void *)(gp + 32 + (size_t)i * (size_t)nc * 32 * (size_t)parts);
            for (int k = 0; k < n; k++) {
                int32_t v = p->h.acoef[(size_t)dx * (size_t)p->h.ksize + (size_t)k];
                int at = f - l + k; /* chunk at / 16, its parts 16 weights apart */
                for (int part = 0; part < parts; part++)
                    wt[(at / 16) * 16 * parts + part * 16 + at % 16] = (int16_t)wpart(split, part, v);
            }
        }
    }
    t->c1 = m;
    t->c1_n = ng;
    t->c1_stride = (int32_t)stride;
    t->c1_chunks = nc;
    t->bytes += bytes;
    return PF_OK;
}

pf_status pfi_c1_prep_tables(const pfi_resize_plan *p, pfi_resize_prep *t) {
    if (p->cn != 1 || p->dtype != PF_U8 || p->sw < 16) return PF_OK;
    if (p->hk == PFK_H_U8_LIN16) return p->h.ksize == 2 ? c1_windows(p, t, 1, 0) : PF_OK;
    if (p->hk == PFK_H_U8_I32) return p->h.ksize <= 16 ? c1_windows(p, t, (p->h.ksize + 1) / 2, 0) : PF_OK;
    if (p->hk != PFK_H_TV_U8 && p->hk != PFK_H_AA_U8) return PF_OK;
    int split = p->hk == PFK_H_AA_U8, kmax = 0;
    for (int dx = 0; dx < p->dw; dx++)
        if (p->h.count[dx] > kmax) kmax = p->h.count[dx];
    pf_status st = kmax <= 16 ? c1_windows(p, t, (kmax + 1) / 2, split) : PF_OK;
    return st != PF_OK || t->c1 != NULL ? st : c1_dots(p, t, kmax, split);
}
