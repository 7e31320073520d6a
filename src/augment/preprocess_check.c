/*
 * pf_preprocess_run argument validation: the whole batch is checked
 * before anything is written, and every message names the argument.
 */
#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/image_util.h"
#include "augment/preprocess_plan.h"
#include "ops/op_args.h"

#define OP PFI_PP_OP

static pf_status check_tensor(const pf_preprocess_plan *plan, int count, const pf_tensor *t, int host) {
    const pf_preprocess_desc *d = &plan->d;
    pf_status st = pf_tensor_validate(t, "dst");
    if (st != PF_OK) return st;
    if (host && t->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": dst is not host memory; the CPU preprocess writes host tensors");
    if (t->n < count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst->n is %d but count is %d; the tensor needs n >= count",
                        (int)t->n, count);
    if (t->width != d->out_width || t->height != d->out_height || t->channels != d->out_channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": dst is %dx%dx%d (WxHxC) but the plan produces %dx%dx%d", (int)t->width,
                        (int)t->height, (int)t->channels, (int)d->out_width, (int)d->out_height,
                        (int)d->out_channels);
    if (t->dtype != d->out_dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst->dtype is %s but the plan's out_dtype is %s",
                        pf_dtype_name(t->dtype), pf_dtype_name(d->out_dtype));
    if (t->layout != d->out_layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst->layout is %s but the plan's out_layout is %s",
                        t->layout == PF_CHW ? "PF_CHW" : "PF_HWC", d->out_layout == PF_CHW ? "PF_CHW" : "PF_HWC");
    return PF_OK;
}

static pf_status check_src(int i, const pf_image *s, int host) {
    char name[32];
    snprintf(name, sizeof name, "src[%d]", i);
    pf_status st = pf_image_validate(s, name);
    if (st != PF_OK) return st;
    if (host && s->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": src[%d] is not host memory", i);
    if (s->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": src[%d].dtype is %s; the fused preprocess reads u8 images", i,
                        pf_dtype_name(s->dtype));
    if (s->channels != 1 && s->channels != 3)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": src[%d] has %d channels; it must have 1 or 3", i,
                        (int)s->channels);
    if (s->layout != PF_HWC && s->channels != 1)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": src[%d] is planar (PF_CHW); the fused preprocess reads HWC images",
                        i);
    return PF_OK;
}

static pf_status check_factor(int i, const char *name, float v, double lo, double hi) {
    if (!isfinite(v) || (double)v < lo || (double)v > hi) {
        if (isinf(hi))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": params[%d].%s is %g; it must be finite and >= %g", i,
                            name, (double)v, lo);
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": params[%d].%s is %g; it must be in [%g, %g]", i, name,
                        (double)v, lo, hi);
    }
    return PF_OK;
}

static pf_status check_params(const pf_preprocess_plan *plan, int i, const pf_image *s, const pf_aug_params *p) {
    pf_status st;
    if (p->crop_w > 0 && p->crop_h > 0) {
        int64_t x1 = (int64_t)p->crop_x + p->crop_w, y1 = (int64_t)p->crop_y + p->crop_h;
        if (p->crop_x < 0 || p->crop_y < 0 || x1 > s->width || y1 > s->height)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            OP ": params[%d] crop (x %d, y %d, w %d, h %d) leaves src[%d] (%dx%d)", i,
                            (int)p->crop_x, (int)p->crop_y, (int)p->crop_w, (int)p->crop_h, i, (int)s->width,
                            (int)s->height);
    }
    if ((st = check_factor(i, "brightness", p->brightness, 0.0, HUGE_VAL)) != PF_OK) return st;
    if ((st = check_factor(i, "contrast", p->contrast, 0.0, HUGE_VAL)) != PF_OK) return st;
    if ((st = check_factor(i, "saturation", p->saturation, 0.0, HUGE_VAL)) != PF_OK) return st;
    if ((st = check_factor(i, "hue", p->hue, -0.5, 0.5)) != PF_OK) return st;
    if ((st = check_factor(i, "gamma", p->gamma, 0.0, HUGE_VAL)) != PF_OK) return st;
    int seen = 0;
    for (int k = 0; k < 4; k++) {
        int v = p->jitter_order[k];
        if (v < 0 || v > 3 || (seen & (1 << v)))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            OP ": params[%d].jitter_order is {%d, %d, %d, %d}; it must be a permutation of 0..3", i,
                            p->jitter_order[0], p->jitter_order[1], p->jitter_order[2], p->jitter_order[3]);
        seen |= 1 << v;
    }
    if (p->resize_w != 0 || p->resize_h != 0 || p->window_x != 0 || p->window_y != 0) {
        const pf_preprocess_desc *d = &plan->d;
        if (p->resize_w < 1 || p->resize_h < 1 || p->resize_w > 32767 || p->resize_h > 32767)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            OP ": params[%d].resize_w x resize_h is %d x %d; need both in 1..32767 (or all of "
                               "resize_w/h, window_x/y 0 for none)",
                            i, (int)p->resize_w, (int)p->resize_h);
        if (d->flavor != PF_RESIZE_TORCHVISION)
            return pfi_fail(PF_ERR_UNSUPPORTED,
                            OP ": params[%d].resize_w (resize-then-crop) needs the plan's flavor "
                               "PF_RESIZE_TORCHVISION",
                            i);
        if (d->letterbox || p->affine)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": params[%d].resize_w (resize-then-crop) cannot be "
                                                       "combined with %s",
                            i, p->affine ? "params.affine" : "the plan's letterbox");
        if (p->window_x < 0 || p->window_y < 0 || p->window_x > p->resize_w - d->out_width ||
            p->window_y > p->resize_h - d->out_height)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            OP ": params[%d].window_x/y (%d, %d) put the %dx%d output outside the %dx%d resized "
                               "image",
                            i, (int)p->window_x, (int)p->window_y, (int)d->out_width, (int)d->out_height,
                            (int)p->resize_w, (int)p->resize_h);
    }
    if (!p->affine) return PF_OK;
    pf_interp in = plan->d.interp;
    if (in != PF_INTERP_NEAREST && in != PF_INTERP_LINEAR && in != PF_INTERP_CUBIC)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        OP ": params[%d].affine needs the plan's interp to be NEAREST, LINEAR or CUBIC (it is %d)", i,
                        (int)in);
    if ((st = check_factor(i, "angle", p->angle, -HUGE_VAL, HUGE_VAL)) != PF_OK) return st;
    if ((st = check_factor(i, "translate_x", p->translate_x, -HUGE_VAL, HUGE_VAL)) != PF_OK) return st;
    if ((st = check_factor(i, "translate_y", p->translate_y, -HUGE_VAL, HUGE_VAL)) != PF_OK) return st;
    if (!isfinite(p->scale) || p->scale <= 0.0f)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": params[%d].scale is %g; it must be finite and > 0", i,
                        (double)p->scale);
    if ((st = check_factor(i, "shear_x", p->shear_x, -89.0, 89.0)) != PF_OK) return st;
    if ((st = check_factor(i, "shear_y", p->shear_y, -89.0, 89.0)) != PF_OK) return st;
    pfi_pp_geom g;
    pfi_pp_geometry(plan, s, p, &g);
    for (int k = 0; k < 6; k++)
        if (!isfinite(g.m[k]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": params[%d] gives a non-finite affine matrix", i);
    return PF_OK;
}

pf_status pfi_pp_dst_span(const pf_tensor *dst, int count, const char **lo, const char **hi) {
    pf_image first, last;
    pf_status st = pf_tensor_views(dst, 0, 1, &first);
    if (st == PF_OK) st = pf_tensor_views(dst, count - 1, 1, &last);
    if (st != PF_OK) return st;
    const char *lo0, *hi0, *lo1, *hi1;
    pfi_image_extent(&first, &lo0, &hi0);
    pfi_image_extent(&last, &lo1, &hi1);
    *lo = lo0 < lo1 ? lo0 : lo1;
    *hi = hi0 > hi1 ? hi0 : hi1;
    return PF_OK;
}

/* images: src[] are the pixels (checked, and checked against dst for
 * overlap); else they only carry each sample's size and channels. host:
 * views must be host memory (the CPU path; the device path's routing has
 * already checked where every view lives). */
static pf_status check_batch(const pf_preprocess_plan *plan, int count, const pf_image src[],
                             const pf_aug_params params[], const pf_tensor *dst, int images, int host) {
    if (plan == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": plan is NULL");
    pf_status st = pfi_check_count(OP, count);
    if (st != PF_OK) return st;
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst is NULL");
    if (count == 0) return PF_OK;
    if (src == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": src is NULL with count %d", count);
    st = check_tensor(plan, count, dst, host);
    if (st != PF_OK) return st;
    pf_aug_params id = pf_aug_params_identity();
    /* the bytes samples [0, count) of dst span (samples run in parallel, so
     * a source may overlap no written sample at all) */
    const char *dlo, *dhi;
    if ((st = pfi_pp_dst_span(dst, count, &dlo, &dhi)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        if (images && (st = check_src(i, &src[i], host)) != PF_OK) return st;
        if ((st = check_params(plan, i, &src[i], params ? &params[i] : &id)) != PF_OK) return st;
        if (!images) continue;
        const char *slo, *shi;
        pfi_image_extent(&src[i], &slo, &shi);
        if (slo < dhi && dlo < shi)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": src[%d] overlaps the samples of dst being written", i);
    }
    pfi_clear_error();
    return PF_OK;
}

pf_status pfi_pp_check(const pf_preprocess_plan *plan, int count, const pf_image src[],
                       const pf_aug_params params[], const pf_tensor *dst) {
    return check_batch(plan, count, src, params, dst, 1, 1);
}

pf_status pfi_pp_check_device(const pf_preprocess_plan *plan, int count, const pf_image src[],
                              const pf_aug_params params[], const pf_tensor *dst) {
    return check_batch(plan, count, src, params, dst, 1, 0);
}

pf_status pfi_pp_check_shapes(const pf_preprocess_plan *plan, int count, const pf_image shapes[],
                              const pf_aug_params params[], const pf_tensor *dst, int host) {
    return check_batch(plan, count, shapes, params, dst, 0, host);
}
