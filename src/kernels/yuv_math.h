/*
 * 4:2:0 YUV <-> RGB per-pixel fixed-point math, shared by the scalar
 * reference (src/ref/yuv_ref.c), the SIMD kernels and CUDA.
 *
 * The structure is OpenCV's (imgproc color_yuv.simd.hpp, "YUV420 <-> RGB"),
 * with every coefficient an integer scaled by 2^20 (PFK_YUV_SHIFT):
 *
 *   decode (one chroma pair shared by a 2x2 block of luma):
 *     y'  = max(0, Y - y_off)                  (y_off = 16 limited, 0 full)
 *     R   = sat_u8((cy*y' + cvr*(V-128)               + 2^19) >> 20)
 *     G   = sat_u8((cy*y' + cvg*(V-128) + cug*(U-128) + 2^19) >> 20)
 *     B   = sat_u8((cy*y'               + cub*(U-128) + 2^19) >> 20)
 *   encode (luma per pixel; chroma from the TOP-LEFT pixel of each 2x2
 *   block, not an average: OpenCV's RGB2YUV_I420 rule):
 *     Y   = sat_u8((cry*R + cgy*G + cby*B + 2^19 + (y_off << 20)) >> 20)
 *     U   = sat_u8((cru*R + cgu*G + cbu*B + 2^19 + (128 << 20)) >> 20)
 *     V   = sat_u8((crv*R + cgv*G + cbv*B + 2^19 + (128 << 20)) >> 20)
 *   ">>" is an arithmetic shift (floor); every sum fits in int32 for u8
 *   inputs (largest magnitude ~5.8e8).
 *
 * BT.601 limited is OpenCV's table verbatim (ITUR_BT_601_*: 1.164, 1.596,
 * -0.813, -0.391, 2.018 and 0.257, 0.504, 0.098, ... rounded to three
 * digits then scaled), so results are bit-identical to cv::cvtColor. The
 * other three tables are round(c * 2^20) of the exact ITU coefficients
 * (Kr, Kb = 0.299, 0.114 for BT.601; 0.2126, 0.0722 for BT.709; limited
 * range scales luma by 219/255 and chroma by 224/255); BT.601 full range
 * is the JPEG/JFIF transform (1.402, 0.344136, 0.714136, 1.772).
 */
#ifndef PF_KERNELS_YUV_MATH_H
#define PF_KERNELS_YUV_MATH_H

#include "kernels/pf_hd.h"

#define PFK_YUV_SHIFT 20
#define PFK_YUV_HALF (1 << (PFK_YUV_SHIFT - 1))

/* How a 4:2:0 frame stores its chroma. One list for the front-end's code
 * table (ops/yuv_code.c), the CPU run and the GPU jobs (gpu_yuv_crop.h). */
typedef enum pfk_yuv_frame {
    PFK_YUV_FRAME_SP = 0,     /* semi-planar: Y plane, then interleaved chroma (NV12 / NV21) */
    PFK_YUV_FRAME_PLANAR = 1, /* Y, U, V planes (I420 / YV12) */
    PFK_YUV_FRAME_GRAY = 2    /* only the Y plane is read (YUV2GRAY_420) */
} pfk_yuv_frame;

typedef struct pfk_yuv_coeffs {
    int32_t y_off;                 /* 16 (limited) or 0 (full) */
    int32_t cy, cvr, cvg, cug, cub; /* decode */
    int32_t cry, cgy, cby;          /* encode luma */
    int32_t cru, cgu, cbu;          /* encode Cb */
    int32_t crv, cgv, cbv;          /* encode Cr */
} pfk_yuv_coeffs;

/* index = matrix * 2 + range (pf_yuv_matrix, pf_yuv_range values) */
#define PFK_YUV_BT601_LIMITED                                                          \
    { 16, 1220542, 1673527, -852492, -409993, 2116026, 269484, 528482, 102760,          \
      -155188, -305135, 460324, 460324, -385875, -74448 }
#define PFK_YUV_BT601_FULL                                                             \
    { 0, 1048576, 1470104, -748826, -360853, 1858077, 313524, 615514, 119538,          \
      -176932, -347356, 524288, 524288, -439026, -85262 }
#define PFK_YUV_BT709_LIMITED                                                          \
    { 16, 1220945, 1879825, -558796, -223607, 2215014, 191455, 644068, 65019,           \
      -105533, -355018, 460551, 460551, -418321, -42230 }
#define PFK_YUV_BT709_FULL                                                             \
    { 0, 1048576, 1651297, -490864, -196424, 1945738, 222927, 749942, 75707,           \
      -120138, -404150, 524288, 524288, -476214, -48074 }

/* Chroma terms of one 2x2 block (rounding constant folded in). */
typedef struct pfk_yuv_chroma { int32_t r, g, b; } pfk_yuv_chroma;

PF_HD pfk_yuv_chroma pfk_yuv_chroma_terms(const pfk_yuv_coeffs *k, uint8_t u, uint8_t v) {
    int32_t uu = (int32_t)u - 128, vv = (int32_t)v - 128;
    pfk_yuv_chroma c;
    c.r = PFK_YUV_HALF + k->cvr * vv;
    c.g = PFK_YUV_HALF + k->cvg * vv + k->cug * uu;
    c.b = PFK_YUV_HALF + k->cub * uu;
    return c;
}

PF_HD int32_t pfk_yuv_luma_term(const pfk_yuv_coeffs *k, uint8_t y) {
    int32_t yy = (int32_t)y - k->y_off;
    return (yy < 0 ? 0 : yy) * k->cy;
}

/* One decoded pixel: out[0..2] = R, G, B. */
PF_HD void pfk_yuv_decode(const pfk_yuv_coeffs *k, const pfk_yuv_chroma *c, uint8_t y,
                          uint8_t out[3]) {
    int32_t t = pfk_yuv_luma_term(k, y);
    out[0] = pfk_sat_u8_i((t + c->r) >> PFK_YUV_SHIFT);
    out[1] = pfk_sat_u8_i((t + c->g) >> PFK_YUV_SHIFT);
    out[2] = pfk_sat_u8_i((t + c->b) >> PFK_YUV_SHIFT);
}

PF_HD uint8_t pfk_yuv_encode_y(const pfk_yuv_coeffs *k, uint8_t r, uint8_t g, uint8_t b) {
    int32_t t = k->cry * r + k->cgy * g + k->cby * b + PFK_YUV_HALF + (k->y_off << PFK_YUV_SHIFT);
    return pfk_sat_u8_i(t >> PFK_YUV_SHIFT);
}

PF_HD uint8_t pfk_yuv_encode_u(const pfk_yuv_coeffs *k, uint8_t r, uint8_t g, uint8_t b) {
    int32_t t = k->cru * r + k->cgu * g + k->cbu * b + PFK_YUV_HALF + (128 << PFK_YUV_SHIFT);
    return pfk_sat_u8_i(t >> PFK_YUV_SHIFT);
}

PF_HD uint8_t pfk_yuv_encode_v(const pfk_yuv_coeffs *k, uint8_t r, uint8_t g, uint8_t b) {
    int32_t t = k->crv * r + k->cgv * g + k->cbv * b + PFK_YUV_HALF + (128 << PFK_YUV_SHIFT);
    return pfk_sat_u8_i(t >> PFK_YUV_SHIFT);
}

#endif
