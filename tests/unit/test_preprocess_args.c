/*
 * pf_preprocess_*: bad arguments are rejected with a message naming the
 * argument, the whole batch is validated before anything is written, and
 * the recipes / defaults hold what augment.h documents.
 */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static void test_desc(void) {
    pf_preprocess_plan *plan = (pf_preprocess_plan *)(void *)1;
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    CHECK(d.out_channels == 3 && d.interp == PF_INTERP_LINEAR && d.out_dtype == PF_F32 && d.out_layout == PF_CHW);
    CHECK(d.std[0] == 1.0f && d.mean[2] == 0.0f && !d.letterbox && !d.swap_rb);
    CHECK_STATUS(pf_preprocess_plan_create(NULL, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc is NULL");
    CHECK(plan == NULL);
    CHECK_STATUS(pf_preprocess_plan_create(&d, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out is NULL");
    d.out_width = 0;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out_width x out_height is 0 x 224");
    d = pf_preprocess_desc_defaults();
    d.out_channels = 2;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out_channels is 2");
    d = pf_preprocess_desc_defaults();
    d.std[1] = 0.0f;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc->std[1] is 0");
    d = pf_preprocess_desc_defaults();
    d.mean[2] = NAN;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc->mean[2]");
    d = pf_preprocess_desc_defaults();
    d.scale = INFINITY;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc->scale");
    d = pf_preprocess_desc_defaults();
    d.out_dtype = PF_S16;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_UNSUPPORTED);
    CHECK_MSG("out_dtype is s16");
    d = pf_preprocess_desc_defaults();
    d.interp = (pf_interp)5;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc->interp is 5");
    d = pf_preprocess_desc_defaults();
    d.letterbox_align = (pf_letterbox_align)7;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("letterbox_align is 7");
    d = pf_preprocess_desc_defaults();
    d.pad_value[3] = (double)NAN;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pad_value[3]");
    d = pf_preprocess_desc_defaults();
    d.out_dtype = PF_U8; /* u8: no normalization, std unused */
    d.std[0] = 0.0f;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    pf_preprocess_plan_destroy(plan);
    pf_preprocess_plan_destroy(NULL);
}

static void test_recipes(void) {
    pf_preprocess_desc d;
    pf_aug_policy p;
    CHECK_STATUS(pf_recipe("imagenet-train", &d, &p), PF_OK);
    CHECK(d.out_width == 224 && d.out_height == 224 && d.out_dtype == PF_F32 && d.out_layout == PF_CHW);
    CHECK(d.mean[0] == 0.485f && d.mean[1] == 0.456f && d.mean[2] == 0.406f);
    CHECK(d.std[0] == 0.229f && d.std[1] == 0.224f && d.std[2] == 0.225f && d.scale == 1.0f / 255.0f);
    CHECK(p.random_resized_crop && p.hflip_p == 0.5f && !p.color_jitter && p.vflip_p == 0.0f);
    CHECK(p.brightness[0] == 0.6f && p.brightness[1] == 1.4f && p.hue[0] == -0.1f && p.hue[1] == 0.1f);
    CHECK(p.rrc_scale[0] == 0.08f && p.rrc_ratio[1] == 4.0f / 3.0f);
    CHECK_STATUS(pf_recipe("imagenet-eval", &d, &p), PF_OK);
    CHECK(!p.random_resized_crop && p.resize_shorter == 256 && p.center_crop_w == 224 && p.center_crop_h == 224);
    CHECK(p.hflip_p == 0.0f && d.out_width == 224);
    CHECK_STATUS(pf_recipe("yolo", &d, NULL), PF_OK);
    CHECK(d.letterbox && d.out_width == 640 && d.out_height == 640 && d.pad_value[0] == 114.0 &&
          d.mean[0] == 0.0f && d.std[0] == 1.0f && d.scale == 1.0f / 255.0f && d.out_layout == PF_CHW);
    CHECK_STATUS(pf_recipe("yolo", NULL, &p), PF_OK);
    CHECK(d.flavor == PF_RESIZE_OPENCV && p.flavor == PF_RESIZE_OPENCV);
    CHECK_STATUS(pf_recipe("imagenet-eval-torchvision", &d, &p), PF_OK);
    CHECK(p.resize_shorter == 256 && p.center_crop_w == 224 && d.out_width == 224 && d.std[2] == 0.225f);
    CHECK(d.flavor == PF_RESIZE_TORCHVISION && d.antialias && p.flavor == PF_RESIZE_TORCHVISION);
    CHECK_STATUS(pf_recipe("imagenet-train-torchvision", &d, &p), PF_OK);
    CHECK(p.random_resized_crop && p.hflip_p == 0.5f && d.flavor == PF_RESIZE_TORCHVISION && d.antialias);
    CHECK_STATUS(pf_recipe("yolo-torchvision", &d, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("unknown recipe \"yolo-torchvision\"");
    CHECK_STATUS(pf_recipe("resnet", &d, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("unknown recipe \"resnet\"; known recipes: imagenet-train, imagenet-eval, imagenet-train-torchvision, "
              "imagenet-eval-torchvision, yolo");
    CHECK_STATUS(pf_recipe(NULL, &d, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("name is NULL");
    pf_aug_params id = pf_aug_params_identity();
    CHECK(id.crop_w == 0 && id.brightness == 1.0f && id.hue == 0.0f && id.gamma == 1.0f && id.scale == 1.0f);
    CHECK(id.jitter_order[0] == 0 && id.jitter_order[3] == 3 && !id.flip_h && !id.affine && !id.grayscale);
}

static void test_run(void) {
    static uint8_t img[2][20 * 10 * 3];
    static float out[2 * 3 * 8 * 8], sentinel[2 * 3 * 8 * 8];
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = d.out_height = 8;
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    pf_image src[2] = {pf_image_hwc(img[0], 20, 10, 3, PF_U8, 0), pf_image_hwc(img[1], 20, 10, 3, PF_U8, 0)};
    pf_tensor t = pf_tensor_nchw(out, 2, 3, 8, 8, PF_F32);
    pf_aug_params p[2] = {pf_aug_params_identity(), pf_aug_params_identity()};
    for (int i = 0; i < 2 * 3 * 8 * 8; i++) out[i] = sentinel[i] = -7.0f;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, p, &t, NULL), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 0, NULL, NULL, &t, NULL), PF_OK);
    CHECK_STATUS(pf_preprocess_run(NULL, NULL, 2, src, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("plan is NULL");
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, NULL, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, p, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");
    CHECK_STATUS(pf_preprocess_run(plan, NULL, -1, src, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 3, src, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst->n is 2 but count is 3");

    /* tensor vs plan */
    pf_tensor bad = pf_tensor_nchw(out, 2, 3, 8, 7, PF_F32);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, p, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is 7x8x3 (WxHxC) but the plan produces 8x8x3");
    bad = pf_tensor_nchw(out, 2, 1, 8, 8, PF_F32);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, p, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is 8x8x1");
    bad = pf_tensor_nchw(out, 2, 3, 8, 8, PF_F16);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, p, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst->dtype is f16 but the plan's out_dtype is f32");
    bad = pf_tensor_nhwc(out, 2, 3, 8, 8, PF_F32);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, p, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst->layout is PF_HWC");

    /* sources */
    pf_image s2[2] = {src[0], src[1]};
    s2[1] = pf_image_hwc(img[1], 10, 10, 3, PF_F32, 0);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, s2, p, &t, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[1].dtype is f32");
    s2[1] = pf_image_hwc(img[1], 20, 10, 2, PF_U8, 0);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, s2, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[1] has 2 channels");
    s2[1] = pf_image_chw(img[1], 20, 10, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, s2, p, &t, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[1] is planar");
    s2[1] = pf_image_hwc(NULL, 20, 10, 3, PF_U8, 0);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, s2, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[1]");
    s2[1] = pf_image_hwc((char *)out + 4, 4, 4, 3, PF_U8, 0);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, s2, p, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[1] overlaps the samples of dst");
    s2[1] = pf_image_hwc((char *)out + 3 * 64 * 4 + 8, 4, 4, 3, PF_U8, 0);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, s2 + 1, p, &t, NULL), PF_OK); /* sample 1 is not written */

    /* params */
    pf_aug_params q[2] = {p[0], p[1]};
    q[1].crop_x = 15, q[1].crop_y = 0, q[1].crop_w = 6, q[1].crop_h = 4;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1] crop (x 15, y 0, w 6, h 4) leaves src[1] (20x10)");
    q[1] = p[1];
    q[1].crop_x = -1, q[1].crop_w = 3, q[1].crop_h = 3;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1] crop (x -1");
    q[1] = p[1];
    q[1].brightness = NAN;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].brightness is nan");
    q[1] = p[1];
    q[1].contrast = -0.5f;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].contrast is -0.5");
    q[1] = p[1];
    q[1].saturation = INFINITY;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].saturation");
    q[1] = p[1];
    q[1].hue = 0.6f;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].hue is 0.6");
    q[1] = p[1];
    q[1].gamma = NAN;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].gamma");
    q[1] = p[1];
    q[1].jitter_order[2] = 0;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].jitter_order is {0, 1, 0, 3}");
    q[1] = p[1];
    q[1].jitter_order[0] = 4;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("permutation");
    q[1] = p[1];
    q[1].affine = true;
    q[1].scale = 0.0f;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].scale is 0");
    q[1].scale = 1.0f;
    q[1].angle = NAN;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].angle");
    q[1].angle = 0.0f;
    q[1].shear_x = 90.0f;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].shear_x is 90");
    /* resize-then-crop: a torchvision plan, sizes >= 1, the window inside */
    q[1] = p[1];
    q[1].resize_w = 20, q[1].resize_h = 12, q[1].window_x = 2;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("needs the plan's flavor PF_RESIZE_TORCHVISION");
    /* nothing was written by any failing call */
    pf_tensor t2 = pf_tensor_nchw(sentinel, 2, 3, 8, 8, PF_F32);
    q[1] = p[1];
    q[1].hue = -1.0f;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t2, NULL), PF_ERR_INVALID_ARGUMENT);
    int untouched = 1;
    for (int i = 0; i < 2 * 3 * 8 * 8; i++) untouched &= sentinel[i] == -7.0f;
    CHECK(untouched);
    pf_preprocess_plan_destroy(plan);

    /* affine needs a warp interpolation */
    d.interp = PF_INTERP_AREA;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    q[1] = p[1];
    q[1].affine = true;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("params[1].affine needs the plan's interp");
    pf_preprocess_plan_destroy(plan);

    d.interp = PF_INTERP_LINEAR;
    d.flavor = PF_RESIZE_TORCHVISION;
    d.antialias = true;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    q[1] = p[1];
    q[1].resize_w = 20, q[1].resize_h = 12, q[1].window_x = 12, q[1].window_y = 4; /* the 8x8 output fits */
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_OK);
    q[1].window_x = 13;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].window_x/y (13, 4) put the 8x8 output outside the 20x12 resized image");
    q[1].window_x = 0, q[1].resize_h = 0;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[1].resize_w x resize_h is 20 x 0");
    q[1].resize_h = 12;
    q[1].affine = true;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 2, src, q, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("cannot be combined with params.affine");
    pf_preprocess_plan_destroy(plan);
    d.flavor = PF_RESIZE_TORCHVISION;
    d.interp = PF_INTERP_AREA;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_UNSUPPORTED);
    CHECK_MSG("desc->interp AREA with PF_RESIZE_TORCHVISION");
    d.flavor = (pf_resize_flavor)5;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc->flavor is 5");
}

/* Letterbox geometry: YOLO rounding, centre (odd pixel right/bottom) and
 * top-left, and the info that maps boxes back. */
static void test_letterbox(void) {
    pf_preprocess_desc d;
    CHECK_STATUS(pf_recipe("yolo", &d, NULL), PF_OK);
    d.out_width = d.out_height = 64;
    d.out_dtype = PF_U8; /* values stay u8: easy to see */
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    static uint8_t img[100 * 49 * 3], out[3 * 64 * 64];
    for (size_t i = 0; i < sizeof img; i++) img[i] = 200;
    pf_image s = pf_image_hwc(img, 100, 49, 3, PF_U8, 0);
    pf_tensor t = pf_tensor_nchw(out, 1, 3, 64, 64, PF_U8);
    pf_letterbox_info info;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &s, NULL, &t, &info), PF_OK);
    /* r = 0.64: 64 x round(31.36) = 31 rows; pad 33 -> top 16, bottom 17 */
    CHECK(info.offset_x == 0.0f && info.offset_y == 16.0f && info.crop_x == 0 && info.crop_y == 0);
    CHECK(fabsf(info.scale_x - 0.64f) < 1e-6f && fabsf(info.scale_y - 31.0f / 49.0f) < 1e-6f);
    CHECK(out[15 * 64] == 114 && out[16 * 64] == 200 && out[46 * 64 + 63] == 200 && out[47 * 64] == 114);
    CHECK(out[2 * 64 * 64 + 63 * 64 + 5] == 114);
    pf_preprocess_plan_destroy(plan);
    d.letterbox_align = PF_LETTERBOX_TOP_LEFT;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    pf_aug_params p = pf_aug_params_identity();
    p.crop_x = 10, p.crop_y = 5, p.crop_w = 20, p.crop_h = 40;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &s, &p, &t, &info), PF_OK);
    /* r = 1.6: 32 x 64 at (0, 0) */
    CHECK(info.offset_x == 0.0f && info.offset_y == 0.0f && info.crop_x == 10 && info.crop_y == 5);
    CHECK(fabsf(info.scale_x - 1.6f) < 1e-6f && fabsf(info.scale_y - 1.6f) < 1e-6f);
    CHECK(out[31] == 200 && out[32] == 114 && out[63 * 64 + 31] == 200 && out[63 * 64 + 32] == 114);
    pf_preprocess_plan_destroy(plan);
}

int main(void) {
    test_desc();
    test_recipes();
    test_run();
    test_letterbox();
    return pft_summary("test_preprocess_args");
}
