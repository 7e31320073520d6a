/* The post-processing ops on OpenCL device memory (ctest opencl_post,
 * label opencl), reached through the backend table, against the CPU
 * backend: pf_nms on random batches of 0..4 samples (0 to a few thousand
 * boxes, clusters so suppression happens, quantized scores so ties, NaN
 * and inf scores) over every semantics, box format, class mode and option
 * the device entry supports, offsets / keep / updated_scores equal bit
 * for bit, and the refusal, naming the option, of those it does not;
 * pf_masks_from_logits (argmax with NaN and ties, threshold;
 * shapes and thresholds at random) and pf_composite (1..4 channels, dst 4
 * from 3, padded and negative strides, batches of 1..4, whole buffers
 * compared so padding bytes are canaries), on a created stream and on
 * the NULL stream. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_util.h"
#include "post/post_cases.h"

enum { MAXB = 4 };
static pf_device *g_dev;
static pf_stream *g_stream;

static void *up(const void *host, size_t bytes) {
    void *d = NULL;
    if (pf_malloc(g_dev, PF_ALLOC_DEVICE, bytes ? bytes : 4, &d) != PF_OK) return NULL;
    if (host && bytes && pf_memcpy_async(NULL, d, host, bytes) != PF_OK) return NULL;
    return d;
}

enum { MAXS = 4, MAXN = 3000 };

/* one batch: CPU pf_nms vs OpenCL pf_nms; 1 when equal */
static int nms_case(pf_stream *s, int count, const pf_nms_sample smp[], const pf_nms_opts *o, int64_t *kept) {
    int64_t cap, off_h[MAXS + 1], off_d[MAXS + 1];
    CHECK_STATUS(pf_nms_capacity(count, smp, o, &cap), PF_OK);
    int32_t *k_h = malloc((size_t)(cap + 1) * 4), *k_d = malloc((size_t)(cap + 1) * 4);
    float *u_h = malloc((size_t)(cap + 1) * 4), *u_d = malloc((size_t)(cap + 1) * 4);
    CHECK_STATUS(pf_nms(NULL, count, smp, o, off_h, k_h, cap, u_h), PF_OK);
    pf_nms_sample dev[MAXS];
    void *bufs[3 * MAXS] = {0};
    for (int i = 0; i < count; i++) {
        dev[i] = smp[i];
        dev[i].boxes = bufs[3 * i] = up(smp[i].boxes, (size_t)smp[i].n * 16);
        dev[i].scores = bufs[3 * i + 1] = up(smp[i].scores, (size_t)smp[i].n * 4);
        if (smp[i].classes) dev[i].classes = bufs[3 * i + 2] = up(smp[i].classes, (size_t)smp[i].n * 4);
    }
    int64_t *d_off = up(NULL, (size_t)(count + 1) * 8);
    int32_t *d_keep = up(NULL, (size_t)(cap + 1) * 4);
    float *d_upd = up(NULL, (size_t)(cap + 1) * 4);
    int64_t poison = -77;
    CHECK_STATUS(pf_memcpy_async(NULL, d_off, &poison, 8), PF_OK); /* count 0 must still write offsets[0] */
    CHECK_STATUS(pf_nms(s, count, dev, o, d_off, d_keep, cap, d_upd), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK_STATUS(pf_memcpy_async(NULL, off_d, d_off, (size_t)(count + 1) * 8), PF_OK);
    int64_t nk = off_d[count] >= 0 && off_d[count] <= cap ? off_d[count] : 0;
    CHECK_STATUS(pf_memcpy_async(NULL, k_d, d_keep, (size_t)nk * 4 + 4), PF_OK);
    CHECK_STATUS(pf_memcpy_async(NULL, u_d, d_upd, (size_t)nk * 4 + 4), PF_OK);
    int ok = memcmp(off_h, off_d, (size_t)(count + 1) * 8) == 0 && memcmp(k_h, k_d, (size_t)off_h[count] * 4) == 0 &&
             memcmp(u_h, u_d, (size_t)off_h[count] * 4) == 0;
    if (!ok)
        fprintf(stderr, "opencl nms (sem %d fmt %d classes %d thr %g, %d samples, %s): %lld vs %lld kept\n",
                o->semantics, o->box_format, o->classes, o->iou_threshold, count, s ? "stream" : "NULL stream",
                (long long)off_h[count], (long long)off_d[count]);
    CHECK(ok);
    for (int i = 0; i < 3 * MAXS; i++) pf_free(g_dev, PF_ALLOC_DEVICE, bufs[i]);
    pf_free(g_dev, PF_ALLOC_DEVICE, d_off), pf_free(g_dev, PF_ALLOC_DEVICE, d_keep);
    pf_free(g_dev, PF_ALLOC_DEVICE, d_upd);
    free(k_h), free(k_d), free(u_h), free(u_d);
    *kept += off_h[count];
    return ok;
}

/* an option the device entry lacks: PF_ERR_UNSUPPORTED naming it */
static void nms_refusals(void) {
    float boxes[16] = {0, 0, 10, 10, 1, 1, 11, 11, 50, 50, 60, 60, 0, 0, 9, 9}, scores[4] = {.9f, .8f, .7f, .6f};
    int32_t cls[4] = {0, 1, 0, 1};
    void *db = up(boxes, sizeof boxes), *ds = up(scores, sizeof scores), *dc = up(cls, sizeof cls);
    void *dk = up(NULL, 64), *doff = up(NULL, 16);
    pf_nms_sample smp = {db, ds, dc, 4};
    pf_nms_opts o = pf_nms_opts_defaults();
    o.soft = PF_SOFT_NMS_GAUSSIAN;
    CHECK_STATUS(pf_nms(g_stream, 1, &smp, &o, doff, dk, 4, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("opts.soft");
    o = pf_nms_opts_defaults();
    o.order = PF_NMS_ORDER_TORCH_SORT;
    CHECK_STATUS(pf_nms(g_stream, 1, &smp, &o, doff, dk, 4, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("opts.order");
    o = pf_nms_opts_defaults();
    o.classes = PF_NMS_CLASS_OFFSET;
    o.class_offset = 0.0f;
    CHECK_STATUS(pf_nms(NULL, 1, &smp, &o, doff, dk, 4, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("opts.class_offset");
    /* host outputs with device inputs: refused by the front-end, naming the array */
    int64_t off[2];
    o = pf_nms_opts_defaults();
    CHECK_STATUS(pf_nms(g_stream, 1, &smp, &o, off, dk, 4, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("offsets");
    pf_free(g_dev, PF_ALLOC_DEVICE, db), pf_free(g_dev, PF_ALLOC_DEVICE, ds), pf_free(g_dev, PF_ALLOC_DEVICE, dc);
    pf_free(g_dev, PF_ALLOC_DEVICE, dk), pf_free(g_dev, PF_ALLOC_DEVICE, doff);
}

static void nms_cases(void) {
    float *boxes = malloc(MAXS * MAXN * 16), *scores = malloc(MAXS * MAXN * 4);
    int32_t *cls = malloc(MAXS * MAXN * 4);
    uint64_t r = 4711;
    int64_t kept = 0;
    int good = 0, cases = 0, empty = 0;
    for (int it = 0; it < 240; it++) {
        pf_nms_opts o = random_opts(&r);
        o.soft = PF_SOFT_NMS_NONE;
        if (o.classes == PF_NMS_CLASS_OFFSET && o.class_offset == 0.0f) o.class_offset = 4096.0f;
        int count = (int)(pft_rand(&r) % (MAXS + 1)), nclass = 1 + (int)(pft_rand(&r) % 5);
        pf_nms_sample smp[MAXS];
        for (int i = 0; i < count; i++) {
            int n = (int)(pft_rand(&r) % (it % 40 == 0 ? MAXN : it % 7 == 0 ? 3 : 200));
            empty += n == 0;
            make_sample(&r, n, nclass, o.box_format, boxes + i * MAXN * 4, scores + i * MAXN, cls + i * MAXN);
            smp[i] = (pf_nms_sample){boxes + i * MAXN * 4, scores + i * MAXN, pft_rand(&r) % 4 ? cls + i * MAXN : NULL, n};
        }
        good += nms_case(it % 2 ? NULL : g_stream, count, smp, &o, &kept);
        cases++;
    }
    printf("opencl_post: %d/%d NMS batches (%d empty samples, %lld boxes kept) = pf_nms on the CPU\n", good, cases,
           empty, (long long)kept);
    free(boxes), free(scores), free(cls);
}

static int logits_case(uint64_t *r, int it) {
    pf_stream *s = it % 2 ? NULL : g_stream;
    int N = 1 + (int)(pft_rand(r) % 3), C = 1 + (int)(pft_rand(r) % 12), H = 1 + (int)(pft_rand(r) % 40),
        W = 1 + (int)(pft_rand(r) % 70);
    size_t ne = (size_t)N * C * H * W;
    float *lg = malloc(ne * 4);
    /* few distinct values: ties decide argmax often; NaN sometimes */
    for (size_t i = 0; i < ne; i++) lg[i] = pft_rand(r) % 53 ? (float)(pft_rand(r) % 9) / 4.0f - 1.0f : NAN;
    pf_mask_opts mo = pf_mask_opts_defaults();
    mo.mode = pft_rand(r) % 2 ? PF_MASK_THRESHOLD : PF_MASK_ARGMAX;
    mo.threshold = (float)((int)(pft_rand(r) % 9) - 4) / 4.0f;
    mo.value = (uint8_t)(1 + pft_rand(r) % 255);
    size_t no = mo.mode == PF_MASK_ARGMAX ? (size_t)N * H * W : ne;
    uint8_t *mh = malloc(no), *md = malloc(no);
    int ok = 1;
    CHECK_STATUS(pf_masks_from_logits(NULL, lg, N, C, H, W, mh, &mo), PF_OK);
    void *dl = up(lg, ne * 4), *dm = up(NULL, no);
    CHECK(dl != NULL && dm != NULL);
    CHECK_STATUS(pf_masks_from_logits(s, dl, N, C, H, W, dm, &mo), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK_STATUS(pf_memcpy_async(NULL, md, dm, no), PF_OK);
    if (memcmp(mh, md, no) != 0) {
        ok = 0;
        fprintf(stderr, "logits case %d: [%d,%d,%d,%d] mode %d thr %g differs\n", it, N, C, H, W, (int)mo.mode,
                (double)mo.threshold);
    }
    CHECK(ok);
    pf_free(g_dev, PF_ALLOC_DEVICE, dl), pf_free(g_dev, PF_ALLOC_DEVICE, dm);
    free(lg), free(mh), free(md);
    return ok;
}

static int composite_case(uint64_t *r, int it) {
    pf_stream *s = it % 2 ? NULL : g_stream;
    int count = 1 + (int)(pft_rand(r) % MAXB);
    int cn = 1 + (int)(pft_rand(r) % 4);
    int dcn = cn == 3 && pft_rand(r) % 2 ? 4 : cn;
    pft_img t[MAXB][4], out[MAXB];
    pft_dimg d[MAXB][4];
    pf_image hv[4][MAXB], dv[4][MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int32_t w = 1 + (int32_t)(pft_rand(r) % 120), h = 1 + (int32_t)(pft_rand(r) % 30);
        const int chans[4] = {cn, cn, 1, dcn};
        for (int k = 0; k < 4; k++) {
            pft_img_make(&t[i][k], w, h, chans[k], PF_U8, PF_HWC, pft_range(r, 0, 3), pft_range(r, 0, 1), r);
            ok &= pft_dimg_make(g_dev, &d[i][k], &t[i][k]);
            hv[k][i] = t[i][k].im;
            dv[k][i] = d[i][k].im;
        }
        pft_img_clone(&out[i], &t[i][3]);
    }
    CHECK(ok);
    CHECK_STATUS(pf_composite(NULL, count, hv[0], hv[1], hv[2], hv[3]), PF_OK);
    CHECK_STATUS(pf_composite(s, count, dv[0], dv[1], dv[2], dv[3]), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&d[i][3], &out[i]));
        long at = pft_img_diff(&t[i][3], &out[i]);
        if (at >= 0) {
            ok = 0;
            fprintf(stderr, "composite case %d sample %d (%dx%d, %d -> %d ch) differs at byte %ld\n", it, i,
                    (int)hv[0][i].width, (int)hv[0][i].height, cn, dcn, at);
        }
        for (int k = 0; k < 4; k++) pft_dimg_free(g_dev, &d[i][k]), pft_img_free(&t[i][k]);
        pft_img_free(&out[i]);
    }
    CHECK(ok);
    return ok;
}

int main(void) {
    g_dev = pft_opencl_device_or_skip("opencl_post");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    uint64_t r = 20251202;
    nms_cases();
    nms_refusals();
    int lg = 0, cp = 0;
    for (int it = 0; it < 200; it++) lg += logits_case(&r, it);
    for (int it = 0; it < 200; it++) cp += composite_case(&r, it);
    printf("opencl_post: %d/200 logits and %d/200 composite cases = the CPU backend\n", lg, cp);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return pft_summary("opencl_post");
}
