/*
 * The workers' step with the device placement: decode only. Mirrors the
 * default sample function (pipeline_decode.c, pf_decode_augment without
 * DCT scaling or orientation) up to the preprocess, which the device stage
 * runs instead: the same probe, the same pf_aug_sample draw on the same
 * size, the same ROI decode (the crop rectangle only), the same crop
 * rewritten relative to the decoded rectangle. The decoded u8 pixels go
 * into a block of the pinned staging pool, taken in sample order
 * (pipeline_staging.c). So the device stage's preprocess sees exactly the
 * images and parameters the default placement's preprocess sees, and the
 * batches are bit-identical.
 */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_device.h"
#include "pipeline/pipeline_pnm.h"
#ifdef PF_HAVE_CODEC
#include "pixflow/codec.h"
#endif

/* What the sample needs before its staging turn. */
typedef struct plan_result {
    int32_t src_w, src_h;     /* the source image (meta.width/height) */
    pf_aug_params params;     /* drawn on the source size */
    size_t bytes;             /* staging bytes to decode into */
    int32_t out_w, out_h, channels;
#ifdef PF_HAVE_CODEC
    pf_decode_opts opts;
#endif
    size_t pnm_offset;
    bool codec;
} plan_result;

static pf_status plan_sample(pf_pipeline *p, const pf_sample_input *in, plan_result *r) {
    memset(r, 0, sizeof *r);
    if (pli_is_codec_format(in->data, in->size)) {
#ifdef PF_HAVE_CODEC
        r->codec = true;
        pf_image_info info;
        pf_status st = pf_image_probe(in->data, in->size, &info);
        if (st != PF_OK) return st;
        r->src_w = info.width;
        r->src_h = info.height;
        st = pf_aug_sample(&p->cfg.policy, in->seed, in->epoch, in->index, 1, &r->src_w, &r->src_h, &r->params);
        if (st != PF_OK) return st;
        int32_t cx = r->params.crop_x, cy = r->params.crop_y, cw = r->params.crop_w, ch = r->params.crop_h;
        if (cw <= 0 || ch <= 0) cx = cy = 0, cw = r->src_w, ch = r->src_h;
        pf_decode_opts d = pf_decode_opts_defaults();
        d.max_pixels = PF_DECODE_DEFAULT_MAX_PIXELS;
        d.roi_x = cx;
        d.roi_y = cy;
        d.roi_w = cw;
        d.roi_h = ch;
        d.scale_num = 8;
        pf_decode_result q;
        if ((st = pf_decode_query(in->data, in->size, &d, &q)) != PF_OK) return st;
        r->opts = d;
        r->out_w = q.width;
        r->out_h = q.height;
        r->channels = 3;
        r->bytes = (size_t)q.width * (size_t)q.height * 3;
        return PF_OK;
#else
        (void)p;
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s is JPEG/PNG/WebP: this pixflow was built without the image codec "
                        "(-DPIXFLOW_CODEC=OFF); the default sample function decodes PPM/PGM only",
                        in->name ? in->name : "sample");
#endif
    }
    pf_status st = pli_pnm_header(in->data, in->size, &r->src_w, &r->src_h, &r->channels, &r->pnm_offset);
    if (st != PF_OK) return st;
    st = pf_aug_sample(&p->cfg.policy, in->seed, in->epoch, in->index, 1, &r->src_w, &r->src_h, &r->params);
    if (st != PF_OK) return st;
    r->out_w = r->src_w;
    r->out_h = r->src_h;
    r->bytes = (size_t)r->src_w * (size_t)r->src_h * (size_t)r->channels;
    return PF_OK;
}

/* Decodes into the staging block; fills the slot's descriptor. */
static pf_status decode_into(pf_pipeline *p, int32_t worker, const pf_sample_input *in, const plan_result *r,
                             void *block, pli_staged *sg, pf_sample_meta *meta) {
    sg->params = r->params;
    sg->roi_x = sg->roi_y = 0;
    sg->channels = r->channels;
    meta->width = r->src_w;
    meta->height = r->src_h;
    if (!r->codec) { /* PNM: the whole image, as the default sample function uses it */
        memcpy(block, (const unsigned char *)in->data + r->pnm_offset, r->bytes);
        sg->width = r->out_w;
        sg->height = r->out_h;
        return PF_OK;
    }
#ifdef PF_HAVE_CODEC
    pf_image img = pf_image_hwc(block, r->out_w, r->out_h, 3, PF_U8, 0);
    pf_decode_result q;
    pf_decoder *dec = worker < p->dev->ndecoders ? p->dev->decoders[worker] : NULL;
    pf_status st = pf_decode(dec, in->data, in->size, &r->opts, &img, &q);
    if (st != PF_OK) return st;
    meta->warnings = q.warnings;
    sg->width = q.width;
    sg->height = q.height;
    /* the crop relative to the decoded rectangle (pf_decode_augment at
     * scale 8/8: the rectangle IS the crop) */
    pf_aug_params *c = &sg->params;
    int32_t cx = c->crop_x, cy = c->crop_y, cw = c->crop_w, ch = c->crop_h;
    if (cw <= 0 || ch <= 0) cx = cy = 0, cw = r->src_w, ch = r->src_h;
    c->crop_x = cx - q.x;
    c->crop_y = cy - q.y;
    c->crop_w = cw < 1 ? 1 : cw;
    c->crop_h = ch < 1 ? 1 : ch;
    if (c->crop_x + c->crop_w > q.width) c->crop_x = q.width - c->crop_w;
    if (c->crop_y + c->crop_h > q.height) c->crop_y = q.height - c->crop_h;
    sg->roi_x = q.x;
    sg->roi_y = q.y;
    return PF_OK;
#else
    (void)p;
    (void)worker;
    return pfi_fail(PF_ERR_INTERNAL, "codec sample without the codec");
#endif
}

static void fail_item(pli_item *it, pf_status st) {
    it->status = st;
    if (pf_last_error()[0]) snprintf(it->reason, sizeof it->reason, "%s", pf_last_error());
    else snprintf(it->reason, sizeof it->reason, "decode for the device stage failed: %s", pf_status_str(st));
}

void pli_device_decode(pf_pipeline *p, int32_t worker, pli_item *it, const pf_sample_input *in) {
    pli_staged *sg = &it->buf->staged[it->slot];
    memset(sg, 0, sizeof *sg);
    void *block = NULL;
    if (in == NULL) { /* failed before: only pass the turn on */
        (void)pli_staging_take(p, it->seq, 0, &block);
        return;
    }
    plan_result r;
    pfi_clear_error();
    pf_status st = plan_sample(p, in, &r);
    if (st != PF_OK) {
        fail_item(it, st);
        (void)pli_staging_take(p, it->seq, 0, &block);
        return;
    }
    pfi_clear_error();
    st = pli_staging_take(p, it->seq, r.bytes, &block);
    if (st != PF_OK) {
        fail_item(it, st);
        return;
    }
    pfi_clear_error();
    st = decode_into(p, worker, in, &r, block, sg, &it->meta);
    if (st != PF_OK) {
        fail_item(it, st);
        pf_pool_free(p->dev->pinned, block, NULL);
        memset(sg, 0, sizeof *sg);
        pli_staging_freed(p);
        return;
    }
    sg->block = block;
}
