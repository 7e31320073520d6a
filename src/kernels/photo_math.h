/*
 * Per-pixel arithmetic of the photometric ops (torchvision.transforms.v2
 * functional semantics, transcribed in float32 operation by operation).
 * Shared by the CPU reference, the SIMD kernels' scalar tails and the
 * future CUDA kernels; the SIMD kernels repeat the same operations.
 *
 * torch details reproduced here (docs/exactness.md, "photometric"):
 *  - `a.add_(b, alpha=k)` on x86-64 CPUs with AVX2 (torch's default CPU
 *    capability there) is a fused multiply-add fma(b, k, a): grayscale and
 *    _blend use pfk_fmaf. Everything else is an unfused float op.
 *  - Python floats become float32 scalars in float32 tensor arithmetic;
 *    `1.0 - ratio` is computed in double first (the caller does that).
 *  - u8 -> float (to_dtype, scale=True) is x * float32(1/255); float -> u8
 *    is trunc(x * float32(255.999)); `.to(torch.uint8)` truncates.
 */
#ifndef PF_KERNELS_PHOTO_MATH_H
#define PF_KERNELS_PHOTO_MATH_H

#include "kernels/pf_hd.h"

#define PFK_GRAY_R 0.2989f
#define PFK_GRAY_G 0.587f
#define PFK_GRAY_B 0.114f
#define PFK_INV255 ((float)(1.0 / 255.0))
#define PFK_TO_U8_SCALE ((float)(255.0 + 1.0 - 1e-3))
#define PFK_ONE_SIXTH ((float)(1.0 / 6.0))

/* Correctly rounded a * b + c (one rounding). */
PF_HD float pfk_fmaf(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(a, b, c);
#else
    return fmaf(a, b, c);
#endif
}

PF_HD float pfk_clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* to_dtype(u8 -> float32, scale=True). */
PF_HD float pfk_u8_to_unit(uint8_t x) { return (float)x * PFK_INV255; }

/* `.to(torch.uint8)` of a float already clamped to [0, 255]: truncation.
 * Out-of-range or NaN input (undefined in torch) saturates here. */
PF_HD uint8_t pfk_trunc_u8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 255.0f) return 255;
    return (uint8_t)(int32_t)v;
}

/* to_dtype(float32 -> u8, scale=True) of a value in [0, 1]. */
PF_HD uint8_t pfk_unit_to_u8(float v) { return pfk_trunc_u8(v * PFK_TO_U8_SCALE); }

/* r.mul(0.2989).add_(g, alpha=0.587).add_(b, alpha=0.114), float32. */
PF_HD float pfk_gray(float r, float g, float b) {
    return pfk_fmaf(b, PFK_GRAY_B, pfk_fmaf(g, PFK_GRAY_G, r * PFK_GRAY_R));
}

/* _blend(x, other, ratio) before clamping: x.mul(ratio).add_(other,
 * alpha=1-ratio); alpha = float32(1.0 - (double)ratio). */
PF_HD float pfk_blend(float x, float ratio, float other, float alpha) {
    return pfk_fmaf(other, alpha, x * ratio);
}
PF_HD uint8_t pfk_blend_u8(uint8_t x, float ratio, float other, float alpha) {
    return pfk_trunc_u8(pfk_clampf(pfk_blend((float)x, ratio, other, alpha), 0.0f, 255.0f));
}
PF_HD float pfk_blend_f32(float x, float ratio, float other, float alpha) {
    return pfk_clampf(pfk_blend(x, ratio, other, alpha), 0.0f, 1.0f);
}

/* adjust_brightness of one u8 value: x * factor (factor in float32),
 * clamped to [0, 255] and truncated. The CPU op's u8 table
 * (cpu/photo_lut_cpu.c) and the GPU fused preprocess's brightness table
 * (gpu/preprocess_jobs.c) are both this function of the 256 values. */
PF_HD uint8_t pfk_brightness_u8(uint8_t x, float factor) {
    return pfk_trunc_u8(pfk_clampf((float)x * factor, 0.0f, 255.0f));
}

#if !defined(__CUDA_ARCH__)
/* torch's pow(x, e) for float tensors: exact special cases for 0.5, 2 and
 * 3, otherwise SLEEF powf (1 ulp); here the correctly rounded value. Host
 * only (not PF_HD): the device's double pow is not correctly rounded, so
 * the GPU reads gamma through a table the host makes with pfk_gamma_unit. */
static inline float pfk_pow_like_torch(float x, double gamma) {
    if (gamma == 0.5) return sqrtf(x);
    if (gamma == 2.0) return x * x;
    if (gamma == 3.0) return (x * x) * x;
    return (float)pow((double)x, (double)(float)gamma);
}

/* adjust_gamma of one value x in [0, 1]: x ** gamma, then times gain and
 * clamped to [0, 1] when use_gain (a gain other than 1 was given). */
static inline float pfk_gamma_unit(float x, double gamma, int use_gain, float gain) {
    float v = pfk_pow_like_torch(x, gamma);
    return use_gain ? pfk_clampf(v * gain, 0.0f, 1.0f) : v;
}
#endif

/* torchvision _rgb_to_hsv, one pixel. Only the sector the max channel
 * selects contributes to h (torch adds the other two sectors multiplied by
 * 0, which cannot change the sum after the + 1 and fmod below). */
PF_HD void pfk_rgb_to_hsv(float r, float g, float b, float *h_out, float *s_out, float *v_out) {
    float maxc = r > g ? r : g;
    maxc = maxc > b ? maxc : b;
    float minc = r < g ? r : g;
    minc = minc < b ? minc : b;
    int eqc = maxc == minc;
    float cr = maxc - minc;
    float s = cr / (eqc ? 1.0f : maxc);
    float crd = eqc ? 1.0f : cr;
    float rc = (maxc - r) / crd;
    float gc = (maxc - g) / crd;
    float bc = (maxc - b) / crd;
    float h;
    if (maxc == r) h = bc - gc;
    else if (maxc == g) h = (rc + 2.0f) - bc;
    else h = (gc + 4.0f) - rc;
    h = h * PFK_ONE_SIXTH + 1.0f; /* in [5/6, 11/6] */
    h = h >= 1.0f ? h - 1.0f : h; /* fmod(h, 1), exact here */
    *h_out = h;
    *s_out = s;
    *v_out = maxc;
}

/* (h + hue).remainder_(1.0) for h in [0, 1), hue in [-0.5, 0.5]. */
PF_HD float pfk_hue_add(float h, float hue) {
    float a = h + hue;
    if (a < 0.0f) return a + 1.0f;
    if (a >= 1.0f) return a - 1.0f;
    return a;
}

/* torchvision _hsv_to_rgb, one pixel. */
PF_HD void pfk_hsv_to_rgb(float h, float s, float v, float *r, float *g, float *b) {
    float h6 = h * 6.0f;
    float fi = floorf(h6);
    float f = h6 - fi;
    int32_t i = (int32_t)fi % 6;
    if (i < 0) i += 6;
    float sxf = s * f;
    float oms = 1.0f - s;
    float q = pfk_clampf((1.0f - sxf) * v, 0.0f, 1.0f);
    float t = pfk_clampf((sxf + oms) * v, 0.0f, 1.0f);
    float p = pfk_clampf(oms * v, 0.0f, 1.0f);
    switch (i) {
    case 0: *r = v; *g = t; *b = p; break;
    case 1: *r = q; *g = v; *b = p; break;
    case 2: *r = p; *g = v; *b = t; break;
    case 3: *r = p; *g = q; *b = v; break;
    case 4: *r = t; *g = p; *b = v; break;
    default: *r = v; *g = p; *b = q; break;
    }
}

/* adjust_hue on one float pixel in [0, 1]. */
PF_HD void pfk_hue_shift(float *r, float *g, float *b, float hue) {
    float h, s, v;
    pfk_rgb_to_hsv(*r, *g, *b, &h, &s, &v);
    pfk_hsv_to_rgb(pfk_hue_add(h, hue), s, v, r, g, b);
}

/* One u8 RGB pixel through adjust_saturation / adjust_hue /
 * rgb_to_grayscale: the per-pixel bodies of the u8 reference kernels and
 * of the GPU fused preprocess (in place allowed: s and d may alias). */
PF_HD uint32_t pfk_gray_floor_u8(uint8_t r, uint8_t g, uint8_t b) {
    return (uint32_t)floorf(pfk_gray((float)r, (float)g, (float)b));
}
PF_HD uint8_t pfk_gray_u8(uint8_t r, uint8_t g, uint8_t b) {
    return pfk_trunc_u8(pfk_gray((float)r, (float)g, (float)b));
}
PF_HD void pfk_saturation_px_u8(const uint8_t *s, uint8_t *d, float ratio, float alpha) {
    uint8_t r = s[0], g = s[1], b = s[2];
    float gr = floorf(pfk_gray((float)r, (float)g, (float)b));
    d[0] = pfk_blend_u8(r, ratio, gr, alpha);
    d[1] = pfk_blend_u8(g, ratio, gr, alpha);
    d[2] = pfk_blend_u8(b, ratio, gr, alpha);
}
PF_HD void pfk_hue_px_u8(const uint8_t *s, uint8_t *d, float hue) {
    float r = pfk_u8_to_unit(s[0]), g = pfk_u8_to_unit(s[1]), b = pfk_u8_to_unit(s[2]);
    pfk_hue_shift(&r, &g, &b, hue);
    d[0] = pfk_unit_to_u8(r);
    d[1] = pfk_unit_to_u8(g);
    d[2] = pfk_unit_to_u8(b);
}

/* color_twist (pixflow): ((m0 r + m1 g) + m2 b) + m3, unfused float ops. */
PF_HD float pfk_twist(const float m[4], float r, float g, float b) {
    return ((m[0] * r + m[1] * g) + m[2] * b) + m[3];
}

/* gaussian_noise on u8 (torchvision 0.29): the noise
 * (mean*255) + z*(sigma*255) is truncated toward zero to int16, added,
 * then clamped to [0, 255] (clip) or wrapped modulo 256 (no clip). */
PF_HD uint8_t pfk_noise_u8(uint8_t x, float z, float mean255, float sigma255, int clip) {
    float n = z * sigma255 + mean255;
    int32_t ni;
    if (!(n > -32768.0f)) ni = n != n ? 0 : -32768; /* NaN -> 0 */
    else if (n > 32767.0f) ni = 32767;
    else ni = (int32_t)n;
    int32_t o = (int32_t)x + ni;
    if (clip) return pfk_sat_u8_i(o);
    return (uint8_t)(o & 255);
}
PF_HD float pfk_noise_f32(float x, float z, float mean, float sigma, int clip) {
    float o = x + (z * sigma + mean);
    return clip ? pfk_clampf(o, 0.0f, 1.0f) : o;
}

#endif
