/* The post-processing ops on OpenCL device memory (ctest opencl_post,
 * label opencl), reached through the backend table, against the CPU
 * backend: pf_masks_from_logits (argmax with NaN and ties, threshold;
 * shapes and thresholds at random) and pf_composite (1..4 channels, dst 4
 * from 3, padded and negative strides, batches of 1..4, whole buffers
 * compared so padding bytes are canaries), on a created stream and on
 * the NULL stream. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_util.h"

enum { MAXB = 4 };
static pf_device *g_dev;
static pf_stream *g_stream;

static void *up(const void *host, size_t bytes) {
    void *d = NULL;
    if (pf_malloc(g_dev, PF_ALLOC_DEVICE, bytes ? bytes : 4, &d) != PF_OK) return NULL;
    if (host && bytes && pf_memcpy_async(NULL, d, host, bytes) != PF_OK) return NULL;
    return d;
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
    int lg = 0, cp = 0;
    for (int it = 0; it < 200; it++) lg += logits_case(&r, it);
    for (int it = 0; it < 200; it++) cp += composite_case(&r, it);
    printf("opencl_post: %d/200 logits and %d/200 composite cases = the CPU backend\n", lg, cp);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return pft_summary("opencl_post");
}
