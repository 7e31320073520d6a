/* The per-sample plan of every filter op: pf_gaussian_blur, pf_box_blur,
 * pf_median_blur, pf_filter_2d, pf_erode, pf_dilate and pf_sharpen reduce
 * to one (src/ops/filter_op.c) with OpenCV's windows, anchors and
 * fixed-point taps, which a backend runs (CPU: src/cpu/filter_run.c). */
#ifndef PF_OPS_FILTER_PLAN_H
#define PF_OPS_FILTER_PLAN_H

#include <stdint.h>

#include "ref/filter_rows.h"

typedef enum pfi_filter_kind {
    PFI_FK_COPY, PFI_FK_GAUSS, PFI_FK_BOX, PFI_FK_MEDIAN, PFI_FK_CONV2D, PFI_FK_ERODE, PFI_FK_DILATE,
    PFI_FK_SHARPEN
} pfi_filter_kind;

/* Everything one sample needs. Arrays point into `mem` (one allocation
 * owned by the plan, freed by pfi_filter_plan_free). */
typedef struct pfi_filter_plan {
    pfi_filter_kind kind;
    int32_t kx, ky;     /* window */
    int32_t ax, ay;     /* anchor inside the window */
    int border;         /* pf_border (median: REPLICATE) */
    uint16_t *qx, *qy;  /* Gaussian u8: 8.8 taps (reduced by 2^sx, 2^sy when gshift > 0) */
    int32_t gshift;     /* Gaussian u8: > 0 selects the 16-bit vertical pass with this shift */
    float *fx, *fy;     /* Gaussian f32: taps */
    uint32_t *wx, *wy;  /* Gaussian u16: 16.16 taps; box u16: ones (wx) */
    pfi_taps2d taps;    /* filter_2d: non-zero taps */
    float delta;        /* filter_2d */
    double border_value[4]; /* CONSTANT border value per channel (0 except morphology) */
    float g;            /* sharpen: (float)(1 - factor), the blend's alpha */
    void *mem;
} pfi_filter_plan;

/* Frees the plan's arrays (p->mem). */
void pfi_filter_plan_free(pfi_filter_plan *p);

#endif
