/* Scalar reference kernels of the post family: each is the per-element
 * function of src/kernels/ applied in a loop, and is what the SIMD
 * kernels are tested against. */
#include <math.h>

#include "kernels/box_math.h"
#include "kernels/mask_math.h"
#include "kernels/nms_math.h"
#include "ref/post_rows.h"

int32_t pfi_nms_tv_ref(const pfi_nms_cols *k, int32_t n, const float c[5], float off, float thr, int *hit) {
    *hit = 0;
    for (int32_t i = 0; i < n; i++) {
        float iou = pfk_nms_tv_iou(k->x1[i], k->y1[i], k->x2[i], k->y2[i], k->area[i], c[0], c[1], c[2], c[3],
                                   c[4], off);
        if (iou > thr) {
            *hit = 1;
            return n;
        }
    }
    return n;
}

static pfk_iou_box col_box(const pfi_nms_cols *b, int32_t j) {
    pfk_iou_box r = {b->x1[j], b->y1[j], b->x2[j], b->y2[j], b->area[j]};
    return r;
}

int32_t pfi_iou_row_ref(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out) {
    (void)eps;
    pfk_iou_box ab = {a[0], a[1], a[2], a[3], a[4]};
    for (int32_t j = 0; j < n; j++) {
        pfk_iou_box bb = col_box(b, j);
        float u;
        out[j] = pfk_box_iou(&ab, &bb, &u);
    }
    return n;
}

int32_t pfi_giou_row_ref(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out) {
    (void)eps;
    pfk_iou_box ab = {a[0], a[1], a[2], a[3], a[4]};
    for (int32_t j = 0; j < n; j++) {
        pfk_iou_box bb = col_box(b, j);
        out[j] = pfk_box_giou(&ab, &bb);
    }
    return n;
}

int32_t pfi_diou_row_ref(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out) {
    pfk_iou_box ab = {a[0], a[1], a[2], a[3], a[4]};
    for (int32_t j = 0; j < n; j++) {
        pfk_iou_box bb = col_box(b, j);
        float iou;
        out[j] = pfk_box_diou(&ab, &bb, eps, &iou);
    }
    return n;
}

int32_t pfi_argmax_row_ref(const float *const *planes, int32_t channels, int32_t n, uint8_t *out) {
    for (int32_t x = 0; x < n; x++) {
        float best = planes[0][x];
        int32_t bi = 0;
        for (int32_t c = 1; c < channels; c++) {
            float v = planes[c][x];
            if (pfk_argmax_takes(v, best)) {
                best = v;
                bi = c;
            }
        }
        out[x] = (uint8_t)bi;
    }
    return n;
}

int32_t pfi_thresh_row_ref(const float *src, int32_t n, float thr, uint8_t value, uint8_t *out) {
    for (int32_t x = 0; x < n; x++) out[x] = pfk_threshold_u8(src[x], thr, value);
    return n;
}

int32_t pfi_composite_row_ref(const uint8_t *fg, const uint8_t *bg, const uint8_t *mask, uint8_t *dst, int32_t n,
                              int32_t cn, int32_t dcn) {
    for (int32_t x = 0; x < n; x++) {
        uint8_t m = mask[x];
        for (int32_t c = 0; c < cn; c++) dst[x * dcn + c] = pfk_composite_u8(fg[x * cn + c], bg[x * cn + c], m);
        if (dcn > cn) dst[x * dcn + 3] = 255;
    }
    return n;
}

int32_t pfi_proto_row_ref(const float *coeff, int32_t m, const float *protos, ptrdiff_t plane_stride, int32_t n,
                          float *out) {
    for (int32_t x = 0; x < n; x++) {
        float s = coeff[0] * protos[x];
        for (int32_t k = 1; k < m; k++) {
            float t = coeff[k] * protos[(ptrdiff_t)k * plane_stride + x];
            s = s + t;
        }
        out[x] = s;
    }
    return n;
}

int32_t pfi_best_row_ref(const float *p, ptrdiff_t stride, int32_t channels, int32_t n, float *best,
                         int32_t *arg) {
    for (int32_t x = 0; x < n; x++) {
        float b = p[x];
        int nan = b != b;
        int32_t k = 0;
        for (int32_t c = 1; c < channels; c++) {
            float v = p[(ptrdiff_t)c * stride + x];
            nan |= v != v;
            if (v > b) b = v, k = c;
        }
        best[x] = nan ? NAN : b;
        arg[x] = k;
    }
    return n;
}
