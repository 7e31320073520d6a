/* Filter coefficients shared by the CPU reference, the SIMD kernels and
 * (later) CUDA: OpenCV's Gaussian kernel and its 8.8 fixed-point
 * quantization, the exact box-filter division, torchvision's sharpness
 * kernel. Semantics learned from OpenCV 4.6 (smooth.dispatch.cpp,
 * box_filter.simd.hpp) and torchvision's functional_tensor.py. */
#ifndef PF_KERNELS_FILTER_MATH_H
#define PF_KERNELS_FILTER_MATH_H

#include "kernels/border_math.h"
#include "kernels/pf_hd.h"

/* Largest Gaussian / box / morphology / filter_2d kernel side pixflow
 * accepts (a sanity bound on user input; OpenCV has none). */
#define PFK_FILTER_MAX_KSIZE 1023

/* Kernel side OpenCV derives from sigma when ksize is 0:
 * cvRound(sigma * (u8 ? 3 : 4) * 2 + 1) | 1. */
PF_HD int32_t pfk_gauss_ksize_from_sigma(double sigma, int is_u8) {
    double v = sigma * (is_u8 ? 3.0 : 4.0) * 2.0 + 1.0;
    return (int32_t)lrint(v) | 1;
}

/* OpenCV's getGaussianKernelBitExact: fixed tables for sigma <= 0 and
 * n in {1, 3, 5, 7, 9}; otherwise exp(-x^2 / (2 sigma^2)) normalized, with
 * sigma = 0.15 n + 0.35 (one fused rounding, as OpenCV's softdouble
 * mulAdd) when sigma <= 0. out has n (odd) entries. OpenCV evaluates exp
 * in software; libm's exp may differ in the last bit, which the 1/256
 * quantization absorbs (no measured difference, see docs/exactness.md). */
PF_HD void pfk_gauss_kernel(double *out, int32_t n, double sigma) {
    static const double t3[3] = {0.25, 0.5, 0.25};
    static const double t5[5] = {0.0625, 0.25, 0.375, 0.25, 0.0625};
    static const double t7[7] = {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125};
    static const double t9[9] = {4 / 256.0, 13 / 256.0, 30 / 256.0, 51 / 256.0, 60 / 256.0,
                                 51 / 256.0, 30 / 256.0, 13 / 256.0, 4 / 256.0};
    if (sigma <= 0 && n <= 9) {
        const double *t = n == 1 ? 0 : n == 3 ? t3 : n == 5 ? t5 : n == 7 ? t7 : t9;
        for (int32_t i = 0; i < n; i++) out[i] = t ? t[i] : 1.0;
        return;
    }
    double s = sigma > 0 ? sigma : fma((double)n, 0.15, 0.35);
    double scale = -0.125 / (s * s);
    int32_t half = (n - 1) / 2;
    double sum = 0;
    for (int32_t i = 0, x = 1 - n; i < half; i++, x += 2) {
        out[i] = exp((double)(x * x) * scale);
        sum += out[i];
    }
    sum = sum * 2 + 1.0;
    double inv = 1.0 / sum;
    for (int32_t i = 0; i < half; i++) {
        out[i] *= inv;
        out[n - 1 - i] = out[i];
    }
    out[half] = inv;
}

/* OpenCV's getGaussianKernelFixedPoint_ED with `bits` fraction bits (8
 * for u8, 16 for u16): the outer taps are rounded (half to even) with the
 * error carried inwards, the centre takes what is left so the taps sum to
 * exactly 2^bits. */
PF_HD void pfk_gauss_kernel_fixed(const double *k, int32_t n, int32_t bits, uint32_t *q) {
    int32_t half = n / 2;
    double err = 0, mult = (double)(1u << bits);
    int64_t sum = 0;
    for (int32_t i = 0; i < half; i++) {
        double v = k[i] * mult + err;
        int64_t r = (int64_t)llrint(v);
        err = v - (double)r;
        q[i] = q[n - 1 - i] = (uint32_t)r;
        sum += r;
    }
    q[half] = (uint32_t)((int64_t)1 << bits) - (uint32_t)(2 * sum);
}

PF_HD void pfk_gauss_kernel_q8(const double *k, int32_t n, uint16_t *q) {
    uint32_t tmp[PFK_FILTER_MAX_KSIZE];
    pfk_gauss_kernel_fixed(k, n, 8, tmp);
    for (int32_t i = 0; i < n; i++) q[i] = (uint16_t)tmp[i];
}

/* u16 Gaussian (OpenCV's ufixedpoint32 path): horizontal sums of 16.16
 * taps times u16 fit 32 bits exactly (taps sum to 2^16), the vertical sum
 * of those times 16.16 taps has 32 fraction bits; round half up. */
PF_HD uint16_t pfk_gauss_q32_to_u16(uint64_t acc) {
    uint64_t v = (acc + (1ull << 31)) >> 32;
    return (uint16_t)(v > 65535 ? 65535 : v);
}

/* Box u16 (OpenCV's ColumnSum<int, ushort>, area <= 2^15): its SIMD body
 * rounds (float)sum * (float)(1 / area) half to even in f32 (the scalar
 * tail columns use double, which can differ by 1 near ties; we follow the
 * body). Wider windows sum in double: rint(sum * (1 / area)). */
PF_HD uint16_t pfk_box_u16(uint64_t sum, int32_t area) {
    double v;
    if (area <= (1 << 15)) v = (double)rintf((float)sum * (float)(1.0 / area));
    else v = rint((double)sum * (1.0 / area));
    return (uint16_t)(v > 65535 ? 65535 : v < 0 ? 0 : v);
}

/* u8 Gaussian vertical step: taps sum to 256 and the horizontal sums have
 * 8 fraction bits, so the column sum has 16; round half up. */
PF_HD uint8_t pfk_gauss_q16_to_u8(uint32_t acc) {
    uint32_t v = (acc + (1u << 15)) >> 16;
    return (uint8_t)(v > 255 ? 255 : v);
}

/* OpenCV's exact division of a u8 box sum by area (<= 256):
 * dst = ((sum + delta) * mul) >> 23. */
typedef struct pfk_box_div {
    uint32_t mul, delta;
} pfk_box_div;

PF_HD pfk_box_div pfk_box_div_make(int32_t area) {
    pfk_box_div d = {1u << 23, 0};
    if (area <= 1) return d;
    double scalef = (double)(1 << 23) / area;
    double fl = floor(scalef);
    d.mul = (uint32_t)fl;
    d.delta = (uint32_t)(area / 2);
    if (scalef - fl < 0.5) d.delta++;
    else d.mul++;
    return d;
}

/* Saturated: for area 2, two 255s give 256 (OpenCV's SIMD body saturates
 * to 255 too; its scalar tail columns wrap to 0, which we do not copy). */
PF_HD uint8_t pfk_box_div_u8(uint32_t sum, pfk_box_div d) {
    uint64_t v = ((uint64_t)(sum + d.delta) * d.mul) >> 23;
    return (uint8_t)(v > 255 ? 255 : v);
}

/* Box u8 with area > 256: OpenCV rounds sum * (float)(1 / area) in f32. */
PF_HD uint8_t pfk_box_scale_u8(uint32_t sum, float scale) { return pfk_sat_u8_f((float)sum * scale); }

/* torchvision's sharpness kernel, f32: ones(3, 3) with 5 at the centre,
 * divided by its sum (13) in f32. */
PF_HD float pfk_sharpen_side(void) { return 1.0f / 13.0f; }
PF_HD float pfk_sharpen_centre(void) { return 5.0f / 13.0f; }

/* 3x3 smoothing of torchvision's adjust_sharpness: row-major sum of the 9
 * products in f32 (r0, r1, r2: the rows above, at and below; x: the
 * element index, step: elements per pixel). */
PF_HD float pfk_sharpen_blur_f32(const float *r0, const float *r1, const float *r2, int32_t x, int32_t step) {
    float s = pfk_sharpen_side(), c = pfk_sharpen_centre();
    float acc = r0[x - step] * s;
    acc += r0[x] * s;
    acc += r0[x + step] * s;
    acc += r1[x - step] * s;
    acc += r1[x] * c;
    acc += r1[x + step] * s;
    acc += r2[x - step] * s;
    acc += r2[x] * s;
    acc += r2[x + step] * s;
    return acc;
}

/* torchvision 0.29's blend, view.add_(blurred.sub_(view), alpha=1 - factor):
 * x + g * (blurred - x) with g = (float)(1 - factor), then clamp. torch's
 * CPU add (AVX2 / AVX-512 builds, what runs on any x86 with AVX2) is one
 * fused multiply-add, rounded once; that single rounding is done here in
 * double (exact for u8: g has 24 significant bits, blurred - x at most 9,
 * x 8), so no ISA needs an FMA unit. The old x * f + blurred * g rounded
 * three times and was 1 off on ~0.1 % of u8 pixels. */
PF_HD float pfk_sharpen_blend(float x, float blurred, float g, float bound) {
    float d = blurred - x;
    float v = (float)((double)x + (double)g * (double)d);
    return v < 0.0f ? 0.0f : v > bound ? bound : v;
}

#endif
