/*
 * pf_preprocess_run_yuv equals pf_cvt_color_from_yuv (the whole frame into
 * an RGB image) followed by pf_preprocess_run, bit for bit: random 4:2:0
 * frames (NV12, NV21, I420, YV12 views, GRAY), padded strides, random
 * matrices / ranges per frame, random crops (odd offsets and sizes
 * included), letterbox and plain resize, flips, colour jitter, affine,
 * f32 / u8 / f16, NCHW / NHWC, and NULL / 1 / 3-thread streams. Then the
 * argument checks: each message names the argument.
 */
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static uint64_t g_seed = 0x51ed270b27e1f00dull;

typedef struct frame_buf {
    unsigned char *mem;
    pf_yuv f;
} frame_buf;

/* A random frame of w x h with row padding; layout per code. */
static frame_buf make_frame(int w, int h, pf_color_code code) {
    frame_buf b;
    ptrdiff_t stride = w + (ptrdiff_t)pft_range(&g_seed, 0, 40) * 2;
    size_t bytes = pf_yuv_frame_size(w, h, stride);
    b.mem = malloc(bytes);
    for (size_t k = 0; k < bytes; k++) b.mem[k] = (unsigned char)pft_rand(&g_seed);
    int v = (int)code;
    if (v >= 90 && v <= 97) b.f = pf_yuv_nv12(b.mem, w, h, stride);
    else if (v == 98 || v == 99) b.f = pf_yuv_yv12(b.mem, w, h, stride);
    else b.f = pf_yuv_i420(b.mem, w, h, stride);
    return b;
}

static pf_aug_params random_params(int w, int h) {
    pf_aug_params p = pf_aug_params_identity();
    if (pft_range(&g_seed, 0, 2) > 0) {
        p.crop_w = pft_range(&g_seed, 1, w);
        p.crop_h = pft_range(&g_seed, 1, h);
        p.crop_x = pft_range(&g_seed, 0, w - p.crop_w);
        p.crop_y = pft_range(&g_seed, 0, h - p.crop_h);
    }
    p.flip_h = pft_range(&g_seed, 0, 1);
    p.flip_v = pft_range(&g_seed, 0, 3) == 0;
    if (pft_range(&g_seed, 0, 2) == 0) {
        p.brightness = 0.7f + (float)pft_range(&g_seed, 0, 60) / 100.0f;
        p.contrast = 0.8f + (float)pft_range(&g_seed, 0, 40) / 100.0f;
        p.saturation = 0.5f + (float)pft_range(&g_seed, 0, 100) / 100.0f;
        p.hue = (float)pft_range(&g_seed, -10, 10) / 100.0f;
    }
    if (pft_range(&g_seed, 0, 4) == 0) {
        p.affine = true;
        p.angle = (float)pft_range(&g_seed, -30, 30);
        p.scale = 0.9f + (float)pft_range(&g_seed, 0, 20) / 100.0f;
    }
    return p;
}

static const pf_color_code k_codes[] = {PF_COLOR_YUV2RGB_NV12, PF_COLOR_YUV2BGR_NV12, PF_COLOR_YUV2RGB_NV21,
                                        PF_COLOR_YUV2BGR_NV21, PF_COLOR_YUV2RGB_I420, PF_COLOR_YUV2BGR_I420,
                                        PF_COLOR_YUV2RGB_YV12, PF_COLOR_YUV2BGR_YV12, PF_COLOR_YUV2GRAY_420};

static void one_case(int iter, pf_stream *stream) {
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = pft_range(&g_seed, 8, 96);
    d.out_height = pft_range(&g_seed, 8, 96);
    d.letterbox = pft_range(&g_seed, 0, 1);
    d.letterbox_align = pft_range(&g_seed, 0, 1) ? PF_LETTERBOX_CENTER : PF_LETTERBOX_TOP_LEFT;
    d.pad_value[0] = d.pad_value[1] = d.pad_value[2] = 114;
    d.swap_rb = pft_range(&g_seed, 0, 1);
    d.interp = pft_range(&g_seed, 0, 1) ? PF_INTERP_LINEAR : PF_INTERP_NEAREST;
    int dt = pft_range(&g_seed, 0, 2);
    d.out_dtype = dt == 0 ? PF_F32 : dt == 1 ? PF_U8 : PF_F16;
    d.out_layout = pft_range(&g_seed, 0, 1) ? PF_CHW : PF_HWC;
    d.mean[0] = 0.485f, d.mean[1] = 0.456f, d.mean[2] = 0.406f;
    d.std[0] = 0.229f, d.std[1] = 0.224f, d.std[2] = 0.225f;
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    enum { N = 4 };
    frame_buf fb[N];
    pf_yuv frames[N];
    pf_color_code codes[N];
    pf_color_opts opts[N];
    pf_aug_params params[N];
    pf_image rgb[N];
    unsigned char *rgb_mem[N];
    for (int i = 0; i < N; i++) {
        int w = 2 * pft_range(&g_seed, 1, 90), h = 2 * pft_range(&g_seed, 1, 70);
        codes[i] = k_codes[pft_range(&g_seed, 0, (int)(sizeof k_codes / sizeof k_codes[0]) - 1)];
        fb[i] = make_frame(w, h, codes[i]);
        frames[i] = fb[i].f;
        opts[i] = pf_color_opts_defaults();
        opts[i].yuv_matrix = pft_range(&g_seed, 0, 1) ? PF_YUV_BT709 : PF_YUV_BT601;
        opts[i].yuv_range = pft_range(&g_seed, 0, 1) ? PF_YUV_FULL : PF_YUV_LIMITED;
        params[i] = random_params(w, h);
        int cn = codes[i] == PF_COLOR_YUV2GRAY_420 ? 1 : 3;
        rgb_mem[i] = malloc((size_t)w * h * cn);
        rgb[i] = pf_image_hwc(rgb_mem[i], w, h, cn, PF_U8, 0);
    }
    size_t bytes = pf_tensor_packed_size(N, 3, d.out_height, d.out_width, d.out_dtype);
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    memset(a, 0xA5, bytes);
    memset(b, 0x5A, bytes);
    pf_tensor ta = d.out_layout == PF_CHW ? pf_tensor_nchw(a, N, 3, d.out_height, d.out_width, d.out_dtype)
                                          : pf_tensor_nhwc(a, N, 3, d.out_height, d.out_width, d.out_dtype);
    pf_tensor tb = ta;
    tb.data = b;
    pf_letterbox_info ia[N], ib[N];
    /* the chain */
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &frames[0], &rgb[0], codes[0], &opts[0]), PF_OK);
    for (int i = 1; i < N; i++)
        CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &frames[i], &rgb[i], codes[i], &opts[i]), PF_OK);
    /* 1 or 2 samples on 3 threads: the banded schedule (conversion spread too) */
    int count = 1 + iter % N;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, count, rgb, params, &ta, ia), PF_OK);
    /* fused */
    CHECK_STATUS(pf_preprocess_run_yuv(plan, stream, count, frames, codes, opts, params, &tb, ib), PF_OK);
    int same = memcmp(a, b, bytes / N * (size_t)count) == 0 && memcmp(ia, ib, (size_t)count * sizeof ia[0]) == 0;
    if (!same)
        fprintf(stderr, "case %d: fused != chain (out %dx%d dtype %d layout %d letterbox %d, codes %d %d %d %d)\n",
                iter, d.out_width, d.out_height, (int)d.out_dtype, (int)d.out_layout, d.letterbox, codes[0],
                codes[1], codes[2], codes[3]);
    CHECK(same);
    for (int i = 0; i < N; i++) {
        free(fb[i].mem);
        free(rgb_mem[i]);
    }
    free(a);
    free(b);
    pf_preprocess_plan_destroy(plan);
}

static void bad_arguments(void) {
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = d.out_height = 16;
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    float out[3 * 16 * 16];
    pf_tensor t = pf_tensor_nchw(out, 1, 3, 16, 16, PF_F32);
    unsigned char mem[64 * 48 * 3 / 2];
    memset(mem, 128, sizeof mem);
    pf_yuv f = pf_yuv_nv12(mem, 64, 48, 0);
    pf_color_code code = PF_COLOR_YUV2RGB_NV12;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, NULL, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("codes");
    pf_color_code rgba = PF_COLOR_YUV2RGBA_NV12;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, &rgba, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("codes[0]");
    pf_yuv odd = pf_yuv_nv12(mem, 64, 48, 0);
    odd.y.width = 63;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &odd, &code, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].y");
    pf_yuv small_uv = f;
    small_uv.uv.width = 16;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &small_uv, &code, NULL, NULL, &t, NULL),
                 PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv");
    pf_color_code i420 = PF_COLOR_YUV2RGB_I420; /* the view has no u / v planes */
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, &i420, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].u");
    pf_color_opts bad = pf_color_opts_defaults();
    bad.yuv_range = (pf_yuv_range)7;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, &code, &bad, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts[0].yuv_range");
    pf_aug_params p = pf_aug_params_identity();
    p.crop_x = 40, p.crop_y = 0, p.crop_w = 30, p.crop_h = 10;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, &code, NULL, &p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_preprocess_run_yuv: params[0] crop");
    /* a source plane inside the tensor being written */
    pf_yuv inside = pf_yuv_nv12(out, 16, 16, 0);
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &inside, &code, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlaps");
    pf_tensor wrong = pf_tensor_nchw(out, 1, 3, 8, 32, PF_F32);
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, &code, NULL, NULL, &wrong, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_preprocess_run_yuv: dst");
    CHECK_STATUS(pf_preprocess_run_yuv(NULL, NULL, 1, &f, &code, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("plan");
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 0, NULL, NULL, NULL, NULL, &t, NULL), PF_OK);
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &f, &code, NULL, NULL, &t, NULL), PF_OK);
    pf_preprocess_plan_destroy(plan);
}

int main(void) {
    pf_stream *s1 = NULL, *s3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(1, &s1), PF_OK);
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);
    for (int iter = 0; iter < 120; iter++) one_case(iter, iter % 3 == 0 ? NULL : iter % 3 == 1 ? s1 : s3);
    bad_arguments();
    pf_stream_destroy(s1);
    pf_stream_destroy(s3);
    return pft_summary("video_preprocess");
}
