/* GPU kernel bodies of pf_nms for a whole batch, plain C shared with the
 * CPU emulation test. The device runs, on one stream:
 *   1. filter  (thread per candidate): the semantics' score filter; a
 *      passing candidate appends (score key << 32 | index) to its sample's
 *      key list (an atomic slot: the order is settled by the sort, whose
 *      keys are unique);
 *   2. a segmented radix sort of each sample's keys (CUB on the device, a
 *      plain sort in the emulation: unique keys, one possible result);
 *   3. gather  (thread per sorted position < top_k): the candidate's box in
 *      the semantics' native form (nms_math.h), class offset applied;
 *   4. select  (ONE launch, one block per sample): the greedy loop; for
 *      each candidate the block's threads check disjoint slices of the kept
 *      list (pfk_nms_partial) and one barrier-reduction decides, so every
 *      thread takes the same decision; O(N) memory per sample;
 *   5. output  (thread per kept box): the rank in the semantics' output
 *      order (ONNX: class-major) into a staging area at the sample's
 *      worst-case offset;
 *   6. offsets (one thread) and compact (thread per kept box) into the
 *      caller's CSR arrays.
 * The per-pair arithmetic is nms_math.h, the CPU reference's. */
#ifndef PF_KERNELS_GPU_NMS_H
#define PF_KERNELS_GPU_NMS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/box_math.h"
#include "kernels/nms_math.h"
#include "kernels/pf_hd.h"
#include "pixflow/post.h" /* pf_nms_semantics, pf_nms_classes, pf_box_format */

#if defined(__CUDA_ARCH__)
#  define PFK_ATOMIC_INC(p) atomicAdd((p), 1)
#elif defined(__OPENCL_C_VERSION__)
#  define PFK_ATOMIC_INC(p) atomic_inc(p)
#else
#  define PFK_ATOMIC_INC(p) ((*(p))++)  /* the emulation runs threads one after another */
#endif

typedef struct pfk_nms_job {
    const PF_GLOBAL float *boxes, *scores; /* device */
    const PF_GLOBAL int32_t *classes;      /* device, or NULL */
    int32_t n;
    int64_t base;                /* first scratch slot of the sample (prefix of n) */
    int64_t out_base;            /* worst-case output offset (prefix of the bounds) */
} pfk_nms_job;

typedef struct pfk_nms_batch {
    int32_t count;
    const PF_GLOBAL pfk_nms_job *jobs;
    int32_t sem, fmt, classes;   /* pf_nms_semantics, pf_box_format, pf_nms_classes */
    int32_t filter, top_k, max_out, max_per_class, center;
    float score_thr, thr_tv, thr_f, off, eta, class_offset;
    double thr_d;
    int64_t total;               /* sum of n: stride of the column arrays is per sample (n) */
    /* device scratch */
    PF_GLOBAL uint64_t *keys, *sorted;     /* total each */
    PF_GLOBAL int64_t *seg_begin, *seg_end;/* count each: the sort's segments */
    PF_GLOBAL int32_t *ncand, *nkept;      /* count each (zeroed in the uploaded arena) */
    PF_GLOBAL float *f;                    /* 5 * total (torchvision columns / ONNX raw boxes) */
    PF_GLOBAL double *d;                   /* 4 * total (OpenCV columns) */
    PF_GLOBAL int32_t *cls, *kept;         /* total each */
    PF_GLOBAL int32_t *staging;            /* sum of bounds */
    PF_GLOBAL float *staging_scores;
    /* outputs (device, the caller's) */
    PF_GLOBAL int64_t *offsets;
    PF_GLOBAL int32_t *keep;
    PF_GLOBAL float *scores_out;           /* may be NULL */
} pfk_nms_batch;

PF_HD int32_t pfk_nms_limit(const PF_GLOBAL pfk_nms_batch *b, int32_t n) {
    int32_t m = b->ncand[n];
    return b->top_k > 0 && m > b->top_k ? b->top_k : m;
}

/* 1. thread per candidate i of sample n */
PF_HD void pfk_nms_filter_at(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t i) {
    if (n >= b->count) return;
    const PF_GLOBAL pfk_nms_job *j = &b->jobs[n];
    if (i >= j->n) return;
    float s = j->scores[i];
    int pass;
    if (b->sem != PF_NMS_TORCHVISION && s != s) pass = 0; /* OpenCV, ONNX: NaN never competes */
    else if (b->filter || b->sem == PF_NMS_OPENCV) pass = s > b->score_thr;
    else pass = 1;
    if (!pass) return;
    int32_t slot = PFK_ATOMIC_INC(&b->ncand[n]);
    b->keys[j->base + slot] = ((uint64_t)pfk_score_key_desc(s) << 32) | (uint32_t)i;
}

/* between 1 and 2: the segments (one thread per sample) */
PF_HD void pfk_nms_segments_at(const PF_GLOBAL pfk_nms_batch *b, int32_t n) {
    if (n >= b->count) return;
    b->seg_begin[n] = b->jobs[n].base;
    b->seg_end[n] = b->jobs[n].base + b->ncand[n];
}

/* 2, where no library sort is at hand (OpenCL): thread per key i of
 * sample n writes it at its rank, the count of the segment's smaller keys.
 * The keys are unique, so this is a permutation and the one sorted order
 * the radix sort gives. O(m) per key: fine for the few thousand
 * candidates a sample has after the score filter. */
PF_HD void pfk_nms_rank_at(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t i) {
    if (n >= b->count) return;
    int32_t m = b->ncand[n];
    if (i >= m) return;
    const PF_GLOBAL uint64_t *k = b->keys + b->jobs[n].base;
    uint64_t key = k[i];
    int32_t rank = 0;
    for (int32_t q = 0; q < m; q++) rank += k[q] < key;
    b->sorted[b->jobs[n].base + rank] = key;
}

/* 3. thread per sorted position p of sample n */
PF_HD void pfk_nms_gather_at(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t p) {
    if (n >= b->count) return;
    const PF_GLOBAL pfk_nms_job *j = &b->jobs[n];
    if (p >= pfk_nms_limit(b, n)) return;
    int32_t i = (int32_t)(uint32_t)(b->sorted[j->base + p] & 0xffffffffu);
    int32_t cls = j->classes ? j->classes[i] : 0;
    b->cls[j->base + p] = cls;
    const PF_GLOBAL float *gsrc = j->boxes + (size_t)i * 4;
    float src[4], x[4], r[4]; /* private copies: the shared box math takes private pointers */
    for (int k = 0; k < 4; k++) src[k] = gsrc[k];
    size_t nn = (size_t)j->n;
    if (b->sem == PF_NMS_TORCHVISION) { /* torchvision: xyxy columns + areas */
        pfk_box_to_xyxy(src, b->fmt, x);
        if (b->classes == PF_NMS_CLASS_OFFSET) {
            float o = (float)cls * b->class_offset;
            for (int k = 0; k < 4; k++) x[k] = x[k] + o;
        }
        PF_GLOBAL float *f = b->f + 5 * j->base;
        for (int k = 0; k < 4; k++) f[(size_t)k * nn + p] = x[k];
        f[4 * nn + p] = pfk_nms_tv_area(x[0], x[1], x[2], x[3], b->off);
    } else if (b->sem == PF_NMS_OPENCV) { /* OpenCV: Rect2d columns */
        if (b->fmt == PF_BOX_XYWH) {
            for (int k = 0; k < 4; k++) r[k] = src[k];
        } else {
            pfk_box_to_xyxy(src, b->fmt, x);
            pfk_box_from_xyxy(x, 1, r);
        }
        double o = b->classes == PF_NMS_CLASS_OFFSET ? (double)cls * (double)b->class_offset : 0.0;
        PF_GLOBAL double *d = b->d + 4 * j->base;
        d[p] = (double)r[0] + o;
        d[nn + p] = (double)r[1] + o;
        d[2 * nn + p] = (double)r[2];
        d[3 * nn + p] = (double)r[3];
    } else { /* ONNX: raw [y1,x1,y2,x2] or [cx,cy,w,h] */
        PF_GLOBAL float *o = b->f + 5 * j->base + (size_t)p * 4;
        if (b->fmt == PF_BOX_YXYX || b->fmt == PF_BOX_CXCYWH) {
            for (int k = 0; k < 4; k++) o[k] = src[k];
        } else {
            pfk_box_to_xyxy(src, b->fmt, x);
            pfk_box_from_xyxy(x, 3, r);
            for (int k = 0; k < 4; k++) o[k] = r[k];
        }
    }
}

/* Does kept position k suppress candidate p of sample n (threshold thr for
 * OpenCV's adaptive case)? */
PF_HD int pfk_nms_pair(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t k, int32_t p, float thr) {
    const PF_GLOBAL pfk_nms_job *j = &b->jobs[n];
    size_t nn = (size_t)j->n;
    if (b->sem == PF_NMS_TORCHVISION) {
        const PF_GLOBAL float *f = b->f + 5 * j->base;
        float iou = pfk_nms_tv_iou(f[k], f[nn + k], f[2 * nn + k], f[3 * nn + k], f[4 * nn + k], f[p], f[nn + p],
                                   f[2 * nn + p], f[3 * nn + p], f[4 * nn + p], b->off);
        return iou > b->thr_tv;
    }
    if (b->sem == PF_NMS_OPENCV) {
        const PF_GLOBAL double *d = b->d + 4 * j->base;
        float ov = pfk_nms_cv_overlap(d[p], d[nn + p], d[2 * nn + p], d[3 * nn + p], d[k], d[nn + k], d[2 * nn + k],
                                      d[3 * nn + k]);
        return !(ov <= thr);
    }
    const PF_GLOBAL float *f = b->f + 5 * j->base;
    float cand[4], sel[4]; /* private copies, as in the gather */
    for (int c = 0; c < 4; c++) cand[c] = f[(size_t)p * 4 + c], sel[c] = f[(size_t)k * 4 + c];
    return pfk_nms_onnx_suppress(cand, sel, b->center, b->thr_f);
}

/* 4. one thread's share of the check of candidate p against the nk kept
 * boxes (slice tid, tid + nt, ...): 1 when a kept box of p's group in the
 * slice suppresses it. */
PF_HD int pfk_nms_partial(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t p, int32_t nk, int32_t tid, int32_t nt,
                          float thr) {
    const PF_GLOBAL pfk_nms_job *j = &b->jobs[n];
    const PF_GLOBAL int32_t *kept = b->kept + j->base, *cls = b->cls + j->base;
    for (int32_t q = tid; q < nk; q += nt) {
        int32_t k = kept[q];
        if (b->classes == PF_NMS_PER_CLASS && cls[k] != cls[p]) continue;
        if (pfk_nms_pair(b, n, k, p, thr)) return 1;
    }
    return 0;
}

/* this thread's count of kept boxes of p's class (max_output_per_class) */
PF_HD int32_t pfk_nms_same_class(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t p, int32_t nk, int32_t tid, int32_t nt) {
    const PF_GLOBAL pfk_nms_job *j = &b->jobs[n];
    const PF_GLOBAL int32_t *kept = b->kept + j->base, *cls = b->cls + j->base;
    int32_t c = 0;
    for (int32_t q = tid; q < nk; q += nt) c += cls[kept[q]] == cls[p];
    return c;
}

/* 4. the decisions every thread of the block takes alike */
PF_HD void pfk_nms_keep(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t p, int32_t *nk, float *thr, int32_t tid) {
    if (tid == 0) b->kept[b->jobs[n].base + *nk] = p;
    (*nk)++;
    if (b->eta < 1.0f && *thr > 0.5f) *thr *= b->eta;
}

/* 5. thread per kept box q of sample n */
PF_HD void pfk_nms_output_at(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t q) {
    if (n >= b->count) return;
    const PF_GLOBAL pfk_nms_job *j = &b->jobs[n];
    int32_t nk = b->nkept[n];
    if (q >= nk) return;
    const PF_GLOBAL int32_t *kept = b->kept + j->base, *cls = b->cls + j->base;
    int32_t rank = q;
    if (b->sem == PF_NMS_ONNX && b->classes != PF_NMS_AGNOSTIC) { /* ONNX: classes ascending, selection order within */
        int32_t c = cls[kept[q]];
        rank = 0;
        for (int32_t r = 0; r < nk; r++) {
            int32_t cr = cls[kept[r]];
            rank += cr < c || (cr == c && r < q);
        }
    }
    int32_t p = kept[q];
    int32_t i = (int32_t)(uint32_t)(b->sorted[j->base + p] & 0xffffffffu);
    b->staging[j->out_base + rank] = i;
    b->staging_scores[j->out_base + rank] = j->scores[i];
}

/* 6. one thread */
PF_HD void pfk_nms_offsets(const PF_GLOBAL pfk_nms_batch *b) {
    b->offsets[0] = 0;
    for (int32_t n = 0; n < b->count; n++) b->offsets[n + 1] = b->offsets[n] + b->nkept[n];
}

/* 6. thread per kept box q of sample n */
PF_HD void pfk_nms_compact_at(const PF_GLOBAL pfk_nms_batch *b, int32_t n, int32_t q) {
    if (n >= b->count || q >= b->nkept[n]) return;
    int64_t from = b->jobs[n].out_base + q, to = b->offsets[n] + q;
    b->keep[to] = b->staging[from];
    if (b->scores_out) b->scores_out[to] = b->staging_scores[from];
}

#endif
