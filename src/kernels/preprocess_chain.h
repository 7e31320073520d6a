/* The fused preprocess's per-sample chain (src/augment/preprocess_plan.h
 * decides it, the CPU and CUDA backends execute it): how the canvas is
 * sampled from the crop, and the colour steps, which are PF_JITTER_*
 * values (pixflow/augment.h) or PFK_PP_OP_NONE. */
#ifndef PF_KERNELS_PREPROCESS_CHAIN_H
#define PF_KERNELS_PREPROCESS_CHAIN_H

#include "pixflow/augment.h"

enum {
    PFK_PP_COPY = 0,   /* the crop has the canvas size: a copy */
    PFK_PP_RESIZE = 1, /* resize with the plan's interp / antialias */
    PFK_PP_WARP = 2    /* warp_affine of the crop (the composed inverse matrix) */
};

#define PFK_PP_OP_NONE (-1) /* a colour step that does not run */

#endif
