/* The post-processing kernels: a typed table per ISA level, the scalar
 * reference kernels (the specification of each slot) and the ISA fill
 * functions. SIMD kernels handle whole vectors only and report how far
 * they got; the callers finish with the reference, so no kernel has tail
 * logic. The room's own dispatch (post_dispatch.c) follows the CPU
 * backend's kernel families: tables built once, a level the CPU lacks
 * keeps the level below, fills compiled per ISA and called after CPUID. */
#ifndef PF_POST_KERNELS_H
#define PF_POST_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"

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

/* One level's table. */
typedef struct pfi_post_kernels {
    pfi_nms_tv_fn nms_tv;           /* torchvision IoU of one candidate vs kept boxes */
    pfi_iou_row_fn iou_row[3];      /* box_iou / GIoU / DIoU of one box vs a row of boxes */
    pfi_argmax_row_fn argmax_row;   /* argmax over channel planes */
    pfi_thresh_row_fn thresh_row;   /* logit > threshold ? value : 0 */
    pfi_composite_row_fn composite_row;
    pfi_proto_row_fn proto_row;     /* sum_m coeff[m] * proto[m][x] */
    pfi_best_row_fn best_row;       /* largest channel value, NaN-propagating */
} pfi_post_kernels;

#define PFI_POST_SLOTS ((int)(sizeof(pfi_post_kernels) / sizeof(void (*)(void))))

/* The table of the stream's ISA level (NULL: the current cap). */
const pfi_post_kernels *pfi_post_kernels_for(const pf_stream *stream);
/* The table of `level` (levels above the CPU hold the CPU's best); and
 * the level each slot's kernel really comes from (tests, reports). */
const pfi_post_kernels *pfi_post_kernels_at(pf_isa level);
pf_isa pfi_post_slot_isa(pf_isa level, int slot);
extern const char *const pfi_post_slot_names[];

/* Reference kernels (src/post/post_ref.c). */
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

void pfi_post_fill_avx2(pfi_post_kernels *k);
void pfi_post_fill_avx512(pfi_post_kernels *k);

#endif
