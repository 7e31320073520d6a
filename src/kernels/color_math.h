/*
 * Per-pixel colour conversion math shared by the CPU reference
 * (src/ref/color_ref.c), the CPU SIMD kernels and a future CUDA backend.
 * Every formula follows OpenCV 4.6's cv::cvtColor (imgproc color_rgb /
 * color_hsv / color_yuv): the same fixed-point constants, the same
 * descale rounding, the same order of float operations (no FMA), so the
 * integer results are bit-identical to OpenCV and the float results are
 * deterministic.
 *
 * Conventions: an "RGB-side" pixel is 3 values s0, s1, s2 in memory order;
 * bidx (0 or 2) is the index of blue among them (0 = BGR, 2 = RGB).
 * Right shifts of negative ints are arithmetic (gcc, clang, nvcc).
 */
#ifndef PF_KERNELS_COLOR_MATH_H
#define PF_KERNELS_COLOR_MATH_H

#include "kernels/pf_hd.h"

/* What a colour conversion does (pfi_color_desc.kind, the GPU jobs' kind). */
typedef enum pfk_color_kind {
    PFK_COLOR_RGB2RGB = 0, /* channel swap and/or alpha add/drop (3|4 -> 3|4) */
    PFK_COLOR_RGB2GRAY,    /* 3|4 -> 1 */
    PFK_COLOR_GRAY2RGB,    /* 1 -> 3|4 */
    PFK_COLOR_RGB2HSV,     /* 3|4 -> 3 */
    PFK_COLOR_HSV2RGB,     /* 3 -> 3|4 */
    PFK_COLOR_RGB2YCRCB,   /* 3|4 -> 3 */
    PFK_COLOR_YCRCB2RGB    /* 3 -> 3|4 */
} pfk_color_kind;

/* Gray: OpenCV's Rec.601 luma with 15-bit weights for integers (they sum
 * to 1 << 15) and the float weights 0.299 / 0.587 / 0.114 otherwise. */
#define PFK_GRAY_SHIFT 15
#define PFK_GRAY_RY 9798
#define PFK_GRAY_GY 19235
#define PFK_GRAY_BY 3735
#define PFK_R2YF 0.299f
#define PFK_G2YF 0.587f
#define PFK_B2YF 0.114f

/* YCrCb: 14-bit weights (OpenCV's R2Y, G2Y, B2Y, YCRI, YCBI, CR2RI, ...). */
#define PFK_YCC_SHIFT 14
#define PFK_R2Y 4899
#define PFK_G2Y 9617
#define PFK_B2Y 1868
#define PFK_YCRI 11682
#define PFK_YCBI 9241
#define PFK_CR2RI 22987
#define PFK_CR2GI (-11698)
#define PFK_CB2GI (-5636)
#define PFK_CB2BI 29049
#define PFK_YCRF 0.713f
#define PFK_YCBF 0.564f
#define PFK_CR2RF 1.403f
#define PFK_CR2GF (-0.714f)
#define PFK_CB2GF (-0.344f)
#define PFK_CB2BF 1.773f

/* CV_DESCALE: round-half-up fixed-point shift. */
PF_HD int32_t pfk_descale(int32_t x, int n) { return (x + (1 << (n - 1))) >> n; }

/* Integer gray weights for src[0], src[1], src[2]. */
PF_HD void pfk_gray_weights_i(int bidx, int32_t w[3]) {
    w[0] = bidx == 0 ? PFK_GRAY_BY : PFK_GRAY_RY;
    w[1] = PFK_GRAY_GY;
    w[2] = bidx == 0 ? PFK_GRAY_RY : PFK_GRAY_BY;
}

PF_HD uint8_t pfk_gray_u8(int32_t s0, int32_t s1, int32_t s2, const int32_t w[3]) {
    return (uint8_t)pfk_descale(s0 * w[0] + s1 * w[1] + s2 * w[2], PFK_GRAY_SHIFT);
}

/* 16-bit: the weighted sum reaches 2^31 - 2^15, so it is summed unsigned. */
PF_HD uint16_t pfk_gray_u16(uint32_t s0, uint32_t s1, uint32_t s2, const int32_t w[3]) {
    uint32_t x = s0 * (uint32_t)w[0] + s1 * (uint32_t)w[1] + s2 * (uint32_t)w[2];
    return (uint16_t)((x + (1u << (PFK_GRAY_SHIFT - 1))) >> PFK_GRAY_SHIFT);
}

PF_HD float pfk_gray_f32(float s0, float s1, float s2, int bidx) {
    float c0 = bidx == 0 ? PFK_B2YF : PFK_R2YF;
    float c2 = bidx == 0 ? PFK_R2YF : PFK_B2YF;
    float a = s0 * c0;
    float b = s1 * PFK_G2YF;
    float c = s2 * c2;
    return (a + b) + c;
}

/* ---- RGB -> YCrCb (dst order Y, Cr, Cb) ---- */

/* Integer depths: chroma_half = 128 (u8) or 32768 (u16); maxv = 255 or
 * 65535 (not named "half": that is a type in OpenCL C). */
PF_HD void pfk_ycrcb_i(int32_t s0, int32_t s1, int32_t s2, int bidx, int32_t chroma_half, int32_t maxv,
                       int32_t out[3]) {
    int32_t c0 = bidx == 0 ? PFK_B2Y : PFK_R2Y;
    int32_t c2 = bidx == 0 ? PFK_R2Y : PFK_B2Y;
    int32_t delta = chroma_half * (1 << PFK_YCC_SHIFT);
    int32_t y = pfk_descale(s0 * c0 + s1 * PFK_G2Y + s2 * c2, PFK_YCC_SHIFT);
    int32_t r = bidx == 0 ? s2 : s0;
    int32_t b = bidx == 0 ? s0 : s2;
    int32_t cr = pfk_descale((r - y) * PFK_YCRI + delta, PFK_YCC_SHIFT);
    int32_t cb = pfk_descale((b - y) * PFK_YCBI + delta, PFK_YCC_SHIFT);
    out[0] = y < 0 ? 0 : y > maxv ? maxv : y;
    out[1] = cr < 0 ? 0 : cr > maxv ? maxv : cr;
    out[2] = cb < 0 ? 0 : cb > maxv ? maxv : cb;
}

PF_HD void pfk_ycrcb_f32(float s0, float s1, float s2, int bidx, float out[3]) {
    float c0 = bidx == 0 ? PFK_B2YF : PFK_R2YF;
    float c2 = bidx == 0 ? PFK_R2YF : PFK_B2YF;
    float y = (s0 * c0 + s1 * PFK_G2YF) + s2 * c2;
    float r = bidx == 0 ? s2 : s0;
    float b = bidx == 0 ? s0 : s2;
    float dr = (r - y) * PFK_YCRF;
    float db = (b - y) * PFK_YCBF;
    out[0] = y;
    out[1] = dr + 0.5f;
    out[2] = db + 0.5f;
}

/* ---- YCrCb -> RGB: out[] in the RGB-side memory order given bidx ---- */

PF_HD void pfk_ycrcb2rgb_i(int32_t y, int32_t cr, int32_t cb, int bidx, int32_t chroma_half,
                           int32_t maxv, int32_t out[3]) {
    int32_t dcr = cr - chroma_half, dcb = cb - chroma_half;
    int32_t b = y + pfk_descale(dcb * PFK_CB2BI, PFK_YCC_SHIFT);
    int32_t g = y + pfk_descale(dcb * PFK_CB2GI + dcr * PFK_CR2GI, PFK_YCC_SHIFT);
    int32_t r = y + pfk_descale(dcr * PFK_CR2RI, PFK_YCC_SHIFT);
    b = b < 0 ? 0 : b > maxv ? maxv : b;
    g = g < 0 ? 0 : g > maxv ? maxv : g;
    r = r < 0 ? 0 : r > maxv ? maxv : r;
    out[bidx] = b;
    out[1] = g;
    out[bidx ^ 2] = r;
}

PF_HD void pfk_ycrcb2rgb_f32(float y, float cr, float cb, int bidx, float out[3]) {
    float dcr = cr - 0.5f, dcb = cb - 0.5f;
    float tb = dcb * PFK_CB2BF;
    float tg0 = dcb * PFK_CB2GF;
    float tg1 = dcr * PFK_CR2GF;
    float tr = dcr * PFK_CR2RF;
    out[bidx] = y + tb;
    out[1] = (y + tg0) + tg1;
    out[bidx ^ 2] = y + tr;
}

/* ---- RGB -> HSV ---- */

/* u8 HSV uses OpenCV's reciprocal tables (12-bit fixed point), built from
 * these entries: round-half-even of (255 << 12) / v and
 * (hrange << 12) / (6 * diff), entry 0 = 0 (cvRound of the double). */
#define PFK_HSV_SHIFT 12

PF_HD int32_t pfk_div_round_even(int64_t num, int64_t den) {
    int64_t q = num / den, r = num % den;
    if (2 * r > den || (2 * r == den && (q & 1))) q++;
    return (int32_t)q;
}

PF_HD int32_t pfk_hsv_sdiv(int32_t v) {
    return v == 0 ? 0 : pfk_div_round_even((int64_t)255 << PFK_HSV_SHIFT, v);
}

/* hrange: 180 (HSV) or 256 (HSV_FULL). */
PF_HD int32_t pfk_hsv_hdiv(int32_t diff, int32_t hrange) {
    return diff == 0 ? 0 : pfk_div_round_even((int64_t)hrange << PFK_HSV_SHIFT, 6 * (int64_t)diff);
}

/* One u8 pixel with table entries sdiv = pfk_hsv_sdiv(v), hdiv =
 * pfk_hsv_hdiv(v - min). out = H, S, V. */
PF_HD void pfk_hsv_u8_core(int32_t b, int32_t g, int32_t r, int32_t sdiv, int32_t hdiv,
                           int32_t hrange, uint8_t out[3]) {
    int32_t v = b > g ? b : g;
    v = v > r ? v : r;
    int32_t mn = b < g ? b : g;
    mn = mn < r ? mn : r;
    int32_t diff = v - mn;
    int32_t h;
    if (v == r) h = g - b;
    else if (v == g) h = b - r + 2 * diff;
    else h = r - g + 4 * diff;
    int32_t s = (diff * sdiv + (1 << (PFK_HSV_SHIFT - 1))) >> PFK_HSV_SHIFT;
    h = (h * hdiv + (1 << (PFK_HSV_SHIFT - 1))) >> PFK_HSV_SHIFT;
    h += h < 0 ? hrange : 0;
    out[0] = pfk_sat_u8_i(h);
    out[1] = (uint8_t)s;
    out[2] = (uint8_t)v;
}

PF_HD void pfk_hsv_u8(int32_t b, int32_t g, int32_t r, int32_t hrange, uint8_t out[3]) {
    int32_t v = b > g ? b : g;
    v = v > r ? v : r;
    int32_t mn = b < g ? b : g;
    mn = mn < r ? mn : r;
    pfk_hsv_u8_core(b, g, r, pfk_hsv_sdiv(v), pfk_hsv_hdiv(v - mn, hrange), hrange, out);
}

/* f32: H in [0, hrange) (hrange 360), S and V as computed by OpenCV's
 * scalar loop (S = diff / (|V| + FLT_EPSILON)). */
#define PFK_FLT_EPSILON 1.1920928955078125e-07f

PF_HD void pfk_hsv_f32(float b, float g, float r, float hscale, float out[3]) {
    float v = r, mn = r;
    if (v < g) v = g;
    if (v < b) v = b;
    if (mn > g) mn = g;
    if (mn > b) mn = b;
    float diff = v - mn;
    float s = diff / (fabsf(v) + PFK_FLT_EPSILON);
    float k = (float)(60.0 / (double)(diff + PFK_FLT_EPSILON));
    float h;
    if (v == r) h = (g - b) * k;
    else if (v == g) h = (b - r) * k + 120.f;
    else h = (r - g) * k + 240.f;
    if (h < 0) h += 360.f;
    out[0] = h * hscale;
    out[1] = s;
    out[2] = v;
}

/* ---- HSV -> RGB (OpenCV's HSV2RGB_native); out = b, g, r ----
 * fused = 1 computes 1 - s*h and 1 - s*(1-h) with one rounding (fmaf), as
 * the installed OpenCV's AVX2 code does (GCC contracts its intrinsics into
 * vfnmadd there); fmaf is correctly rounded everywhere, so this stays
 * deterministic. */
PF_HD void pfk_hsv2rgb_f32x(float h, float s, float v, float hscale, int fused, float out[3]) {
    if (s == 0) {
        out[0] = out[1] = out[2] = v;
        return;
    }
    /* sector -> which of tab[0..3] feeds b, g, r */
    const int sector_data[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1}, {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};
    float tab[4];
    h *= hscale;
    h = fmodf(h, 6.f);
    float fl = floorf(h);
    int sector = (int)fl;
    h -= fl;
    if ((unsigned)sector >= 6u) {
        sector = 0;
        h = 0.f;
    }
    tab[0] = v;
    tab[1] = v * (1.f - s);
    if (fused) {
        tab[2] = v * fmaf(-s, h, 1.f);
        tab[3] = v * fmaf(-s, 1.f - h, 1.f);
    } else {
        float sh = s * h;
        tab[2] = v * (1.f - sh);
        float sh1 = s * (1.f - h);
        tab[3] = v * (1.f - sh1);
    }
    out[0] = tab[sector_data[sector][0]];
    out[1] = tab[sector_data[sector][1]];
    out[2] = tab[sector_data[sector][2]];
}

PF_HD void pfk_hsv2rgb_f32(float h, float s, float v, float hscale, float out[3]) {
    pfk_hsv2rgb_f32x(h, s, v, hscale, 0, out);
}

/* u8: H as is, S and V scaled by 1/255, hscale = 6 / hrange (hrange 180
 * or 255 for the FULL codes). OpenCV's vector loop fuses 1 - s*h into
 * an FMA and truncates the result (trunc = 1); its scalar tail does
 * neither and rounds (trunc = 0); see color_rows.h. Both measured against
 * the installed library (a fused tail, or an unfused vector part, each
 * produce off-by-one pixels). */
PF_HD void pfk_hsv2rgb_u8(int32_t h, int32_t s, int32_t v, float hscale, int trunc,
                          uint8_t out[3]) {
    float f[3];
    pfk_hsv2rgb_f32x((float)h, (float)s * (1.0f / 255.0f), (float)v * (1.0f / 255.0f), hscale,
                     trunc, f);
    for (int c = 0; c < 3; c++) {
        float x = f[c] * 255.0f;
        out[c] = trunc ? pfk_sat_u8_i((int32_t)x) : pfk_sat_u8_f(x);
    }
}

#endif
