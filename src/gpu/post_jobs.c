/* Post-processing GPU jobs (see post_jobs.h). */
#include "gpu/post_jobs.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "gpu/gpu_jobs.h"

size_t pfi_gpu_logits_bytes(size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_logits_batch));
}

pf_status pfi_gpu_logits_build(pfi_arena *a, const float *logits, int32_t n, int32_t channels, int32_t height,
                               int32_t width, uint8_t *masks, const pf_mask_opts *opts,
                               const pfk_logits_batch **dev_batch, pfi_grid *grid) {
    void *dev;
    pfk_logits_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev);
    if (b == NULL) return pfi_fail(PF_ERR_INTERNAL, "pf_masks_from_logits: GPU parameter arena too small");
    b->src = logits;
    b->dst = masks;
    b->count = n;
    b->channels = channels;
    b->height = height;
    b->width = width;
    b->mode = opts->mode == PF_MASK_THRESHOLD;
    b->threshold = opts->threshold;
    b->value = opts->value;
    pfi_grid_begin(grid, n);
    pfi_grid_cover(grid, width, height);
    *dev_batch = dev;
    return PF_OK;
}

size_t pfi_gpu_composite_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_composite_batch)) + pfi_arena_round((size_t)count * sizeof(pfk_composite_job));
}

pf_status pfi_gpu_composite_build(pfi_arena *a, int count, const pf_image fg[], const pf_image bg[],
                                  const pf_image mask[], const pf_image dst[], const pfk_composite_batch **dev_batch,
                                  pfi_grid *grid) {
    void *dev_b, *dev_j;
    pfk_composite_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    pfk_composite_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &dev_j);
    if (b == NULL || jobs == NULL) return pfi_fail(PF_ERR_INTERNAL, "pf_composite: GPU parameter arena too small");
    b->count = count;
    b->jobs = dev_j;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        pfk_composite_job *j = &jobs[i];
        j->fg = fg[i].data;
        j->bg = bg[i].data;
        j->mask = mask[i].data;
        j->dst = dst[i].data;
        j->fg_stride = fg[i].row_stride;
        j->bg_stride = bg[i].row_stride;
        j->mask_stride = mask[i].row_stride;
        j->dst_stride = dst[i].row_stride;
        j->width = fg[i].width;
        j->height = fg[i].height;
        j->cn = fg[i].channels;
        j->dcn = dst[i].channels;
        pfi_grid_cover(grid, j->width, j->height);
    }
    *dev_batch = dev_b;
    return PF_OK;
}

/* ------------------------------------------------------------------ NMS */

int32_t pfi_gpu_nms_bound(const pf_nms_opts *o, int32_t n) {
    return pfk_nms_bound(n, o->pre_nms_top_k, o->max_output);
}

pf_status pfi_gpu_nms_supported(const char *op, const pf_nms_opts *c) {
    if (c->soft != PF_SOFT_NMS_NONE)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: soft-NMS (opts.soft) runs on the CPU only", op);
    if (c->order != PF_NMS_ORDER_SELECTION)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: opts.order PF_NMS_ORDER_TORCH_SORT runs on the CPU only", op);
    if (c->classes == PF_NMS_CLASS_OFFSET && c->class_offset == 0.0f)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: the automatic class offset (opts.class_offset 0) runs on the CPU only; give the offset",
                        op);
    return PF_OK;
}

static size_t scratch_of(int count, int64_t total, int64_t bounds, const pf_nms_opts *c, size_t sort_bytes) {
    size_t t = (size_t)(total > 0 ? total : 1), bd = (size_t)(bounds > 0 ? bounds : 1);
    size_t s = 2 * pfi_arena_round(t * 8)                         /* keys, sorted */
               + 2 * pfi_arena_round((size_t)count * 8)           /* segments */
               + 2 * pfi_arena_round(t * 4)                       /* cls, kept */
               + 2 * pfi_arena_round(bd * 4)                      /* staging */
               + pfi_arena_round(sort_bytes ? sort_bytes : 1);
    s += c->semantics == PF_NMS_OPENCV ? pfi_arena_round(t * 4 * sizeof(double)) : pfi_arena_round(t * 5 * sizeof(float));
    return s;
}

size_t pfi_gpu_nms_bytes(int count, const pf_nms_sample samples[], const pf_nms_opts *c, size_t sort_bytes,
                         size_t *scratch_bytes) {
    int64_t total = 0, bounds = 0;
    for (int i = 0; i < count; i++) {
        total += samples[i].n;
        bounds += pfi_gpu_nms_bound(c, samples[i].n);
    }
    *scratch_bytes = scratch_of(count, total, bounds, c, sort_bytes);
    return pfi_arena_round(sizeof(pfk_nms_batch)) + pfi_arena_round((size_t)count * sizeof(pfk_nms_job)) +
           2 * pfi_arena_round((size_t)count * sizeof(int32_t));
}

pf_status pfi_gpu_nms_build(pfi_arena *a, int count, const pf_nms_sample samples[], const pf_nms_opts *c,
                            int64_t offsets[], int32_t keep[], float scores_out[], size_t sort_bytes,
                            const pfk_nms_batch **dev_batch, pfk_nms_batch **host_batch, void **sort_temp,
                            pfi_gpu_nms_plan *plan) {
    static const char op[] = "pf_nms";
    void *dev_b, *dev_j, *dev_nc, *dev_nk;
    pfk_nms_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    pfk_nms_job *jobs = pfi_arena_take(a, (size_t)(count > 0 ? count : 1) * sizeof *jobs, 16, &dev_j);
    int32_t *nc = pfi_arena_take(a, (size_t)(count > 0 ? count : 1) * sizeof *nc, 16, &dev_nc);
    int32_t *nk = pfi_arena_take(a, (size_t)(count > 0 ? count : 1) * sizeof *nk, 16, &dev_nk);
    if (!b || !jobs || !nc || !nk) return pfi_fail(PF_ERR_INTERNAL, "%s: GPU parameter arena too small", op);
    memset(b, 0, sizeof *b);
    memset(nc, 0, (size_t)(count > 0 ? count : 1) * sizeof *nc);
    memset(nk, 0, (size_t)(count > 0 ? count : 1) * sizeof *nk);
    memset(plan, 0, sizeof *plan);
    int64_t total = 0, bounds = 0;
    for (int i = 0; i < count; i++) {
        jobs[i].boxes = samples[i].boxes;
        jobs[i].scores = samples[i].scores;
        jobs[i].classes = samples[i].classes;
        jobs[i].n = samples[i].n;
        jobs[i].base = total;
        jobs[i].out_base = bounds;
        int32_t bd = pfi_gpu_nms_bound(c, samples[i].n);
        total += samples[i].n;
        bounds += bd;
        if (samples[i].n > plan->max_n) plan->max_n = samples[i].n;
        if (bd > plan->max_bound) plan->max_bound = bd;
    }
    size_t t = (size_t)(total > 0 ? total : 1), bd = (size_t)(bounds > 0 ? bounds : 1);
    b->keys = pfi_arena_scratch(a, t * 8, 256);
    b->sorted = pfi_arena_scratch(a, t * 8, 256);
    b->seg_begin = pfi_arena_scratch(a, (size_t)(count > 0 ? count : 1) * 8, 256);
    b->seg_end = pfi_arena_scratch(a, (size_t)(count > 0 ? count : 1) * 8, 256);
    b->cls = pfi_arena_scratch(a, t * 4, 256);
    b->kept = pfi_arena_scratch(a, t * 4, 256);
    b->staging = pfi_arena_scratch(a, bd * 4, 256);
    b->staging_scores = pfi_arena_scratch(a, bd * 4, 256);
    *sort_temp = pfi_arena_scratch(a, sort_bytes ? sort_bytes : 1, 256);
    if (c->semantics == PF_NMS_OPENCV) b->d = pfi_arena_scratch(a, t * 4 * sizeof(double), 256);
    else b->f = pfi_arena_scratch(a, t * 5 * sizeof(float), 256);
    if (!b->keys || !b->sorted || !b->seg_begin || !b->seg_end || !b->cls || !b->kept || !b->staging ||
        !b->staging_scores || !*sort_temp || (!b->d && !b->f))
        return pfi_fail(PF_ERR_INTERNAL, "%s: GPU scratch too small for %lld boxes", op, (long long)total);
    b->count = count;
    b->jobs = dev_j;
    b->ncand = dev_nc;
    b->nkept = dev_nk;
    b->sem = (int32_t)c->semantics;
    b->fmt = (int32_t)c->box_format;
    b->classes = (int32_t)c->classes;
    b->filter = c->score_threshold > -INFINITY;
    b->top_k = c->pre_nms_top_k;
    b->max_out = c->max_output;
    b->max_per_class = c->max_output_per_class;
    b->center = c->box_format == PF_BOX_CXCYWH;
    b->score_thr = c->score_threshold;
    b->thr_tv = pfk_nms_thr_down(c->iou_threshold);
    b->thr_f = (float)c->iou_threshold;
    b->thr_d = c->iou_threshold;
    b->off = c->legacy_plus_one ? 1.0f : 0.0f;
    b->eta = c->eta;
    b->class_offset = c->class_offset;
    b->total = total;
    b->offsets = offsets;
    b->keep = keep;
    b->scores_out = scores_out;
    plan->count = count;
    plan->total = total;
    *dev_batch = dev_b;
    *host_batch = b;
    return PF_OK;
}
