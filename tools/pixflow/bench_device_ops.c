/* The image-op cases of the device bench (bench_device.h): resize (every
 * mode and flavour the device backends route), cvt_color, 4:2:0 -> RGB,
 * flip, warp affine / perspective, convert / reformat / normalize. Source
 * 1920x1080 u8 RGB (--quick: 960x540). */
#include <stdio.h>

#include "bench_device.h"

static int32_t src_w(const bd_case *c) { return c->quick ? 960 : 1920; }
static int32_t src_h(const bd_case *c) { return c->quick ? 540 : 1080; }

/* buffer 0: the u8 source (w x h x sc), buffer 1: the output */
static int two_bufs(bd_case *c, int32_t sc, int32_t dw, int32_t dh, int32_t dc, pf_dtype ddt) {
    int32_t w = src_w(c), h = src_h(c);
    snprintf(c->size, sizeof c->size, "%dx%d -> %dx%d", (int)w, (int)h, (int)dw, (int)dh);
    if (bd_add(c, (size_t)w * (size_t)h * (size_t)sc, 0) == NULL) return -1;
    return bd_add(c, (size_t)dw * (size_t)dh * (size_t)dc * pf_dtype_size(ddt), 1) ? 0 : -1;
}

static pf_image src_rgb(const bd_case *c, int dev) { return bd_img(c, 0, dev, src_w(c), src_h(c), 3, PF_U8, PF_HWC); }

/* ---- resize: 1080p -> 640x360 (quick: 540p -> 320x180), u8 RGB */

static int resize_setup(bd_case *c) { return two_bufs(c, 3, src_w(c) / 3, src_h(c) / 3, 3, PF_U8); }

static pf_status resize_with(bd_case *c, pf_stream *s, int dev, pf_interp interp, int aa, pf_resize_flavor fl) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c) / 3, src_h(c) / 3, 3, PF_U8, PF_HWC);
    pf_resize_opts o = pf_resize_opts_defaults();
    o.interp = interp;
    o.antialias = aa != 0;
    o.flavor = fl;
    return pf_resize(s, 1, &a, &b, &o);
}

#define RESIZE_CASE(fn, interp, aa, fl) \
    static pf_status fn(bd_case *c, pf_stream *s, int dev) { return resize_with(c, s, dev, interp, aa, fl); }
RESIZE_CASE(rs_nearest, PF_INTERP_NEAREST, 0, PF_RESIZE_OPENCV)
RESIZE_CASE(rs_linear, PF_INTERP_LINEAR, 0, PF_RESIZE_OPENCV)
RESIZE_CASE(rs_cubic, PF_INTERP_CUBIC, 0, PF_RESIZE_OPENCV)
RESIZE_CASE(rs_area, PF_INTERP_AREA, 0, PF_RESIZE_OPENCV)
RESIZE_CASE(rs_lanczos, PF_INTERP_LANCZOS4, 0, PF_RESIZE_OPENCV)
RESIZE_CASE(rs_pillow, PF_INTERP_LINEAR, 1, PF_RESIZE_PILLOW)
RESIZE_CASE(rs_tv, PF_INTERP_LINEAR, 1, PF_RESIZE_TORCHVISION)

/* ---- cvt_color, u8 RGB 1080p */

static int color3_setup(bd_case *c) { return two_bufs(c, 3, src_w(c), src_h(c), 3, PF_U8); }
static int color1_setup(bd_case *c) { return two_bufs(c, 3, src_w(c), src_h(c), 1, PF_U8); }

static pf_status color_with(bd_case *c, pf_stream *s, int dev, pf_color_code code, int32_t dc) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), dc, PF_U8, PF_HWC);
    return pf_cvt_color(s, 1, &a, &b, code, NULL);
}
static pf_status col_gray(bd_case *c, pf_stream *s, int dev) { return color_with(c, s, dev, PF_COLOR_RGB2GRAY, 1); }
static pf_status col_bgr(bd_case *c, pf_stream *s, int dev) { return color_with(c, s, dev, PF_COLOR_RGB2BGR, 3); }
static pf_status col_hsv(bd_case *c, pf_stream *s, int dev) { return color_with(c, s, dev, PF_COLOR_RGB2HSV, 3); }

/* ---- 4:2:0 -> RGB: one frame buffer (w x h*3/2), u8 RGB out */

static int yuv_setup(bd_case *c) {
    int32_t w = src_w(c), h = src_h(c);
    snprintf(c->size, sizeof c->size, "%dx%d", (int)w, (int)h);
    if (bd_add(c, pf_yuv_frame_size(w, h, w), 0) == NULL) return -1;
    return bd_add(c, (size_t)w * (size_t)h * 3, 1) ? 0 : -1;
}

static pf_yuv on_side(const bd_case *c, pf_yuv f, int dev) {
    pf_image *planes[4] = {&f.y, &f.uv, &f.u, &f.v};
    for (int p = 0; dev && p < 4; p++)
        if (planes[p]->data != NULL) planes[p]->mem = c->mem, planes[p]->device = c->index;
    return f;
}

static pf_status yuv_nv12(bd_case *c, pf_stream *s, int dev) {
    pf_yuv f = on_side(c, pf_yuv_nv12(bd_ptr(c, 0, dev), src_w(c), src_h(c), src_w(c)), dev);
    pf_image b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_U8, PF_HWC);
    return pf_cvt_color_from_yuv(s, 1, &f, &b, PF_COLOR_YUV2RGB_NV12, NULL);
}
static pf_status yuv_i420(bd_case *c, pf_stream *s, int dev) {
    pf_yuv f = on_side(c, pf_yuv_i420(bd_ptr(c, 0, dev), src_w(c), src_h(c), src_w(c)), dev);
    pf_image b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_U8, PF_HWC);
    return pf_cvt_color_from_yuv(s, 1, &f, &b, PF_COLOR_YUV2RGB_I420, NULL);
}

/* ---- flip */

static pf_status flip_with(bd_case *c, pf_stream *s, int dev, pf_flip_code code) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_U8, PF_HWC);
    return pf_flip(s, 1, &a, &b, &code, 1);
}
static pf_status flip_h(bd_case *c, pf_stream *s, int dev) { return flip_with(c, s, dev, PF_FLIP_HORIZONTAL); }
static pf_status flip_v(bd_case *c, pf_stream *s, int dev) { return flip_with(c, s, dev, PF_FLIP_VERTICAL); }
static pf_status flip_b(bd_case *c, pf_stream *s, int dev) { return flip_with(c, s, dev, PF_FLIP_BOTH); }

/* ---- warp: a rotation + scale about the centre, bilinear, constant border */

static pf_status warp_with(bd_case *c, pf_stream *s, int dev, int persp) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_U8, PF_HWC);
    double cx = src_w(c) / 2.0, cy = src_h(c) / 2.0, ca = 0.9 * 0.96592582628, sa = 0.9 * 0.2588190451;
    double m[9] = {ca, sa, (1 - ca) * cx - sa * cy, -sa, ca, sa * cx + (1 - ca) * cy, 2e-5, -1e-5, 1};
    pf_warp_opts o = pf_warp_opts_defaults();
    return persp ? pf_warp_perspective(s, 1, &a, &b, m, 1, &o) : pf_warp_affine(s, 1, &a, &b, m, 1, &o);
}
static pf_status warp_aff(bd_case *c, pf_stream *s, int dev) { return warp_with(c, s, dev, 0); }
static pf_status warp_per(bd_case *c, pf_stream *s, int dev) { return warp_with(c, s, dev, 1); }

/* ---- convert / reformat / normalize: u8 RGB HWC -> f32 (or u8) CHW */

static int f32_setup(bd_case *c) { return two_bufs(c, 3, src_w(c), src_h(c), 3, PF_F32); }

static pf_status cvt_f32(bd_case *c, pf_stream *s, int dev) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_F32, PF_HWC);
    pf_convert_opts o = pf_convert_opts_defaults();
    o.alpha = 1.0 / 255.0;
    return pf_convert(s, 1, &a, &b, &o);
}
static pf_status reformat_chw(bd_case *c, pf_stream *s, int dev) {
    static const int8_t bgr[4] = {2, 1, 0, 3};
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_U8, PF_CHW);
    return pf_reformat(s, 1, &a, &b, bgr, 0);
}
static pf_status norm_meanstd(bd_case *c, pf_stream *s, int dev) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_F32, PF_CHW);
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.scale = 1.0f / 255.0f;
    const float mean[3] = {0.485f, 0.456f, 0.406f}, sd[3] = {0.229f, 0.224f, 0.225f};
    for (int k = 0; k < 3; k++) o.params.mean[k] = mean[k], o.params.std[k] = sd[k];
    return pf_normalize(s, 1, &a, &b, &o);
}
static pf_status norm_minmax(bd_case *c, pf_stream *s, int dev) {
    pf_image a = src_rgb(c, dev), b = bd_img(c, 1, dev, src_w(c), src_h(c), 3, PF_F32, PF_CHW);
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.mode = PF_NORM_MINMAX;
    o.lo = -1;
    o.hi = 1;
    return pf_normalize(s, 1, &a, &b, &o);
}
static int u8chw_setup(bd_case *c) { return two_bufs(c, 3, src_w(c), src_h(c), 3, PF_U8); }

const bd_op bd_image_ops[] = {
    {"resize", "nearest u8 RGB", resize_setup, rs_nearest, NULL, NULL},
    {"resize", "linear u8 RGB", resize_setup, rs_linear, NULL, NULL},
    {"resize", "cubic u8 RGB", resize_setup, rs_cubic, NULL, NULL},
    {"resize", "area u8 RGB", resize_setup, rs_area, NULL, NULL},
    {"resize", "lanczos4 u8 RGB", resize_setup, rs_lanczos, NULL, NULL},
    {"resize", "pillow bilinear (aa) u8", resize_setup, rs_pillow, NULL, NULL},
    {"resize", "torchvision bilinear aa u8", resize_setup, rs_tv, NULL, NULL},
    {"color", "RGB2GRAY u8", color1_setup, col_gray, NULL, NULL},
    {"color", "RGB2BGR u8", color3_setup, col_bgr, NULL, NULL},
    {"color", "RGB2HSV u8", color3_setup, col_hsv, NULL, NULL},
    {"yuv", "NV12 -> RGB u8", yuv_setup, yuv_nv12, NULL, NULL},
    {"yuv", "I420 -> RGB u8", yuv_setup, yuv_i420, NULL, NULL},
    {"geom", "flip horizontal u8 RGB", color3_setup, flip_h, NULL, NULL},
    {"geom", "flip vertical u8 RGB", color3_setup, flip_v, NULL, NULL},
    {"geom", "flip both u8 RGB", color3_setup, flip_b, NULL, NULL},
    {"warp", "affine linear u8 RGB", color3_setup, warp_aff, NULL, NULL},
    {"warp", "perspective linear u8 RGB", color3_setup, warp_per, NULL, NULL},
    {"convert", "convert u8 -> f32 (1/255)", f32_setup, cvt_f32, NULL, NULL},
    {"convert", "reformat HWC -> CHW BGR u8", u8chw_setup, reformat_chw, NULL, NULL},
    {"convert", "normalize mean/std -> f32 CHW", f32_setup, norm_meanstd, NULL, NULL},
    {"convert", "normalize min-max -> f32 CHW", f32_setup, norm_minmax, NULL, NULL},
};
const int bd_image_op_count = (int)(sizeof bd_image_ops / sizeof bd_image_ops[0]);
