/* Border extrapolation shared by every op that reads outside an image
 * (copy_make_border, and later warps and filters), CPU and GPU alike.
 * Semantics of OpenCV's cv::borderInterpolate. */
#ifndef PF_KERNELS_BORDER_MATH_H
#define PF_KERNELS_BORDER_MATH_H

#include "kernels/pf_hd.h"

/* Border mode values as pf_border (OpenCV's cv::BorderTypes). */
enum { PFK_BORDER_CONSTANT = 0, PFK_BORDER_REPLICATE = 1, PFK_BORDER_REFLECT = 2,
       PFK_BORDER_WRAP = 3, PFK_BORDER_REFLECT_101 = 4 };

/* Index in [0, len) that coordinate p reads under `mode`, or -1 for
 * PFK_BORDER_CONSTANT outside the image. len >= 1. Reflections fold
 * repeatedly, so borders wider than the image are well defined. */
PF_HD int32_t pfk_border_index(int32_t p, int32_t len, int mode) {
    if (p >= 0 && p < len) return p;
    switch (mode) {
    case PFK_BORDER_REPLICATE:
        return p < 0 ? 0 : len - 1;
    case PFK_BORDER_REFLECT:
    case PFK_BORDER_REFLECT_101: {
        int32_t delta = mode == PFK_BORDER_REFLECT_101;
        if (len == 1) return 0;
        /* one period of the reflected pattern is 2*len - 2*delta */
        int32_t period = 2 * len - 2 * delta;
        int32_t q = p < 0 ? -p - 1 + delta : p; /* fold negatives onto the right side */
        q %= period;
        return q < len ? q : period - q - 1 + delta;
    }
    case PFK_BORDER_WRAP: {
        int32_t q = p % len;
        return q < 0 ? q + len : q;
    }
    default:
        return -1;
    }
}

#endif
