/* pf_nms: argument checks, hand-checked cases of each semantics
 * (thresholds met exactly, equal scores, zero areas, NaN scores, empty
 * input, caps, class order), and the optimized path (class groups, SIMD
 * kernels, threads) against the reference loop on random batches at every
 * ISA level. The kernels themselves are compared with the reference rows
 * in tests/simd/test_simd_post.c. Agreement with torchvision / OpenCV /
 * onnxruntime themselves is tested in tests/python/test_post_nms.py. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "post/nms_internal.h"
#include "post_cases.h"
#include "simd/simd_harness.h"
#include "test_util.h"
#include "pixflow/post.h"

static int64_t run(pf_stream *s, int count, const pf_nms_sample *smp, const pf_nms_opts *o, int64_t *off,
                   int32_t *keep, float *upd) {
    int64_t cap = 0;
    if (pf_nms_capacity(count, smp, o, &cap) != PF_OK) return -1;
    if (pf_nms(s, count, smp, o, off, keep, cap, upd) != PF_OK) {
        fprintf(stderr, "pf_nms: %s\n", pf_last_error());
        return -1;
    }
    return off[count];
}

/* keep list of one sample as a short array */
static int keep1(const float *boxes, const float *scores, const int32_t *cls, int n, const pf_nms_opts *o,
                 int32_t *keep, float *upd) {
    pf_nms_sample s = {boxes, scores, cls, n};
    int64_t off[2];
    return (int)run(NULL, 1, &s, o, off, keep, upd);
}

static void hand_cases(void) {
    pf_nms_opts o = pf_nms_opts_defaults();
    int32_t keep[16];
    float upd[16];
    /* IoU exactly 0.5 (inter 2, union 4): not suppressed at 0.5 by any semantics */
    float half[8] = {0, 0, 4, 1, 0, 0, 2, 1};
    float sc2[2] = {0.9f, 0.8f};
    for (int sem = 0; sem <= 2; sem++) {
        o = pf_nms_opts_defaults();
        o.semantics = (pf_nms_semantics)sem;
        o.iou_threshold = 0.5;
        CHECK(keep1(half, sc2, NULL, 2, &o, keep, NULL) == 2);
        o.iou_threshold = 0.49;
        CHECK(keep1(half, sc2, NULL, 2, &o, keep, NULL) == 1 && keep[0] == 0);
    }
    /* equal scores: the lowest index wins (three identical boxes) */
    float same[12] = {1, 1, 5, 5, 1, 1, 5, 5, 1, 1, 5, 5};
    float eq[3] = {0.5f, 0.5f, 0.5f};
    for (int sem = 0; sem <= 2; sem++) {
        o = pf_nms_opts_defaults();
        o.semantics = (pf_nms_semantics)sem;
        CHECK(keep1(same, eq, NULL, 3, &o, keep, NULL) == 1 && keep[0] == 0);
    }
    /* equal scores sort by index, not by position in memory: 1 > 0 in score */
    float eq2[3] = {0.5f, 0.7f, 0.5f};
    o = pf_nms_opts_defaults();
    CHECK(keep1(same, eq2, NULL, 3, &o, keep, NULL) == 1 && keep[0] == 1);
    /* two identical zero-area boxes: torchvision 0/0 = NaN (kept), OpenCV
     * areas <= eps -> overlap 1 (suppressed), ONNX early out (kept) */
    float zero[8] = {3, 3, 3, 3, 3, 3, 3, 3};
    o = pf_nms_opts_defaults();
    CHECK(keep1(zero, sc2, NULL, 2, &o, keep, NULL) == 2);
    o.semantics = PF_NMS_OPENCV;
    CHECK(keep1(zero, sc2, NULL, 2, &o, keep, NULL) == 1);
    o.semantics = PF_NMS_ONNX;
    CHECK(keep1(zero, sc2, NULL, 2, &o, keep, NULL) == 2);
    /* NaN scores: torchvision sorts them first; OpenCV and ONNX drop them */
    float far[12] = {0, 0, 1, 1, 10, 10, 11, 11, 20, 20, 21, 21};
    float nan3[3] = {0.2f, NAN, 0.9f};
    o = pf_nms_opts_defaults();
    CHECK(keep1(far, nan3, NULL, 3, &o, keep, NULL) == 3 && keep[0] == 1 && keep[1] == 2 && keep[2] == 0);
    o.semantics = PF_NMS_OPENCV;
    CHECK(keep1(far, nan3, NULL, 3, &o, keep, NULL) == 2 && keep[0] == 2 && keep[1] == 0);
    o.semantics = PF_NMS_ONNX;
    CHECK(keep1(far, nan3, NULL, 3, &o, keep, NULL) == 2 && keep[0] == 2 && keep[1] == 0);
    /* torchvision's score filter drops NaN too (score > thr is false) */
    o = pf_nms_opts_defaults();
    o.score_threshold = 0.1f;
    CHECK(keep1(far, nan3, NULL, 3, &o, keep, NULL) == 2);
    /* classes: overlapping boxes of two classes */
    int32_t cls[3] = {0, 1, 0};
    float sc3[3] = {0.9f, 0.8f, 0.7f};
    o = pf_nms_opts_defaults();
    CHECK(keep1(same, sc3, cls, 3, &o, keep, NULL) == 2 && keep[0] == 0 && keep[1] == 1);
    o.classes = PF_NMS_AGNOSTIC;
    CHECK(keep1(same, sc3, cls, 3, &o, keep, NULL) == 1);
    o.classes = PF_NMS_CLASS_OFFSET;
    CHECK(keep1(same, sc3, cls, 3, &o, keep, NULL) == 2);
    o.class_offset = 7680.0f;
    CHECK(keep1(same, sc3, cls, 3, &o, keep, NULL) == 2);
    /* ONNX output is class-major */
    float sc4[3] = {0.5f, 0.9f, 0.7f};
    int32_t cls4[3] = {1, 0, 1};
    o = pf_nms_opts_defaults();
    o.semantics = PF_NMS_ONNX;
    CHECK(keep1(far, sc4, cls4, 3, &o, keep, NULL) == 3 && keep[0] == 1 && keep[1] == 2 && keep[2] == 0);
    /* caps and top-k */
    o = pf_nms_opts_defaults();
    o.max_output = 2;
    CHECK(keep1(far, sc4, cls4, 3, &o, keep, NULL) == 2 && keep[0] == 1 && keep[1] == 2);
    o = pf_nms_opts_defaults();
    o.max_output_per_class = 1;
    CHECK(keep1(far, sc4, cls4, 3, &o, keep, NULL) == 2 && keep[0] == 1 && keep[1] == 2);
    o = pf_nms_opts_defaults();
    o.pre_nms_top_k = 1;
    CHECK(keep1(far, sc4, cls4, 3, &o, keep, NULL) == 1 && keep[0] == 1);
    /* legacy +1: [0,0,1,1] and [1,0,2,1] touch; with +1 widths they overlap
     * (inter 1x2 / union 4+4-2 = 1/3) */
    float touch[8] = {0, 0, 1, 1, 1, 0, 2, 1};
    o = pf_nms_opts_defaults();
    o.iou_threshold = 0.3;
    CHECK(keep1(touch, sc2, NULL, 2, &o, keep, NULL) == 2);
    o.legacy_plus_one = true;
    CHECK(keep1(touch, sc2, NULL, 2, &o, keep, NULL) == 1);
    /* soft-NMS linear: IoU 0.5 decays the second score by half */
    o = pf_nms_opts_defaults();
    o.soft = PF_SOFT_NMS_LINEAR;
    o.iou_threshold = 0.3;
    CHECK(keep1(half, sc2, NULL, 2, &o, keep, upd) == 2 && keep[1] == 1 && upd[1] == 0.8f * 0.5f);
    o.score_threshold = 0.5f;
    CHECK(keep1(half, sc2, NULL, 2, &o, keep, upd) == 1);
    o.soft = PF_SOFT_NMS_GAUSSIAN;
    o.score_threshold = -INFINITY;
    CHECK(keep1(half, sc2, NULL, 2, &o, keep, upd) == 2 && upd[1] == 0.8f * expf(-(0.5f * 0.5f) / 0.5f));
    /* OpenCV's adaptive threshold: 0.6 * eta 0.6 = 0.36 after the first
     * keep (it only shrinks while > 0.5), so the IoU-0.4 box C goes */
    float eb[12] = {0, 0, 10, 10, 100, 100, 110, 110, 0, 0, 10, 4};
    float es[3] = {0.9f, 0.8f, 0.7f};
    o = pf_nms_opts_defaults();
    o.semantics = PF_NMS_OPENCV;
    o.iou_threshold = 0.6;
    CHECK(keep1(eb, es, NULL, 3, &o, keep, NULL) == 3);
    o.eta = 0.6f;
    CHECK(keep1(eb, es, NULL, 3, &o, keep, NULL) == 2);
    /* empty inputs */
    pf_nms_sample none = {NULL, NULL, NULL, 0};
    int64_t off[3] = {-1, -1, -1};
    o = pf_nms_opts_defaults();
    CHECK_STATUS(pf_nms(NULL, 1, &none, &o, off, NULL, 0, NULL), PF_OK);
    CHECK(off[0] == 0 && off[1] == 0);
    CHECK_STATUS(pf_nms(NULL, 0, NULL, &o, off, NULL, 0, NULL), PF_OK);
    CHECK(off[0] == 0);
}

static void arg_checks(void) {
    float b[4] = {0, 0, 1, 1}, s[1] = {1};
    pf_nms_sample smp = {b, s, NULL, 1};
    int64_t off[2];
    int32_t keep[2];
    pf_nms_opts o = pf_nms_opts_defaults();
    o.iou_threshold = (double)NAN;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("iou_threshold");
    o = pf_nms_opts_defaults();
    o.semantics = (pf_nms_semantics)7;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("semantics");
    o = pf_nms_opts_defaults();
    o.eta = 0.9f;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("eta");
    o = pf_nms_opts_defaults();
    o.semantics = PF_NMS_ONNX;
    o.classes = PF_NMS_CLASS_OFFSET;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("classes");
    o = pf_nms_opts_defaults();
    o.semantics = PF_NMS_ONNX;
    o.soft = PF_SOFT_NMS_LINEAR;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_UNSUPPORTED);
    o = pf_nms_opts_defaults();
    o.order = (pf_nms_order)5;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.order");
    o = pf_nms_opts_defaults();
    o.order = PF_NMS_ORDER_TORCH_SORT;
    o.semantics = PF_NMS_OPENCV;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("PF_NMS_TORCHVISION");
    o = pf_nms_opts_defaults();
    o.max_output = -1;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("max_output");
    o = pf_nms_opts_defaults();
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, off, keep, 0, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("keep_capacity");
    pf_nms_sample bad = {NULL, s, NULL, 1};
    CHECK_STATUS(pf_nms(NULL, 1, &bad, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("samples[0].boxes");
    pf_nms_sample neg = {b, s, NULL, -3};
    CHECK_STATUS(pf_nms(NULL, 1, &neg, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("samples[0].n");
    CHECK_STATUS(pf_nms(NULL, -1, &smp, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, NULL, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("offsets");
    CHECK_STATUS(pf_nms(NULL, 1, NULL, &o, off, keep, 2, NULL), PF_ERR_INVALID_ARGUMENT);
}

#define MAXS 5
#define MAXN 2500

static void random_batches(void) {
    pf_isa levels[4];
    /* the longest comparison of the suite: only levels with post kernels of their own */
    int nlev = levels_with_own_kernels("post.", levels, simd_levels(levels, "post_nms"));
    pf_stream *s2 = NULL;
    int cases = 0, kept_total = 0;
    float *boxes = malloc(MAXS * MAXN * 4 * sizeof(float)), *scores = malloc(MAXS * MAXN * sizeof(float));
    int32_t *cls = malloc(MAXS * MAXN * sizeof(int32_t));
    int32_t *k_ref = malloc(MAXS * MAXN * sizeof(int32_t)), *k_opt = malloc(MAXS * MAXN * sizeof(int32_t));
    float *u_ref = malloc(MAXS * MAXN * sizeof(float)), *u_opt = malloc(MAXS * MAXN * sizeof(float));
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int it = 0; it < 1500; it++) {
        pf_nms_opts o = random_opts(&r);
        int count = 1 + (int)(pft_rand(&r) % MAXS), nclass = 1 + (int)(pft_rand(&r) % 6);
        pf_nms_sample smp[MAXS];
        for (int i = 0; i < count; i++) {
            /* mostly up to 400 boxes; every 7th batch large enough for the spatial grid */
            int n = (int)(pft_rand(&r) % (it % 10 == 0 ? 8 : it % 7 == 0 ? MAXN : 400));
            make_sample(&r, n, nclass, o.box_format, boxes + i * MAXN * 4, scores + i * MAXN, cls + i * MAXN);
            smp[i].boxes = boxes + i * MAXN * 4;
            smp[i].scores = scores + i * MAXN;
            smp[i].classes = pft_rand(&r) % 5 ? cls + i * MAXN : NULL;
            smp[i].n = n;
        }
        int64_t cap, off_ref[MAXS + 1], off_opt[MAXS + 1];
        CHECK_STATUS(pf_nms_capacity(count, smp, &o, &cap), PF_OK);
        CHECK_STATUS(pfi_nms_reference(count, smp, &o, off_ref, k_ref, cap, u_ref), PF_OK);
        for (int l = -1; l < nlev; l++) {
            pf_cpu_set_cap(l < 0 ? PF_ISA_SCALAR : levels[l]);
            for (int threads = 0; threads < 2; threads++) {
                pf_stream *st = NULL;
                if (threads) {
                    if (pf_stream_create_cpu(2, &s2) != PF_OK) s2 = NULL;
                    st = s2;
                }
                int ok = pf_nms(st, count, smp, &o, off_opt, k_opt, cap, u_opt) == PF_OK &&
                         memcmp(off_opt, off_ref, (size_t)(count + 1) * sizeof *off_ref) == 0 &&
                         memcmp(k_opt, k_ref, (size_t)off_ref[count] * sizeof *k_ref) == 0 &&
                         memcmp(u_opt, u_ref, (size_t)off_ref[count] * sizeof *u_ref) == 0;
                if (!ok)
                    fprintf(stderr, "case %d (sem %d fmt %d classes %d thr %g soft %d) level %s threads %d: differs\n",
                            it, o.semantics, o.box_format, o.classes, o.iou_threshold, o.soft,
                            l < 0 ? "scalar" : pf_isa_name(levels[l]), threads + 1);
                CHECK(ok);
                if (!ok && getenv("PF_TEST_VERBOSE")) {
                    for (int i = 0; i < count; i++)
                        fprintf(stderr, "  sample %d n %d: ref %lld..%lld opt %lld..%lld\n", i, smp[i].n,
                                (long long)off_ref[i], (long long)off_ref[i + 1], (long long)off_opt[i],
                                (long long)off_opt[i + 1]);
                    for (int64_t q = 0; q < off_ref[count]; q++)
                        if (k_ref[q] != k_opt[q] || memcmp(&u_ref[q], &u_opt[q], 4)) {
                            fprintf(stderr, "  at %lld: ref %d (%g) opt %d (%g)\n", (long long)q, k_ref[q],
                                    (double)u_ref[q], k_opt[q], (double)u_opt[q]);
                            break;
                        }
                }
                if (s2) {
                    pf_stream_destroy(s2);
                    s2 = NULL;
                }
            }
        }
        cases++;
        kept_total += (int)off_ref[count];
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("post_nms: %d random batches, %d kept boxes, identical at every level and thread count\n", cases,
           kept_total);
    free(boxes);
    free(scores);
    free(cls);
    free(k_ref);
    free(k_opt);
    free(u_ref);
    free(u_opt);
}

/* 100k boxes in one sample: clustered, one class, fast path vs reference,
 * and the wall time of both. */
static void large(void) {
    const int n = 100000;
    float *boxes = malloc((size_t)n * 4 * sizeof(float)), *scores = malloc((size_t)n * sizeof(float));
    int32_t *a = malloc((size_t)n * sizeof(int32_t)), *b = malloc((size_t)n * sizeof(int32_t));
    uint64_t r = 77;
    for (int i = 0; i < n; i++) {
        int k = (int)(pft_rand(&r) % 200);
        float cx = (float)(k % 20) * 100 + frand(&r) * 6, cy = (float)(k / 20) * 100 + frand(&r) * 6;
        boxes[4 * i] = cx;
        boxes[4 * i + 1] = cy;
        boxes[4 * i + 2] = cx + 40 + frand(&r) * 4;
        boxes[4 * i + 3] = cy + 40 + frand(&r) * 4;
        scores[i] = frand(&r);
    }
    pf_nms_sample s = {boxes, scores, NULL, n};
    pf_nms_opts o = pf_nms_opts_defaults();
    int64_t off_a[2], off_b[2];
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_STATUS(pf_nms(NULL, 1, &s, &o, off_a, a, n, NULL), PF_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK_STATUS(pfi_nms_reference(1, &s, &o, off_b, b, n, NULL), PF_OK);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    CHECK(off_a[1] == off_b[1] && memcmp(a, b, (size_t)off_a[1] * sizeof *a) == 0);
    printf("post_nms: 100000 boxes -> %lld kept; fast %.1f ms, reference %.1f ms\n", (long long)off_a[1],
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
           (double)(t2.tv_sec - t1.tv_sec) * 1e3 + (double)(t2.tv_nsec - t1.tv_nsec) / 1e6);
    free(boxes);
    free(scores);
    free(a);
    free(b);
}

int main(void) {
    hand_cases();
    arg_checks();
    random_batches();
    large();
    return pft_summary("post_nms");
}
