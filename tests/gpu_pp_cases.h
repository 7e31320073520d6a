/*
 * Random fused-preprocess cases shared by the GPU tests (emulated and on
 * a device): a plan description, a varshape batch of 1- and 3-channel u8
 * sources (some bottom-up), params from pf_aug_sample with every
 * transform on plus a random gamma, and a pitched tensor shape. The same
 * case number gives the same case everywhere.
 */
#ifndef PF_TESTS_GPU_PP_CASES_H
#define PF_TESTS_GPU_PP_CASES_H

#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "pixflow/video.h"
#include "test_util.h"

#define PP_MAX_BATCH 5
#define PP_CANARY 0xA5

static uint64_t g_seed;

static inline float frand(float lo, float hi) {
    return lo + (hi - lo) * (float)(pft_rand(&g_seed) % 1000001u) / 1000000.0f;
}

static inline pf_preprocess_desc random_desc(void) {
    static const pf_dtype dts[4] = {PF_F32, PF_F16, PF_BF16, PF_U8};
    static const pf_interp ips[6] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC,
                                     PF_INTERP_AREA, PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = pft_range(&g_seed, 1, 37);
    d.out_height = pft_range(&g_seed, 1, 29);
    d.out_channels = pft_range(&g_seed, 0, 3) == 0 ? 1 : 3;
    d.out_dtype = dts[pft_range(&g_seed, 0, 3)];
    d.out_layout = pft_range(&g_seed, 0, 1) ? PF_CHW : PF_HWC;
    d.interp = ips[pft_range(&g_seed, 0, 5)];
    d.antialias = pft_range(&g_seed, 0, 3) == 0;
    /* every third plan resizes as torchvision does (no AREA there; its
     * LANCZOS needs antialias) */
    if (pft_range(&g_seed, 0, 2) == 0) {
        d.flavor = PF_RESIZE_TORCHVISION;
        if (d.interp == PF_INTERP_AREA) d.interp = PF_INTERP_CUBIC;
        if (d.interp == PF_INTERP_LANCZOS4) d.antialias = true;
    }
    d.letterbox = pft_range(&g_seed, 0, 1);
    d.letterbox_align = pft_range(&g_seed, 0, 1) ? PF_LETTERBOX_CENTER : PF_LETTERBOX_TOP_LEFT;
    d.swap_rb = pft_range(&g_seed, 0, 1);
    d.scale = frand(0.001f, 0.02f);
    for (int c = 0; c < 4; c++) {
        d.pad_value[c] = (double)pft_range(&g_seed, 0, 255) + 0.5 * pft_range(&g_seed, 0, 1);
        d.mean[c] = frand(-1.0f, 1.0f);
        d.std[c] = frand(0.1f, 2.0f);
    }
    return d;
}

static inline pf_aug_policy random_policy(int affine_ok, int32_t ow, int32_t oh) {
    pf_aug_policy p = pf_aug_policy_defaults();
    p.random_resized_crop = pft_range(&g_seed, 0, 3) != 0;
    p.hflip_p = 0.5f;
    p.vflip_p = 0.5f;
    p.color_jitter = true;
    p.brightness[0] = 0.5f, p.brightness[1] = 1.5f;
    p.contrast[0] = 0.5f, p.contrast[1] = 1.5f;
    p.saturation[0] = 0.0f, p.saturation[1] = 2.0f;
    p.hue[0] = -0.5f, p.hue[1] = 0.5f;
    p.grayscale_p = 0.3f;
    p.random_affine = affine_ok && pft_range(&g_seed, 0, 1);
    p.degrees[0] = -40.0f, p.degrees[1] = 40.0f;
    p.translate[0] = 0.2f, p.translate[1] = 0.2f;
    p.scale_range[0] = 0.7f, p.scale_range[1] = 1.3f;
    p.shear[0] = -15.0f, p.shear[1] = 15.0f, p.shear[2] = -10.0f, p.shear[3] = 10.0f;
    p.affine_width = ow;
    p.affine_height = oh;
    return p;
}

/* A pitched tensor shape for the plan (padded rows, planes and samples;
 * data NULL); returns the bytes of its buffer. */
static inline size_t pp_tensor_for(const pf_preprocess_desc *d, int count, pf_tensor *t) {
    size_t es = pf_dtype_size(d->out_dtype);
    memset(t, 0, sizeof *t);
    t->n = count;
    t->channels = d->out_channels;
    t->height = d->out_height;
    t->width = d->out_width;
    t->dtype = d->out_dtype;
    t->layout = d->out_layout;
    ptrdiff_t row = (ptrdiff_t)(es * (size_t)d->out_width * (size_t)(d->out_layout == PF_HWC ? d->out_channels : 1));
    t->row_stride = row + (ptrdiff_t)es * pft_range(&g_seed, 0, 3);
    t->plane_stride =
        d->out_layout == PF_CHW ? t->row_stride * d->out_height + (ptrdiff_t)es * pft_range(&g_seed, 0, 2) : 0;
    ptrdiff_t sample = d->out_layout == PF_CHW ? t->plane_stride * d->out_channels : t->row_stride * d->out_height;
    t->sample_stride = sample + (ptrdiff_t)es * pft_range(&g_seed, 0, 4);
    return (size_t)t->sample_stride * (size_t)count;
}

typedef struct pp_case {
    pf_preprocess_desc d;
    int count;
    pf_image src[PP_MAX_BATCH];
    uint8_t *pix[PP_MAX_BATCH];
    size_t pix_bytes[PP_MAX_BATCH];
    ptrdiff_t pix_offset[PP_MAX_BATCH]; /* src[i].data - pix[i] */
    pf_aug_params params[PP_MAX_BATCH];
    pf_tensor t;                         /* data NULL: the caller's buffer */
    size_t total;                        /* bytes of the tensor buffer */
} pp_case;

/* Case k. copy_only: crops the plan keeps at their size and no affine
 * (the resize is a copy). */
static inline int pp_case_make(int k, int copy_only, pp_case *c) {
    memset(c, 0, sizeof *c);
    g_seed = 0x51ed2705ull * (uint64_t)(k + 1) + 12345u;
    pf_preprocess_desc d = random_desc();
    c->d = d;
    int affine_ok = !copy_only && (d.interp == PF_INTERP_NEAREST || d.interp == PF_INTERP_LINEAR ||
                                   d.interp == PF_INTERP_CUBIC);
    int count = pft_range(&g_seed, 1, PP_MAX_BATCH);
    c->count = count;
    int32_t ws[PP_MAX_BATCH], hs[PP_MAX_BATCH];
    for (int i = 0; i < count; i++) {
        int ch = pft_range(&g_seed, 0, 2) == 0 ? 1 : 3;
        int32_t w = copy_only ? d.out_width + pft_range(&g_seed, 0, 9) : pft_range(&g_seed, 1, 61);
        int32_t h = copy_only ? d.out_height + pft_range(&g_seed, 0, 9) : pft_range(&g_seed, 1, 47);
        ptrdiff_t stride = (ptrdiff_t)w * ch + pft_range(&g_seed, 0, 5);
        c->pix_bytes[i] = (size_t)stride * (size_t)h;
        c->pix[i] = malloc(c->pix_bytes[i]);
        if (c->pix[i] == NULL) return 1;
        for (size_t b = 0; b < c->pix_bytes[i]; b++) c->pix[i][b] = (uint8_t)pft_rand(&g_seed);
        c->src[i] = pf_image_hwc(c->pix[i], w, h, ch, PF_U8, stride);
        if (pft_range(&g_seed, 0, 3) == 0) {
            c->pix_offset[i] = stride * (h - 1);
            c->src[i].data = c->pix[i] + c->pix_offset[i];
            c->src[i].row_stride = -stride;
        }
        ws[i] = w;
        hs[i] = h;
    }
    pf_aug_policy pol = random_policy(affine_ok, d.out_width, d.out_height);
    if (pf_aug_sample(&pol, (uint64_t)k, 3, 100, count, ws, hs, c->params) != PF_OK) return 1;
    for (int i = 0; i < count; i++) {
        pf_aug_params *p = &c->params[i];
        if (pft_range(&g_seed, 0, 1)) p->gamma = frand(0.3f, 2.5f);
        if (pft_range(&g_seed, 0, 9) == 0) p->gamma = 2.0f; /* torch's exact special case */
        if (pft_range(&g_seed, 0, 7) == 0) *p = pf_aug_params_identity();
        if (copy_only) {
            p->affine = false;
            p->crop_w = d.out_width;
            p->crop_h = d.letterbox ? pft_range(&g_seed, 1, d.out_height) : d.out_height;
            p->crop_x = pft_range(&g_seed, 0, ws[i] - p->crop_w);
            p->crop_y = pft_range(&g_seed, 0, hs[i] - p->crop_h);
        }
        /* torchvision plans: resize-then-crop windows on some samples (also
         * windows of an unresized crop) */
        if (d.flavor == PF_RESIZE_TORCHVISION && !d.letterbox && !p->affine && pft_range(&g_seed, 0, 2) == 0) {
            p->resize_w = d.out_width + pft_range(&g_seed, 0, 12);
            p->resize_h = d.out_height + pft_range(&g_seed, 0, 12);
            if (copy_only) {
                p->crop_w = p->resize_w < ws[i] - p->crop_x ? p->resize_w : ws[i] - p->crop_x;
                p->crop_h = p->resize_h < hs[i] - p->crop_y ? p->resize_h : hs[i] - p->crop_y;
                p->resize_w = p->crop_w > d.out_width ? p->crop_w : d.out_width;
                p->resize_h = p->crop_h > d.out_height ? p->crop_h : d.out_height;
            }
            p->window_x = pft_range(&g_seed, 0, p->resize_w - d.out_width);
            p->window_y = pft_range(&g_seed, 0, p->resize_h - d.out_height);
        }
    }
    c->total = pp_tensor_for(&d, count, &c->t);
    return 0;
}

static inline void pp_case_free(pp_case *c) {
    for (int i = 0; i < c->count; i++) free(c->pix[i]);
    memset(c, 0, sizeof *c);
}

/* Bytes where a and b differ; *first gets the first (n when none). */
static inline size_t pp_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *first) {
    size_t diff = 0;
    *first = n;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (*first == n) *first = i;
            diff++;
        }
    return diff;
}

static inline void pp_case_describe(const pp_case *c, int k, size_t first, const char *prog) {
    const pf_preprocess_desc *d = &c->d;
    size_t s = first / (size_t)c->t.sample_stride;
    if (s >= (size_t)c->count) s = 0;
    fprintf(stderr,
            "case %d: first difference at byte %zu (sample %zu); out %dx%dx%d %s %s letterbox %d swap %d "
            "interp %d aa %d flavor %d, src %dx%dx%d, affine %d contrast %g; re-run: %s %d\n",
            k, first, s, (int)d->out_width, (int)d->out_height, (int)d->out_channels, pf_dtype_name(d->out_dtype),
            d->out_layout == PF_CHW ? "NCHW" : "NHWC", d->letterbox, d->swap_rb, (int)d->interp, d->antialias,
            (int)d->flavor, (int)c->src[s].width, (int)c->src[s].height, (int)c->src[s].channels, c->params[s].affine,
            (double)c->params[s].contrast, prog, k);
}

/* ------------------------------------------------ 4:2:0 frame batches */

typedef struct pp_yuv_case {
    pf_preprocess_desc d;
    int count;
    pf_yuv src[PP_MAX_BATCH];
    uint8_t *buf[PP_MAX_BATCH];          /* one contiguous frame each */
    size_t buf_bytes[PP_MAX_BATCH];
    pf_color_code codes[PP_MAX_BATCH];
    pf_color_opts opts[PP_MAX_BATCH];
    int use_opts;
    pf_aug_params params[PP_MAX_BATCH];
    pf_tensor t;
    size_t total;
} pp_yuv_case;

/* Case k: NV12 / NV21 / YV12 / I420 (RGB or BGR) and GRAY frames of even
 * random sizes with padded strides, BT.601 / BT.709 x limited / full per
 * frame (or opts NULL), params as pp_case_make's. */
static inline int pp_yuv_case_make(int k, pp_yuv_case *c) {
    static const pf_color_code codes[9] = {PF_COLOR_YUV2RGB_NV12, PF_COLOR_YUV2BGR_NV12, PF_COLOR_YUV2RGB_NV21,
                                           PF_COLOR_YUV2BGR_NV21, PF_COLOR_YUV2RGB_YV12, PF_COLOR_YUV2BGR_YV12,
                                           PF_COLOR_YUV2RGB_I420, PF_COLOR_YUV2BGR_I420, PF_COLOR_YUV2GRAY_420};
    memset(c, 0, sizeof *c);
    g_seed = 0x7f4a7c15ull * (uint64_t)(k + 1) + 777u;
    pf_preprocess_desc d = random_desc();
    c->d = d;
    int affine_ok = d.interp == PF_INTERP_NEAREST || d.interp == PF_INTERP_LINEAR || d.interp == PF_INTERP_CUBIC;
    int count = pft_range(&g_seed, 1, PP_MAX_BATCH);
    c->count = count;
    c->use_opts = pft_range(&g_seed, 0, 2) != 0;
    int32_t ws[PP_MAX_BATCH], hs[PP_MAX_BATCH];
    for (int i = 0; i < count; i++) {
        int32_t w = 2 * pft_range(&g_seed, 1, 32), h = 2 * pft_range(&g_seed, 1, 24);
        ptrdiff_t stride = w + 2 * pft_range(&g_seed, 0, 3);
        c->codes[i] = codes[pft_range(&g_seed, 0, 8)];
        c->opts[i].yuv_matrix = pft_range(&g_seed, 0, 1) ? PF_YUV_BT709 : PF_YUV_BT601;
        c->opts[i].yuv_range = pft_range(&g_seed, 0, 1) ? PF_YUV_FULL : PF_YUV_LIMITED;
        c->buf_bytes[i] = pf_yuv_frame_size(w, h, stride);
        c->buf[i] = malloc(c->buf_bytes[i]);
        if (c->buf[i] == NULL) return 1;
        for (size_t b = 0; b < c->buf_bytes[i]; b++) c->buf[i][b] = (uint8_t)pft_rand(&g_seed);
        int v = (int)c->codes[i];
        c->src[i] = v <= 93 || v == 106 ? pf_yuv_nv12(c->buf[i], w, h, stride)
                  : v == 98 || v == 99  ? pf_yuv_yv12(c->buf[i], w, h, stride)
                                        : pf_yuv_i420(c->buf[i], w, h, stride);
        ws[i] = w;
        hs[i] = h;
    }
    pf_aug_policy pol = random_policy(affine_ok, d.out_width, d.out_height);
    if (pf_aug_sample(&pol, (uint64_t)k, 5, 7, count, ws, hs, c->params) != PF_OK) return 1;
    for (int i = 0; i < count; i++) {
        if (pft_range(&g_seed, 0, 1)) c->params[i].gamma = frand(0.3f, 2.5f);
        if (pft_range(&g_seed, 0, 7) == 0) c->params[i] = pf_aug_params_identity();
    }
    c->total = pp_tensor_for(&d, count, &c->t);
    return 0;
}

static inline void pp_yuv_case_free(pp_yuv_case *c) {
    for (int i = 0; i < c->count; i++) free(c->buf[i]);
    memset(c, 0, sizeof *c);
}

/* The views of frame f (in buffer `from`) moved to buffer `to` on CUDA
 * device `device`. */
static inline void pp_view_move(pf_image *im, const uint8_t *from, uint8_t *to, int device) {
    if (im->data == NULL) return;
    im->data = to + ((const uint8_t *)im->data - from);
    im->mem = PF_MEM_CUDA;
    im->device = device;
}
static inline pf_yuv pp_yuv_moved(const pf_yuv *f, const uint8_t *from, uint8_t *to, int device) {
    pf_yuv m = *f;
    pp_view_move(&m.y, from, to, device);
    pp_view_move(&m.uv, from, to, device);
    pp_view_move(&m.u, from, to, device);
    pp_view_move(&m.v, from, to, device);
    return m;
}

#endif
