/* One sample's NMS candidates: score filter, stable descending sort, top-k,
 * and the boxes in the semantics' native form (torchvision xyxy float +
 * areas, OpenCV Rect2d, ONNX raw), class offsets applied. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/box_math.h"
#include "kernels/nms_math.h"
#include "post/nms_internal.h"
#include "post/post_sort.h"

void pfi_nms_set_free(pfi_nms_set *set) {
    free(set->mem);
    memset(set, 0, sizeof *set);
}

static int passes(const pfi_nms_cfg *c, float s, int soft) {
    if (c->sem != PF_NMS_TORCHVISION && s != s) return 0; /* OpenCV, ONNX: NaN never competes */
    if (soft) return s >= c->score_thr;                    /* OpenCV softNMSBoxes: below = out */
    if (c->filter || c->sem == PF_NMS_OPENCV) return s > c->score_thr;
    return 1;
}

static int cls_of(const pf_nms_sample *s, int32_t i) { return s->classes ? s->classes[i] : 0; }

/* torchvision's automatic offset: boxes.max() + 1 over the boxes entering
 * NMS (xyxy, float; a NaN anywhere makes it NaN, like torch.max). */
static float tv_auto_offset(const pfi_nms_set *set, const pf_nms_sample *s, pf_box_format fmt) {
    float m = -INFINITY;
    int nan = 0;
    for (int32_t p = 0; p < set->n; p++) {
        float b[4];
        pfk_box_to_xyxy(s->boxes + (size_t)set->idx[p] * 4, (int)fmt, b);
        for (int k = 0; k < 4; k++) {
            if (b[k] != b[k]) nan = 1;
            if (b[k] > m) m = b[k];
        }
    }
    return nan ? NAN : m + 1.0f;
}

/* NMSBoxesBatched's max_coord over every box of the sample (before the
 * score filter), std::max(v, max_coord) in OpenCV's order, from 0. */
static double cv_auto_offset(const pf_nms_sample *s, pf_box_format fmt) {
    double m = 0;
    for (int32_t i = 0; i < s->n; i++) {
        float r[4], b[4];
        pfk_box_to_xyxy(s->boxes + (size_t)i * 4, (int)fmt, b);
        pfk_box_from_xyxy(b, PF_BOX_XYWH, r);
        double x1 = (double)r[0], y1 = (double)r[1], x2 = x1 + (double)r[2], y2 = y1 + (double)r[3];
        m = pfk_std_max(x1, m);
        m = pfk_std_max(y1, m);
        m = pfk_std_max(x2, m);
        m = pfk_std_max(y2, m);
    }
    return m + 1;
}

int pfi_nms_prepare(const pfi_nms_cfg *c, const pf_nms_sample *s, int soft, pfi_nms_set *set) {
    memset(set, 0, sizeof *set);
    int32_t n = s->n;
    size_t nn = n > 0 ? (size_t)n : 1;
    /* idx, cls, score, keys, tmp keys, tmp vals: 6 x 4 bytes; boxes: 5
     * floats or 4 doubles */
    size_t box_bytes = c->sem == PF_NMS_OPENCV ? 4 * sizeof(double) : 5 * sizeof(float);
    uint8_t *mem = malloc(nn * (6 * 4 + box_bytes) + 64);
    if (mem == NULL) return -1;
    set->mem = mem;
    set->stride = nn;
    double *d = (double *)(void *)mem; /* doubles first: aligned */
    uint8_t *q = mem + (c->sem == PF_NMS_OPENCV ? nn * box_bytes : 0);
    set->idx = (int32_t *)(void *)q;
    set->cls = set->idx + nn;
    set->score = (float *)(void *)(set->cls + nn);
    uint32_t *keys = (uint32_t *)(void *)(set->score + nn), *tk = keys + nn;
    int32_t *tv = (int32_t *)(void *)(tk + nn);
    float *f = (float *)(void *)(tv + nn);

    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        float sc = s->scores[i];
        if (!passes(c, sc, soft)) continue;
        keys[m] = pfk_score_key_desc(sc);
        set->idx[m++] = i;
    }
    pfi_radix_sort(keys, set->idx, tk, tv, m);
    if (c->top_k > 0 && m > c->top_k) m = c->top_k;
    set->n = m;
    for (int32_t p = 0; p < m; p++) {
        set->cls[p] = cls_of(s, set->idx[p]);
        set->score[p] = s->scores[set->idx[p]];
    }

    int offset_mode = c->classes == PF_NMS_CLASS_OFFSET;
    if (c->sem == PF_NMS_TORCHVISION) {
        set->f = f;
        float *x1 = f, *y1 = f + nn, *x2 = f + 2 * nn, *y2 = f + 3 * nn, *ar = f + 4 * nn;
        float k = 0.0f;
        if (offset_mode) k = c->class_offset != 0.0f ? c->class_offset : tv_auto_offset(set, s, c->fmt);
        for (int32_t p = 0; p < m; p++) {
            float b[4];
            pfk_box_to_xyxy(s->boxes + (size_t)set->idx[p] * 4, (int)c->fmt, b);
            if (offset_mode) { /* idxs.to(boxes) * K; boxes + offsets[:, None] */
                float o = (float)set->cls[p] * k;
                for (int j = 0; j < 4; j++) b[j] = b[j] + o;
            }
            x1[p] = b[0];
            y1[p] = b[1];
            x2[p] = b[2];
            y2[p] = b[3];
            ar[p] = pfk_nms_tv_area(b[0], b[1], b[2], b[3], c->off);
        }
    } else if (c->sem == PF_NMS_OPENCV) {
        set->d = d;
        double *bx = d, *by = d + nn, *bw = d + 2 * nn, *bh = d + 3 * nn;
        double k = 0;
        if (offset_mode) k = c->class_offset != 0.0f ? (double)c->class_offset : cv_auto_offset(s, c->fmt);
        for (int32_t p = 0; p < m; p++) {
            const float *src = s->boxes + (size_t)set->idx[p] * 4;
            float r[4], b[4];
            if (c->fmt == PF_BOX_XYWH) memcpy(r, src, sizeof r);
            else {
                pfk_box_to_xyxy(src, (int)c->fmt, b);
                pfk_box_from_xyxy(b, PF_BOX_XYWH, r);
            }
            double o = offset_mode ? (double)set->cls[p] * k : 0.0;
            bx[p] = (double)r[0] + o;
            by[p] = (double)r[1] + o;
            bw[p] = (double)r[2];
            bh[p] = (double)r[3];
        }
    } else {
        set->f = f;
        set->center = c->fmt == PF_BOX_CXCYWH;
        for (int32_t p = 0; p < m; p++) {
            const float *src = s->boxes + (size_t)set->idx[p] * 4;
            float *o = f + (size_t)p * 4, b[4];
            if (c->fmt == PF_BOX_YXYX || c->fmt == PF_BOX_CXCYWH) memcpy(o, src, 4 * sizeof(float));
            else {
                pfk_box_to_xyxy(src, (int)c->fmt, b);
                pfk_box_from_xyxy(b, PF_BOX_YXYX, o);
            }
        }
    }
    return 0;
}
