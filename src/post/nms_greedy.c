/* Greedy NMS over a prepared candidate set (nms_prep.c).
 *
 * Every semantics visits candidates in sorted order and keeps one unless a
 * kept box of its group suppresses it. Checking a candidate against the
 * kept list (OpenCV's form) is equivalent to torchvision's "each kept box
 * suppresses the later ones", since only kept boxes suppress; it also
 * allows OpenCV's adaptive threshold and the class caps.
 *
 * The reference is that loop, literally, over all classes at once. The
 * fast path (no eta) runs each class on its own, which is the same thing
 * because boxes of different classes never interact, and checks the kept
 * list with the SIMD kernel (torchvision). */
#include <stdlib.h>
#include <string.h>

#include "kernels/nms_math.h"
#include "post/nms_grid.h"
#include "post/nms_internal.h"
#include "post/post_kernels.h"
#include "post/post_sort.h"

/* Does the kept box at position k suppress the candidate at p? */
static int suppresses(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t k, int32_t p, float thr_cv) {
    size_t n = s->stride;
    switch (c->sem) {
    case PF_NMS_TORCHVISION: {
        const float *f = s->f;
        float iou = pfk_nms_tv_iou(f[k], f[n + k], f[2 * n + k], f[3 * n + k], f[4 * n + k], f[p], f[n + p],
                                   f[2 * n + p], f[3 * n + p], f[4 * n + p], c->off);
        return (double)iou > c->thr_d;
    }
    case PF_NMS_OPENCV: {
        const double *d = s->d;
        float ov = pfk_nms_cv_overlap(d[p], d[n + p], d[2 * n + p], d[3 * n + p], d[k], d[n + k], d[2 * n + k],
                                      d[3 * n + k]);
        return !(ov <= thr_cv);
    }
    default:
        return pfk_nms_onnx_suppress(s->f + (size_t)p * 4, s->f + (size_t)k * 4, s->center, c->thr_f);
    }
}

int32_t pfi_nms_greedy_ref(const pfi_nms_cfg *c, const pfi_nms_set *s, uint8_t *flags) {
    int32_t n = s->n, nk = 0;
    memset(flags, 0, n > 0 ? (size_t)n : 1);
    int32_t *kept = malloc((n > 0 ? (size_t)n : 1) * sizeof *kept);
    if (kept == NULL) return -1;
    int same_class_only = c->classes == PF_NMS_PER_CLASS;
    float thr = c->thr_f;
    for (int32_t p = 0; p < n; p++) {
        if (c->max_out > 0 && nk >= c->max_out) break;
        if (c->max_per_class > 0) {
            int32_t same = 0;
            for (int32_t i = 0; i < nk; i++) same += s->cls[kept[i]] == s->cls[p];
            if (same >= c->max_per_class) continue;
        }
        int sup = 0;
        for (int32_t i = 0; i < nk && !sup; i++) {
            if (same_class_only && s->cls[kept[i]] != s->cls[p]) continue;
            sup = suppresses(c, s, kept[i], p, thr);
        }
        if (sup) continue;
        kept[nk++] = p;
        flags[p] = 1;
        if (c->eta < 1.0f && thr > 0.5f) thr *= c->eta; /* OpenCV: after each keep */
    }
    free(kept);
    return nk;
}

/* ------------------------------------------------------------ fast path */

static int pair_sup(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t k, int32_t p) {
    return suppresses(c, s, k, p, c->thr_f);
}

typedef struct group_work {
    float *kc[5];     /* kept boxes as columns (torchvision) */
    int32_t *kept;    /* kept positions of the group */
    int32_t *dense;   /* position -> dense class id (class caps across classes) */
    int32_t *ccount;  /* kept per dense class */
} group_work;

/* Greedy over positions pos[0..m) of one group; returns kept count.
 * dense/ccount: per-class caps when the group mixes classes. */
static int32_t run_group(const pfi_nms_cfg *c, const pfi_nms_set *s, const int32_t *pos, int32_t m, group_work *w,
                         uint8_t *flags, int mixed) {
    size_t n = s->stride;
    int32_t nk = 0;
    int32_t cap = c->max_out;
    int per_class_cap = c->max_per_class > 0;
    if (!mixed && per_class_cap && (cap <= 0 || c->max_per_class < cap)) cap = c->max_per_class;
    pfi_nms_tv_fn tv = c->k->nms_tv;
    pfi_nms_cols cols = {w->kc[0], w->kc[1], w->kc[2], w->kc[3], w->kc[4]};
    /* The kept list is checked whole (SIMD for torchvision) until it grows
     * past `switch_at`; then, when the group allows it, the kept boxes go
     * into a spatial grid and candidates check only their neighbourhood. */
    pfi_nms_grid grid;
    int gr = -1, tried = 0;
    int32_t switch_at = c->sem == PF_NMS_TORCHVISION ? 512 : 32;
    for (int32_t q = 0; q < m; q++) {
        if (cap > 0 && nk >= cap) break;
        int32_t p = pos[q];
        if (mixed && per_class_cap && w->ccount[w->dense[p]] >= c->max_per_class) continue;
        if (!tried && nk >= switch_at && m - q >= PFI_GRID_MIN_GROUP / 2) {
            tried = 1;
            gr = pfi_grid_init(&grid, c, s, pos, m);
            if (gr == -2) return -1;
            for (int32_t i = 0; gr == 0 && i < nk; i++)
                if (pfi_grid_add(&grid, c, s, w->kept[i])) {
                    pfi_grid_free(&grid);
                    return -1;
                }
        }
        if (gr == 0) { /* only the kept boxes near p */
            if (pfi_grid_suppressed(&grid, c, s, p, pair_sup)) continue;
            if (pfi_grid_add(&grid, c, s, p)) {
                pfi_grid_free(&grid);
                return -1;
            }
            w->kept[nk++] = p;
            flags[p] = 1;
            if (mixed && per_class_cap) w->ccount[w->dense[p]]++;
            continue;
        }
        int sup = 0;
        if (c->sem == PF_NMS_TORCHVISION) {
            const float *f = s->f;
            float cand[5] = {f[p], f[n + p], f[2 * n + p], f[3 * n + p], f[4 * n + p]};
            int32_t done = tv(&cols, nk, cand, c->off, c->thr_tv, &sup);
            if (!sup && done < nk) {
                pfi_nms_cols rest = {cols.x1 + done, cols.y1 + done, cols.x2 + done, cols.y2 + done,
                                     cols.area + done};
                pfi_nms_tv_ref(&rest, nk - done, cand, c->off, c->thr_tv, &sup);
            }
            if (!sup)
                for (int j = 0; j < 5; j++) w->kc[j][nk] = cand[j];
        } else {
            for (int32_t i = 0; i < nk && !sup; i++) sup = suppresses(c, s, w->kept[i], p, c->thr_f);
        }
        if (sup) continue;
        w->kept[nk++] = p;
        flags[p] = 1;
        if (mixed && per_class_cap) w->ccount[w->dense[p]]++;
    }
    if (gr == 0) pfi_grid_free(&grid);
    return nk;
}

int32_t pfi_nms_greedy_fast(const pfi_nms_cfg *c, const pfi_nms_set *s, uint8_t *flags) {
    int32_t n = s->n;
    size_t nn = n > 0 ? (size_t)n : 1;
    memset(flags, 0, nn);
    if (n == 0) return 0;
    int grouped = c->classes == PF_NMS_PER_CLASS;
    int need_dense = !grouped && c->max_per_class > 0;
    /* scratch: 5 kept columns, kept, order, keys x2, tmp vals, dense, counts */
    uint8_t *mem = malloc(nn * (5 * sizeof(float) + 7 * sizeof(int32_t)));
    if (mem == NULL) return -1;
    group_work w;
    for (int j = 0; j < 5; j++) w.kc[j] = (float *)(void *)mem + (size_t)j * nn;
    w.kept = (int32_t *)(void *)(mem + nn * 5 * sizeof(float));
    int32_t *order = w.kept + nn;
    uint32_t *keys = (uint32_t *)(void *)(order + nn), *tk = keys + nn;
    int32_t *tv = (int32_t *)(void *)(tk + nn);
    w.dense = tv + nn;
    w.ccount = w.dense + nn;

    for (int32_t p = 0; p < n; p++) order[p] = p;
    if (grouped || need_dense) { /* stable sort of positions by class */
        for (int32_t p = 0; p < n; p++) keys[p] = (uint32_t)s->cls[p] ^ 0x80000000u;
        pfi_radix_sort(keys, order, tk, tv, n);
        int32_t g = -1;
        for (int32_t q = 0; q < n; q++) {
            if (q == 0 || keys[q] != keys[q - 1]) w.ccount[++g] = 0;
            w.dense[order[q]] = g;
        }
    }
    int32_t total = 0;
    if (grouped) {
        for (int32_t q0 = 0; q0 < n;) {
            int32_t q1 = q0 + 1;
            while (q1 < n && keys[q1] == keys[q0]) q1++;
            int32_t k = run_group(c, s, order + q0, q1 - q0, &w, flags, 0);
            if (k < 0) {
                free(mem);
                return -1;
            }
            total += k;
            q0 = q1;
        }
    } else {
        for (int32_t p = 0; p < n; p++) order[p] = p;
        total = run_group(c, s, order, n, &w, flags, 1);
    }
    free(mem);
    if (total < 0) return -1;
    /* the overall cap keeps the first max_out in selection order */
    if (c->max_out > 0 && total > c->max_out) {
        int32_t seen = 0;
        for (int32_t p = 0; p < n; p++)
            if (flags[p] && ++seen > c->max_out) flags[p] = 0;
        total = c->max_out;
    }
    return total;
}
