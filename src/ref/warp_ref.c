/* Reference warp sampling: OpenCV's remapNearest / remapBilinear /
 * remapBicubic semantics (imgwarp.cpp), written per pixel. The operation
 * order of the float sums is OpenCV's, so u16 and f32 results are the
 * same bits, and u8 uses the same 15-bit integer weights. */
#include <pthread.h>
#include <string.h>

#include "kernels/border_math.h"
#include "kernels/warp_math.h"
#include "ref/warp_rows.h"


static int16_t g_tab_i[2][PFK_INTER_TAB2 * 16];
static float g_tab_f[2][PFK_INTER_TAB2 * 16];
static pthread_once_t g_tab_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
    for (int cubic = 0; cubic < 2; cubic++) {
        int kk = cubic ? 16 : 4;
        for (int32_t e = 0; e < PFK_INTER_TAB2; e++)
            pfk_warp_table_entry(cubic, e, &g_tab_f[cubic][e * kk], &g_tab_i[cubic][e * kk]);
    }
}

const int16_t *pfi_warp_tab_i(int cubic) {
    pthread_once(&g_tab_once, build_tables);
    return g_tab_i[cubic ? 1 : 0];
}

const float *pfi_warp_tab_f(int cubic) {
    pthread_once(&g_tab_once, build_tables);
    return g_tab_f[cubic ? 1 : 0];
}

static size_t elem_size(pf_dtype dt) { return dt == PF_U8 ? 1 : dt == PF_U16 ? 2 : 4; }

/* Address of source pixel (x, y) after the border rule, or the border
 * value when the rule gives "outside" (CONSTANT). */
static const uint8_t *pixel_at(const pfi_warp_src *s, int32_t x, int32_t y, size_t px) {
    int mode = s->border == PF_BORDER_TRANSPARENT ? PF_BORDER_REFLECT_101 : s->border;
    int32_t bx = pfk_border_index(x, s->width, mode), by = pfk_border_index(y, s->height, mode);
    if (bx < 0 || by < 0) return (const uint8_t *)&s->cval;
    return s->data + (ptrdiff_t)by * s->row_stride + (ptrdiff_t)bx * (ptrdiff_t)px;
}

static float rdf(const uint8_t *p, pf_dtype dt, int c) {
    if (dt == PF_U16) {
        uint16_t v;
        memcpy(&v, p + 2 * c, 2);
        return (float)v;
    }
    float v;
    memcpy(&v, p + 4 * c, 4);
    return v;
}

static void wrf(uint8_t *p, pf_dtype dt, int c, float v) {
    if (dt == PF_U16) {
        uint16_t u = pfk_sat_u16_f(v);
        memcpy(p + 2 * c, &u, 2);
    } else {
        memcpy(p + 4 * c, &v, 4);
    }
}

static void nearest_row(const pfi_warp_src *s, const int16_t *xy, uint8_t *d, int32_t n) {
    size_t px = elem_size(s->dtype) * (size_t)s->cn;
    for (int32_t k = 0; k < n; k++, d += px) {
        int32_t sx = xy[2 * k], sy = xy[2 * k + 1];
        if ((uint32_t)sx < (uint32_t)s->width && (uint32_t)sy < (uint32_t)s->height) {
            memcpy(d, s->data + (ptrdiff_t)sy * s->row_stride + (ptrdiff_t)sx * (ptrdiff_t)px, px);
        } else if (s->border != PF_BORDER_TRANSPARENT) {
            memcpy(d, pixel_at(s, sx, sy, px), px);
        }
    }
}

/* LINEAR: 1 = write the 4 neighbour addresses, 0 = leave the pixel (TRANSPARENT),
 * 2 = the pixel is the border value (CONSTANT, all four outside). */
static int linear_taps(const pfi_warp_src *s, int32_t sx, int32_t sy, size_t px, const uint8_t *v[4]) {
    if ((uint32_t)sx < (uint32_t)(s->width - 1) && (uint32_t)sy < (uint32_t)(s->height - 1)) {
        v[0] = s->data + (ptrdiff_t)sy * s->row_stride + (ptrdiff_t)sx * (ptrdiff_t)px;
        v[1] = v[0] + px;
        v[2] = v[0] + s->row_stride;
        v[3] = v[2] + px;
        return 1;
    }
    if (s->border == PF_BORDER_TRANSPARENT) return 0;
    if (s->border == PF_BORDER_CONSTANT && (sx >= s->width || sx + 1 < 0 || sy >= s->height || sy + 1 < 0))
        return 2;
    v[0] = pixel_at(s, sx, sy, px);
    v[1] = pixel_at(s, sx + 1, sy, px);
    v[2] = pixel_at(s, sx, sy + 1, px);
    v[3] = pixel_at(s, sx + 1, sy + 1, px);
    return 1;
}

static void linear_row(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *d, int32_t n) {
    size_t px = elem_size(s->dtype) * (size_t)s->cn;
    const int16_t *ti = s->dtype == PF_U8 ? pfi_warp_tab_i(0) : NULL;
    const float *tf = s->dtype == PF_U8 ? NULL : pfi_warp_tab_f(0);
    for (int32_t k = 0; k < n; k++, d += px) {
        const uint8_t *v[4];
        int r = linear_taps(s, xy[2 * k], xy[2 * k + 1], px, v);
        if (r == 0) continue;
        if (r == 2) {
            memcpy(d, &s->cval, px);
            continue;
        }
        int e = a[k] & (PFK_INTER_TAB2 - 1);
        for (int c = 0; c < s->cn; c++) {
            if (s->dtype == PF_U8) {
                const int16_t *w = ti + e * 4;
                int32_t sum = v[0][c] * w[0] + v[1][c] * w[1] + v[2][c] * w[2] + v[3][c] * w[3];
                d[c] = pfk_warp_cast_u8(sum);
            } else {
                const float *w = tf + e * 4;
                float sum = rdf(v[0], s->dtype, c) * w[0] + rdf(v[1], s->dtype, c) * w[1] +
                            rdf(v[2], s->dtype, c) * w[2] + rdf(v[3], s->dtype, c) * w[3];
                wrf(d, s->dtype, c, sum);
            }
        }
    }
}

/* CUBIC inside: 4 rows of 4 taps, each row summed left to right and added
 * to the running sum. */
static void cubic_inside(const pfi_warp_src *s, const uint8_t *p0, size_t px, int e, uint8_t *d) {
    for (int c = 0; c < s->cn; c++) {
        if (s->dtype == PF_U8) {
            const int16_t *w = pfi_warp_tab_i(1) + e * 16;
            int32_t sum = 0;
            for (int r = 0; r < 4; r++) {
                const uint8_t *p = p0 + (ptrdiff_t)r * s->row_stride + c;
                sum += p[0] * w[4 * r] + p[px] * w[4 * r + 1] + p[2 * px] * w[4 * r + 2] + p[3 * px] * w[4 * r + 3];
            }
            d[c] = pfk_warp_cast_u8(sum);
        } else {
            const float *w = pfi_warp_tab_f(1) + e * 16;
            float sum = 0;
            for (int r = 0; r < 4; r++) {
                const uint8_t *p = p0 + (ptrdiff_t)r * s->row_stride;
                float row = rdf(p, s->dtype, c) * w[4 * r] + rdf(p + px, s->dtype, c) * w[4 * r + 1] +
                            rdf(p + 2 * px, s->dtype, c) * w[4 * r + 2] + rdf(p + 3 * px, s->dtype, c) * w[4 * r + 3];
                sum = r == 0 ? row : sum + row;
            }
            wrf(d, s->dtype, c, sum);
        }
    }
}

/* CUBIC at the border: starts from the border value and adds
 * (tap - value) * weight for the taps the border rule keeps, as OpenCV. */
static void cubic_border(const pfi_warp_src *s, int32_t sx, int32_t sy, size_t px, int e, uint8_t *d) {
    int mode = s->border == PF_BORDER_TRANSPARENT ? PF_BORDER_REFLECT_101 : s->border;
    int32_t bx[4], by[4];
    for (int i = 0; i < 4; i++) {
        bx[i] = pfk_border_index(sx + i, s->width, mode);
        by[i] = pfk_border_index(sy + i, s->height, mode);
    }
    for (int c = 0; c < s->cn; c++) {
        if (s->dtype == PF_U8) {
            const int16_t *w = pfi_warp_tab_i(1) + e * 16;
            int32_t cv = s->cval.u8[c], sum = cv * PFK_REMAP_COEF_ONE;
            for (int i = 0; i < 4; i++) {
                if (by[i] < 0) continue;
                const uint8_t *row = s->data + (ptrdiff_t)by[i] * s->row_stride + c;
                for (int j = 0; j < 4; j++)
                    if (bx[j] >= 0) sum += (row[(ptrdiff_t)bx[j] * (ptrdiff_t)px] - cv) * w[4 * i + j];
            }
            d[c] = pfk_warp_cast_u8(sum);
        } else {
            const float *w = pfi_warp_tab_f(1) + e * 16;
            float cv = rdf((const uint8_t *)&s->cval, s->dtype, c), sum = cv * 1.f;
            for (int i = 0; i < 4; i++) {
                if (by[i] < 0) continue;
                const uint8_t *row = s->data + (ptrdiff_t)by[i] * s->row_stride;
                for (int j = 0; j < 4; j++)
                    if (bx[j] >= 0) sum += (rdf(row + (ptrdiff_t)bx[j] * (ptrdiff_t)px, s->dtype, c) - cv) * w[4 * i + j];
            }
            wrf(d, s->dtype, c, sum);
        }
    }
}

static void cubic_row(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *d, int32_t n) {
    size_t px = elem_size(s->dtype) * (size_t)s->cn;
    for (int32_t k = 0; k < n; k++, d += px) {
        int32_t sx = xy[2 * k] - 1, sy = xy[2 * k + 1] - 1;
        int e = a[k] & (PFK_INTER_TAB2 - 1);
        if ((uint32_t)sx < (uint32_t)(s->width > 3 ? s->width - 3 : 0) &&
            (uint32_t)sy < (uint32_t)(s->height > 3 ? s->height - 3 : 0)) {
            cubic_inside(s, s->data + (ptrdiff_t)sy * s->row_stride + (ptrdiff_t)sx * (ptrdiff_t)px, px, e, d);
            continue;
        }
        if (s->border == PF_BORDER_TRANSPARENT &&
            ((uint32_t)(sx + 1) >= (uint32_t)s->width || (uint32_t)(sy + 1) >= (uint32_t)s->height))
            continue;
        if (s->border == PF_BORDER_CONSTANT && (sx >= s->width || sx + 4 <= 0 || sy >= s->height || sy + 4 <= 0)) {
            memcpy(d, &s->cval, px);
            continue;
        }
        cubic_border(s, sx, sy, px, e, d);
    }
}

void pfi_warp_row_ref(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, void *dst, int32_t n) {
    if (s->interp == PF_INTERP_NEAREST) nearest_row(s, xy, dst, n);
    else if (s->interp == PF_INTERP_LINEAR) linear_row(s, xy, a, dst, n);
    else cubic_row(s, xy, a, dst, n);
}

void pfi_warp_u8_row_ref(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n) {
    pfi_warp_row_ref(s, xy, a, dst, n);
}

void pfi_warp_affine_u8_ref(const pfi_warp_src *s, const int32_t *adelta, const int32_t *bdelta, int32_t X0,
                            int32_t Y0, int32_t n, uint8_t *dst) {
    enum { STEP = 256 };
    int16_t xy[2 * STEP];
    uint16_t a[STEP];
    int nearest = s->interp == PF_INTERP_NEAREST;
    for (int32_t k = 0; k < n; k += STEP) {
        int32_t m = n - k < STEP ? n - k : STEP;
        pfi_warp_affine_xy_ref(adelta + k, bdelta + k, X0, Y0, m, nearest, xy, a);
        pfi_warp_row_ref(s, xy, a, dst + (size_t)k * (size_t)s->cn, m);
    }
}

void pfi_warp_remap_u8_ref(const pfi_warp_src *s, const float *fx, const float *fy, int32_t n, uint8_t *dst) {
    enum { STEP = 256 };
    int16_t xy[2 * STEP];
    uint16_t a[STEP];
    for (int32_t k = 0; k < n; k += STEP) {
        int32_t m = n - k < STEP ? n - k : STEP;
        pfi_warp_remap_xy_ref(fx + k, fy + k, m, s->interp == PF_INTERP_NEAREST, xy, a);
        pfi_warp_row_ref(s, xy, a, dst + (size_t)k * (size_t)s->cn, m);
    }
}

void pfi_warp_affine_xy_ref(const int32_t *adelta, const int32_t *bdelta, int32_t X0, int32_t Y0, int32_t n,
                            int nearest, int16_t *xy, uint16_t *a) {
    for (int32_t k = 0; k < n; k++)
        pfk_affine_px(X0, Y0, adelta[k], bdelta[k], nearest, &xy[2 * k], &xy[2 * k + 1], &a[k]);
}

void pfi_warp_persp_xy_ref(const double m[9], const double o[3], int32_t x1_0, int32_t n, int nearest, int16_t *xy,
                           uint16_t *a) {
    for (int32_t k = 0; k < n; k++) pfk_persp_px(m, o, x1_0 + k, nearest, &xy[2 * k], &xy[2 * k + 1], &a[k]);
}

void pfi_warp_remap_xy_ref(const float *fx, const float *fy, int32_t n, int nearest, int16_t *xy, uint16_t *a) {
    for (int32_t k = 0; k < n; k++) pfk_remap_px(fx[k], fy[k], nearest, &xy[2 * k], &xy[2 * k + 1], &a[k]);
}
