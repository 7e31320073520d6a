/* The fused-preprocess and post-processing cases of the device bench
 * (bench_device.h): pf_preprocess_run (imagenet-train recipe, sampled
 * crops and flips), pf_preprocess_run_yuv (NV12 -> yolo letterbox f16),
 * pf_nms (per class), pf_masks_from_logits (argmax) and pf_composite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"

/* ---- pf_preprocess_run: N x 500x375 u8 RGB -> N x 3 x 224 x 224 f32 */

enum { PP_W = 500, PP_H = 375, PP_O = 224 };

typedef struct pp_state {
    pf_preprocess_plan *plan;
    pf_aug_params *params;
    int n;
} pp_state;

static void pp_teardown(bd_case *c) {
    pp_state *p = c->state;
    if (p == NULL) return;
    pf_preprocess_plan_destroy(p->plan);
    free(p->params);
    free(p);
    c->state = NULL;
}

static int pp_setup(bd_case *c) {
    pp_state *p = calloc(1, sizeof *p);
    if (p == NULL) return -1;
    c->state = p;
    p->n = c->quick ? 8 : 32;
    snprintf(c->size, sizeof c->size, "%d x %dx%d -> %d", p->n, PP_W, PP_H, PP_O);
    p->params = calloc((size_t)p->n, sizeof *p->params);
    int32_t ws[64], hs[64];
    for (int i = 0; i < p->n; i++) ws[i] = PP_W, hs[i] = PP_H;
    pf_preprocess_desc d;
    pf_aug_policy pol;
    if (p->params == NULL || pf_recipe("imagenet-train", &d, &pol) != PF_OK ||
        pf_aug_sample(&pol, 42, 0, 0, p->n, ws, hs, p->params) != PF_OK || pf_preprocess_plan_create(&d, &p->plan) != PF_OK)
        return -1;
    if (bd_add(c, (size_t)PP_W * PP_H * 3 * (size_t)p->n, 0) == NULL) return -1;
    return bd_add(c, pf_tensor_packed_size(p->n, 3, PP_O, PP_O, PF_F32), 1) ? 0 : -1;
}

static pf_status pp_run(bd_case *c, pf_stream *s, int dev) {
    pp_state *p = c->state;
    pf_image v[64];
    uint8_t *base = bd_ptr(c, 0, dev);
    for (int i = 0; i < p->n; i++) {
        v[i] = pf_image_hwc(base + (size_t)i * PP_W * PP_H * 3, PP_W, PP_H, 3, PF_U8, 0);
        if (dev) v[i].mem = c->mem, v[i].device = c->index;
    }
    pf_tensor t = pf_tensor_nchw(bd_ptr(c, 1, dev), p->n, 3, PP_O, PP_O, PF_F32);
    if (dev) t.mem = c->mem, t.device = c->index;
    return pf_preprocess_run(p->plan, s, p->n, v, p->params, &t, NULL);
}

/* ---- pf_preprocess_run_yuv: one NV12 frame -> 640x640 letterbox NCHW f16 */

enum { YO = 640 };

static int32_t yw(const bd_case *c) { return c->quick ? 960 : 1920; }
static int32_t yh(const bd_case *c) { return c->quick ? 540 : 1080; }

static int ppy_setup(bd_case *c) {
    pp_state *p = calloc(1, sizeof *p);
    if (p == NULL) return -1;
    c->state = p;
    p->n = 1;
    snprintf(c->size, sizeof c->size, "%dx%d -> %d", (int)yw(c), (int)yh(c), YO);
    pf_preprocess_desc d;
    if (pf_recipe("yolo", &d, NULL) != PF_OK) return -1;
    d.out_dtype = PF_F16;
    if (pf_preprocess_plan_create(&d, &p->plan) != PF_OK) return -1;
    if (bd_add(c, pf_yuv_frame_size(yw(c), yh(c), yw(c)), 0) == NULL) return -1;
    return bd_add(c, pf_tensor_packed_size(1, 3, YO, YO, PF_F16), 1) ? 0 : -1;
}

static pf_status ppy_run(bd_case *c, pf_stream *s, int dev) {
    pp_state *p = c->state;
    pf_yuv f = pf_yuv_nv12(bd_ptr(c, 0, dev), yw(c), yh(c), yw(c));
    if (dev) {
        f.y.mem = f.uv.mem = c->mem;
        f.y.device = f.uv.device = c->index;
    }
    pf_tensor t = pf_tensor_nchw(bd_ptr(c, 1, dev), 1, 3, YO, YO, PF_F16);
    if (dev) t.mem = c->mem, t.device = c->index;
    pf_color_code code = PF_COLOR_YUV2RGB_NV12;
    return pf_preprocess_run_yuv(p->plan, s, 1, &f, &code, NULL, NULL, &t, NULL);
}

/* ---- pf_nms: S samples of B boxes in 20 classes, torchvision semantics */

typedef struct nms_state {
    int count, n;
    int64_t capacity;
} nms_state;

static uint32_t lcg(uint32_t *r) {
    *r = *r * 1664525u + 1013904223u;
    return *r >> 8;
}

static void nms_samples(const bd_case *c, int dev, pf_nms_sample smp[]) {
    const nms_state *p = c->state;
    const float *boxes = bd_ptr(c, 0, dev), *scores = bd_ptr(c, 1, dev);
    const int32_t *classes = bd_ptr(c, 2, dev);
    for (int i = 0; i < p->count; i++)
        smp[i] = (pf_nms_sample){boxes + (size_t)i * (size_t)p->n * 4, scores + (size_t)i * (size_t)p->n,
                                 classes + (size_t)i * (size_t)p->n, p->n};
}

static void nms_teardown(bd_case *c) {
    free(c->state);
    c->state = NULL;
}

static int nms_setup(bd_case *c) {
    nms_state *p = calloc(1, sizeof *p);
    if (p == NULL) return -1;
    c->state = p;
    p->count = c->quick ? 2 : 8;
    p->n = c->quick ? 1000 : 4000;
    snprintf(c->size, sizeof c->size, "%d x %d boxes", p->count, p->n);
    size_t total = (size_t)p->count * (size_t)p->n;
    float *b = (float *)(void *)bd_add(c, total * 4 * sizeof(float), 0);
    float *sc = b ? (float *)(void *)bd_add(c, total * sizeof(float), 0) : NULL;
    int32_t *cl = sc ? (int32_t *)(void *)bd_add(c, total * sizeof(int32_t), 0) : NULL;
    if (cl == NULL) return -1;
    uint32_t r = 12345;
    for (size_t i = 0; i < total; i++) {
        float x = (float)(lcg(&r) % 1200), y = (float)(lcg(&r) % 700);
        float w = 20 + (float)(lcg(&r) % 100), h = 20 + (float)(lcg(&r) % 100);
        b[4 * i] = x, b[4 * i + 1] = y, b[4 * i + 2] = x + w, b[4 * i + 3] = y + h;
        sc[i] = (float)(lcg(&r) % 100000) / 100000.0f;
        cl[i] = (int32_t)(lcg(&r) % 20);
    }
    pf_nms_sample smp[16];
    nms_samples(c, 0, smp);
    pf_nms_opts o = pf_nms_opts_defaults();
    if (pf_nms_capacity(p->count, smp, &o, &p->capacity) != PF_OK) return -1;
    if (bd_add(c, (size_t)(p->count + 1) * sizeof(int64_t), 1) == NULL) return -1;
    return bd_add(c, (size_t)p->capacity * sizeof(int32_t), 1) ? 0 : -1;
}

static pf_status nms_run(bd_case *c, pf_stream *s, int dev) {
    nms_state *p = c->state;
    pf_nms_sample smp[16];
    nms_samples(c, dev, smp);
    pf_nms_opts o = pf_nms_opts_defaults();
    return pf_nms(s, p->count, smp, &o, bd_ptr(c, 3, dev), bd_ptr(c, 4, dev), p->capacity, NULL);
}

/* The offsets, then the keep lists they delimit (the rest of keep is not
 * written by contract); offsets that differ count as all their bytes. */
static size_t nms_differs(const bd_case *c, uint8_t *const back[], size_t *total) {
    const nms_state *p = c->state;
    size_t ob = (size_t)(p->count + 1) * sizeof(int64_t);
    *total = ob;
    if (memcmp(back[3], c->buf[3].host, ob) != 0) return ob;
    int64_t kept;
    memcpy(&kept, c->buf[3].host + (size_t)p->count * sizeof(int64_t), sizeof kept);
    size_t kb = (size_t)kept * sizeof(int32_t), diff = 0;
    *total += kb;
    for (size_t k = 0; k < kb; k++) diff += back[4][k] != c->buf[4].host[k];
    return diff;
}

/* ---- pf_masks_from_logits: N x 21 x H x W f32 logits -> argmax u8 */

enum { MC = 21 };
static int32_t mn(const bd_case *c) { return c->quick ? 1 : 2; }
static int32_t ms(const bd_case *c) { return c->quick ? 256 : 512; }

static int masks_setup(bd_case *c) {
    snprintf(c->size, sizeof c->size, "%d x %d x %dx%d", (int)mn(c), MC, (int)ms(c), (int)ms(c));
    size_t n = (size_t)mn(c) * MC * (size_t)ms(c) * (size_t)ms(c);
    float *l = (float *)(void *)bd_add(c, n * sizeof(float), 0);
    if (l == NULL) return -1;
    uint32_t r = 777;
    for (size_t i = 0; i < n; i++) l[i] = (float)((int32_t)(lcg(&r) % 20001) - 10000) / 1000.0f;
    return bd_add(c, (size_t)mn(c) * (size_t)ms(c) * (size_t)ms(c), 1) ? 0 : -1;
}

static pf_status masks_run(bd_case *c, pf_stream *s, int dev) {
    pf_mask_opts o = pf_mask_opts_defaults();
    return pf_masks_from_logits(s, bd_ptr(c, 0, dev), mn(c), MC, ms(c), ms(c), bd_ptr(c, 1, dev), &o);
}

/* ---- pf_composite: fg over bg by a mask, u8 RGB */

static int comp_setup(bd_case *c) {
    int32_t w = yw(c), h = yh(c);
    snprintf(c->size, sizeof c->size, "%dx%d", (int)w, (int)h);
    size_t px = (size_t)w * (size_t)h;
    if (bd_add(c, px * 3, 0) == NULL || bd_add(c, px * 3, 0) == NULL || bd_add(c, px, 0) == NULL) return -1;
    return bd_add(c, px * 3, 1) ? 0 : -1;
}

static pf_status comp_run(bd_case *c, pf_stream *s, int dev) {
    int32_t w = yw(c), h = yh(c);
    pf_image fg = bd_img(c, 0, dev, w, h, 3, PF_U8, PF_HWC), bg = bd_img(c, 1, dev, w, h, 3, PF_U8, PF_HWC);
    pf_image m = bd_img(c, 2, dev, w, h, 1, PF_U8, PF_HWC), d = bd_img(c, 3, dev, w, h, 3, PF_U8, PF_HWC);
    return pf_composite(s, 1, &fg, &bg, &m, &d);
}

const bd_op bd_pp_ops[] = {
    {"preprocess", "imagenet-train -> NCHW f32", pp_setup, pp_run, pp_teardown, NULL},
    {"preprocess", "NV12 yolo letterbox -> f16", ppy_setup, ppy_run, pp_teardown, NULL},
    {"post", "nms torchvision per class", nms_setup, nms_run, nms_teardown, nms_differs},
    {"post", "masks_from_logits argmax", masks_setup, masks_run, NULL, NULL},
    {"post", "composite u8 RGB", comp_setup, comp_run, NULL, NULL},
};
const int bd_pp_op_count = (int)(sizeof bd_pp_ops / sizeof bd_pp_ops[0]);
