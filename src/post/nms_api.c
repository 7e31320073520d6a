/* pf_nms: option checks, the per-sample driver, and the batch (samples in
 * parallel on the stream, each writing at its worst-case offset, then one
 * compaction pass), so the output never depends on the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stream.h"
#include "kernels/nms_math.h"
#include "post/nms_internal.h"
#include "post/post_kernels.h"
#include "post/post_sort.h"
#include "core/backend.h"

pf_nms_opts pf_nms_opts_defaults(void) {
    pf_nms_opts o;
    memset(&o, 0, sizeof o);
    o.semantics = PF_NMS_TORCHVISION;
    o.box_format = PF_BOX_XYXY;
    o.classes = PF_NMS_PER_CLASS;
    o.iou_threshold = 0.5;
    o.score_threshold = -INFINITY;
    o.eta = 1.0f;
    o.soft = PF_SOFT_NMS_NONE;
    o.sigma = 0.5f;
    return o;
}

pf_status pfi_nms_cfg_make(const char *op, const pf_nms_opts *opts, const void *stream, pfi_nms_cfg *c) {
    pf_nms_opts o = opts ? *opts : pf_nms_opts_defaults();
    memset(c, 0, sizeof *c);
    if ((unsigned)o.semantics > PF_NMS_ONNX)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.semantics %d is not a pf_nms_semantics", op,
                        (int)o.semantics);
    if ((unsigned)o.box_format > PF_BOX_YXYX)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.box_format %d is not a pf_box_format", op,
                        (int)o.box_format);
    if ((unsigned)o.classes > PF_NMS_CLASS_OFFSET)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.classes %d is not a pf_nms_classes", op, (int)o.classes);
    if ((unsigned)o.soft > PF_SOFT_NMS_GAUSSIAN)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.soft %d is not a pf_soft_nms", op, (int)o.soft);
    if (isnan(o.iou_threshold))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.iou_threshold is NaN", op);
    if (isnan(o.score_threshold))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.score_threshold is NaN; use -INFINITY for no filter", op);
    if (o.pre_nms_top_k < 0 || o.max_output < 0 || o.max_output_per_class < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.pre_nms_top_k (%d), max_output (%d) and max_output_per_class (%d) must be >= 0 "
                        "(0 = no limit)", op, (int)o.pre_nms_top_k, (int)o.max_output, (int)o.max_output_per_class);
    if (!(o.class_offset >= 0.0f) || isinf(o.class_offset))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.class_offset %g must be finite and >= 0 (0 = automatic)",
                        op, (double)o.class_offset);
    if (o.classes == PF_NMS_CLASS_OFFSET && o.semantics == PF_NMS_ONNX)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.classes PF_NMS_CLASS_OFFSET has no ONNX form; use PF_NMS_PER_CLASS", op);
    if (o.legacy_plus_one && o.semantics != PF_NMS_TORCHVISION)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.legacy_plus_one needs semantics PF_NMS_TORCHVISION", op);
    if (!(o.eta > 0.0f && o.eta <= 1.0f))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.eta %g must be in (0, 1]", op, (double)o.eta);
    if (o.eta != 1.0f && (o.semantics != PF_NMS_OPENCV || o.soft != PF_SOFT_NMS_NONE))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.eta != 1 (OpenCV's adaptive threshold) needs semantics PF_NMS_OPENCV and no "
                        "soft-NMS", op);
    if (o.soft != PF_SOFT_NMS_NONE && o.semantics == PF_NMS_ONNX)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: soft-NMS with semantics PF_NMS_ONNX is not supported", op);
    if ((unsigned)o.order > PF_NMS_ORDER_TORCH_SORT)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.order %d is not a pf_nms_order", op, (int)o.order);
    if (o.order == PF_NMS_ORDER_TORCH_SORT && (o.semantics != PF_NMS_TORCHVISION || o.soft != PF_SOFT_NMS_NONE))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.order PF_NMS_ORDER_TORCH_SORT needs semantics PF_NMS_TORCHVISION and no soft-NMS",
                        op);
    if (o.soft == PF_SOFT_NMS_GAUSSIAN && !(o.sigma > 0.0f && isfinite(o.sigma)))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.sigma %g must be finite and > 0", op, (double)o.sigma);
    c->sem = o.semantics;
    c->fmt = o.box_format;
    c->classes = o.classes;
    c->thr_d = o.iou_threshold;
    c->thr_tv = pfk_nms_thr_down(o.iou_threshold);
    c->thr_f = (float)o.iou_threshold;
    c->score_thr = o.score_threshold;
    c->filter = o.score_threshold > -INFINITY;
    c->top_k = o.pre_nms_top_k;
    c->max_out = o.max_output;
    c->max_per_class = o.max_output_per_class;
    c->class_offset = o.class_offset;
    c->off = o.legacy_plus_one ? 1.0f : 0.0f;
    c->eta = o.eta;
    c->soft = o.soft;
    c->sigma = o.sigma;
    c->order = o.order;
    c->k = pfi_post_kernels_for(stream);
    return PF_OK;
}

int32_t pfi_nms_bound(const pfi_nms_cfg *c, int32_t n) { return pfk_nms_bound(n, c->top_k, c->max_out); }

/* PF_NMS_ORDER_TORCH_SORT: torchvision's _batched_nms_vanilla ends with
 * keep = where(mask) (ascending index), then keep[scores[keep].sort(
 * descending=True)]. Positions are in (score, index) order, so the kept
 * ones sorted by index are torch.where's order; pfi_torch_sort then moves
 * them as torch's sort does. 0, or -1 out of memory. */
static int torch_order(const pfi_nms_set *set, const uint8_t *flags, int32_t *keep, float *upd) {
    int32_t n = set->n, m = 0;
    size_t nn = n > 0 ? (size_t)n : 1;
    uint32_t *keys = malloc(nn * 2 * sizeof *keys);
    int32_t *vals = malloc(nn * 2 * sizeof *vals);
    if (keys == NULL || vals == NULL) {
        free(keys);
        free(vals);
        return -1;
    }
    for (int32_t p = 0; p < n; p++)
        if (flags[p]) {
            keys[m] = (uint32_t)set->idx[p]; /* sample indices: >= 0 */
            vals[m++] = p;
        }
    pfi_radix_sort(keys, vals, keys + nn, vals + nn, m);
    for (int32_t q = 0; q < m; q++) keys[q] = pfk_score_key_desc(set->score[vals[q]]);
    pfi_torch_sort(keys, vals, m);
    for (int32_t q = 0; q < m; q++) {
        keep[q] = set->idx[vals[q]];
        if (upd) upd[q] = set->score[vals[q]];
    }
    free(keys);
    free(vals);
    return 0;
}

int32_t pfi_nms_sample_run(const pfi_nms_cfg *c, const pf_nms_sample *s, int32_t *keep, float *upd, int use_ref) {
    pfi_nms_set set;
    if (pfi_nms_prepare(c, s, c->soft != PF_SOFT_NMS_NONE, &set) != 0) return -1;
    int32_t n = set.n, nk;
    if (c->soft != PF_SOFT_NMS_NONE) {
        float *sc = malloc((n > 0 ? (size_t)n : 1) * sizeof *sc);
        int32_t *pos = malloc((n > 0 ? (size_t)n : 1) * sizeof *pos);
        nk = sc && pos ? pfi_nms_soft(c, &set, pos, sc) : -1;
        for (int32_t i = 0; i < nk; i++) {
            keep[i] = set.idx[pos[i]];
            if (upd) upd[i] = sc[i];
        }
        free(sc);
        free(pos);
        pfi_nms_set_free(&set);
        return nk;
    }
    uint8_t *flags = malloc(n > 0 ? (size_t)n : 1);
    if (flags == NULL) {
        pfi_nms_set_free(&set);
        return -1;
    }
    nk = use_ref || c->eta != 1.0f ? pfi_nms_greedy_ref(c, &set, flags) : pfi_nms_greedy_fast(c, &set, flags);
    if (nk >= 0) {
        int32_t j = 0;
        if (c->sem == PF_NMS_ONNX && c->classes != PF_NMS_AGNOSTIC && s->classes) {
            /* class-major: selection order within each class, classes ascending */
            size_t nn = n > 0 ? (size_t)n : 1;
            int32_t *order = malloc(nn * 4 * sizeof *order);
            if (order == NULL) nk = -1;
            else {
                uint32_t *keys = (uint32_t *)(void *)(order + nn), *tk = keys + nn;
                int32_t *tv = (int32_t *)(void *)(tk + nn), m = 0;
                for (int32_t p = 0; p < n; p++)
                    if (flags[p]) {
                        keys[m] = (uint32_t)set.cls[p] ^ 0x80000000u;
                        order[m++] = p;
                    }
                pfi_radix_sort(keys, order, tk, tv, m); /* stable: selection order within a class */
                for (int32_t q = 0; q < m; q++) {
                    keep[j] = set.idx[order[q]];
                    if (upd) upd[j] = set.score[order[q]];
                    j++;
                }
                free(order);
            }
        } else if (c->order == PF_NMS_ORDER_TORCH_SORT) {
            if (torch_order(&set, flags, keep, upd) != 0) nk = -1;
        } else {
            for (int32_t p = 0; p < n; p++)
                if (flags[p]) {
                    keep[j] = set.idx[p];
                    if (upd) upd[j] = set.score[p];
                    j++;
                }
        }
    }
    free(flags);
    pfi_nms_set_free(&set);
    return nk;
}

/* ------------------------------------------------------------ the batch */

/* Host or device: every array of the call (inputs, then outputs). */
static pf_status route_nms(const char *op, pf_stream *stream, int count, const pf_nms_sample samples[],
                           const int64_t offsets[], const int32_t keep[], const float upd[], const pfi_backend **be,
                           pf_stream **rs) {
    pfi_ptr_ref *p = malloc(((size_t)count * 3 + 3) * sizeof *p);
    if (p == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    int n = 0;
    for (int i = 0; i < count; i++) {
        p[n++] = (pfi_ptr_ref){samples[i].boxes, "samples.boxes", i};
        p[n++] = (pfi_ptr_ref){samples[i].scores, "samples.scores", i};
        p[n++] = (pfi_ptr_ref){samples[i].classes, "samples.classes", i};
    }
    p[n++] = (pfi_ptr_ref){offsets, "offsets", -1};
    p[n++] = (pfi_ptr_ref){keep, "keep", -1};
    p[n++] = (pfi_ptr_ref){upd, "updated_scores", -1};
    pf_status st = pfi_route_ptrs(op, stream, p, n, be, rs);
    free(p);
    return st;
}

static pf_status check_samples(const char *op, int count, const pf_nms_sample samples[]) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d must be >= 0", op, count);
    if (count > 0 && samples == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: samples is NULL", op);
    for (int i = 0; i < count; i++) {
        const pf_nms_sample *s = &samples[i];
        if (s->n < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: samples[%d].n is %d; it must be >= 0", op, i, s->n);
        if (s->n > 0 && (s->boxes == NULL || s->scores == NULL))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: samples[%d].%s is NULL with n = %d", op, i,
                            s->boxes == NULL ? "boxes" : "scores", s->n);
    }
    return PF_OK;
}

pf_status pf_nms_capacity(int count, const pf_nms_sample samples[], const pf_nms_opts *opts, int64_t *capacity) {
    static const char op[] = "pf_nms_capacity";
    pfi_clear_error();
    pfi_nms_cfg c;
    pf_status st = pfi_nms_cfg_make(op, opts, NULL, &c);
    if (st == PF_OK) st = check_samples(op, count, samples);
    if (st != PF_OK) return st;
    if (capacity == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: capacity is NULL", op);
    int64_t t = 0;
    for (int i = 0; i < count; i++) t += pfi_nms_bound(&c, samples[i].n);
    *capacity = t;
    return PF_OK;
}

typedef struct nms_job {
    const pfi_nms_cfg *c;
    const pf_nms_sample *samples;
    const int64_t *at; /* worst-case offsets */
    int32_t *keep;
    float *upd;
    int32_t *counts;
    int use_ref;
} nms_job;

static void nms_task(void *ctx, int i, int worker) {
    (void)worker;
    nms_job *j = ctx;
    j->counts[i] = pfi_nms_sample_run(j->c, &j->samples[i], j->keep + j->at[i], j->upd ? j->upd + j->at[i] : NULL,
                                      j->use_ref);
}

static pf_status run_batch(const char *op, pf_stream *stream, int count, const pf_nms_sample samples[],
                           const pf_nms_opts *opts, int64_t offsets[], int32_t keep[], int64_t cap, float upd[],
                           int use_ref) {
    pfi_clear_error();
    pfi_nms_cfg c;
    pf_status st = pfi_nms_cfg_make(op, opts, stream, &c);
    if (st == PF_OK) st = check_samples(op, count, samples);
    if (st != PF_OK) return st;
    if (offsets == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: offsets is NULL", op);
    const pfi_backend *be = NULL;
    pf_stream *rs = stream;
    if ((st = route_nms(op, stream, count, samples, offsets, keep, upd, &be, &rs)) != PF_OK) return st;
    if (be != NULL && use_ref) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: the reference runs on host memory", op);
    int64_t *at = malloc(((size_t)count + 1) * sizeof *at);
    int32_t *counts = malloc(((size_t)count + 1) * sizeof *counts);
    if (at == NULL || counts == NULL) {
        free(at);
        free(counts);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    }
    at[0] = 0;
    for (int i = 0; i < count; i++) at[i + 1] = at[i] + pfi_nms_bound(&c, samples[i].n);
    if (cap < at[count] || (at[count] > 0 && keep == NULL)) {
        int64_t need = at[count];
        free(at);
        free(counts);
        if (keep == NULL && need > 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: keep is NULL", op);
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: keep_capacity %lld is too small; these samples need %lld (pf_nms_capacity)", op,
                        (long long)cap, (long long)need);
    }
    if (be != NULL) { /* a device backend: the same checks passed, its entry runs the batch */
        free(at);
        free(counts);
        pf_nms_opts o = opts ? *opts : pf_nms_opts_defaults();
        return PFI_KERNEL(be, op, nms, rs, count, samples, &o, offsets, keep, upd);
    }
    nms_job j = {&c, samples, at, keep, upd, counts, use_ref};
    if (count > 1) pfi_stream_parallel(stream, count, nms_task, &j);
    else if (count == 1) nms_task(&j, 0, 0);
    offsets[0] = 0;
    for (int i = 0; i < count && st == PF_OK; i++) {
        if (counts[i] < 0) {
            st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory in samples[%d] (n = %d)", op, i, samples[i].n);
            break;
        }
        int64_t o = offsets[i];
        if (o != at[i]) {
            memmove(keep + o, keep + at[i], (size_t)counts[i] * sizeof *keep);
            if (upd) memmove(upd + o, upd + at[i], (size_t)counts[i] * sizeof *upd);
        }
        offsets[i + 1] = o + counts[i];
    }
    free(at);
    free(counts);
    return st;
}

pf_status pf_nms(pf_stream *stream, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                 int64_t offsets[], int32_t keep[], int64_t keep_capacity, float updated_scores[]) {
    return run_batch("pf_nms", stream, count, samples, opts, offsets, keep, keep_capacity, updated_scores, 0);
}

pf_status pfi_nms_reference(int count, const pf_nms_sample samples[], const pf_nms_opts *opts, int64_t offsets[],
                            int32_t keep[], int64_t keep_capacity, float updated_scores[]) {
    return run_batch("pf_nms", NULL, count, samples, opts, offsets, keep, keep_capacity, updated_scores, 1);
}
