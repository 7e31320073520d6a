/* NMS internals shared by pf_nms and the detector heads: resolved
 * options, one sample's prepared candidate set, and the per-sample
 * drivers (greedy reference, greedy fast path, soft). */
#ifndef PF_POST_NMS_INTERNAL_H
#define PF_POST_NMS_INTERNAL_H

#include <stdint.h>

#include "post/post_kernels.h"
#include "pixflow/post.h"

typedef struct pfi_nms_cfg {
    pf_nms_semantics sem;
    pf_box_format fmt;
    pf_nms_classes classes;
    double thr_d;       /* iou_threshold as given (torchvision's double compare) */
    float thr_tv;       /* pfk_nms_thr_down(thr_d): the same compare in float */
    float thr_f;        /* (float)iou_threshold: OpenCV, ONNX, soft-NMS */
    int filter;         /* score_threshold > -inf (OpenCV: always) */
    float score_thr;
    int32_t top_k, max_out, max_per_class;
    float class_offset; /* 0: automatic */
    float off;          /* legacy +1 */
    float eta;
    pf_soft_nms soft;
    float sigma;
    pf_nms_order order;
    const pfi_post_kernels *k; /* the stream's level */
} pfi_nms_cfg;

/* Validates opts (messages start with `op`) and resolves them. */
pf_status pfi_nms_cfg_make(const char *op, const pf_nms_opts *opts, const void *stream, pfi_nms_cfg *c);
/* Most boxes one sample of n candidates can keep. */
int32_t pfi_nms_bound(const pfi_nms_cfg *c, int32_t n);

/* One sample's candidates after the score filter, sorted by descending
 * score (equal scores by index), truncated to top_k, with their boxes in
 * the semantics' native form (class offsets applied):
 *   TORCHVISION: f = columns x1, y1, x2, y2, area (5 x n floats)
 *   OPENCV:      d = columns x, y, w, h (4 x n doubles)
 *   ONNX:        f = raw boxes, 4 floats each ([y1,x1,y2,x2] or
 *                [cx,cy,w,h], center says which) */
typedef struct pfi_nms_set {
    int32_t n;
    size_t stride; /* distance between box columns (f, d) */
    int32_t *idx;  /* position -> index into the sample */
    int32_t *cls;  /* position -> class id */
    float *score;  /* position -> score */
    float *f;
    double *d;
    int center;    /* ONNX center_point_box */
    void *mem;
} pfi_nms_set;

/* soft: soft-NMS's filter (score >= threshold). 0, or -1 out of memory. */
int pfi_nms_prepare(const pfi_nms_cfg *c, const pf_nms_sample *s, int soft, pfi_nms_set *set);
void pfi_nms_set_free(pfi_nms_set *set);

/* Greedy NMS over a prepared set: flags[p] = 1 for kept positions;
 * returns the count (already capped), -1 out of memory. The reference is
 * the literal sequential algorithm (every option, eta included); the fast
 * path (eta == 1) groups by class and uses the SIMD kernels; both give
 * the same flags. */
int32_t pfi_nms_greedy_ref(const pfi_nms_cfg *c, const pfi_nms_set *s, uint8_t *flags);
int32_t pfi_nms_greedy_fast(const pfi_nms_cfg *c, const pfi_nms_set *s, uint8_t *flags);

/* Soft-NMS (OpenCV softNMSBoxes' loop): kept positions in selection
 * order into pos[], their decayed scores into sc[]; returns the count. */
int32_t pfi_nms_soft(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t *pos, float *sc);

/* The whole per-sample NMS: kept indices (into the sample) into keep[],
 * scores into upd[] (may be NULL); returns the count, -1 out of memory.
 * use_ref selects the reference greedy loop (tests). */
int32_t pfi_nms_sample_run(const pfi_nms_cfg *c, const pf_nms_sample *s, int32_t *keep, float *upd, int use_ref);

/* Test hook: pf_nms with the reference greedy loop. */
pf_status pfi_nms_reference(int count, const pf_nms_sample samples[], const pf_nms_opts *opts, int64_t offsets[],
                            int32_t keep[], int64_t keep_capacity, float updated_scores[]);

#endif
