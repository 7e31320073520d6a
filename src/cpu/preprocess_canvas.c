/*
 * The u8 stage of the fused preprocess: one sample's crop is resized (or
 * warped) into a packed u8 scratch image, then the colour ops run on it in
 * place. The steps are the CPU backend's own executors of pixflow's ops
 * (cpu_kernels.h, resize_exec.h), in the order the exactness contract
 * names, so the canvas equals the op-by-op chain's:
 *   pf_resize / pf_warp_affine -> (swap R,B) -> brightness, contrast,
 *   saturation, hue in jitter_order -> rgb_to_grayscale (3) -> gamma
 *   -> rgb_to_grayscale (1) when the plan outputs 1 channel.
 * They are called directly, not through the public functions: the plan
 * validated every argument once (augment/preprocess_check.c), and a public
 * call per sample would check and route again only to come back to this
 * backend. Each executor is given the same `stream` the public call was
 * and picks its kernels at pf_stream_isa(stream) as before, so the ISA
 * choice is unchanged (resize: `isa`, as before; both are the same level
 * unless the cap changed after the run's stream was made).
 * Which steps run is the sample's pfi_pp_sample (augment/preprocess_plan.h,
 * the same decisions the GPU job builder follows). Flips are not applied
 * here: the emit pass reads mirrored instead.
 */
#include <string.h>

#include "core/error.h"
#include "cpu/cpu_kernels.h"
#include "cpu/preprocess_cpu.h"
#include "cpu/resize_exec.h"
#include "ops/warp_matrix.h"

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

/* The sampler: the CPU resize does PFK_PP_COPY as its own COPY plan. */
static pf_status geometry_stage(const pf_preprocess_plan *plan, pf_stream *stream, pf_isa isa,
                                const pf_image *roi, int sampler, const pfi_pp_geom *g, const pf_image *a) {
    const pf_preprocess_desc *d = &plan->d;
    if (sampler == PFK_PP_WARP) {
        /* the one check of pf_warp_affine the plan does not make */
        pf_status st = pfi_warp_check_sides("pf_warp_affine", 0, roi, a);
        if (st != PF_OK) return st;
        pf_warp_opts wo = pfi_pp_warp_opts(plan, roi->channels);
        return pfi_cpu_warp_affine(stream, 1, roi, (pf_image *)a, g->m, 1, &wo);
    }
    return pfi_resize_image(stream, pfi_resize_kernels_for(isa), roi, a, d->interp, d->flavor, d->antialias,
                            g->win.rw > 0 ? &g->win : NULL);
}

/* Colour step op (PF_JITTER_*) in place; it runs (pfi_pp_sample). */
static pf_status jitter_op(pf_stream *stream, const pf_image *a, const pf_aug_params *p, int op) {
    pf_image *io = (pf_image *)a;
    double f;
    switch (op) {
    case PF_JITTER_BRIGHTNESS:
        f = (double)p->brightness;
        return pfi_cpu_adjust_brightness(stream, 1, a, io, &f, 1);
    case PF_JITTER_CONTRAST:
        f = (double)p->contrast;
        return pfi_cpu_adjust_contrast(stream, 1, a, io, &f, 1);
    case PF_JITTER_SATURATION:
        f = (double)p->saturation;
        return pfi_cpu_adjust_saturation(stream, 1, a, io, &f, 1);
    default:
        f = (double)p->hue;
        return pfi_cpu_adjust_hue(stream, 1, a, io, &f, 1);
    }
}

pf_status pfi_pp_canvas_isa(const pf_preprocess_plan *plan, pf_stream *stream, pf_isa isa, const pf_image *src,
                            const pf_aug_params *p, const pfi_pp_sample *s, const pfi_pp_geom *g,
                            unsigned char *scratch, pf_image *canvas) {
    pf_image roi;
    pf_status st = pf_image_roi(src, g->cx, g->cy, g->cw, g->ch, &roi);
    if (st != PF_OK) return st;
    int sc = src->channels;
    pf_image a = pf_image_hwc(scratch, g->rw, g->rh, sc, PF_U8, 0);
    if ((st = geometry_stage(plan, stream, isa, &roi, s->sampler, g, &a)) != PF_OK) return st;
    if (s->swap_first) swap_rb_inplace(&a);
    for (int k = 0; k < 4; k++)
        if (s->ops[k] != PFK_PP_OP_NONE && (st = jitter_op(stream, &a, p, s->ops[k])) != PF_OK) return st;
    if (s->gray3 && (st = pfi_cpu_rgb_to_grayscale(stream, 1, &a, &a)) != PF_OK) return st;
    if (s->gamma) {
        double gm = (double)p->gamma;
        if ((st = pfi_cpu_adjust_gamma(stream, 1, &a, &a, &gm, NULL, 1)) != PF_OK) return st;
    }
    *canvas = a;
    if (s->gray1) {
        pf_image gray = pf_image_hwc(scratch + (size_t)g->rw * (size_t)g->rh * 3, g->rw, g->rh, 1, PF_U8, 0);
        if ((st = pfi_cpu_rgb_to_grayscale(stream, 1, &a, &gray)) != PF_OK) return st;
        *canvas = gray;
    }
    return PF_OK;
}
