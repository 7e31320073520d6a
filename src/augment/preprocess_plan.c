/*
 * Fused preprocess: defaults, the plan (description checks, the
 * normalization tables; each backend adds its state on first use) and the
 * per-sample geometry (crop, letterbox, the composed affine matrix).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "augment/preprocess_plan.h"
#include "kernels/convert_math.h"
#include "ref/convert_rows.h"

pf_aug_params pf_aug_params_identity(void) {
    pf_aug_params p;
    memset(&p, 0, sizeof p);
    p.scale = 1.0f;
    p.brightness = p.contrast = p.saturation = 1.0f;
    p.hue = 0.0f;
    for (int k = 0; k < 4; k++) p.jitter_order[k] = (int8_t)k;
    p.gamma = 1.0f;
    return p;
}

pf_preprocess_desc pf_preprocess_desc_defaults(void) {
    pf_preprocess_desc d;
    memset(&d, 0, sizeof d);
    d.out_width = 224;
    d.out_height = 224;
    d.out_channels = 3;
    d.interp = PF_INTERP_LINEAR;
    d.antialias = false;
    d.flavor = PF_RESIZE_OPENCV;
    d.letterbox = false;
    d.letterbox_align = PF_LETTERBOX_CENTER;
    d.swap_rb = false;
    d.scale = 1.0f / 255.0f;
    for (int c = 0; c < 4; c++) {
        d.pad_value[c] = 0.0;
        d.mean[c] = 0.0f;
        d.std[c] = 1.0f;
    }
    d.out_dtype = PF_F32;
    d.out_layout = PF_CHW;
    return d;
}

pf_status pfi_pp_check_desc(const pf_preprocess_desc *d, const char *op) {
    if (d->out_width < 1 || d->out_height < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->out_width x out_height is %d x %d; both must be >= 1",
                        op, (int)d->out_width, (int)d->out_height);
    if (d->out_width > 32767 || d->out_height > 32767)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->out_width x out_height is %d x %d; at most 32767 each",
                        op, (int)d->out_width, (int)d->out_height);
    if (d->out_channels != 1 && d->out_channels != 3)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->out_channels is %d; it must be 1 or 3", op,
                        (int)d->out_channels);
    int in = d->interp;
    if (in != PF_INTERP_NEAREST && in != PF_INTERP_LINEAR && in != PF_INTERP_CUBIC && in != PF_INTERP_AREA &&
        in != PF_INTERP_LANCZOS4 && in != PF_INTERP_NEAREST_EXACT)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->interp is %d; it is not a pf_interp", op, in);
    if (d->flavor != PF_RESIZE_OPENCV && d->flavor != PF_RESIZE_PILLOW && d->flavor != PF_RESIZE_TORCHVISION)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: desc->flavor is %d; use PF_RESIZE_OPENCV(0), PF_RESIZE_PILLOW(1) or "
                        "PF_RESIZE_TORCHVISION(2)",
                        op, (int)d->flavor);
    if (d->flavor == PF_RESIZE_TORCHVISION && in == PF_INTERP_AREA)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: desc->interp AREA with PF_RESIZE_TORCHVISION: torchvision's F.resize has no area mode",
                        op);
    if (d->flavor == PF_RESIZE_TORCHVISION && in == PF_INTERP_LANCZOS4 && !d->antialias)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: desc->interp LANCZOS4 with PF_RESIZE_TORCHVISION needs desc->antialias", op);
    if (d->letterbox_align != PF_LETTERBOX_CENTER && d->letterbox_align != PF_LETTERBOX_TOP_LEFT)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: desc->letterbox_align is %d; it must be PF_LETTERBOX_CENTER or PF_LETTERBOX_TOP_LEFT",
                        op, (int)d->letterbox_align);
    if (d->out_dtype != PF_F32 && d->out_dtype != PF_F16 && d->out_dtype != PF_BF16 && d->out_dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: desc->out_dtype is %s; the fused preprocess writes f32, f16, bf16 or u8",
                        op, pf_dtype_name(d->out_dtype));
    if (d->out_layout != PF_CHW && d->out_layout != PF_HWC)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->out_layout is %d; it must be PF_CHW or PF_HWC", op,
                        (int)d->out_layout);
    for (int c = 0; c < 4; c++)
        if (!isfinite(d->pad_value[c]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->pad_value[%d] is %g; it must be finite", op, c,
                            d->pad_value[c]);
    if (d->out_dtype == PF_U8) return PF_OK; /* u8: no normalization, scale/mean/std unused */
    if (!isfinite(d->scale))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->scale is %g; it must be finite", op, (double)d->scale);
    for (int c = 0; c < d->out_channels; c++) {
        if (!isfinite(d->mean[c]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->mean[%d] is %g; it must be finite", op, c,
                            (double)d->mean[c]);
        if (!isfinite(d->std[c]) || d->std[c] == 0.0f)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc->std[%d] is %g; it must be finite and != 0", op, c,
                            (double)d->std[c]);
    }
    return PF_OK;
}

/* The output element of channel c for u8 value v, in the out dtype. */
static void lut_entry(const pf_preprocess_desc *d, int c, int v, unsigned char *out) {
    if (d->out_dtype == PF_U8) {
        out[0] = (unsigned char)v;
        return;
    }
    float f = pfk_norm_mean_std((float)v, d->scale, d->mean[c], d->std[c]);
    if (d->out_dtype == PF_F32) {
        memcpy(out, &f, 4);
    } else {
        uint16_t h = d->out_dtype == PF_F16 ? pfk_f32_to_f16(f) : pfk_f32_to_bf16(f);
        memcpy(out, &h, 2);
    }
}

pf_status pf_preprocess_plan_create(const pf_preprocess_desc *desc, pf_preprocess_plan **out) {
    const char *op = "pf_preprocess_plan_create";
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    if (desc == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc is NULL", op);
    pf_status st = pfi_pp_check_desc(desc, op);
    if (st != PF_OK) return st;
    pf_preprocess_plan *p = calloc(1, sizeof *p);
    if (p == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    p->d = *desc;
    p->esize = pf_dtype_size(desc->out_dtype);
    for (int c = 0; c < 4; c++) {
        unsigned char b[4];
        pfi_cvt_encode_fill(desc->pad_value[c], PF_U8, b);
        p->pad_u8[c] = b[0];
        for (int v = 0; v < 256; v++) lut_entry(desc, c < desc->out_channels ? c : 0, v, p->lut[c] + (size_t)v * p->esize);
    }
    *out = p;
    return PF_OK;
}

void pf_preprocess_plan_destroy(pf_preprocess_plan *plan) {
    if (plan == NULL) return;
    for (size_t k = 0; k < sizeof plan->state / sizeof plan->state[0]; k++)
        if (plan->state[k].free != NULL) plan->state[k].free(plan->state[k].data);
    free(plan);
}

/* ------------------------------------------------------------ geometry */

void pfi_pp_letterbox(const pf_preprocess_desc *d, int32_t cw, int32_t ch, int32_t *rw, int32_t *rh,
                      int32_t *left, int32_t *top) {
    double r = fmin((double)d->out_width / cw, (double)d->out_height / ch);
    double w = rint((double)cw * r), h = rint((double)ch * r); /* Python round(): half to even */
    *rw = w < 1 ? 1 : w > d->out_width ? d->out_width : (int32_t)w;
    *rh = h < 1 ? 1 : h > d->out_height ? d->out_height : (int32_t)h;
    int center = d->letterbox_align == PF_LETTERBOX_CENTER;
    *left = center ? (d->out_width - *rw) / 2 : 0;
    *top = center ? (d->out_height - *rh) / 2 : 0;
}

/* torchvision's _get_inverse_affine_matrix with center (0, 0) = the image
 * centre: maps centred output coordinates to centred input coordinates.
 * `angle` is torchvision's (clockwise on screen for y down). */
static void tv_inverse_affine(double angle, double tx, double ty, double scale, double shx, double shy,
                              double m[6]) {
    const double deg = 3.14159265358979323846 / 180.0;
    double rot = angle * deg, sx = shx * deg, sy = shy * deg;
    double a = cos(rot - sy) / cos(sy);
    double b = -cos(rot - sy) * tan(sx) / cos(sy) - sin(rot);
    double c = sin(rot - sy) / cos(sy);
    double dd = -sin(rot - sy) * tan(sx) / cos(sy) + cos(rot);
    m[0] = dd / scale;
    m[1] = -b / scale;
    m[2] = 0.0;
    m[3] = -c / scale;
    m[4] = a / scale;
    m[5] = 0.0;
    m[2] += m[0] * (-tx) + m[1] * (-ty);
    m[5] += m[3] * (-tx) + m[4] * (-ty);
}

void pfi_pp_geometry(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p,
                     pfi_pp_geom *g) {
    const pf_preprocess_desc *d = &plan->d;
    memset(g, 0, sizeof *g);
    int whole = p->crop_w <= 0 || p->crop_h <= 0;
    g->cx = whole ? 0 : p->crop_x;
    g->cy = whole ? 0 : p->crop_y;
    g->cw = whole ? src->width : p->crop_w;
    g->ch = whole ? src->height : p->crop_h;
    int32_t rw = d->out_width, rh = d->out_height, left = 0, top = 0;
    if (d->letterbox) pfi_pp_letterbox(d, g->cw, g->ch, &rw, &rh, &left, &top);
    g->info.scale_x = (float)((double)rw / g->cw);
    g->info.scale_y = (float)((double)rh / g->ch);
    g->info.offset_x = (float)left;
    g->info.offset_y = (float)top;
    g->info.crop_x = g->cx;
    g->info.crop_y = g->cy;
    if (p->resize_w > 0 && p->resize_h > 0) { /* checked: no letterbox, no affine */
        g->win.rw = p->resize_w;
        g->win.rh = p->resize_h;
        g->win.wx = p->window_x;
        g->win.wy = p->window_y;
        g->info.scale_x = (float)((double)p->resize_w / g->cw);
        g->info.scale_y = (float)((double)p->resize_h / g->ch);
        g->info.offset_x = (float)-p->window_x;
        g->info.offset_y = (float)-p->window_y;
    }
    if (!p->affine) {
        g->rw = rw;
        g->rh = rh;
        g->left = left;
        g->top = top;
        return;
    }
    /* The warp fills the whole output. Output pixel o -> pre-affine canvas
     * pixel q (torchvision: about the output centre, pixel centres at
     * integer + 0.5) -> crop pixel s = (q - left + 0.5) * cw / rw - 0.5
     * (cv::resize's pixel-centre mapping). */
    g->rw = d->out_width;
    g->rh = d->out_height;
    double ic[6];
    tv_inverse_affine((double)p->angle, (double)p->translate_x, (double)p->translate_y, (double)p->scale,
                      (double)p->shear_x, (double)p->shear_y, ic);
    double ocx = (d->out_width - 1) * 0.5, ocy = (d->out_height - 1) * 0.5;
    /* q = ic * (o - oc) + oc */
    double q[6] = {ic[0], ic[1], ic[2] - ic[0] * ocx - ic[1] * ocy + ocx,
                   ic[3], ic[4], ic[5] - ic[3] * ocx - ic[4] * ocy + ocy};
    double fx = (double)g->cw / rw, fy = (double)g->ch / rh;
    double bx = (0.5 - left) * fx - 0.5, by = (0.5 - top) * fy - 0.5;
    g->m[0] = q[0] * fx;
    g->m[1] = q[1] * fx;
    g->m[2] = q[2] * fx + bx;
    g->m[3] = q[3] * fy;
    g->m[4] = q[4] * fy;
    g->m[5] = q[5] * fy + by;
}
