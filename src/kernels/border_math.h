/* Border extrapolation shared by every op that reads outside an image
 * (copy_make_border, and later warps and filters), CPU and GPU alike.
 * Semantics of OpenCV's cv::borderInterpolate. */
#ifndef PF_KERNELS_BORDER_MATH_H
#define PF_KERNELS_BORDER_MATH_H

#include "kernels/pf_hd.h"
#include "pixflow/ops.h" /* pf_border, PF_BORDER_TRANSPARENT, pf_interp: the modes kernels branch on */

/* Index in [0, len) that coordinate p reads under `mode`, or -1 for
 * PF_BORDER_CONSTANT outside the image. len >= 1. Reflections fold
 * repeatedly, so borders wider than the image are well defined. */
PF_HD int32_t pfk_border_index(int32_t p, int32_t len, int mode) {
    if (p >= 0 && p < len) return p;
    switch (mode) {
    case PF_BORDER_REPLICATE:
        return p < 0 ? 0 : len - 1;
    case PF_BORDER_REFLECT:
    case PF_BORDER_REFLECT_101: {
        int32_t delta = mode == PF_BORDER_REFLECT_101;
        if (len == 1) return 0;
        /* one period of the reflected pattern is 2*len - 2*delta */
        int32_t period = 2 * len - 2 * delta;
        int32_t q = p < 0 ? -p - 1 + delta : p; /* fold negatives onto the right side */
        q %= period;
        return q < len ? q : period - q - 1 + delta;
    }
    case PF_BORDER_WRAP: {
        int32_t q = p % len;
        return q < 0 ? q + len : q;
    }
    default:
        return -1;
    }
}

#endif
