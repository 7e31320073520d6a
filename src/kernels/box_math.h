/* Per-element box arithmetic of torchvision.ops (box_convert, box_iou,
 * generalized / distance / complete IoU), shared by the CPU reference, the
 * SIMD kernels' tails and the GPU. torch's elementwise semantics: maximum
 * and minimum propagate NaN (and, like its vectorized kernels, pick the
 * second operand between equal values), clamp(min=0) keeps NaN and -0. */
#ifndef PF_KERNELS_BOX_MATH_H
#define PF_KERNELS_BOX_MATH_H

#include "kernels/pf_hd.h"
#include "pixflow/post.h" /* pf_box_format */

PF_HD float pfk_torch_maximum(float a, float b) {
    if (a != a || b != b) return NAN;
    return a > b ? a : b;
}
PF_HD float pfk_torch_minimum(float a, float b) {
    if (a != a || b != b) return NAN;
    return a < b ? a : b;
}
/* Tensor.clamp(min=0): max_ps(0, x) keeps a NaN x and -0. */
PF_HD float pfk_torch_clamp0(float x) { return 0.0f > x ? 0.0f : x; }

/* Everything the IoU family needs about one xyxy box. */
typedef struct pfk_iou_box {
    float x1, y1, x2, y2, area;
} pfk_iou_box;

PF_HD pfk_iou_box pfk_iou_box_of(const float *b) {
    pfk_iou_box r = {b[0], b[1], b[2], b[3], (b[2] - b[0]) * (b[3] - b[1])};
    return r;
}

/* box_iou: inter / union with union = area1 + area2 - inter. *uni gets
 * the union (GIoU needs it). */
PF_HD float pfk_box_iou(const pfk_iou_box *a, const pfk_iou_box *b, float *uni) {
    float ltx = pfk_torch_maximum(a->x1, b->x1), lty = pfk_torch_maximum(a->y1, b->y1);
    float rbx = pfk_torch_minimum(a->x2, b->x2), rby = pfk_torch_minimum(a->y2, b->y2);
    float w = pfk_torch_clamp0(rbx - ltx), h = pfk_torch_clamp0(rby - lty);
    float inter = w * h;
    float u = (a->area + b->area) - inter;
    *uni = u;
    return inter / u;
}

/* The enclosing box's width and height (clamped). */
PF_HD void pfk_box_enclosing(const pfk_iou_box *a, const pfk_iou_box *b, float *w, float *h) {
    float ltx = pfk_torch_minimum(a->x1, b->x1), lty = pfk_torch_minimum(a->y1, b->y1);
    float rbx = pfk_torch_maximum(a->x2, b->x2), rby = pfk_torch_maximum(a->y2, b->y2);
    *w = pfk_torch_clamp0(rbx - ltx);
    *h = pfk_torch_clamp0(rby - lty);
}

PF_HD float pfk_box_giou(const pfk_iou_box *a, const pfk_iou_box *b) {
    float u, iou = pfk_box_iou(a, b, &u), w, h;
    pfk_box_enclosing(a, b, &w, &h);
    float areai = w * h;
    return iou - (areai - u) / areai;
}

/* DIoU; *iou_out gets the plain IoU (CIoU needs it). */
PF_HD float pfk_box_diou(const pfk_iou_box *a, const pfk_iou_box *b, float eps, float *iou_out) {
    float u, iou = pfk_box_iou(a, b, &u), w, h;
    pfk_box_enclosing(a, b, &w, &h);
    float diag = (w * w + h * h) + eps;
    float xp = (a->x1 + a->x2) / 2, yp = (a->y1 + a->y2) / 2;
    float xg = (b->x1 + b->x2) / 2, yg = (b->y1 + b->y2) / 2;
    float dx = xp - xg, dy = yp - yg;
    float cd = dx * dx + dy * dy;
    *iou_out = iou;
    return iou - cd / diag;
}

/* torchvision.ops box_convert to and from xyxy (float32, torchvision's
 * expressions). fmt: a pf_box_format. */
PF_HD void pfk_box_to_xyxy(const float *in, int fmt, float *o) {
    float a = in[0], b = in[1], c = in[2], d = in[3];
    switch (fmt) {
    case PF_BOX_XYWH: o[0] = a; o[1] = b; o[2] = a + c; o[3] = b + d; break;
    case PF_BOX_CXCYWH: o[0] = a - 0.5f * c; o[1] = b - 0.5f * d; o[2] = a + 0.5f * c; o[3] = b + 0.5f * d; break;
    case PF_BOX_YXYX: o[0] = b; o[1] = a; o[2] = d; o[3] = c; break;
    default: o[0] = a; o[1] = b; o[2] = c; o[3] = d; break;
    }
}

PF_HD void pfk_box_from_xyxy(const float *in, int fmt, float *o) {
    float x1 = in[0], y1 = in[1], x2 = in[2], y2 = in[3];
    switch (fmt) {
    case PF_BOX_XYWH: o[0] = x1; o[1] = y1; o[2] = x2 - x1; o[3] = y2 - y1; break;
    case PF_BOX_CXCYWH: o[0] = (x1 + x2) / 2; o[1] = (y1 + y2) / 2; o[2] = x2 - x1; o[3] = y2 - y1; break;
    case PF_BOX_YXYX: o[0] = y1; o[1] = x1; o[2] = y2; o[3] = x2; break;
    default: o[0] = x1; o[1] = y1; o[2] = x2; o[3] = y2; break;
    }
}

#endif
