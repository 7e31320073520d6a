/*
 * The per-sample decisions of the fused preprocess, made once here for
 * both backends (see pfi_pp_sample in preprocess_plan.h): the geometry,
 * how the canvas is sampled, which colour steps run and in what order,
 * and the output channel order. Flips are not part of the chain: every
 * colour op commutes exactly with a flip (contrast's mean is an exact
 * integer sum), so the emit pass reads mirrored instead.
 */
#include <string.h>

#include "augment/preprocess_plan.h"

/* Colour ops that mix channels assume RGB, so a BGR source (swap_rb) is
 * swapped before them; otherwise the swap is folded into the emit pass. */
int pfi_pp_needs_rgb(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p) {
    if (src->channels != 3) return 0;
    return p->contrast != 1.0f || p->saturation != 1.0f || p->hue != 0.0f || p->grayscale ||
           plan->d.out_channels == 1;
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

/* Whether colour step `op` (PF_JITTER_*) changes a canvas of sc channels. */
static int step_runs(const pf_aug_params *p, int op, int sc) {
    switch (op) {
    case PF_JITTER_BRIGHTNESS: return p->brightness != 1.0f;
    case PF_JITTER_CONTRAST: return p->contrast != 1.0f;
    case PF_JITTER_SATURATION: return p->saturation != 1.0f && sc == 3;
    default: return p->hue != 0.0f && sc == 3;
    }
}

void pfi_pp_sample_of(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p,
                      pfi_pp_sample *s) {
    memset(s, 0, sizeof *s);
    pfi_pp_geometry(plan, src, p, &s->g);
    const pfi_pp_geom *g = &s->g;
    int sc = src->channels;
    /* a resize-then-crop window is a resize even when its full size is the crop's */
    s->sampler = p->affine                                                ? PFK_PP_WARP
                 : g->win.rw == 0 && g->cw == g->rw && g->ch == g->rh ? PFK_PP_COPY
                                                                          : PFK_PP_RESIZE;
    s->swap_first = plan->d.swap_rb && pfi_pp_needs_rgb(plan, src, p);
    for (int k = 0; k < 4; k++) {
        int op = p->jitter_order[k];
        s->ops[k] = (int8_t)(step_runs(p, op, sc) ? op : PFK_PP_OP_NONE);
    }
    s->gray3 = p->grayscale && sc == 3;
    s->gamma = p->gamma != 1.0f;
    s->gray1 = plan->d.out_channels == 1 && sc == 3;
    s->cc = sc == 1 || s->gray1 ? 1 : 3;
    int swap = plan->d.swap_rb && s->cc == 3 && !s->swap_first;
    for (int c = 0; c < 4; c++) s->order[c] = (int8_t)(s->cc == 1 ? 0 : swap && c < 3 ? 2 - c : c);
}
