/* The pipeline's default per-sample work (pf_sample_fn_decode_augment):
 * bytes -> u8 image -> pf_aug_sample(policy, seed, epoch, index) on the
 * decoded size -> fused preprocess into the sample's slot. Each worker owns
 * a preprocess plan.
 *
 * Formats: JPEG, PNG and WebP through the image codec (include/pixflow/
 * codec.h): a per-worker pf_decode_augmenter built from the same
 * desc/policy, one pf_decode_augment call per sample, which keys the
 * sampler exactly as augment() below does; DCT-domain downscaling is off,
 * so the result is bit-identical to decode-then-preprocess. Binary PPM/PGM
 * are parsed here. In a build without the codec (-DPIXFLOW_CODEC=OFF)
 * JPEG/PNG/WebP fail with PF_ERR_UNSUPPORTED saying so (counted and
 * skipped like any undecodable sample). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_pnm.h"
#include "pixflow/pipeline.h"
#ifdef PF_HAVE_CODEC
#include "pixflow/codec.h"
#endif

typedef struct worker {
    pf_preprocess_plan *plan;
    pf_aug_policy policy;
#ifdef PF_HAVE_CODEC
    pf_decode_augmenter *aug;
#endif
} worker;

static pf_status worker_create(void *ctx, const pf_preprocess_desc *desc, const pf_aug_policy *policy,
                               void **state) {
    (void)ctx;
    worker *w = calloc(1, sizeof *w);
    if (w == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "decode+augment worker: out of memory");
    w->policy = *policy;
    pf_status st = pf_preprocess_plan_create(desc, &w->plan);
#ifdef PF_HAVE_CODEC
    if (st == PF_OK) st = pf_decode_augmenter_create(desc, policy, NULL, &w->aug);
#endif
    if (st != PF_OK) {
        pf_preprocess_plan_destroy(w->plan);
        free(w);
        return st;
    }
    *state = w;
    return PF_OK;
}

static void worker_destroy(void *ctx, void *state) {
    (void)ctx;
    worker *w = state;
    pf_preprocess_plan_destroy(w->plan);
#ifdef PF_HAVE_CODEC
    pf_decode_augmenter_destroy(w->aug);
#endif
    free(w);
}

/* Augments a decoded u8 image into the slot and fills the metadata. */
static pf_status augment(worker *w, const pf_sample_input *in, const pf_image *img, pf_tensor *slot,
                         pf_sample_meta *meta) {
    pf_aug_params params;
    pf_status st = pf_aug_sample(&w->policy, in->seed, in->epoch, in->index, 1, &img->width, &img->height, &params);
    if (st != PF_OK) return st;
    st = pf_preprocess_run(w->plan, NULL, 1, img, &params, slot, &meta->letterbox);
    meta->width = img->width;
    meta->height = img->height;
    return st;
}

static pf_status process(void *ctx, void *state, const pf_sample_input *in, pf_tensor *slot,
                         pf_sample_meta *meta) {
    (void)ctx;
    worker *w = state;
    int32_t width, height, channels;
    size_t off;
    if (pli_is_codec_format(in->data, in->size)) {
#ifdef PF_HAVE_CODEC
        pf_decode_aug_result r;
        const void *data[1] = {in->data};
        size_t size[1] = {in->size};
        pf_status cst = pf_decode_augment(w->aug, NULL, 1, data, size, in->seed, in->epoch, in->index, slot, &r);
        if (cst != PF_OK) return cst;
        meta->width = r.width;
        meta->height = r.height;
        meta->warnings = r.warnings;
        meta->letterbox = r.info;
        return PF_OK;
#else
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s is JPEG/PNG/WebP: this pixflow was built without the image codec "
                        "(-DPIXFLOW_CODEC=OFF); the default sample function decodes PPM/PGM only",
                        in->name ? in->name : "sample");
#endif
    }
    pf_status st = pli_pnm_header(in->data, in->size, &width, &height, &channels, &off);
    if (st != PF_OK) return st;
    pf_image img = pf_image_hwc((uint8_t *)(uintptr_t)in->data + off, width, height, channels, PF_U8, 0);
    return augment(w, in, &img, slot, meta);
}

pf_sample_fn pf_sample_fn_decode_augment(void) {
    pf_sample_fn f;
    memset(&f, 0, sizeof f);
    f.worker_create = worker_create;
    f.worker_destroy = worker_destroy;
    f.process = process;
    return f;
}
