/* Soft-NMS, the loop of OpenCV's softNMSBoxes: repeatedly take the best
 * remaining candidate (highest current score, the lowest index on ties),
 * stop when it is below the score threshold, and decay every remaining
 * candidate that is still at or above it (same group only):
 *   linear:   score *= 1 - overlap when overlap > (float)iou_threshold
 *   gaussian: score *= expf(-(overlap * overlap) / sigma)
 * overlap is the semantics' IoU of (selected, candidate). Quadratic, like
 * OpenCV's. */
#include <math.h>
#include <stdlib.h>

#include "kernels/nms_math.h"
#include "post/nms_internal.h"

static float overlap(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t a, int32_t b) {
    size_t n = s->stride;
    if (c->sem == PF_NMS_OPENCV) {
        const double *d = s->d;
        return pfk_nms_cv_overlap(d[a], d[n + a], d[2 * n + a], d[3 * n + a], d[b], d[n + b], d[2 * n + b],
                                  d[3 * n + b]);
    }
    const float *f = s->f; /* torchvision: a is the kept box */
    return pfk_nms_tv_iou(f[a], f[n + a], f[2 * n + a], f[3 * n + a], f[4 * n + a], f[b], f[n + b], f[2 * n + b],
                          f[3 * n + b], f[4 * n + b], c->off);
}

int32_t pfi_nms_soft(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t *pos, float *out_sc) {
    int32_t n = s->n;
    if (n == 0) return 0;
    float *sc = malloc((size_t)n * sizeof *sc);
    uint8_t *done = calloc((size_t)n, 1);
    if (sc == NULL || done == NULL) {
        free(sc);
        free(done);
        return -1;
    }
    for (int32_t p = 0; p < n; p++) sc[p] = s->score[p];
    int32_t limit = c->max_out > 0 && c->max_out < n ? c->max_out : n, nk = 0;
    int same_class_only = c->classes == PF_NMS_PER_CLASS;
    while (nk < limit) {
        int32_t best = -1;
        for (int32_t p = 0; p < n; p++) {
            if (done[p]) continue;
            if (best < 0 || sc[p] > sc[best] || (sc[p] == sc[best] && s->idx[p] < s->idx[best])) best = p;
        }
        if (best < 0 || sc[best] < c->score_thr) break;
        done[best] = 1;
        pos[nk] = best;
        out_sc[nk++] = sc[best];
        for (int32_t p = 0; p < n; p++) {
            if (done[p] || sc[p] < c->score_thr) continue;
            if (same_class_only && s->cls[p] != s->cls[best]) continue;
            float ov = overlap(c, s, best, p);
            if (c->soft == PF_SOFT_NMS_LINEAR) {
                if (ov > c->thr_f) sc[p] *= 1.f - ov;
            } else {
                sc[p] *= expf(-(ov * ov) / c->sigma);
            }
        }
    }
    free(sc);
    free(done);
    return nk;
}
