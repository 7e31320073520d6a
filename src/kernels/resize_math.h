/* Per-pixel resize arithmetic, shared by the CPU reference, the SIMD
 * kernels' scalar tails and the CUDA kernels. Each function is one output
 * element; its operation order is the specification (docs/exactness.md). */
#ifndef PF_KERNELS_RESIZE_MATH_H
#define PF_KERNELS_RESIZE_MATH_H

#include "kernels/pf_hd.h"

/* OpenCV's fixed point: 11-bit coefficients (INTER_RESIZE_COEF_BITS). */
#define PFK_COEF_BITS 11
#define PFK_COEF_ONE (1 << PFK_COEF_BITS)
/* Pillow's fixed point for 8-bit antialiased resampling (32 - 8 - 2). */
#define PFK_AA_BITS 22

/* Keys cubic, A = -0.75, as OpenCV's interpolateCubic (float, in order). */
PF_HD void pfk_cubic_coeffs(float x, float c[4]) {
    const float A = -0.75f;
    c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = 1.f - c[0] - c[1] - c[2];
}

/* u8 LINEAR vertical step (OpenCV VResizeLinear<uchar> specialisation):
 * the 32-bit horizontal sums are pre-shifted by 4 and multiplied as 16-bit
 * high halves, then rounded by 2 bits. */
PF_HD uint8_t pfk_v_u8_linear(int32_t s0, int32_t s1, int16_t b0, int16_t b1) {
    int32_t v = ((b0 * (s0 >> 4)) >> 16) + ((b1 * (s1 >> 4)) >> 16) + 2;
    return pfk_sat_u8_i(v >> 2);
}

/* The same step on pre-shifted sums t = s >> 4 (u8 x LINEAR weights: s <=
 * 255 * 2049, so t < 2^15 fits int16, as OpenCV's SIMD packs it): each
 * product's high 16 bits (pmulhw), then the 2-bit rounding. */
PF_HD uint8_t pfk_v_u8_linear16(int16_t t0, int16_t t1, int16_t b0, int16_t b1) {
    int32_t v = ((b0 * t0) >> 16) + ((b1 * t1) >> 16) + 2;
    return pfk_sat_u8_i(v >> 2);
}

/* u8 fixed point with 22 fractional bits (11 horizontal + 11 vertical):
 * OpenCV FixedPtCast<int, uchar, 22>. */
PF_HD uint8_t pfk_v_u8_fix22(int32_t sum) {
    return pfk_sat_u8_i((sum + (1 << 21)) >> 22);
}

/* u8 CUBIC vertical step on OpenCV's SIMD lanes: the integer sums are
 * converted to float and weighted by beta * 2^-22, accumulated innermost
 * first (v_muladd nesting), then rounded half-to-even. */
PF_HD uint8_t pfk_v_u8_cubic_float(int32_t s0, int32_t s1, int32_t s2, int32_t s3,
                                   float b0, float b1, float b2, float b3) {
    float t = (float)s3 * b3;
    t = (float)s2 * b2 + t;
    t = (float)s1 * b1 + t;
    t = (float)s0 * b0 + t;
    return pfk_sat_u8_f(t);
}

/* Pillow clip8: 22-bit fixed point accumulator (already holding the
 * rounding half) to u8. */
PF_HD uint8_t pfk_aa_clip8(int32_t ss) {
    if (ss >= (255 << PFK_AA_BITS)) return 255;
    if (ss <= 0) return 0;
    return (uint8_t)(ss >> PFK_AA_BITS);
}

#endif
