/* GPU benchmarks of the fused preprocess (issue 8 targets), public API
 * only. Inputs are already on the GPU; times are CUDA event medians.
 *   1. batch 256 of 500x375 u8 RGB -> 224x224 NCHW f32 normalized:
 *      eval (whole image) and train (RandomResizedCrop + flip params);
 *   2. one 1920x1080 NV12 frame -> 640x640 letterbox (pad 114) NCHW f16:
 *      pf_preprocess_run_yuv on the device when the backend has it, else
 *      pf_cvt_color_from_yuv + pf_preprocess_run (two launches).
 * Every timed configuration is also checked against the CPU path (bit for
 * bit) on a few samples, so a fast wrong kernel cannot report a number.
 * Exits 77 without a GPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"

#define ITERS 30

static int cmp_f(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint8_t rnd8(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint8_t)((rng * 2685821657736338717ull) >> 56);
}

#define TRY(x)                                                                    \
    do {                                                                          \
        pf_status st_ = (x);                                                      \
        if (st_ != PF_OK) {                                                       \
            printf("| %s | failed: %s: %s |\n", label, #x, pf_last_error());     \
            goto done;                                                            \
        }                                                                         \
    } while (0)

/* Smooth random content (noise plus gradients): timing does not depend on
 * it, but the correctness check should not pass on flat images. */
static void fill_image(uint8_t *p, int w, int h, int c) {
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w * c; x++) p[(size_t)y * (size_t)(w * c) + (size_t)x] = (uint8_t)((x + 3 * y) / 4 + (rnd8() & 15));
}

static void bench_batch(pf_device *gpu, pf_stream *s, int train) {
    enum { N = 256, SW = 500, SH = 375, OW = 224, OH = 224 };
    const char *label = train ? "preprocess train (RRC+flip) b256 500x375 -> 224 NCHW f32"
                              : "preprocess eval b256 500x375 -> 224 NCHW f32";
    size_t img_bytes = (size_t)SW * SH * 3, out_bytes = pf_tensor_packed_size(N, 3, OH, OW, PF_F32);
    uint8_t *host = malloc(img_bytes * N), *dsrc = NULL;
    float *dout = NULL, *hout = malloc(out_bytes), *ref = malloc(out_bytes / N);
    pf_image *views = calloc(N, sizeof *views), *hviews = calloc(N, sizeof *hviews);
    pf_aug_params *params = calloc(N, sizeof *params);
    pf_preprocess_plan *plan = NULL;
    pf_event *e0 = NULL, *e1 = NULL;
    if (!host || !hout || !ref || !views || !hviews || !params) {
        printf("| %s | out of host memory |\n", label);
        goto done;
    }
    fill_image(host, SW, SH * N, 3);
    TRY(pf_malloc(gpu, PF_ALLOC_DEVICE, img_bytes * N, (void **)&dsrc));
    TRY(pf_malloc(gpu, PF_ALLOC_DEVICE, out_bytes, (void **)&dout));
    TRY(pf_memcpy_async(s, dsrc, host, img_bytes * N));
    int32_t ws[N], hs[N];
    for (int i = 0; i < N; i++) {
        views[i] = pf_image_hwc(dsrc + (size_t)i * img_bytes, SW, SH, 3, PF_U8, 0);
        views[i].mem = PF_MEM_CUDA;
        views[i].device = 0;
        hviews[i] = pf_image_hwc(host + (size_t)i * img_bytes, SW, SH, 3, PF_U8, 0);
        ws[i] = SW;
        hs[i] = SH;
    }
    pf_preprocess_desc d;
    pf_aug_policy pol;
    TRY(pf_recipe("imagenet-train", &d, &pol));
    if (train)
        TRY(pf_aug_sample(&pol, 42, 0, 0, N, ws, hs, params));
    else
        for (int i = 0; i < N; i++) params[i] = pf_aug_params_identity();
    TRY(pf_preprocess_plan_create(&d, &plan));
    pf_tensor t = pf_tensor_nchw(dout, N, 3, OH, OW, PF_F32);
    t.mem = PF_MEM_CUDA;
    TRY(pf_event_create(gpu, &e0));
    TRY(pf_event_create(gpu, &e1));
    for (int w = 0; w < 3; w++) TRY(pf_preprocess_run(plan, s, N, views, params, &t, NULL));
    TRY(pf_stream_synchronize(s));
    float ms[ITERS];
    for (int it = 0; it < ITERS; it++) {
        TRY(pf_event_record(e0, s));
        TRY(pf_preprocess_run(plan, s, N, views, params, &t, NULL));
        TRY(pf_event_record(e1, s));
        TRY(pf_event_synchronize(e1));
        TRY(pf_event_elapsed_ms(e0, e1, &ms[it]));
    }
    qsort(ms, ITERS, sizeof ms[0], cmp_f);
    /* check: samples 0, 1, 77, 255 against the CPU */
    TRY(pf_memcpy_async(s, hout, dout, out_bytes));
    TRY(pf_stream_synchronize(s));
    int idx[4] = {0, 1, 77, 255}, same = 1;
    for (int k = 0; k < 4; k++) {
        pf_tensor one = pf_tensor_nchw(ref, 1, 3, OH, OW, PF_F32);
        TRY(pf_preprocess_run(plan, NULL, 1, &hviews[idx[k]], &params[idx[k]], &one, NULL));
        same &= memcmp(ref, (char *)hout + (size_t)idx[k] * (out_bytes / N), out_bytes / N) == 0;
    }
    double med = (double)ms[ITERS / 2];
    printf("| %s | %.3f ms | %.0f images/s | %s |\n", label, med, N / (med / 1e3),
           same ? "bit-identical to CPU" : "DIFFERS FROM CPU");
done:
    pf_event_destroy(e0);
    pf_event_destroy(e1);
    pf_preprocess_plan_destroy(plan);
    pf_free(gpu, PF_ALLOC_DEVICE, dsrc);
    pf_free(gpu, PF_ALLOC_DEVICE, dout);
    free(host);
    free(hout);
    free(ref);
    free(views);
    free(hviews);
    free(params);
}

static void bench_letterbox(pf_device *gpu, pf_stream *s) {
    enum { W = 1920, H = 1080, O = 640 };
    const char *label = "letterbox 1080p NV12 -> 640x640 NCHW f16, batch 1";
    size_t frame = pf_yuv_frame_size(W, H, W), out_bytes = pf_tensor_packed_size(1, 3, O, O, PF_F16);
    size_t rgb_bytes = (size_t)W * H * 3;
    uint8_t *host = malloc(frame), *dframe = NULL, *drgb = NULL;
    uint16_t *dout = NULL, *hout = malloc(out_bytes), *ref = malloc(out_bytes);
    pf_preprocess_plan *plan = NULL;
    pf_event *e0 = NULL, *e1 = NULL;
    const char *how = "pf_preprocess_run_yuv";
    if (!host || !hout || !ref) goto done;
    fill_image(host, W, H * 3 / 2, 1);
    TRY(pf_malloc(gpu, PF_ALLOC_DEVICE, frame, (void **)&dframe));
    TRY(pf_malloc(gpu, PF_ALLOC_DEVICE, rgb_bytes, (void **)&drgb));
    TRY(pf_malloc(gpu, PF_ALLOC_DEVICE, out_bytes, (void **)&dout));
    TRY(pf_memcpy_async(s, dframe, host, frame));
    pf_yuv y = pf_yuv_nv12(dframe, W, H, W), hy = pf_yuv_nv12(host, W, H, W);
    pf_preprocess_desc d;
    TRY(pf_recipe("yolo", &d, NULL));
    d.out_dtype = PF_F16;
    TRY(pf_preprocess_plan_create(&d, &plan));
    pf_tensor t = pf_tensor_nchw(dout, 1, 3, O, O, PF_F16);
    t.mem = PF_MEM_CUDA;
    pf_color_code code = PF_COLOR_YUV2RGB_NV12;
    pf_image rgb = pf_image_hwc(drgb, W, H, 3, PF_U8, 0);
    rgb.mem = PF_MEM_CUDA;
    pf_yuv dy = y; /* device frame: each plane view says where it lives */
    dy.y.mem = dy.uv.mem = PF_MEM_CUDA;
    int fused = pf_preprocess_run_yuv(plan, s, 1, &dy, &code, NULL, NULL, &t, NULL) == PF_OK;
    if (!fused) how = "pf_cvt_color_from_yuv + pf_preprocess_run";
    TRY(pf_event_create(gpu, &e0));
    TRY(pf_event_create(gpu, &e1));
    float ms[ITERS];
    for (int it = -3; it < ITERS; it++) {
        TRY(pf_event_record(e0, s));
        if (fused) {
            TRY(pf_preprocess_run_yuv(plan, s, 1, &dy, &code, NULL, NULL, &t, NULL));
        } else {
            TRY(pf_cvt_color_from_yuv(s, 1, &dy, &rgb, code, NULL));
            TRY(pf_preprocess_run(plan, s, 1, &rgb, NULL, &t, NULL));
        }
        TRY(pf_event_record(e1, s));
        TRY(pf_event_synchronize(e1));
        if (it >= 0) TRY(pf_event_elapsed_ms(e0, e1, &ms[it]));
    }
    qsort(ms, ITERS, sizeof ms[0], cmp_f);
    TRY(pf_memcpy_async(s, hout, dout, out_bytes));
    TRY(pf_stream_synchronize(s));
    pf_tensor rt = pf_tensor_nchw(ref, 1, 3, O, O, PF_F16);
    TRY(pf_preprocess_run_yuv(plan, NULL, 1, &hy, &code, NULL, NULL, &rt, NULL));
    int same = memcmp(ref, hout, out_bytes) == 0;
    double med = (double)ms[ITERS / 2];
    printf("| %s (%s) | %.1f us | target < 100 us | %s |\n", label, how, med * 1e3,
           same ? "bit-identical to CPU" : "DIFFERS FROM CPU");
done:
    pf_event_destroy(e0);
    pf_event_destroy(e1);
    pf_preprocess_plan_destroy(plan);
    pf_free(gpu, PF_ALLOC_DEVICE, dframe);
    pf_free(gpu, PF_ALLOC_DEVICE, drgb);
    pf_free(gpu, PF_ALLOC_DEVICE, dout);
    free(host);
    free(hout);
    free(ref);
}

int main(void) {
    int n = 0;
    if (pf_device_count(PF_DEVICE_CUDA, &n) != PF_OK || n == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    pf_device *gpu;
    pf_stream *s;
    if (pf_device_open(PF_DEVICE_CUDA, 0, &gpu) != PF_OK || pf_stream_create(gpu, &s) != PF_OK) {
        printf("cannot open CUDA device 0: %s\n", pf_last_error());
        return 1;
    }
    pf_device_props p;
    (void)pf_device_props_get(gpu, &p);
    printf("fused preprocess on %s (timed with CUDA events, median of %d)\n\n", p.name, ITERS);
    printf("| workload | median | throughput | check |\n| --- | --- | --- | --- |\n");
    bench_batch(gpu, s, 0);
    bench_batch(gpu, s, 1);
    bench_letterbox(gpu, s);
    pf_stream_destroy(s);
    pf_device_close(gpu);
    return 0;
}
