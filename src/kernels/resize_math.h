/* Per-pixel resize arithmetic, shared by the CPU reference, the SIMD
 * kernels' scalar tails and the CUDA kernels. Each function is one output
 * element; its operation order is the specification (docs/exactness.md). */
#ifndef PF_KERNELS_RESIZE_MATH_H
#define PF_KERNELS_RESIZE_MATH_H

#include "kernels/pf_hd.h"

/* The resize plan's kinds (src/plan/resize_plan.h), shared by the CPU
 * executor and the GPU jobs. */
typedef enum pfk_rz_kind {
    PFK_RZ_COPY,      /* same size: plain copy (cv::resize does this too) */
    PFK_RZ_NN,        /* nearest / nearest-exact: xofs + yofs lookups */
    PFK_RZ_AREA_FAST, /* OpenCV integer-factor area average */
    PFK_RZ_SEP        /* separable: horizontal taps into a row cache, then vertical taps */
} pfk_rz_kind;

/* Horizontal pass arithmetic (source row -> buffer row). */
typedef enum pfk_h_kind {
    PFK_H_U8_I32,   /* u8 src, int16 coefs, int32 sums (OpenCV fixed point) */
    PFK_H_U8_LIN16, /* u8 LINEAR: as PFK_H_U8_I32 with 2 taps, stored as int16 sum >> 4
                       (the pre-shift of OpenCV's u8 linear vertical step; < 2^15) */
    PFK_H_F32,      /* u8/u16/f32 src, float coefs, float sums left-to-right */
    PFK_H_AA_U8,    /* u8 src, int32 22-bit coefs, Pillow clip8 to a u8 buffer */
    PFK_H_TV_U8     /* u8 src, torch's int16 coefs (pairs as PFK_H_U8_I32), rounded with the
                       axis precision and clamped to a u8 buffer (torchvision flavour) */
} pfk_h_kind;

/* Vertical pass arithmetic (ksize buffer rows -> destination row). */
typedef enum pfk_v_kind {
    PFK_V_U8_LINEAR,   /* OpenCV u8 linear on PFK_H_U8_LIN16 rows (mulhi, +2 >>2) */
    PFK_V_U8_FIX22,    /* int sums, (s + 2^21) >> 22 */
    PFK_V_U8_CUBIC,    /* float on [0, split), FIX22 on [split, width) */
    PFK_V_F32,         /* float sums; left-to-right on [split, width), nested
                          (innermost last tap first) on [0, split) */
    PFK_V_AA_U8,       /* u8 rows, 22-bit coefs, Pillow clip8 */
    PFK_V_TV_U8        /* u8 rows, torch's int16 coefs (icoef), the axis precision (torchvision) */
} pfk_v_kind;

/* Element types of the float passes (the CPU tables' h_f32 / v_f32 index). */
enum { PFK_RZ_T_U8 = 0, PFK_RZ_T_U16 = 1, PFK_RZ_T_F32 = 2, PFK_RZ_T_COUNT = 3 };

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

/* torch's u8 interpolate step: the accumulator already holds the rounding
 * half 2^(shift-1) and the int16-weighted sum; arithmetic shift, clamp. */
PF_HD uint8_t pfk_tv_u8(int32_t acc, int32_t shift) {
    return pfk_sat_u8_i(acc >> shift);
}

#endif
