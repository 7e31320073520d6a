/*
 * Per-element arithmetic of pf_convert / pf_normalize / pf_reformat, shared
 * by the CPU reference, the SIMD kernels' tails and (later) CUDA. Each
 * function is the specification of one step (docs/exactness.md):
 *
 *  - half (IEEE binary16) and bfloat16 <-> f32: widening is exact (a
 *    signalling half or bfloat16 NaN widens to a quiet one, as F16C's
 *    vcvtph2ps; f32 sNaN inputs are read as quiet too);
 *    narrowing rounds to nearest even, keeps subnormals, overflows to inf,
 *    and keeps NaN a (quiet) NaN, exactly as the x86 F16C vcvtps2ph does
 *    (imm 0) for half;
 *  - float/double -> integer follows OpenCV's saturate_cast on x86: round
 *    half to even (cvRound), where NaN and values outside int32 become
 *    INT_MIN (what cvtss2si / cvtps2dq return) and only then saturate to
 *    the narrower type. So +1e10 -> u8 is 0, as in OpenCV.
 */
#ifndef PF_KERNELS_CONVERT_MATH_H
#define PF_KERNELS_CONVERT_MATH_H

#include <string.h>

#include "kernels/pf_hd.h"
#include "pixflow/core.h"

/* What an element map does (pfi_cvt_xform.kind, the GPU jobs' kind). */
enum pfk_cvt_kind {
    PFK_CVT_COPY = 0,  /* same dtype, no value change (reformat, split, merge) */
    PFK_CVT_SCALE = 1, /* OpenCV Mat::convertTo(dst, ddepth, alpha, beta) */
    PFK_CVT_NORM = 2   /* (x * scale - mean[c]) / std[c] in f32 */
};

PF_HD uint32_t pfk_f32_bits(float f) {
#if defined(__OPENCL_C_VERSION__)
    return as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
#endif
}

PF_HD float pfk_bits_f32(uint32_t u) {
#if defined(__OPENCL_C_VERSION__)
    return as_float(u);
#else
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
#endif
}

/* ------------------------------------------------------------ binary16 */

PF_HD float pfk_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 31) /* inf; NaN comes out quiet, as vcvtph2ps does */
        return pfk_bits_f32(sign | 0x7f800000u | (m ? 0x400000u : 0u) | (m << 13));
    if (e != 0) return pfk_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
    if (m == 0) return pfk_bits_f32(sign);
    /* subnormal: m * 2^-24; shift the leading 1 up to the implicit bit */
    uint32_t e2 = 113;
    while (!(m & 0x400u)) {
        m <<= 1;
        e2--;
    }
    return pfk_bits_f32(sign | (e2 << 23) | ((m & 0x3ffu) << 13));
}

PF_HD uint16_t pfk_f32_to_f16(float f) {
    uint32_t x = pfk_f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) {
        if (ax == 0x7f800000u) return (uint16_t)(sign | 0x7c00u);
        /* NaN: quiet bit set, top 9 payload bits kept (as F16C) */
        return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    }
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520 rounds to inf */
    if (ax >= 0x38800000u) {                                  /* normal half: >= 2^-14 */
        uint32_t r = ax - 0x38000000u;                        /* rebias 127 -> 15 */
        r += 0xfffu + ((r >> 13) & 1u);                       /* round half to even */
        return (uint16_t)(sign | (r >> 13));
    }
    if (ax < 0x33000000u) return sign; /* < 2^-25: rounds to zero (2^-25 is a tie to 0) */
    /* subnormal half: k * 2^-24 with k = m * 2^(e - 126), rounded half even */
    uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - (ax >> 23);
    /* (not "half": that is a type in OpenCL C, which compiles this too) */
    uint32_t k = m >> shift, rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (k & 1u))) k++;
    return (uint16_t)(sign | k); /* k == 0x400 is the smallest normal: same encoding */
}

/* ------------------------------------------------------------ bfloat16 */

/* A signalling NaN comes out quiet (as for half): a widening that went
 * through double on one compiler and not on another must not change bits. */
PF_HD float pfk_bf16_to_f32(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    if ((u & 0x7fffffffu) > 0x7f800000u) u |= 0x400000u;
    return pfk_bits_f32(u);
}

/* f with a signalling NaN made quiet (what f32 -> double -> f32 does when
 * the compiler keeps the round trip; gcc may fold it away). */
PF_HD float pfk_f32_quiet(float f) {
    uint32_t u = pfk_f32_bits(f);
    return (u & 0x7fffffffu) > 0x7f800000u ? pfk_bits_f32(u | 0x400000u) : f;
}

PF_HD uint16_t pfk_f32_to_bf16(float f) {
    uint32_t x = pfk_f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
    x += 0x7fffu + ((x >> 16) & 1u); /* round half to even; overflow carries into inf */
    return (uint16_t)(x >> 16);
}

/* ------------------------------------------- OpenCV saturate_cast rules */

/* cvRound(float) on x86: round half even; NaN / out of int32 -> INT_MIN. */
PF_HD int32_t pfk_cvround_f(float v) {
    float r = rintf(v);
    if (!(r >= -2147483648.0f && r < 2147483648.0f)) return INT32_MIN;
    return (int32_t)r;
}

/* cvRound(double) on x86 (cvtsd2si / cvtpd2dq): same rule in double. */
PF_HD int32_t pfk_cvround_d(double v) {
    double r = rint(v);
    if (!(r >= -2147483648.0 && r <= 2147483647.0)) return INT32_MIN;
    return (int32_t)r;
}

PF_HD int16_t pfk_sat_s16_i(int32_t v) {
    return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}

/* Exact integer saturation (OpenCV's integer -> integer conversions). */
PF_HD int64_t pfk_clamp_i64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ------------------------------------------------------ mean/std step */

/* (x * scale - mean) / std in f32, in this order; scale == 1 skips the
 * product (OpenCV's convertTo no-scale path). The "+ 0.0f" reproduces
 * convertTo's fused x * scale + 0 (a -0 product becomes +0). OpenCV's
 * subtract/divide by a Scalar compute in double and round to float, which
 * for float operands equals the float operation (53 >= 2 * 24 + 2). */
PF_HD float pfk_norm_mean_std(float x, float scale, float mean, float stdv) {
    if (scale != 1.0f) x = x * scale + 0.0f;
    return (x - mean) / stdv;
}

/* ------------------------------------------- element loads and stores */

/* Element i of dtype dt as f32: exact for u8/u16/s16/f16/bf16/f32; s32
 * rounds to nearest even. Equals (float)pfi_cvt_load(p, dt, i) (the
 * reference widens to double first; double -> float of an exact integer
 * rounds the same way) without double arithmetic on the GPU. */
PF_HD float pfk_cvt_load_f32(const PF_GLOBAL void *p, pf_dtype dt, int64_t i) {
    switch (dt) {
    case PF_U8: return (float)((const PF_GLOBAL uint8_t *)p)[i];
    case PF_U16: return (float)((const PF_GLOBAL uint16_t *)p)[i];
    case PF_S16: return (float)((const PF_GLOBAL int16_t *)p)[i];
    case PF_S32: return (float)((const PF_GLOBAL int32_t *)p)[i];
    case PF_F16: return pfk_f16_to_f32(((const PF_GLOBAL uint16_t *)p)[i]);
    case PF_BF16: return pfk_bf16_to_f32(((const PF_GLOBAL uint16_t *)p)[i]);
    default: return pfk_f32_quiet(((const PF_GLOBAL float *)p)[i]);
    }
}

/* Element i of an integer dtype, exactly. */
PF_HD int64_t pfk_cvt_load_int(const PF_GLOBAL void *p, pf_dtype dt, int64_t i) {
    switch (dt) {
    case PF_U8: return ((const PF_GLOBAL uint8_t *)p)[i];
    case PF_U16: return ((const PF_GLOBAL uint16_t *)p)[i];
    case PF_S16: return ((const PF_GLOBAL int16_t *)p)[i];
    default: return ((const PF_GLOBAL int32_t *)p)[i];
    }
}

/* Stores an exact integer value (integer -> integer: exact saturation). */
PF_HD void pfk_cvt_store_int(PF_GLOBAL void *p, pf_dtype dt, int64_t i, int64_t v) {
    switch (dt) {
    case PF_U8: ((PF_GLOBAL uint8_t *)p)[i] = (uint8_t)pfk_clamp_i64(v, 0, 255); break;
    case PF_U16: ((PF_GLOBAL uint16_t *)p)[i] = (uint16_t)pfk_clamp_i64(v, 0, 65535); break;
    case PF_S16: ((PF_GLOBAL int16_t *)p)[i] = (int16_t)pfk_clamp_i64(v, -32768, 32767); break;
    default: ((PF_GLOBAL int32_t *)p)[i] = (int32_t)pfk_clamp_i64(v, INT32_MIN, INT32_MAX); break;
    }
}

/* Stores a float result (OpenCV saturate_cast<T>(float)). */
PF_HD void pfk_cvt_store_f32(PF_GLOBAL void *p, pf_dtype dt, int64_t i, float v) {
    switch (dt) {
    case PF_U8: ((PF_GLOBAL uint8_t *)p)[i] = pfk_sat_u8_i(pfk_cvround_f(v)); break;
    case PF_U16: ((PF_GLOBAL uint16_t *)p)[i] = pfk_sat_u16_i(pfk_cvround_f(v)); break;
    case PF_S16: ((PF_GLOBAL int16_t *)p)[i] = pfk_sat_s16_i(pfk_cvround_f(v)); break;
    case PF_S32: ((PF_GLOBAL int32_t *)p)[i] = pfk_cvround_f(v); break;
    case PF_F16: ((PF_GLOBAL uint16_t *)p)[i] = pfk_f32_to_f16(v); break;
    case PF_BF16: ((PF_GLOBAL uint16_t *)p)[i] = pfk_f32_to_bf16(v); break;
    default: ((PF_GLOBAL float *)p)[i] = v; break;
    }
}

PF_HD int pfk_dtype_is_int(pf_dtype dt) {
    return dt == PF_U8 || dt == PF_U16 || dt == PF_S16 || dt == PF_S32;
}

/* NaN results as x86 computes them, for an f32 result r of arithmetic on
 * one possibly-NaN value x and finite parameters (fmaf(x, a, b),
 * (x * s - m) / d): SSE/AVX return the NaN operand quieted (payload and
 * sign kept), and 0xffc00000 ("real indefinite") for an invalid operation
 * (inf * 0); CUDA returns 0x7fffffff for both, OpenCL devices either.
 * Applied on the devices only (on an x86 OpenCL device such as PoCL it
 * changes nothing), so device outputs keep the CPU's NaN bits. */
PF_HD float pfk_nan_as_x86(float r, float x) {
#if defined(__CUDA_ARCH__) || defined(__OPENCL_C_VERSION__)
    if (r != r) return x != x ? pfk_bits_f32(pfk_f32_bits(x) | 0x400000u) : pfk_bits_f32(0xffc00000u);
#else
    (void)x;
#endif
    return r;
}

/* ------------------------------------------------- NORM_MINMAX scaling */

/* OpenCV cv::normalize(NORM_MINMAX)'s scale and shift for an image range
 * [smin, smax] -> [lo, hi] (f32_out: the f32-rounded variant). */
PF_HD void pfk_minmax_coeffs(double smin, double smax, double lo, double hi, int f32_out, double *scale,
                             double *shift) {
    double dmin = lo < hi ? lo : hi, dmax = lo < hi ? hi : lo;
    double s = (dmax - dmin) * (smax - smin > 2.220446049250313080847e-16 ? 1. / (smax - smin) : 0);
    if (f32_out) {
        s = (double)(float)s;
        *shift = (double)((float)dmin - (float)(smin * s));
    } else {
        *shift = dmin - smin * s;
    }
    *scale = s;
}

/* convertTo(alpha, beta)'s "plain cast" test: |alpha - 1| and |beta| below
 * DBL_EPSILON. */
PF_HD int pfk_cvt_noscale(double alpha, double beta) {
    return fabs(alpha - 1) < 2.220446049250313080847e-16 && fabs(beta) < 2.220446049250313080847e-16;
}

#endif
