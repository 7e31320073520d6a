/* Resize plans: everything about a (src size, dst size, dtype, channels,
 * interp, flavour, antialias) resize that does not depend on pixel
 * values. Built once per image (resize_tables.c: OpenCV semantics;
 * resize_aa_tables.c: Pillow semantics; resize_tv_tables.c: torch /
 * torchvision semantics) and consumed by the reference rows and every
 * executor (CPU scalar/SIMD, CUDA). */
#ifndef PF_PLAN_RESIZE_PLAN_H
#define PF_PLAN_RESIZE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/resize_math.h"
#include "pixflow/ops.h"

typedef struct pfi_axis {
    int32_t n;        /* outputs along this axis */
    int32_t ksize;    /* taps per output (padded with zero weights) */
    int32_t *idx;     /* n * ksize source indices (pixels/rows), in range */
    int16_t *icoef;   /* n * ksize, PFK_H_U8_I32 / u8 vertical fixed point */
    int32_t *acoef;   /* n * ksize, Pillow 22-bit (AA u8) */
    float *fcoef;     /* n * ksize, float kinds; also u8 cubic float lanes */
    int32_t *count;   /* n: real taps (<= ksize), the rest are zero-weight pads */
    int32_t shift;    /* fixed-point fraction bits of icoef for the torchvision u8 kinds */
} pfi_axis;

typedef struct pfi_resize_plan {
    pfk_rz_kind kind;
    pf_dtype dtype;
    int32_t cn;                 /* channels per pixel in one pass (1 for CHW planes) */
    int32_t sw, sh, dw, dh;
    /* NN */
    int32_t *nn_x, *nn_y;       /* source pixel column / row per output */
    /* AREA_FAST */
    int32_t afx, afy;           /* integer factors */
    /* SEP */
    pfk_h_kind hk;
    pfk_v_kind vk;
    pfi_axis h, v;
    int32_t vsplit;             /* elements [0, vsplit) of a row use the SIMD-lane formula */
    int32_t h_skip, v_skip;     /* torchvision: the axis keeps its size, so its pass (exact,
                                   one weight 2^shift) may be skipped as torch skips it */
    void *mem;                  /* single allocation backing every table */
} pfi_resize_plan;

/* Builds the plan for one image (cn = channels interleaved per pass).
 * Returns PF_ERR_OUT_OF_MEMORY / PF_ERR_UNSUPPORTED with a message. */
pf_status pfi_resize_plan_build(pfi_resize_plan *p, int32_t sw, int32_t sh, int32_t dw,
                                int32_t dh, int32_t cn, pf_dtype dtype, pf_interp interp,
                                pf_resize_flavor flavor, bool antialias);

/* The canonical (flavor, antialias) of public options: OPENCV with
 * antialias is PILLOW, PILLOW always antialiases; TORCHVISION keeps the
 * flag. Plans, caches and job builders use only canonical pairs. */
static inline void pfi_resize_canon(pf_resize_flavor *flavor, bool *antialias) {
    if (*flavor == PF_RESIZE_OPENCV && *antialias) *flavor = PF_RESIZE_PILLOW;
    if (*flavor == PF_RESIZE_PILLOW) *antialias = true;
    if (*flavor == PF_RESIZE_OPENCV) *antialias = false;
}
void pfi_resize_plan_free(pfi_resize_plan *p);

/* Resize-then-crop: the plan of a resize to rw x rh keeping only the
 * outputs of the window at (wx, wy) of the destination's size (rw == 0:
 * none). torchvision's Resize + CenterCrop is exactly this. */
typedef struct pfi_rz_window {
    int32_t rw, rh, wx, wy;
} pfi_rz_window;

/* Narrows a built plan (of the full rw x rh output) to the window
 * [wx, wx + ww) x [wy, wy + wh): every output keeps its taps and weights.
 * PF_ERR_UNSUPPORTED for the kinds whose arithmetic depends on the output
 * position in the full row (OpenCV's AREA_FAST, the SIMD-lane splits). */
pf_status pfi_resize_plan_window(pfi_resize_plan *p, int32_t wx, int32_t wy, int32_t ww, int32_t wh);

/* Zeroed storage for one axis's arrays (n outputs x ksize taps) in one
 * block, returned for free(); NULL when out of memory. */
void *pfi_axis_alloc(pfi_axis *a, int32_t n, int32_t ksize);

/* Pillow-style antialias tables for one axis (resize_aa_tables.c). */
pf_status pfi_aa_axis_build(pfi_axis *a, int32_t in_size, int32_t out_size, pf_interp interp,
                            bool fixed_point, void **mem);

/* Bytes of one horizontal buffer row for the plan (dw * cn elements). */
size_t pfi_resize_buf_row_bytes(const pfi_resize_plan *p);

#endif
