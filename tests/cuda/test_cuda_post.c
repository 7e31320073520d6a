/* pf_nms, pf_masks_from_logits and pf_composite on a CUDA device (ctest
 * cuda_post, label cuda), reached through the backend table: the random
 * NMS batches of the emulation test (post/post_cases.h) uploaded, run on
 * a created stream and on the NULL stream, downloaded and compared with
 * the host pf_nms (offsets, keep and scores bit for bit), a 100k-box
 * sample, logits and composite vs the host ops. Skips (77) without a
 * device. */
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_skip.h"
#include "post/post_cases.h"
#include "pixflow/runtime.h"

static void *up(pf_device *gpu, pf_stream *s, const void *host, size_t bytes) {
    void *d = NULL;
    if (pf_malloc(gpu, PF_ALLOC_DEVICE, bytes ? bytes : 4, &d) != PF_OK) return NULL;
    if (host && bytes && pf_memcpy_async(s, d, host, bytes) != PF_OK) return NULL;
    return d;
}

enum { MAXS = 4, MAXN = 3000 };

/* one batch: host pf_nms vs device pf_nms; returns the kept count */
static int64_t nms_case(pf_device *gpu, pf_stream *copy, pf_stream *s, int count, const pf_nms_sample smp[],
                        const pf_nms_opts *o) {
    int64_t cap, off_h[MAXS + 1], off_d[MAXS + 1];
    CHECK_STATUS(pf_nms_capacity(count, smp, o, &cap), PF_OK);
    int32_t *k_h = malloc((size_t)(cap + 1) * 4), *k_d = malloc((size_t)(cap + 1) * 4);
    float *u_h = malloc((size_t)(cap + 1) * 4), *u_d = malloc((size_t)(cap + 1) * 4);
    CHECK_STATUS(pf_nms(NULL, count, smp, o, off_h, k_h, cap, u_h), PF_OK);
    pf_nms_sample dev[MAXS];
    void *bufs[3 * MAXS] = {0};
    for (int i = 0; i < count; i++) {
        dev[i] = smp[i];
        dev[i].boxes = bufs[3 * i] = up(gpu, copy, smp[i].boxes, (size_t)smp[i].n * 16);
        dev[i].scores = bufs[3 * i + 1] = up(gpu, copy, smp[i].scores, (size_t)smp[i].n * 4);
        if (smp[i].classes) dev[i].classes = bufs[3 * i + 2] = up(gpu, copy, smp[i].classes, (size_t)smp[i].n * 4);
    }
    int64_t *d_off = up(gpu, copy, NULL, (size_t)(count + 1) * 8);
    int32_t *d_keep = up(gpu, copy, NULL, (size_t)(cap + 1) * 4);
    float *d_upd = up(gpu, copy, NULL, (size_t)(cap + 1) * 4);
    CHECK_STATUS(pf_stream_synchronize(copy), PF_OK);
    CHECK_STATUS(pf_nms(s, count, dev, o, d_off, d_keep, cap, d_upd), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK_STATUS(pf_memcpy_async(copy, off_d, d_off, (size_t)(count + 1) * 8), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(copy), PF_OK);
    int64_t nk = off_d[count] >= 0 && off_d[count] <= cap ? off_d[count] : 0;
    CHECK_STATUS(pf_memcpy_async(copy, k_d, d_keep, (size_t)nk * 4 + 4), PF_OK);
    CHECK_STATUS(pf_memcpy_async(copy, u_d, d_upd, (size_t)nk * 4 + 4), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(copy), PF_OK);
    int ok = memcmp(off_h, off_d, (size_t)(count + 1) * 8) == 0 && memcmp(k_h, k_d, (size_t)off_h[count] * 4) == 0 &&
             memcmp(u_h, u_d, (size_t)off_h[count] * 4) == 0;
    if (!ok)
        fprintf(stderr, "cuda nms (sem %d fmt %d classes %d thr %g, %s): %lld vs %lld kept\n", o->semantics,
                o->box_format, o->classes, o->iou_threshold, s ? "stream" : "NULL stream", (long long)off_h[count],
                (long long)off_d[count]);
    CHECK(ok);
    for (int i = 0; i < 3 * MAXS; i++) pf_free(gpu, PF_ALLOC_DEVICE, bufs[i]);
    pf_free(gpu, PF_ALLOC_DEVICE, d_off);
    pf_free(gpu, PF_ALLOC_DEVICE, d_keep);
    pf_free(gpu, PF_ALLOC_DEVICE, d_upd);
    free(k_h), free(k_d), free(u_h), free(u_d);
    return off_h[count];
}

static void nms_cases(pf_device *gpu, pf_stream *stream) {
    float *boxes = malloc(MAXS * MAXN * 16), *scores = malloc(MAXS * MAXN * 4);
    int32_t *cls = malloc(MAXS * MAXN * 4);
    uint64_t r = 4711;
    int64_t kept = 0;
    int cases = 0;
    for (int it = 0; it < 300; it++) {
        pf_nms_opts o = random_opts(&r);
        o.soft = PF_SOFT_NMS_NONE;
        if (o.classes == PF_NMS_CLASS_OFFSET && o.class_offset == 0.0f) o.class_offset = 4096.0f;
        int count = (int)(pft_rand(&r) % (MAXS + 1)), nclass = 1 + (int)(pft_rand(&r) % 5);
        pf_nms_sample smp[MAXS];
        for (int i = 0; i < count; i++) {
            int n = (int)(pft_rand(&r) % (it % 5 == 0 ? MAXN : 200));
            make_sample(&r, n, nclass, o.box_format, boxes + i * MAXN * 4, scores + i * MAXN, cls + i * MAXN);
            smp[i] = (pf_nms_sample){boxes + i * MAXN * 4, scores + i * MAXN, pft_rand(&r) % 4 ? cls + i * MAXN : NULL, n};
        }
        kept += nms_case(gpu, stream, it % 2 ? NULL : stream, count, smp, &o);
        cases++;
    }
    /* 100k boxes, one class (O(N) device memory) */
    enum { BIG = 100000 };
    float *bb = malloc(BIG * 16), *bs = malloc(BIG * 4);
    int32_t *bc = malloc(BIG * 4);
    make_sample(&r, BIG, 1, PF_BOX_XYXY, bb, bs, bc);
    pf_nms_sample big = {bb, bs, NULL, BIG};
    pf_nms_opts o = pf_nms_opts_defaults();
    kept += nms_case(gpu, stream, stream, 1, &big, &o);
    printf("cuda_post: NMS %d batches + one of 100k boxes (%lld kept) = pf_nms on the host\n", cases + 1,
           (long long)kept);
    /* soft-NMS stays on the host: named, not silently run */
    o.soft = PF_SOFT_NMS_LINEAR;
    int64_t off[2];
    void *d = up(gpu, stream, bb, 16 * 8);
    void *ds = up(gpu, stream, bs, 4 * 8);
    pf_nms_sample dsmp = {d, ds, NULL, 8};
    void *dk = up(gpu, stream, NULL, 64), *doff = up(gpu, stream, NULL, 16);
    CHECK_STATUS(pf_nms(stream, 1, &dsmp, &o, doff, dk, 8, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("soft");
    /* host outputs with device inputs: refused, naming the array */
    o.soft = PF_SOFT_NMS_NONE;
    CHECK_STATUS(pf_nms(stream, 1, &dsmp, &o, off, dk, 8, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("offsets");
    pf_free(gpu, PF_ALLOC_DEVICE, d), pf_free(gpu, PF_ALLOC_DEVICE, ds), pf_free(gpu, PF_ALLOC_DEVICE, dk);
    pf_free(gpu, PF_ALLOC_DEVICE, doff);
    free(bb), free(bs), free(bc), free(boxes), free(scores), free(cls);
}

static void pixel_cases(pf_device *gpu, pf_stream *stream) {
    uint64_t r = 99;
    int cases = 0;
    for (int it = 0; it < 60; it++) {
        pf_stream *s = it % 2 ? NULL : stream;
        int N = 1 + (int)(pft_rand(&r) % 3), C = 1 + (int)(pft_rand(&r) % 30), H = 1 + (int)(pft_rand(&r) % 200),
            W = 1 + (int)(pft_rand(&r) % 300);
        size_t ne = (size_t)N * C * H * W;
        float *lg = malloc(ne * 4);
        for (size_t i = 0; i < ne; i++) lg[i] = pft_rand(&r) % 97 ? (float)(pft_rand(&r) % 9) / 4.0f - 1.0f : NAN;
        pf_mask_opts mo = pf_mask_opts_defaults();
        mo.mode = pft_rand(&r) % 2 ? PF_MASK_THRESHOLD : PF_MASK_ARGMAX;
        mo.threshold = 0.25f;
        size_t no = mo.mode == PF_MASK_ARGMAX ? (size_t)N * H * W : ne;
        uint8_t *mh = malloc(no), *md = malloc(no);
        CHECK_STATUS(pf_masks_from_logits(NULL, lg, N, C, H, W, mh, &mo), PF_OK);
        void *dl = up(gpu, stream, lg, ne * 4), *dm = up(gpu, stream, NULL, no);
        CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
        CHECK_STATUS(pf_masks_from_logits(s, dl, N, C, H, W, dm, &mo), PF_OK);
        if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
        CHECK_STATUS(pf_memcpy_async(stream, md, dm, no), PF_OK);
        CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
        CHECK(memcmp(mh, md, no) == 0);
        pf_free(gpu, PF_ALLOC_DEVICE, dl), pf_free(gpu, PF_ALLOC_DEVICE, dm);
        free(lg), free(mh), free(md);
        /* composite of one sample, dst 4 channels from 3 or the fg's */
        int w = 1 + (int)(pft_rand(&r) % 700), h = 1 + (int)(pft_rand(&r) % 300), cn = 1 + (int)(pft_rand(&r) % 4);
        int dcn = cn == 3 && pft_rand(&r) % 2 ? 4 : cn;
        size_t px = (size_t)w * h;
        uint8_t *hb[4], *out = malloc(px * dcn), *got = malloc(px * dcn);
        size_t sz[4] = {px * cn, px * cn, px, px * dcn};
        void *db[4];
        for (int k = 0; k < 4; k++) {
            hb[k] = malloc(sz[k]);
            for (size_t q = 0; q < sz[k]; q++) hb[k][q] = (uint8_t)pft_rand(&r);
            db[k] = up(gpu, stream, hb[k], sz[k]);
        }
        CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
        pf_image fg = pf_image_hwc(hb[0], w, h, cn, PF_U8, 0), bg = pf_image_hwc(hb[1], w, h, cn, PF_U8, 0);
        pf_image mk = pf_image_hwc(hb[2], w, h, 1, PF_U8, 0), dst = pf_image_hwc(out, w, h, dcn, PF_U8, 0);
        CHECK_STATUS(pf_composite(NULL, 1, &fg, &bg, &mk, &dst), PF_OK);
        pf_image dv[4] = {fg, bg, mk, dst};
        for (int k = 0; k < 4; k++) dv[k].data = db[k], dv[k].mem = PF_MEM_CUDA, dv[k].device = 0;
        CHECK_STATUS(pf_composite(s, 1, &dv[0], &dv[1], &dv[2], &dv[3]), PF_OK);
        if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
        CHECK_STATUS(pf_memcpy_async(stream, got, db[3], sz[3]), PF_OK);
        CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
        CHECK(memcmp(out, got, sz[3]) == 0);
        for (int k = 0; k < 4; k++) free(hb[k]), pf_free(gpu, PF_ALLOC_DEVICE, db[k]);
        free(out), free(got);
        cases++;
    }
    printf("cuda_post: %d logits + composite cases = the host ops\n", cases);
}

int main(void) {
    pf_device *gpu = pft_cuda_device_or_skip("cuda_post");
    pf_stream *stream = NULL;
    CHECK_STATUS(pf_stream_create(gpu, &stream), PF_OK);
    nms_cases(gpu, stream);
    pixel_cases(gpu, stream);
    pf_stream_destroy(stream);
    pf_device_close(gpu);
    return pft_summary("cuda_post");
}
