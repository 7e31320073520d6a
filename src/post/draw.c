/* pf_draw_detections: preview drawing (CV-CUDA BndBox-like): box outlines
 * of a given thickness drawn inwards, an optional translucent fill, and a
 * filled tab with the class id in a built-in 3x5 digit font. Not an
 * exactness-graded op: it only has to be deterministic and stay inside the
 * image. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "pixflow/post.h"

pf_draw_opts pf_draw_opts_defaults(void) {
    pf_draw_opts o;
    memset(&o, 0, sizeof o);
    o.thickness = 2;
    o.color[1] = 255;
    o.color[3] = 255;
    o.palette = true;
    o.label = true;
    return o;
}

/* 3x5 digits, one row per byte (bit 2 = left column) */
static const uint8_t k_digits[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 2, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};

/* 20 well-separated hues (HSV with s = 0.8, v = 1), visited with stride 7 */
static void palette_color(int32_t cls, uint8_t rgb[3]) {
    int k = (int)(((cls % 20) + 20) % 20);
    double h = (double)((k * 7) % 20) / 20.0 * 6.0, s = 0.8;
    int sector = (int)h;
    double f = h - sector, p = 1 - s, q = 1 - s * f, t = 1 - s * (1 - f);
    double r, g, b;
    switch (sector) {
    case 0: r = 1; g = t; b = p; break;
    case 1: r = q; g = 1; b = p; break;
    case 2: r = p; g = 1; b = t; break;
    case 3: r = p; g = q; b = 1; break;
    case 4: r = t; g = p; b = 1; break;
    default: r = 1; g = p; b = q; break;
    }
    rgb[0] = (uint8_t)lrint(r * 255);
    rgb[1] = (uint8_t)lrint(g * 255);
    rgb[2] = (uint8_t)lrint(b * 255);
}

typedef struct painter {
    pf_image *im;
    uint8_t px[4];
    int cn;
} painter;

static void put(const painter *p, int32_t x, int32_t y, int alpha) {
    if (x < 0 || y < 0 || x >= p->im->width || y >= p->im->height) return;
    uint8_t *d = (uint8_t *)pfi_row_ptr(p->im, 0, y) + (size_t)x * p->cn;
    for (int c = 0; c < p->cn; c++) {
        int v = alpha >= 255 ? p->px[c] : (d[c] * (255 - alpha) + p->px[c] * alpha + 127) / 255;
        d[c] = (uint8_t)v;
    }
}

static void fill(const painter *p, int32_t x0, int32_t y0, int32_t x1, int32_t y1, int alpha) {
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > p->im->width - 1) x1 = p->im->width - 1;
    if (y1 > p->im->height - 1) y1 = p->im->height - 1;
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) put(p, x, y, alpha);
}

static int32_t clampi(double v, int32_t lo, int32_t hi) {
    if (!(v >= lo)) return lo; /* NaN too */
    if (v > hi) return hi;
    return (int32_t)lrint(v);
}

static void draw_one(pf_image *im, const pf_detection *d, const pf_draw_opts *o) {
    uint8_t rgba[4] = {o->color[0], o->color[1], o->color[2], o->color[3]};
    if (o->palette) palette_color(d->class_id, rgba), rgba[3] = 255;
    painter p = {im, {0}, im->channels};
    if (p.cn == 1) p.px[0] = (uint8_t)((rgba[0] * 77 + rgba[1] * 150 + rgba[2] * 29 + 128) >> 8);
    else memcpy(p.px, rgba, 4);
    int32_t W = im->width - 1, H = im->height - 1;
    int32_t x0 = clampi((double)d->x1, 0, W), y0 = clampi((double)d->y1, 0, H), x1 = clampi((double)d->x2, 0, W), y1 = clampi((double)d->y2, 0, H);
    if (x1 < x0 || y1 < y0) return;
    int32_t t = o->thickness;
    if (o->fill_alpha) fill(&p, x0, y0, x1, y1, o->fill_alpha);
    /* the four bands stay inside the box: a box thinner than 2 * thickness
     * is filled, never painted beyond its far edge */
    int32_t ty0 = y0 + t - 1 < y1 ? y0 + t - 1 : y1, ty1 = y1 - t + 1 > y0 ? y1 - t + 1 : y0;
    int32_t tx0 = x0 + t - 1 < x1 ? x0 + t - 1 : x1, tx1 = x1 - t + 1 > x0 ? x1 - t + 1 : x0;
    fill(&p, x0, y0, x1, ty0, 255);
    fill(&p, x0, ty1, x1, y1, 255);
    fill(&p, x0, y0, tx0, y1, 255);
    fill(&p, tx1, y0, x1, y1, 255);
    if (!o->label) return;
    char txt[16];
    int n = snprintf(txt, sizeof txt, "%d", d->class_id < 0 ? -d->class_id : d->class_id);
    const int s = 2, th = 7 * s, tw = n * 4 * s + s;
    int32_t ty = y0 - th >= 0 ? y0 - th : y0; /* above the box, or inside at the top */
    fill(&p, x0, ty, x0 + tw - 1, ty + th - 1, 255);
    int lum = rgba[0] * 77 + rgba[1] * 150 + rgba[2] * 29;
    painter ink = p;
    memset(ink.px, lum > 128 * 256 ? 0 : 255, 3);
    ink.px[3] = 255;
    for (int k = 0; k < n; k++) {
        const uint8_t *g = k_digits[txt[k] - '0'];
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 3; c++)
                if (g[r] & (4 >> c))
                    fill(&ink, x0 + s + k * 4 * s + c * s, ty + s + r * s, x0 + s + k * 4 * s + c * s + s - 1,
                         ty + s + r * s + s - 1, 255);
    }
}

pf_status pf_draw_detections(int count, pf_image images[], const int64_t offsets[], const pf_detection dets[],
                             const pf_draw_opts *opts) {
    static const char op[] = "pf_draw_detections";
    pfi_clear_error();
    pf_draw_opts o = opts ? *opts : pf_draw_opts_defaults();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (!images || !offsets) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, !images ? "images" : "offsets");
    if (o.thickness < 1 || o.thickness > 64)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.thickness %d must be in 1..64", op, o.thickness);
    for (int i = 0; i < count; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s: images[%d]", op, i);
        pf_status st = pf_image_validate(&images[i], name);
        if (st != PF_OK) return st;
        const pf_image *im = &images[i];
        if (im->dtype != PF_U8 || im->mem != PF_MEM_HOST || im->channels == 2 || (im->channels > 1 && im->layout != PF_HWC))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: images[%d] must be u8 HWC with 1, 3 or 4 channels, on the host", op, i);
        if (offsets[i + 1] < offsets[i] || offsets[i] < 0)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: offsets[%d..%d] must not decrease", op, i, i + 1);
    }
    if (offsets[count] > offsets[0] && dets == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dets is NULL", op);
    for (int i = 0; i < count; i++)
        for (int64_t k = offsets[i]; k < offsets[i + 1]; k++) draw_one(&images[i], &dets[k], &o);
    return PF_OK;
}
