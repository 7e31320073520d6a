/* pf_cvt_color_from_yuv / pf_cvt_color_to_yuv reject bad arguments with a
 * status and a message naming the argument, and never write the output
 * when they do; the pf_yuv view helpers lay out frames as documented. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

enum { W = 16, H = 8 };

static uint8_t frame[24 * H * 3 / 2], rgb[W * H * 4];

/* dst must stay untouched by a failing call. */
static int untouched(void) {
    for (size_t i = 0; i < sizeof rgb; i++)
        if (rgb[i] != 0xAB) return 0;
    return 1;
}

static void test_views(void) {
    uint8_t *b = frame;
    pf_yuv f = pf_yuv_nv12(b, W, H, 0);
    CHECK(f.y.data == b && f.y.width == W && f.y.height == H && f.y.channels == 1 && f.y.row_stride == W);
    CHECK(f.uv.data == b + W * H && f.uv.width == W / 2 && f.uv.height == H / 2 && f.uv.channels == 2 &&
          f.uv.row_stride == W);
    f = pf_yuv_i420(b, W, H, 0);
    CHECK(f.u.data == b + W * H && f.v.data == b + W * H + W * H / 4 && f.u.row_stride == W / 2);
    CHECK(f.u.channels == 1 && f.v.width == W / 2 && f.v.height == H / 2);
    f = pf_yuv_yv12(b, W, H, 0);
    CHECK(f.v.data == b + W * H && f.u.data == b + W * H + W * H / 4);
    f = pf_yuv_nv12(b, W, H, 20);
    CHECK(f.y.row_stride == 20 && f.uv.data == b + 20 * H && f.uv.row_stride == 20);
    f = pf_yuv_i420(b, W, H, 20);
    CHECK(f.u.row_stride == 10 && f.v.data == b + 20 * H + 10 * (H / 2));
    CHECK(pf_yuv_frame_size(W, H, 0) == (size_t)W * H * 3 / 2);
    CHECK(pf_yuv_frame_size(W, H, 24) == (size_t)24 * H * 3 / 2);
    CHECK(pf_yuv_frame_size(W, H, 8) == 0);   /* stride < width */
    CHECK(pf_yuv_frame_size(0, H, 0) == 0);
    f = pf_yuv_nv12(b, W, H, 4);              /* bad stride: views rejected later */
    CHECK(f.y.data == NULL);
}

static void test_from_yuv(void) {
    pf_yuv f = pf_yuv_nv12(frame, W, H, 0);
    pf_image d = pf_image_hwc(rgb, W, H, 3, PF_U8, 0);
    const pf_color_code nv = PF_COLOR_YUV2RGB_NV12;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, nv, NULL), PF_OK);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 0, NULL, NULL, nv, NULL), PF_OK);
    memset(rgb, 0xAB, sizeof rgb);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, -1, &f, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, NULL, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, NULL, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("code 4");
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, PF_COLOR_RGB2YUV_I420, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("code 127");
    pf_color_opts o = {PF_YUV_BT601, PF_YUV_LIMITED};
    o.yuv_matrix = (pf_yuv_matrix)2;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, nv, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->yuv_matrix is 2");
    o.yuv_matrix = PF_YUV_BT709;
    o.yuv_range = (pf_yuv_range)-1;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, nv, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->yuv_range is -1");

    /* odd sizes (OpenCV's rule for 4:2:0) */
    pf_yuv odd = f;
    odd.y.width = W - 1;
    pf_image d3 = pf_image_hwc(rgb, W - 1, H, 3, PF_U8, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &odd, &d3, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].y is 15x8");
    CHECK_MSG("even");
    odd = f;
    odd.y.height = H - 1;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &odd, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].y is 16x7");

    /* chroma plane shape */
    pf_yuv bad = f;
    bad.uv.width = W / 2 - 1;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv is 7x4; it must be 8x4");
    bad = f;
    bad.uv.channels = 1;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv has 1 channels; it must have 2");
    bad = f;
    bad.uv.data = NULL;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv.data is NULL");
    bad = f;
    bad.y.dtype = PF_U16;
    bad.y.row_stride = 2 * W;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, nv, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].y.dtype is u16");
    bad = f;
    bad.y.row_stride = W - 1;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].y");

    /* planar codes need u and v, each 1 channel of W/2 x H/2 */
    pf_yuv p = pf_yuv_i420(frame, W, H, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &p, &d, PF_COLOR_YUV2BGR_I420, NULL), PF_OK);
    memset(rgb, 0xAB, sizeof rgb);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, PF_COLOR_YUV2BGR_I420, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].u.data is NULL");
    bad = p;
    bad.v.height = H;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, PF_COLOR_YUV2BGR_YV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].v is 8x8; it must be 8x4");
    bad = p;
    bad.u.channels = 2;
    bad.u.width = W / 4;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &bad, &d, PF_COLOR_YUV2BGR_YV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].u has 2 channels");

    /* dst channels / size / dtype / layout */
    pf_image dd = pf_image_hwc(rgb, W, H, 4, PF_U8, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] has 4 channels; this code needs 3");
    dd = pf_image_hwc(rgb, W, H, 3, PF_U8, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, PF_COLOR_YUV2BGRA_NV21, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("needs 4");
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, PF_COLOR_YUV2GRAY_420, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("needs 1");
    dd = pf_image_hwc(rgb, W - 2, H, 3, PF_U8, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 14x8");
    dd = pf_image_hwc(rgb, W, H, 3, PF_F32, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, nv, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("dst[0].dtype is f32");
    dd = pf_image_chw(rgb, W, H, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("PF_CHW");
    dd = d; /* host frame, device dst: one call sees one memory */
    dd.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dd, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is CUDA device memory");
    CHECK(untouched());

    /* overlap of dst with a source plane */
    pf_image ov = pf_image_hwc(frame + 8, 4, 2, 3, PF_U8, 0);
    pf_yuv small = pf_yuv_nv12(frame + 16, 4, 2, 0);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &small, &ov, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] overlaps src[0].y");
    ov = pf_image_hwc(frame + W * H, 4, 2, 3, PF_U8, 0);
    small = pf_yuv_nv12(frame, 4, 2, 0);
    small.uv.data = frame + W * H + 4; /* chroma lives inside the dst bytes */
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &small, &ov, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] overlaps src[0].uv");

    /* a bad sample later in the batch fails the whole batch, nothing written */
    pf_yuv fs[2] = {f, f};
    pf_image ds[2] = {d, d};
    fs[1].uv.height = 3;
    memset(rgb, 0xAB, sizeof rgb);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 2, fs, ds, nv, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[1].uv");
    CHECK(untouched());
}

static void test_to_yuv(void) {
    static uint8_t out[W * H * 3 / 2];
    pf_image s = pf_image_hwc(rgb, W, H, 3, PF_U8, 0);
    pf_yuv f = pf_yuv_i420(out, W, H, 0);
    const pf_color_code c = PF_COLOR_RGB2YUV_I420;
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &f, c, NULL), PF_OK);
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, -2, &s, &f, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -2");
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, NULL, &f, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, NULL, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &f, PF_COLOR_YUV2RGB_NV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("code 90");
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &f, (pf_color_code)1008, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("code 1008");
    pf_color_opts o = {(pf_yuv_matrix)7, PF_YUV_FULL};
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &f, c, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->yuv_matrix is 7");

    memset(out, 0x5A, sizeof out);
    pf_image s4 = pf_image_hwc(rgb, W, H, 4, PF_U8, 0);
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s4, &f, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] has 4 channels; this code needs 3");
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &f, PF_COLOR_BGRA2YUV_YV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("needs 4");
    pf_yuv odd = f;
    odd.y.width = W - 1;
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &odd, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].y is 15x8");
    pf_image sz = pf_image_hwc(rgb, W, H - 2, 3, PF_U8, 0);
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &sz, &f, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] is 16x6");
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &f, PF_COLOR_RGB2YUV_NV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].uv.data is NULL");
    pf_yuv bad = f;
    bad.u.width = 2;
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &bad, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].u is 2x4");
    /* dst planes overlapping each other or the source */
    bad = f;
    bad.v.data = (uint8_t *)bad.u.data + 4;
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &bad, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].v overlaps dst[0].u");
    bad = f;
    bad.u.data = (uint8_t *)bad.y.data + W * (H - 1);
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &s, &bad, c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].u overlaps dst[0].y");
    pf_image sover = pf_image_hwc(out, 2, 2, 3, PF_U8, 0);
    pf_yuv fo = pf_yuv_nv12(out + 8, 2, 2, 0);
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &sover, &fo, PF_COLOR_RGB2YUV_NV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].y overlaps src[0]");
    int same = 1;
    for (size_t i = 0; i < sizeof out; i++) same &= out[i] == 0x5A;
    CHECK(same);
}

int main(void) {
    test_views();
    test_from_yuv();
    test_to_yuv();
    return pft_summary("yuv_args");
}
