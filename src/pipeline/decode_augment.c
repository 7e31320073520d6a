/*
 * pf_decode_augment: bytes -> probe -> pf_aug_sample on the original size
 * -> the crop mapped to a (DCT-scaled) JPEG ROI -> decode of that ROI into
 * a worker's scratch -> the fused preprocess into the sample's tensor slot.
 * The glue between the codec room and the fused preprocess, so it lives in
 * pipeline/ (the room above both) and uses each through its public API.
 *
 * Each sample is one task on the stream; a worker owns a decoder, a
 * preprocess plan (plans keep per-run scratch, one run at a time) and a
 * scratch image, all grown once and reused, so a warm augmenter allocates
 * nothing per image itself (libjpeg's per-image pools aside).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stream.h"
#include "ops/op_args.h"
#include "pixflow/codec.h"

#define OP "pf_decode_augment"
#define ROW_MARGIN 128 /* bytes; see one_sample */


typedef struct aug_worker {
    pf_decoder *dec;
    pf_preprocess_plan *plan;
    uint8_t *img;
    size_t cap;
} aug_worker;

struct pf_decode_augmenter {
    pf_preprocess_desc desc;
    pf_aug_policy policy;
    pf_decode_aug_opts opts;
    aug_worker *w;
    int nw;
};

pf_decode_aug_opts pf_decode_aug_opts_defaults(void) {
    pf_decode_aug_opts o;
    memset(&o, 0, sizeof o);
    o.dct_scale = false;
    o.dct_margin = 1.0f;
    o.max_pixels = PF_DECODE_DEFAULT_MAX_PIXELS;
    return o;
}

pf_status pf_decode_aug_opts_for_recipe(const char *recipe, pf_decode_aug_opts *opts) {
    pfi_clear_error();
    if (opts == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode_aug_opts_for_recipe: opts is NULL");
    pf_status st = pf_recipe(recipe, NULL, NULL); /* names the known recipes on failure */
    if (st != PF_OK) return st;
    *opts = pf_decode_aug_opts_defaults();
    opts->dct_scale = strcmp(recipe, "imagenet-train") == 0;
    return PF_OK;
}

static void worker_free(aug_worker *w) {
    pf_decoder_destroy(w->dec);
    pf_preprocess_plan_destroy(w->plan);
    free(w->img);
    memset(w, 0, sizeof *w);
}

void pf_decode_augmenter_destroy(pf_decode_augmenter *aug) {
    if (aug == NULL) return;
    for (int i = 0; i < aug->nw; i++) worker_free(&aug->w[i]);
    free(aug->w);
    free(aug);
}

pf_status pf_decode_augmenter_create(const pf_preprocess_desc *desc, const pf_aug_policy *policy,
                                     const pf_decode_aug_opts *opts, pf_decode_augmenter **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode_augmenter_create: out is NULL");
    *out = NULL;
    if (desc == NULL || policy == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode_augmenter_create: %s is NULL", desc ? "policy" : "desc");
    pf_decode_aug_opts o = opts ? *opts : pf_decode_aug_opts_defaults();
    if (!(o.dct_margin >= 1.0f && o.dct_margin <= 64.0f))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_decode_augmenter_create: opts.dct_margin is %g; it must be in [1, 64]",
                        (double)o.dct_margin);
    /* the policy is checked now so a bad one fails here, not per batch */
    int32_t one = 64;
    pf_aug_params probe_params;
    pf_status st = pf_aug_sample(policy, 0, 0, 0, 1, &one, &one, &probe_params);
    if (st != PF_OK) return st;
    pf_decode_augmenter *a = calloc(1, sizeof *a);
    if (a == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_decode_augmenter_create: out of memory");
    a->desc = *desc;
    a->policy = *policy;
    a->opts = o;
    if (a->opts.max_pixels == 0) a->opts.max_pixels = PF_DECODE_DEFAULT_MAX_PIXELS;
    /* one plan up front: checks desc now */
    a->w = calloc(1, sizeof *a->w);
    if (a->w == NULL) {
        free(a);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_decode_augmenter_create: out of memory");
    }
    a->nw = 1;
    if ((st = pf_preprocess_plan_create(desc, &a->w[0].plan)) != PF_OK ||
        (st = pf_decoder_create(&a->w[0].dec)) != PF_OK) {
        pf_decode_augmenter_destroy(a);
        return st;
    }
    *out = a;
    return PF_OK;
}

static pf_status ensure_workers(pf_decode_augmenter *a, int n) {
    if (n <= a->nw) return PF_OK;
    aug_worker *w = realloc(a->w, (size_t)n * sizeof *w);
    if (w == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d workers", n);
    a->w = w;
    for (int i = a->nw; i < n; i++) {
        memset(&w[i], 0, sizeof w[i]);
        pf_status st = pf_preprocess_plan_create(&a->desc, &w[i].plan);
        if (st == PF_OK) st = pf_decoder_create(&w[i].dec);
        if (st != PF_OK) {
            worker_free(&w[i]);
            a->nw = i;
            return st;
        }
        a->nw = i + 1;
    }
    return PF_OK;
}

/* Smallest DCT scale m/8 keeping the scaled crop >= margin x the output
 * size + 1 pixel (the crop's edges are rounded to whole scaled pixels, so
 * the slack keeps the final resize a downscale). Why margin 1 suffices:
 * libjpeg's scaled IDCT drops only frequencies the smaller image cannot
 * hold (an anti-aliased reduction), and the plan's bilinear resize from a
 * crop less than 2x the output touches every source pixel; larger margins
 * only move the result toward the full path's aliasing (measured in
 * docs/exactness.md "Decoding"). */
static int32_t choose_scale(int32_t cw, int32_t ch, int32_t ow, int32_t oh, float margin) {
    double need_w = ((double)ow * (double)margin + 1.0) * 8.0, need_h = ((double)oh * (double)margin + 1.0) * 8.0;
    /* Only 1/8, 2/8 and 4/8: libjpeg-turbo has SIMD (or DC-only) IDCTs for
     * those; its 3/8, 5/8, 6/8, 7/8 IDCTs are plain C and slower than the
     * full-size SIMD decode (measured on water_drop 1920x1080: m = 1..8 ->
     * 1.24, 1.50, 2.39, 1.82, 4.46, 5.46, 7.17, 2.76 ms). */
    for (int32_t m = 1; m < 8; m *= 2)
        if ((double)cw * m >= need_w && (double)ch * m >= need_h) return m;
    return 8;
}

typedef struct aug_job {
    pf_decode_augmenter *a;
    const void *const *data;
    const size_t *size;
    uint64_t seed, epoch, first;
    const pf_tensor *dst;
    pf_decode_aug_result *results;
    atomic_int failed;            /* first failing sample + 1 */
    pf_status status;
    char msg[512];
} aug_job;

static pf_tensor slot_of(const pf_tensor *t, int i) {
    pf_tensor s = *t;
    s.data = (char *)t->data + (ptrdiff_t)i * t->sample_stride;
    s.n = 1;
    return s;
}

static void zero_slot(const pf_tensor *t, int i) {
    pf_tensor s = slot_of(t, i);
    size_t row = (size_t)s.width * pf_dtype_size(s.dtype) * (s.layout == PF_HWC ? (size_t)s.channels : 1);
    int planes = s.layout == PF_CHW ? s.channels : 1;
    for (int c = 0; c < planes; c++)
        for (int32_t y = 0; y < s.height; y++)
            memset((char *)s.data + (ptrdiff_t)c * s.plane_stride + (ptrdiff_t)y * s.row_stride, 0, row);
}

/* One sample; returns its status (the message is this thread's). */
static pf_status one_sample(aug_job *j, int i, aug_worker *w, pf_decode_aug_result *res) {
    const pf_decode_augmenter *a = j->a;
    const pf_decode_aug_opts *o = &a->opts;
    pf_image_info info;
    pf_status st = pf_image_probe(j->data[i], j->size[i], &info);
    if (st != PF_OK) return st;
    int orient = o->apply_orientation && info.orientation != 1;
    int32_t W = orient && info.orientation >= 5 ? info.height : info.width;
    int32_t H = orient && info.orientation >= 5 ? info.width : info.height;
    pf_aug_params p;
    if ((st = pf_aug_sample(&a->policy, j->seed, j->epoch, j->first + (uint64_t)i, 1, &W, &H, &p)) != PF_OK)
        return st;
    res->width = W;
    res->height = H;
    res->params = p;
    int32_t cx = p.crop_x, cy = p.crop_y, cw = p.crop_w, ch = p.crop_h;
    if (cw <= 0 || ch <= 0) cx = cy = 0, cw = W, ch = H;
    pf_decode_opts d = pf_decode_opts_defaults();
    d.max_pixels = o->max_pixels;
    d.warnings_are_errors = o->warnings_are_errors;
    d.apply_orientation = orient != 0;
    int32_t m = 8;
    if (!orient) {
        if (o->dct_scale && info.format == PF_FORMAT_JPEG)
            m = choose_scale(cw, ch, a->desc.out_width, a->desc.out_height, o->dct_margin);
        /* the ROI is the crop: pf_decode's ROI pixels equal the full
         * decode's (jpeg_decode.c), so nothing around it is needed */
        d.roi_x = cx;
        d.roi_y = cy;
        d.roi_w = cw;
        d.roi_h = ch;
        d.scale_num = m;
    }
    /* Room around each scratch row for libjpeg's iMCU-widened ROI rows, so
     * they decode in place instead of through pf_decode's row copy (up to
     * 33 px x 3 bytes on the left for 4 horizontal samples per MCU). */
    d.row_margin = ROW_MARGIN;
    pf_decode_result r;
    if ((st = pf_decode_query(j->data[i], j->size[i], &d, &r)) != PF_OK) return st;
    size_t stride = ((size_t)r.width * 3 + ROW_MARGIN + 63) & ~(size_t)63;
    size_t bytes = stride * (size_t)r.height + 2 * ROW_MARGIN;
    if (bytes > w->cap) {
        uint8_t *np = realloc(w->img, bytes);
        if (np == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for a %dx%d image", (int)r.width,
                                        (int)r.height);
        w->img = np;
        w->cap = bytes;
    }
    pf_image img = pf_image_hwc(w->img + ROW_MARGIN, r.width, r.height, 3, PF_U8, (ptrdiff_t)stride);
    if ((st = pf_decode(w->dec, j->data[i], j->size[i], &d, &img, &r)) != PF_OK) return st;
    res->scale_num = r.scale_num;
    res->warnings = r.warnings;
    /* the crop in the decoded image: exact for m = 8, else its edges
     * rounded to the nearest scaled pixel */
    pf_aug_params q = p;
    if (!orient) {
        int32_t sx0 = (int32_t)(((int64_t)cx * m + 4) / 8), sy0 = (int32_t)(((int64_t)cy * m + 4) / 8);
        int32_t sx1 = (int32_t)(((int64_t)(cx + cw) * m + 4) / 8), sy1 = (int32_t)(((int64_t)(cy + ch) * m + 4) / 8);
        q.crop_x = sx0 - r.x;
        q.crop_y = sy0 - r.y;
        q.crop_w = sx1 - sx0 < 1 ? 1 : sx1 - sx0;
        q.crop_h = sy1 - sy0 < 1 ? 1 : sy1 - sy0;
        if (q.crop_x + q.crop_w > r.width) q.crop_x = r.width - q.crop_w;
        if (q.crop_y + q.crop_h > r.height) q.crop_y = r.height - q.crop_h;
    }
    pf_tensor slot = slot_of(j->dst, i);
    pf_letterbox_info li;
    if ((st = pf_preprocess_run(w->plan, NULL, 1, &img, &q, &slot, &li)) != PF_OK) return st;
    /* decoded-image pixel d -> original pixel (d + r.x) * 8 / m; the
     * fractional part of the crop origin moves into the offset */
    double f = 8.0 / m;
    double ox = (double)(li.crop_x + r.x) * f, oy = (double)(li.crop_y + r.y) * f;
    res->info.scale_x = (float)((double)li.scale_x / f);
    res->info.scale_y = (float)((double)li.scale_y / f);
    res->info.crop_x = (int32_t)ox;
    res->info.crop_y = (int32_t)oy;
    res->info.offset_x = (float)((double)li.offset_x - (ox - (double)res->info.crop_x) * (double)res->info.scale_x);
    res->info.offset_y = (float)((double)li.offset_y - (oy - (double)res->info.crop_y) * (double)res->info.scale_y);
    return PF_OK;
}

static void sample_task(void *ctx, int i, int worker) {
    aug_job *j = ctx;
    pf_decode_aug_result res;
    memset(&res, 0, sizeof res);
    pf_decode_aug_result *rp = j->results ? &j->results[i] : &res;
    memset(rp, 0, sizeof *rp);
    if (!j->a->opts.skip_bad && atomic_load(&j->failed)) return;
    pf_status st = one_sample(j, i, &j->a->w[worker], rp);
    rp->status = st;
    if (st == PF_OK) return;
    if (j->a->opts.skip_bad) {
        zero_slot(j->dst, i);
        return;
    }
    int expected = 0;
    if (atomic_compare_exchange_strong(&j->failed, &expected, i + 1)) {
        j->status = st;
        snprintf(j->msg, sizeof j->msg, "%s", pf_last_error());
    }
}

pf_status pf_decode_augment(pf_decode_augmenter *aug, pf_stream *stream, int count, const void *const data[],
                            const size_t size[], uint64_t seed, uint64_t epoch, uint64_t first_index,
                            pf_tensor *dst, pf_decode_aug_result results[]) {
    pfi_clear_error();
    if (aug == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": aug is NULL");
    pf_status cst = pfi_check_count(OP, count);
    if (cst != PF_OK || count == 0) return cst;
    if (data == NULL || size == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": %s is NULL", data ? "size" : "data");
    for (int i = 0; i < count; i++)
        if (data[i] == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": data[%d] is NULL", i);
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst is NULL");
    pf_status st = pf_tensor_validate(dst, "dst");
    if (st != PF_OK) return st;
    const pf_preprocess_desc *d = &aug->desc;
    if (dst->mem != PF_MEM_HOST || dst->n < count || dst->channels != d->out_channels ||
        dst->height != d->out_height || dst->width != d->out_width || dst->dtype != d->out_dtype ||
        dst->layout != d->out_layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": dst is n=%d %dx%dx%d %s %s; need a host tensor with n >= %d (count) of the plan's "
                           "%d channels, %dx%d, %s, %s",
                        (int)dst->n, (int)dst->channels, (int)dst->height, (int)dst->width,
                        pf_dtype_name(dst->dtype), dst->layout == PF_CHW ? "CHW" : "HWC", count,
                        (int)d->out_channels, (int)d->out_height, (int)d->out_width, pf_dtype_name(d->out_dtype),
                        d->out_layout == PF_CHW ? "CHW" : "HWC");
    if ((st = ensure_workers(aug, pf_stream_threads(stream))) != PF_OK) return st;
    aug_job j = {.a = aug, .data = data, .size = size, .seed = seed, .epoch = epoch, .first = first_index,
                 .dst = dst, .results = results, .status = PF_OK};
    atomic_init(&j.failed, 0);
    pfi_stream_parallel(stream, count, sample_task, &j);
    int bad = atomic_load(&j.failed);
    if (bad) return pfi_fail(j.status, OP ": sample %d (index %llu): %s", bad - 1,
                             (unsigned long long)(first_index + (uint64_t)bad - 1), j.msg);
    return PF_OK;
}
