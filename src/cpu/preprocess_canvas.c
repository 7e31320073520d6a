/*
 * The u8 stage of the fused preprocess: one sample's crop is resized (or
 * warped) into a packed u8 scratch image, then the colour ops run on it in
 * place. The steps are pixflow's own ops and kernels, in the order the
 * exactness contract names, so the canvas equals the op-by-op chain's:
 *   pf_resize / pf_warp_affine -> (swap R,B) -> brightness, contrast,
 *   saturation, hue in jitter_order -> rgb_to_grayscale (3) -> gamma
 *   -> rgb_to_grayscale (1) when the plan outputs 1 channel.
 * Ops at their identity value are skipped (brightness/contrast/saturation
 * 1, hue 0, gamma 1): the chain is defined without them. Flips are not
 * applied here: every colour op commutes exactly with a flip (contrast's
 * mean is an exact integer sum), so the emit pass reads mirrored instead.
 */
#include <string.h>

#include "core/error.h"
#include "cpu/preprocess_internal.h"
#include "cpu/resize_exec.h"

/* Colour ops that mix channels assume RGB, so a BGR source (swap_rb) is
 * swapped before them; otherwise the swap is folded into the emit pass. */
int pfi_pp_needs_rgb(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p) {
    if (src->channels != 3) return 0;
    return p->contrast != 1.0f || p->saturation != 1.0f || p->hue != 0.0f || p->grayscale ||
           plan->d.out_channels == 1;
}

static void swap_rb_inplace(const pf_image *im) {
    for (int32_t y = 0; y < im->height; y++) {
        uint8_t *r = (uint8_t *)im->data + (ptrdiff_t)y * im->row_stride;
        for (int32_t x = 0; x < im->width; x++) {
            uint8_t t = r[3 * x];
            r[3 * x] = r[3 * x + 2];
            r[3 * x + 2] = t;
        }
    }
}

pf_warp_opts pfi_pp_warp_opts(const pf_preprocess_plan *plan, int32_t src_channels) {
    const pf_preprocess_desc *d = &plan->d;
    pf_warp_opts wo = pf_warp_opts_defaults();
    wo.interp = d->interp;
    wo.border = PF_BORDER_CONSTANT;
    wo.flags = PF_WARP_INVERSE_MAP;
    /* pad_value is per output channel; canvas channel k is read by
     * output channel 2 - k when the swap is folded into the emit pass */
    for (int k = 0; k < 4; k++) wo.border_value[k] = plan->pad_u8[0];
    if (src_channels == 3 && d->out_channels == 3)
        for (int k = 0; k < 3; k++) wo.border_value[k] = plan->pad_u8[d->swap_rb ? 2 - k : k];
    return wo;
}

static pf_status geometry_stage(const pf_preprocess_plan *plan, pf_stream *stream, pf_isa isa,
                                const pf_image *roi, int affine, const pfi_pp_geom *g, const pf_image *a) {
    const pf_preprocess_desc *d = &plan->d;
    if (affine) {
        pf_warp_opts wo = pfi_pp_warp_opts(plan, roi->channels);
        return pf_warp_affine(stream, 1, roi, (pf_image *)a, g->m, 1, &wo);
    }
    return pfi_resize_image(stream, pfi_resize_kernels_for(isa), roi, a, d->interp, d->antialias);
}

static pf_status jitter_op(pf_stream *stream, const pf_image *a, const pf_aug_params *p, int op) {
    pf_image *io = (pf_image *)a;
    double f;
    switch (op) {
    case PF_JITTER_BRIGHTNESS:
        if (p->brightness == 1.0f) return PF_OK;
        f = (double)p->brightness;
        return pf_adjust_brightness(stream, 1, a, io, &f, 1);
    case PF_JITTER_CONTRAST:
        if (p->contrast == 1.0f) return PF_OK;
        f = (double)p->contrast;
        return pf_adjust_contrast(stream, 1, a, io, &f, 1);
    case PF_JITTER_SATURATION:
        if (p->saturation == 1.0f || a->channels == 1) return PF_OK; /* 1 channel: identity (torchvision) */
        f = (double)p->saturation;
        return pf_adjust_saturation(stream, 1, a, io, &f, 1);
    default:
        if (p->hue == 0.0f || a->channels == 1) return PF_OK;
        f = (double)p->hue;
        return pf_adjust_hue(stream, 1, a, io, &f, 1);
    }
}

pf_status pfi_pp_canvas_isa(const pf_preprocess_plan *plan, pf_stream *stream, pf_isa isa, const pf_image *src,
                            const pf_aug_params *p, const pfi_pp_geom *g, unsigned char *scratch,
                            pf_image *canvas, int *swapped) {
    pf_image roi;
    pf_status st = pf_image_roi(src, g->cx, g->cy, g->cw, g->ch, &roi);
    if (st != PF_OK) return st;
    int sc = src->channels;
    pf_image a = pf_image_hwc(scratch, g->rw, g->rh, sc, PF_U8, 0);
    if ((st = geometry_stage(plan, stream, isa, &roi, p->affine, g, &a)) != PF_OK) return st;
    *swapped = 0;
    if (plan->d.swap_rb && pfi_pp_needs_rgb(plan, src, p)) {
        swap_rb_inplace(&a);
        *swapped = 1;
    }
    for (int k = 0; k < 4; k++)
        if ((st = jitter_op(stream, &a, p, p->jitter_order[k])) != PF_OK) return st;
    if (p->grayscale && sc == 3 && (st = pf_rgb_to_grayscale(stream, 1, &a, &a)) != PF_OK) return st;
    if (p->gamma != 1.0f) {
        double gm = (double)p->gamma;
        if ((st = pf_adjust_gamma(stream, 1, &a, &a, &gm, NULL, 1)) != PF_OK) return st;
    }
    *canvas = a;
    if (plan->d.out_channels == 1 && sc == 3) {
        pf_image gray = pf_image_hwc(scratch + (size_t)g->rw * (size_t)g->rh * 3, g->rw, g->rh, 1, PF_U8, 0);
        if ((st = pf_rgb_to_grayscale(stream, 1, &a, &gray)) != PF_OK) return st;
        *canvas = gray;
    }
    return PF_OK;
}
