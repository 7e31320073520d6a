/* The pipeline's default per-sample work (pf_sample_fn_decode_augment):
 * bytes -> u8 image -> pf_aug_sample(policy, seed, epoch, index) on the
 * decoded size -> fused preprocess into the sample's slot. Each worker owns
 * a preprocess plan.
 *
 * Formats: binary PPM/PGM here. JPEG/PNG/WebP go through the image codec
 * (include/pixflow/codec.h, issue 6) once it is part of the library: a
 * per-worker pf_decode_augmenter (created in worker_create from the same
 * desc/policy) and one pf_decode_augment(aug, NULL, 1, &data, &size, seed,
 * epoch, index, slot, &result) call per sample, which keys the sampler the
 * same way as augment() below. Until then such bytes fail with
 * PF_ERR_UNSUPPORTED and a message saying so (counted and skipped like any
 * undecodable sample). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_pnm.h"
#include "pixflow/pipeline.h"

typedef struct worker {
    pf_preprocess_plan *plan;
    pf_aug_policy policy;
} worker;

static pf_status worker_create(void *ctx, const pf_preprocess_desc *desc, const pf_aug_policy *policy,
                               void **state) {
    (void)ctx;
    worker *w = calloc(1, sizeof *w);
    if (w == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "decode+augment worker: out of memory");
    w->policy = *policy;
    pf_status st = pf_preprocess_plan_create(desc, &w->plan);
    if (st != PF_OK) {
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
    const unsigned char *b = in->data;
    if (in->size >= 4 && ((b[0] == 0xFF && b[1] == 0xD8) || (b[0] == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') ||
                          (in->size >= 12 && memcmp(b, "RIFF", 4) == 0 && memcmp(b + 8, "WEBP", 4) == 0)))
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s is JPEG/PNG/WebP: this build's default sample function decodes PPM/PGM only "
                        "(the image codec is not part of this library yet)", in->name ? in->name : "sample");
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
