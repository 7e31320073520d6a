/* Reference colour conversion rows: cv::cvtColor semantics for the
 * non-video codes, one pixel at a time through src/kernels/color_math.h. */
#include "kernels/color_math.h"
#include "plan/hsv_tables.h"
#include "ref/color_rows.h"

/* ---- channel swap / alpha: the same for every dtype ---- */
#define RGB2RGB_ROW(T, MAXV)                                                         \
    do {                                                                             \
        const T *s = src;                                                            \
        T *o = dst;                                                                  \
        int a = d->swap ? 2 : 0;                                                     \
        for (int32_t x = 0; x < n; x++, s += d->scn, o += d->dcn) {                 \
            T c0 = s[a], c1 = s[1], c2 = s[a ^ 2];                                   \
            T c3 = d->scn == 4 ? s[3] : (T)(MAXV);                                   \
            o[0] = c0;                                                               \
            o[1] = c1;                                                               \
            o[2] = c2;                                                               \
            if (d->dcn == 4) o[3] = c3;                                              \
        }                                                                            \
    } while (0)

#define GRAY2RGB_ROW(T, MAXV)                                                        \
    do {                                                                             \
        const T *s = src;                                                            \
        T *o = dst;                                                                  \
        for (int32_t x = 0; x < n; x++, o += d->dcn) {                              \
            T g = s[x];                                                              \
            o[0] = o[1] = o[2] = g;                                                  \
            if (d->dcn == 4) o[3] = (T)(MAXV);                                       \
        }                                                                            \
    } while (0)

static void rgb2rgb(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    if (d->dtype == PF_U8) RGB2RGB_ROW(uint8_t, 255);
    else if (d->dtype == PF_U16) RGB2RGB_ROW(uint16_t, 65535);
    else RGB2RGB_ROW(float, 1.0f);
}

static void gray2rgb(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    if (d->dtype == PF_U8) GRAY2RGB_ROW(uint8_t, 255);
    else if (d->dtype == PF_U16) GRAY2RGB_ROW(uint16_t, 65535);
    else GRAY2RGB_ROW(float, 1.0f);
}

static void rgb2gray(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    int32_t w[3];
    pfk_gray_weights_i(d->bidx, w);
    int cn = d->scn;
    if (d->dtype == PF_U8) {
        const uint8_t *s = src;
        uint8_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn) o[x] = pfk_gray_u8(s[0], s[1], s[2], w);
    } else if (d->dtype == PF_U16) {
        const uint16_t *s = src;
        uint16_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn) o[x] = pfk_gray_u16(s[0], s[1], s[2], w);
    } else {
        const float *s = src;
        float *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn) o[x] = pfk_gray_f32(s[0], s[1], s[2], d->bidx);
    }
}

static void rgb2ycrcb(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    int cn = d->scn;
    if (d->dtype == PF_F32) {
        const float *s = src;
        float *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn, o += 3) pfk_ycrcb_f32(s[0], s[1], s[2], d->bidx, o);
        return;
    }
    int32_t r[3];
    if (d->dtype == PF_U8) {
        const uint8_t *s = src;
        uint8_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn, o += 3) {
            pfk_ycrcb_i(s[0], s[1], s[2], d->bidx, 128, 255, r);
            o[0] = (uint8_t)r[0], o[1] = (uint8_t)r[1], o[2] = (uint8_t)r[2];
        }
    } else {
        const uint16_t *s = src;
        uint16_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn, o += 3) {
            pfk_ycrcb_i(s[0], s[1], s[2], d->bidx, 32768, 65535, r);
            o[0] = (uint16_t)r[0], o[1] = (uint16_t)r[1], o[2] = (uint16_t)r[2];
        }
    }
}

static void ycrcb2rgb(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    int cn = d->dcn;
    if (d->dtype == PF_F32) {
        const float *s = src;
        float *o = dst;
        for (int32_t x = 0; x < n; x++, s += 3, o += cn) {
            pfk_ycrcb2rgb_f32(s[0], s[1], s[2], d->bidx, o);
            if (cn == 4) o[3] = 1.0f;
        }
        return;
    }
    int32_t r[3];
    if (d->dtype == PF_U8) {
        const uint8_t *s = src;
        uint8_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += 3, o += cn) {
            pfk_ycrcb2rgb_i(s[0], s[1], s[2], d->bidx, 128, 255, r);
            o[0] = (uint8_t)r[0], o[1] = (uint8_t)r[1], o[2] = (uint8_t)r[2];
            if (cn == 4) o[3] = 255;
        }
    } else {
        const uint16_t *s = src;
        uint16_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += 3, o += cn) {
            pfk_ycrcb2rgb_i(s[0], s[1], s[2], d->bidx, 32768, 65535, r);
            o[0] = (uint16_t)r[0], o[1] = (uint16_t)r[1], o[2] = (uint16_t)r[2];
            if (cn == 4) o[3] = 65535;
        }
    }
}

static void rgb2hsv(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    int cn = d->scn, bi = d->bidx;
    if (d->dtype == PF_U8) {
        const pfi_hsv_tables *t = pfi_hsv_tables_get();
        const int32_t *hdiv = d->hrange == 180 ? t->hdiv180 : t->hdiv256;
        const uint8_t *s = src;
        uint8_t *o = dst;
        for (int32_t x = 0; x < n; x++, s += cn, o += 3) {
            int32_t b = s[bi], g = s[1], r = s[bi ^ 2];
            int32_t v = b > g ? b : g, mn = b < g ? b : g;
            v = v > r ? v : r;
            mn = mn < r ? mn : r;
            pfk_hsv_u8_core(b, g, r, t->sdiv[v], hdiv[v - mn], d->hrange, o);
        }
    } else {
        const float *s = src;
        float *o = dst;
        float hscale = (float)d->hrange * (1.f / 360.f);
        for (int32_t x = 0; x < n; x++, s += cn, o += 3) pfk_hsv_f32(s[bi], s[1], s[bi ^ 2], hscale, o);
    }
}

static void hsv2rgb(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    int cn = d->dcn, bi = d->bidx;
    float hscale = 6.0f / (float)d->hrange;
    if (d->dtype == PF_U8) {
        const uint8_t *s = src;
        uint8_t *o = dst;
        uint8_t bgr[3];
        for (int32_t x = 0; x < n; x++, s += 3, o += cn) {
            pfk_hsv2rgb_u8(s[0], s[1], s[2], hscale, d->hsv_trunc, bgr);
            o[bi] = bgr[0], o[1] = bgr[1], o[bi ^ 2] = bgr[2];
            if (cn == 4) o[3] = 255;
        }
    } else {
        const float *s = src;
        float *o = dst;
        float bgr[3];
        for (int32_t x = 0; x < n; x++, s += 3, o += cn) {
            pfk_hsv2rgb_f32(s[0], s[1], s[2], hscale, bgr);
            o[bi] = bgr[0], o[1] = bgr[1], o[bi ^ 2] = bgr[2];
            if (cn == 4) o[3] = 1.0f;
        }
    }
}

void pfi_color_row_ref(const void *src, void *dst, int32_t n, const pfi_color_desc *d) {
    switch (d->kind) {
    case PFK_COLOR_RGB2RGB: rgb2rgb(src, dst, n, d); break;
    case PFK_COLOR_RGB2GRAY: rgb2gray(src, dst, n, d); break;
    case PFK_COLOR_GRAY2RGB: gray2rgb(src, dst, n, d); break;
    case PFK_COLOR_RGB2HSV: rgb2hsv(src, dst, n, d); break;
    case PFK_COLOR_HSV2RGB: hsv2rgb(src, dst, n, d); break;
    case PFK_COLOR_RGB2YCRCB: rgb2ycrcb(src, dst, n, d); break;
    case PFK_COLOR_YCRCB2RGB: ycrcb2rgb(src, dst, n, d); break;
    }
}
