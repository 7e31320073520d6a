/* Per-pixel mask math shared by the CPU reference, the SIMD tails and the
 * GPU: argmax over channels (torch.argmax: the first maximum; NaN counts
 * as the largest value, its first occurrence wins), threshold, and
 * CV-CUDA Composite's blend. */
#ifndef PF_KERNELS_MASK_MATH_H
#define PF_KERNELS_MASK_MATH_H

#include <stdint.h>

#include "kernels/pf_hd.h"

/* Does v replace the running maximum best? */
PF_HD int pfk_argmax_takes(float v, float best) { return v > best || (v != v && best == best); }

PF_HD uint8_t pfk_threshold_u8(float v, float thr, uint8_t value) { return v > thr ? value : (uint8_t)0; }

/* CV-CUDA's AlphaLerp(bg, fg, m): int((fg - bg) * m * Inv_255 + bg + 0.5f)
 * with the int product converted to float, Inv_255 = 0.00392156862f, and
 * the float operations in that order, unfused. */
#define PFK_INV_255 0.00392156862f
PF_HD uint8_t pfk_composite_u8(uint8_t fg, uint8_t bg, uint8_t m) {
    int32_t p = ((int32_t)fg - (int32_t)bg) * (int32_t)m;
    float v = (float)p * PFK_INV_255;
    v = v + (float)bg;
    v = v + 0.5f;
    return (uint8_t)(int32_t)v;
}

#endif
