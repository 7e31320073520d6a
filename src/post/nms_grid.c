/* A uniform grid over the kept boxes of one NMS group, so a candidate is
 * checked only against kept boxes near it. Used when it cannot change the
 * result: a pair that does not overlap can never suppress under the
 * group's conditions (see pfi_grid_init), and every pair that overlaps
 * shares a grid cell (cells are computed from padded extents by one
 * monotonic function, and two overlapping extents contain a common
 * endpoint). Which kept boxes are checked, and in which order, does not
 * matter: the answer is "does any kept box suppress it". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/nms_math.h"
#include "post/nms_grid.h"

#define GRID_MAX_CELLS_PER_BOX 64

/* The interaction extent of position p: [e0, e2] x [e1, e3]; 0 when the
 * box can neither suppress nor be suppressed under the semantics. */
static int extent(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p, double e[4]) {
    size_t n = s->stride;
    if (c->sem == PF_NMS_TORCHVISION) {
        const float *f = s->f;
        float x1 = f[p], y1 = f[n + p], x2 = f[2 * n + p], y2 = f[3 * n + p];
        float w = x2 - x1, h = y2 - y1;
        if (c->off != 0.0f) {
            w = w + c->off;
            h = h + c->off;
        }
        if (!(w > 0.0f) || !(h > 0.0f)) return 0; /* its intersections are all empty */
        e[0] = (double)x1;
        e[1] = (double)y1;
        e[2] = (double)x2 + (double)c->off;
        e[3] = (double)y2 + (double)c->off;
        return 1;
    }
    if (c->sem == PF_NMS_OPENCV) {
        const double *d = s->d;
        e[0] = d[p];
        e[1] = d[n + p];
        e[2] = d[p] + d[2 * n + p];
        e[3] = d[n + p] + d[3 * n + p];
        return 1;
    }
    const float *b = s->f + (size_t)p * 4;
    float x0, x1, y0, y1;
    if (!s->center) {
        pfk_onnx_minmax(b[1], b[3], &x0, &x1);
        pfk_onnx_minmax(b[0], b[2], &y0, &y1);
    } else {
        float hw = b[2] / 2, hh = b[3] / 2;
        x0 = b[0] - hw;
        x1 = b[0] + hw;
        y0 = b[1] - hh;
        y1 = b[1] + hh;
    }
    if (!(x1 > x0) || !(y1 > y0)) return 0;
    e[0] = (double)x0;
    e[1] = (double)y0;
    e[2] = (double)x1;
    e[3] = (double)y1;
    return 1;
}

static int finite_box(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p) {
    size_t n = s->stride;
    if (c->sem == PF_NMS_OPENCV) {
        const double *d = s->d;
        double w = d[2 * n + p], h = d[3 * n + p];
        /* OpenCV: boxes without area overlap everything (areas <= eps) */
        return isfinite(d[p]) && isfinite(d[n + p]) && isfinite(w) && isfinite(h) && w > 0 && h > 0 &&
               w * h > 2.220446049250313080847e-16;
    }
    if (c->sem == PF_NMS_TORCHVISION) {
        const float *f = s->f;
        return isfinite(f[p]) && isfinite(f[n + p]) && isfinite(f[2 * n + p]) && isfinite(f[3 * n + p]);
    }
    const float *b = s->f + (size_t)p * 4;
    return isfinite(b[0]) && isfinite(b[1]) && isfinite(b[2]) && isfinite(b[3]);
}

int pfi_grid_init(pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, const int32_t *pos, int32_t m) {
    memset(g, 0, sizeof *g);
    if (m < PFI_GRID_MIN_GROUP / 2) return -1;
    /* a non-overlapping pair has IoU 0 (overlap 0 for OpenCV): it must not suppress */
    if (c->sem == PF_NMS_TORCHVISION && !(c->thr_d >= 0)) return -1;
    if (c->sem == PF_NMS_OPENCV && !(c->thr_f >= 0.0f)) return -1;
    double lo[2] = {(double)INFINITY, (double)INFINITY}, hi[2] = {-(double)INFINITY, -(double)INFINITY}, sum[2] = {0, 0};
    int32_t live = 0;
    for (int32_t q = 0; q < m; q++) {
        double e[4];
        if (!finite_box(c, s, pos[q])) return -1;
        if (!extent(c, s, pos[q], e)) continue;
        live++;
        for (int k = 0; k < 2; k++) {
            if (e[k] < lo[k]) lo[k] = e[k];
            if (e[k + 2] > hi[k]) hi[k] = e[k + 2];
            sum[k] += e[k + 2] - e[k];
        }
    }
    if (live == 0 || !(lo[0] <= hi[0]) || !(lo[1] <= hi[1])) return -1;
    /* cells about the mean box size (a box covers ~2 x 2 cells), at most 128 per axis */
    int G = 4;
    for (int k = 0; k < 2; k++) {
        double span = hi[k] - lo[k], mean = sum[k] / live;
        double gk = mean > 0 ? span / mean : 128;
        int gi = gk > 128 ? 128 : gk < 4 ? 4 : (int)gk;
        if (gi > G) G = gi;
    }
    /* torchvision's kept list is checked 8 or 16 at a time; a grid of
     * scalar checks wins only when its cells are small against the image
     * (about 4 cells per box, G^2 cells: ~16 / G^2 of the list per check) */
    if (c->sem == PF_NMS_TORCHVISION && G < 32) return -1;
    g->G = G;
    for (int k = 0; k < 2; k++) {
        double span = hi[k] - lo[k];
        double pad = (fabs(lo[k]) + fabs(hi[k])) * 1e-6 + 1e-30;
        g->lo[k] = lo[k] - pad;
        g->inv[k] = G / (span + 3 * pad);
    }
    g->head = malloc((size_t)G * G * sizeof *g->head);
    g->cap = m * 2;
    g->ent = malloc((size_t)g->cap * sizeof *g->ent);
    if (!g->head || !g->ent) {
        pfi_grid_free(g);
        return -2;
    }
    for (int i = 0; i < G * G; i++) g->head[i] = -1;
    g->big = -1;
    return 0;
}

void pfi_grid_free(pfi_nms_grid *g) {
    free(g->head);
    free(g->ent);
    memset(g, 0, sizeof *g);
}

/* cell range of a padded extent; 0 when degenerate */
static int cells(const pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p, int r[4]) {
    double e[4];
    if (!extent(c, s, p, e)) return 0;
    for (int k = 0; k < 2; k++) {
        double pad = (fabs(e[k]) + fabs(e[k + 2])) * 1e-6 + 1e-30;
        double a = floor((e[k] - pad - g->lo[k]) * g->inv[k]), b = floor((e[k + 2] + pad - g->lo[k]) * g->inv[k]);
        r[k] = a < 0 ? 0 : a > g->G - 1 ? g->G - 1 : (int)a;
        r[k + 2] = b < 0 ? 0 : b > g->G - 1 ? g->G - 1 : (int)b;
    }
    return 1;
}

static int push(pfi_nms_grid *g, int32_t *head, int32_t p) {
    if (g->n == g->cap) {
        int32_t cap = g->cap * 2;
        pfi_grid_entry *e = realloc(g->ent, (size_t)cap * sizeof *e);
        if (e == NULL) return -1;
        g->ent = e;
        g->cap = cap;
    }
    g->ent[g->n].pos = p;
    g->ent[g->n].next = *head;
    *head = g->n++;
    return 0;
}

int pfi_grid_add(pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p) {
    int r[4];
    if (!cells(g, c, s, p, r)) return 0; /* suppresses nothing */
    if ((int64_t)(r[2] - r[0] + 1) * (r[3] - r[1] + 1) > GRID_MAX_CELLS_PER_BOX) return push(g, &g->big, p);
    for (int y = r[1]; y <= r[3]; y++)
        for (int x = r[0]; x <= r[2]; x++)
            if (push(g, &g->head[y * g->G + x], p)) return -1;
    return 0;
}

int pfi_grid_suppressed(const pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p,
                        pfi_pair_fn sup) {
    int r[4];
    if (!cells(g, c, s, p, r)) return 0;
    for (int32_t e = g->big; e >= 0; e = g->ent[e].next)
        if (sup(c, s, g->ent[e].pos, p)) return 1;
    for (int y = r[1]; y <= r[3]; y++)
        for (int x = r[0]; x <= r[2]; x++)
            for (int32_t e = g->head[y * g->G + x]; e >= 0; e = g->ent[e].next)
                if (sup(c, s, g->ent[e].pos, p)) return 1;
    return 0;
}
