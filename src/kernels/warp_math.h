/* Per-pixel warp arithmetic (affine, perspective, remap), shared by the
 * CPU reference, the SIMD kernels' scalar paths and the CUDA kernels.
 *
 * OpenCV maps every output pixel to a source position in fixed point:
 * an integer pixel (saturated to int16) plus a sub-pixel index in 1/32
 * steps (INTER_BITS = 5), then interpolates with tables of coefficients
 * indexed by that sub-pixel index (u8: 15-bit integers that sum exactly to
 * 1 << 15; u16/f32: floats). The functions below reproduce each step with
 * the same operations in the same order (docs/exactness.md). */
#ifndef PF_KERNELS_WARP_MATH_H
#define PF_KERNELS_WARP_MATH_H

#include "kernels/resize_math.h"

#define PFK_INTER_BITS 5
#define PFK_INTER_TAB 32           /* sub-pixel steps per axis */
#define PFK_INTER_TAB2 1024        /* table entries (y step * 32 + x step) */
#define PFK_AB_BITS 10             /* affine block coordinates: 1/1024 pixel */
#define PFK_REMAP_COEF_BITS 15
#define PFK_REMAP_COEF_ONE (1 << PFK_REMAP_COEF_BITS)

/* int -> int16 with saturation (OpenCV saturate_cast<short>(int)). */
PF_HD int32_t pfk_sat_s16(int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }

/* double -> int32 as OpenCV's cvRound/saturate_cast<int>(double) on
 * x86-64 (cvtsd2si): round half to even; NaN and values outside int32
 * give INT_MIN. */
PF_HD int32_t pfk_round_f64(double v) {
    if (!(v >= -2147483648.5 && v < 2147483647.5)) return INT32_MIN;
#if defined(__CUDA_ARCH__)
    return __double2int_rn(v);
#else
    return (int32_t)lrint(v);
#endif
}

/* float -> int32 like cvRound(float) (cvtss2si): INT_MIN outside range. */
PF_HD int32_t pfk_round_f32_x86(float v) {
    if (!(v >= -2147483648.0f && v < 2147483648.0f)) return INT32_MIN;
    return pfk_round_f32(v);
}

/* Wrapping int32 addition (OpenCV's packed/scalar adds wrap on overflow). */
PF_HD int32_t pfk_add_wrap(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

/* ---------------------------------------------------------------- affine
 * Columns: adelta[x] = round(M0 * x * 1024), bdelta[x] = round(M3 * x * 1024).
 * Rows: X0 = round((M1 * y + M2) * 1024) + delta, Y0 likewise with M4, M5,
 * where delta rounds to the final precision: 512 for NEAREST (1-pixel
 * steps), 16 for LINEAR/CUBIC (1/32 steps). */
PF_HD int32_t pfk_affine_col(double m, int32_t x) { return pfk_round_f64(m * x * (double)(1 << PFK_AB_BITS)); }
PF_HD int32_t pfk_affine_row(double m_y, double m_c, int32_t y, int nearest) {
    int32_t r = pfk_round_f64((m_y * y + m_c) * (double)(1 << PFK_AB_BITS));
    return pfk_add_wrap(r, nearest ? (1 << PFK_AB_BITS) / 2 : (1 << PFK_AB_BITS) / PFK_INTER_TAB / 2);
}

/* Final coordinates from the 1/32-pixel fixed point values X, Y. */
PF_HD void pfk_warp_split(int32_t X, int32_t Y, int16_t *sx, int16_t *sy, uint16_t *a) {
    *sx = (int16_t)pfk_sat_s16(X >> PFK_INTER_BITS);
    *sy = (int16_t)pfk_sat_s16(Y >> PFK_INTER_BITS);
    *a = (uint16_t)((Y & (PFK_INTER_TAB - 1)) * PFK_INTER_TAB + (X & (PFK_INTER_TAB - 1)));
}

/* One affine pixel: X0/Y0 from pfk_affine_row, ad/bd from pfk_affine_col. */
PF_HD void pfk_affine_px(int32_t X0, int32_t Y0, int32_t ad, int32_t bd, int nearest, int16_t *sx,
                         int16_t *sy, uint16_t *a) {
    int32_t X = pfk_add_wrap(X0, ad), Y = pfk_add_wrap(Y0, bd);
    if (nearest) {
        *sx = (int16_t)pfk_sat_s16(X >> PFK_AB_BITS);
        *sy = (int16_t)pfk_sat_s16(Y >> PFK_AB_BITS);
        *a = 0;
        return;
    }
    pfk_warp_split(X >> (PFK_AB_BITS - PFK_INTER_BITS), Y >> (PFK_AB_BITS - PFK_INTER_BITS), sx, sy, a);
}

/* ----------------------------------------------------------- perspective
 * OpenCV walks the output in blocks (32 x 32 pixels in total, 16 rows
 * high) and evaluates the numerators and the denominator at the block's
 * left column bx, then adds M * (x - bx): the rounding depends on the
 * block origin, so the block width is part of the specification. */
PF_HD int32_t pfk_persp_block_w(int32_t dst_w, int32_t dst_h) {
    int32_t bh = dst_h < 16 ? dst_h : 16;
    int32_t bw = 1024 / bh;
    return bw < dst_w ? bw : dst_w;
}

/* Row origin at block column bx: out[0..2] = M[3k] * bx + M[3k+1] * y + M[3k+2]. */
PF_HD void pfk_persp_origin(const double m[9], int32_t bx, int32_t y, double out[3]) {
    for (int k = 0; k < 3; k++) out[k] = m[3 * k] * bx + m[3 * k + 1] * y + m[3 * k + 2];
}

PF_HD double pfk_clamp_int_range(double v) {
    /* std::max(INT_MIN, std::min(INT_MAX, v)) with NaN giving INT_MAX */
    double hi = v < 2147483647.0 ? v : 2147483647.0;
    return -2147483648.0 > hi ? -2147483648.0 : hi;
}

/* Pixel x1 columns right of the block origin o (from pfk_persp_origin). */
PF_HD void pfk_persp_px(const double m[9], const double o[3], int32_t x1, int nearest, int16_t *sx,
                        int16_t *sy, uint16_t *a) {
    double w = o[2] + m[6] * x1;
    w = w != 0.0 ? (nearest ? 1.0 : (double)PFK_INTER_TAB) / w : 0.0;
    int32_t X = pfk_round_f64(pfk_clamp_int_range((o[0] + m[0] * x1) * w));
    int32_t Y = pfk_round_f64(pfk_clamp_int_range((o[1] + m[3] * x1) * w));
    if (nearest) {
        *sx = (int16_t)pfk_sat_s16(X);
        *sy = (int16_t)pfk_sat_s16(Y);
        *a = 0;
        return;
    }
    pfk_warp_split(X, Y, sx, sy, a);
}

/* ----------------------------------------------------------------- remap
 * Float maps: NEAREST rounds to the nearest pixel; LINEAR/CUBIC round to
 * 1/32 pixel (map * 32 is exact in float) and split. */
PF_HD void pfk_remap_px(float fx, float fy, int nearest, int16_t *sx, int16_t *sy, uint16_t *a) {
    if (nearest) {
        *sx = (int16_t)pfk_sat_s16(pfk_round_f32_x86(fx));
        *sy = (int16_t)pfk_sat_s16(pfk_round_f32_x86(fy));
        *a = 0;
        return;
    }
    pfk_warp_split(pfk_round_f32_x86(fx * (float)PFK_INTER_TAB), pfk_round_f32_x86(fy * (float)PFK_INTER_TAB), sx,
                   sy, a);
}

/* --------------------------------------------------------- coefficients
 * Entry (iy * 32 + ix) of the k x k tables (k = 2 LINEAR, 4 CUBIC) is the
 * outer product of the 1-D weights at iy/32 and ix/32, in float. The
 * integer table rounds each product to 15 bits and, when the sum misses
 * 1 << 15, moves the difference onto the largest (sum short) or smallest
 * (sum over) of the central 2 x 2 coefficients, first found in row order. */
PF_HD void pfk_warp_weights_1d(int cubic, int32_t i, float w[4]) {
    float x = (float)i * (1.f / (float)PFK_INTER_TAB);
    if (cubic) {
        pfk_cubic_coeffs(x, w);
    } else {
        w[0] = 1.f - x;
        w[1] = x;
    }
}

/* Fills entry e of the tables: tf (k*k floats) and ti (k*k int16). */
PF_HD void pfk_warp_table_entry(int cubic, int32_t e, float *tf, int16_t *ti) {
    int k = cubic ? 4 : 2;
    float wy[4], wx[4];
    pfk_warp_weights_1d(cubic, e / PFK_INTER_TAB, wy);
    pfk_warp_weights_1d(cubic, e % PFK_INTER_TAB, wx);
    int32_t sum = 0;
    for (int r = 0; r < k; r++)
        for (int c = 0; c < k; c++) {
            float v = wy[r] * wx[c];
            tf[r * k + c] = v;
            int32_t q = pfk_round_f32_x86(v * (float)PFK_REMAP_COEF_ONE);
            ti[r * k + c] = (int16_t)pfk_sat_s16(q);
            sum += ti[r * k + c];
        }
    /* LINEAR products are multiples of 2^-10: their 15-bit sum is always exact */
    if (sum == PFK_REMAP_COEF_ONE || !cubic) return;
    int h = k / 2, lo = h * k + h, hi = h * k + h;
    for (int r = h; r < h + 2; r++)
        for (int c = h; c < h + 2; c++) {
            int idx = r * k + c;
            if (ti[idx] < ti[lo]) lo = idx;
            else if (ti[idx] > ti[hi]) hi = idx;
        }
    int32_t diff = sum - PFK_REMAP_COEF_ONE;
    if (diff < 0) ti[hi] = (int16_t)(ti[hi] - diff);
    else ti[lo] = (int16_t)(ti[lo] - diff);
}

/* u8 result of a 15-bit fixed-point sum (FixedPtCast: round, shift, clamp). */
PF_HD uint8_t pfk_warp_cast_u8(int32_t sum) {
    return pfk_sat_u8_i((sum + (1 << (PFK_REMAP_COEF_BITS - 1))) >> PFK_REMAP_COEF_BITS);
}

#endif
