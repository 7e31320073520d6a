/* Post-processing row kernels: the reference (the specification of each
 * slot of the post family, src/post/post_kernels.h) and the contract the
 * optimized kernels follow. SIMD kernels handle whole vectors only and
 * report how far they got; the callers finish with the reference, so no
 * kernel has tail logic. */
#ifndef PF_REF_POST_ROWS_H
#define PF_REF_POST_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* Kept boxes as columns: x1, y1, x2, y2, area (torchvision semantics). */
typedef struct pfi_nms_cols {
    const float *x1, *y1, *x2, *y2, *area;
} pfi_nms_cols;

/* Checks kept boxes [0, n) against the candidate c = {x1, y1, x2, y2,
 * area}: returns how many it examined (a multiple of its vector width; all
 * of them for the reference) and sets *hit when one suppresses c, i.e.
 * IoU > thr (thr from pfk_nms_thr_down). It may stop at the first hit. */
typedef int32_t (*pfi_nms_tv_fn)(const pfi_nms_cols *k, int32_t n, const float c[5], float off, float thr,
                                 int *hit);

/* out[j] = IoU kind of a vs b[j] for j in [0, n) (b as columns, areas
 * precomputed); returns how many it wrote. eps: DIoU only. */
typedef int32_t (*pfi_iou_row_fn)(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out);

/* out[x] = argmax over c of planes[c][x], x in [0, n). */
typedef int32_t (*pfi_argmax_row_fn)(const float *const *planes, int32_t channels, int32_t n, uint8_t *out);
typedef int32_t (*pfi_thresh_row_fn)(const float *src, int32_t n, float thr, uint8_t value, uint8_t *out);

/* n pixels of fg/bg (cn channels, interleaved), mask (1 per pixel) into
 * dst (dcn = cn, or 4 with cn 3: alpha 255). */
typedef int32_t (*pfi_composite_row_fn)(const uint8_t *fg, const uint8_t *bg, const uint8_t *mask, uint8_t *dst,
                                        int32_t n, int32_t cn, int32_t dcn);

/* out[x] = ((c[0] * p[0][x] + c[1] * p[1][x]) + ...) over m planes
 * plane_stride floats apart, x in [0, n). */
typedef int32_t (*pfi_proto_row_fn)(const float *coeff, int32_t m, const float *protos, ptrdiff_t plane_stride,
                                    int32_t n, float *out);

/* For x in [0, n): best[x] = the largest of p[c * stride + x] over c in
 * [0, channels), NaN when any of them is NaN (torch.amax), and arg[x] the
 * first c holding it (torch's max(dim)); arg is unspecified where best is
 * NaN (YOLO's candidates need best > conf, which NaN fails). */
typedef int32_t (*pfi_best_row_fn)(const float *p, ptrdiff_t stride, int32_t channels, int32_t n, float *best,
                                   int32_t *arg);

/* Reference kernels (src/ref/post_ref.c). */
int32_t pfi_nms_tv_ref(const pfi_nms_cols *k, int32_t n, const float c[5], float off, float thr, int *hit);
int32_t pfi_iou_row_ref(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out);
int32_t pfi_giou_row_ref(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out);
int32_t pfi_diou_row_ref(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out);
int32_t pfi_argmax_row_ref(const float *const *planes, int32_t channels, int32_t n, uint8_t *out);
int32_t pfi_thresh_row_ref(const float *src, int32_t n, float thr, uint8_t value, uint8_t *out);
int32_t pfi_composite_row_ref(const uint8_t *fg, const uint8_t *bg, const uint8_t *mask, uint8_t *dst, int32_t n,
                              int32_t cn, int32_t dcn);
int32_t pfi_proto_row_ref(const float *coeff, int32_t m, const float *protos, ptrdiff_t plane_stride, int32_t n,
                          float *out);
int32_t pfi_best_row_ref(const float *p, ptrdiff_t stride, int32_t channels, int32_t n, float *best,
                         int32_t *arg);

#endif
