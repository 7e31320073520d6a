/* Random fused-preprocess descs and per-sample params over every
 * feature (flavours, interpolations, antialias, letterbox and its
 * aligns, distinct pad values per channel, swap_rb, out_channels 1 and
 * 3, dtypes, layouts; crops, flips, affine, resize-then-crop windows,
 * jitter in random orders, grayscale, gamma), for the tests of the
 * dispatcher's chain split (tests/unit/test_hetero_split.c,
 * tests/opencl/test_hetero_rules.c). Include after test_util.h. */
#ifndef PF_TESTS_PP_RANDOM_H
#define PF_TESTS_PP_RANDOM_H

#include "pixflow/pixflow.h"

static const pf_interp pprand_interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC,
                                    PF_INTERP_AREA,    PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
static const pf_dtype pprand_dtypes[] = {PF_F32, PF_U8, PF_F16, PF_BF16};

/* A random desc whose plan is valid. */
static inline void pprand_desc(uint64_t *r, pf_preprocess_desc *d) {
    for (;;) {
        *d = pf_preprocess_desc_defaults();
        d->out_width = pft_range(r, 3, 36);
        d->out_height = pft_range(r, 3, 36);
        d->out_channels = pft_range(r, 0, 3) == 0 ? 1 : 3;
        d->interp = pprand_interps[pft_range(r, 0, 5)];
        d->antialias = pft_range(r, 0, 1);
        d->flavor = (pf_resize_flavor)pft_range(r, 0, 2);
        d->letterbox = pft_range(r, 0, 2) == 0;
        d->letterbox_align = pft_range(r, 0, 1) ? PF_LETTERBOX_TOP_LEFT : PF_LETTERBOX_CENTER;
        for (int c = 0; c < 4; ++c) d->pad_value[c] = pft_range(r, 0, 255) + (pft_range(r, 0, 3) == 0 ? 0.5 : 0);
        d->swap_rb = pft_range(r, 0, 1);
        d->out_dtype = pprand_dtypes[pft_range(r, 0, 3)];
        d->out_layout = pft_range(r, 0, 1) ? PF_CHW : PF_HWC;
        if (d->out_dtype != PF_U8 && pft_range(r, 0, 1)) {
            d->mean[0] = 0.485f, d->mean[1] = 0.456f, d->mean[2] = 0.406f;
            d->std[0] = 0.229f, d->std[1] = 0.224f, d->std[2] = 0.225f;
        }
        pf_preprocess_plan *p = NULL;
        if (pf_preprocess_plan_create(d, &p) == PF_OK) {
            pf_preprocess_plan_destroy(p);
            return;
        }
    }
}

static inline float pprand_f(uint64_t *r, float lo, float hi) {
    return lo + (hi - lo) * (float)(pft_rand(r) % 10001) / 10000.0f;
}

static inline void pprand_params(uint64_t *r, const pf_preprocess_desc *d, const pf_image *im, pf_aug_params *p) {
    *p = pf_aug_params_identity();
    if (pft_range(r, 0, 2)) {
        p->crop_w = pft_range(r, 1, im->width);
        p->crop_h = pft_range(r, 1, im->height);
        p->crop_x = pft_range(r, 0, im->width - p->crop_w);
        p->crop_y = pft_range(r, 0, im->height - p->crop_h);
    }
    p->flip_h = pft_range(r, 0, 1);
    p->flip_v = pft_range(r, 0, 3) == 0;
    int window = d->flavor == PF_RESIZE_TORCHVISION && !d->letterbox && pft_range(r, 0, 3) == 0;
    if (!d->letterbox && !window && d->interp != PF_INTERP_AREA && d->interp != PF_INTERP_LANCZOS4 &&
        d->interp != PF_INTERP_NEAREST_EXACT && pft_range(r, 0, 3) == 0) {
        p->affine = true;
        p->angle = pprand_f(r, -30, 30);
        p->translate_x = (float)pft_range(r, -3, 3);
        p->translate_y = (float)pft_range(r, -3, 3);
        p->scale = pprand_f(r, 0.8f, 1.2f);
        p->shear_x = pprand_f(r, -10, 10);
    }
    if (window) {
        p->resize_w = d->out_width + pft_range(r, 0, 8);
        p->resize_h = d->out_height + pft_range(r, 0, 8);
        p->window_x = pft_range(r, 0, p->resize_w - d->out_width);
        p->window_y = pft_range(r, 0, p->resize_h - d->out_height);
    }
    if (pft_range(r, 0, 1)) {
        if (pft_range(r, 0, 1)) p->brightness = pprand_f(r, 0.6f, 1.4f);
        if (pft_range(r, 0, 1)) p->contrast = pprand_f(r, 0.6f, 1.4f);
        if (pft_range(r, 0, 1)) p->saturation = pprand_f(r, 0.6f, 1.4f);
        if (pft_range(r, 0, 1)) p->hue = pprand_f(r, -0.2f, 0.2f);
        for (int k = 3; k > 0; --k) { /* a random order */
            int j = pft_range(r, 0, k);
            int8_t t = p->jitter_order[k];
            p->jitter_order[k] = p->jitter_order[j];
            p->jitter_order[j] = t;
        }
    }
    p->grayscale = pft_range(r, 0, 4) == 0;
    if (pft_range(r, 0, 3) == 0) p->gamma = pprand_f(r, 0.5f, 2.0f);
}

static inline pf_tensor pprand_tensor(const pf_preprocess_desc *d, int n, void *buf) {
    return d->out_layout == PF_CHW ? pf_tensor_nchw(buf, n, d->out_channels, d->out_height, d->out_width, d->out_dtype)
                                   : pf_tensor_nhwc(buf, n, d->out_channels, d->out_height, d->out_width, d->out_dtype);
}

#endif
