/* pf_cvt_color: every bad argument gives a precise status and message, and
 * nothing is written when any sample of the batch is invalid. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static uint8_t g_src[64 * 64 * 4 * 4], g_dst[64 * 64 * 4 * 4];

static pf_image img(void *p, int32_t w, int32_t h, int32_t c, pf_dtype t) {
    return pf_image_hwc(p, w, h, c, t, 0);
}

int main(void) {
    pf_image s = img(g_src, 8, 4, 3, PF_U8), d = img(g_dst, 8, 4, 3, PF_U8);

    /* a good call first */
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_BGR2RGB, NULL), PF_OK);
    pf_color_opts o = pf_color_opts_defaults();
    CHECK(o.yuv_matrix == PF_YUV_BT601 && o.yuv_range == PF_YUV_LIMITED);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_BGR2RGB, &o), PF_OK);

    /* count, NULL arrays */
    CHECK_STATUS(pf_cvt_color(NULL, -1, &s, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count");
    CHECK_STATUS(pf_cvt_color(NULL, 0, NULL, NULL, PF_COLOR_BGR2RGB, NULL), PF_OK);
    CHECK_STATUS(pf_cvt_color(NULL, 1, NULL, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, NULL, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");

    /* codes: video codes point to the right function; unknown codes */
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_YUV2BGR_NV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_cvt_color_from_yuv");
    CHECK_MSG("code 91");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_BGR2YUV_I420, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_cvt_color_to_yuv");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_RGB2YUV_NV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_cvt_color_to_yuv");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, (pf_color_code)52 /* BGR2HLS */, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("code 52");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, (pf_color_code)-3, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("code -3");

    /* invalid views */
    pf_image bad = s;
    bad.data = NULL;
    CHECK_STATUS(pf_cvt_color(NULL, 1, &bad, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0]");
    bad = d;
    bad.width = 0;
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &bad, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0]");

    /* dtypes */
    pf_image s16 = img(g_src, 8, 4, 3, PF_U16), d16 = img(g_dst, 8, 4, 3, PF_U16);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s16, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].dtype is u8");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s16, &d16, PF_COLOR_BGR2RGB, NULL), PF_OK);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s16, &d16, PF_COLOR_BGR2HSV, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("u16");
    pf_image si8 = img(g_src, 8, 4, 3, PF_S16), di8 = img(g_dst, 8, 4, 3, PF_S16);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &si8, &di8, PF_COLOR_BGR2RGB, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].dtype");

    /* channels */
    pf_image s1 = img(g_src, 8, 4, 1, PF_U8), d1 = img(g_dst, 8, 4, 1, PF_U8);
    pf_image s4 = img(g_src, 8, 4, 4, PF_U8), d4 = img(g_dst, 8, 4, 4, PF_U8);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s1, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] has 1 channels");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d4, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] has 4 channels");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_BGR2GRAY, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("produces 1");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_GRAY2BGR, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("needs 1");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s4, &d, PF_COLOR_HSV2BGR, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &d4, PF_COLOR_HSV2BGR, NULL), PF_OK);   /* dcn 4 ok */
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s4, &d1, PF_COLOR_BGRA2GRAY, NULL), PF_OK);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s4, &d, PF_COLOR_BGRA2BGR, NULL), PF_OK);

    /* sizes */
    pf_image dw = img(g_dst, 7, 4, 3, PF_U8), dh = img(g_dst, 8, 5, 3, PF_U8);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &dw, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 7x4 but src[0] is 8x4");
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &dh, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);

    /* layout: CHW multi-channel sides are rejected; a 1-channel CHW is fine */
    pf_image sc = pf_image_chw(g_src, 8, 4, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &sc, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("CHW");
    pf_image dc = pf_image_chw(g_dst, 8, 4, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &dc, PF_COLOR_BGR2RGB, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("dst[0]");
    pf_image g1 = pf_image_chw(g_dst, 8, 4, 1, PF_U8, 0, 0);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &g1, PF_COLOR_BGR2GRAY, NULL), PF_OK);

    /* overlap: in place with the same view is allowed; other overlap is not */
    pf_image ip = img(g_src, 8, 4, 3, PF_U8);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &ip, &ip, PF_COLOR_BGR2RGB, NULL), PF_OK);
    pf_image shifted = img(g_src + 3, 8, 4, 3, PF_U8);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &ip, &shifted, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    pf_image ip4 = img(g_src, 8, 4, 4, PF_U8);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &ip, &ip4, PF_COLOR_BGR2BGRA, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");

    /* device memory */
    pf_image dev = s;
    dev.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_cvt_color(NULL, 1, &dev, &d, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] is CUDA device memory but dst[0] is host memory");

    /* batch: an invalid second sample fails the call before anything is written */
    memset(g_dst, 0x5a, sizeof g_dst);
    pf_image ss[2] = {img(g_src, 8, 4, 3, PF_U8), img(g_src, 8, 4, 3, PF_U8)};
    pf_image dd[2] = {img(g_dst, 8, 4, 3, PF_U8), img(g_dst + 1024, 9, 4, 3, PF_U8)};
    CHECK_STATUS(pf_cvt_color(NULL, 2, ss, dd, PF_COLOR_BGR2RGB, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1]");
    CHECK(g_dst[0] == 0x5a && g_dst[95] == 0x5a);
    return pft_summary("test_color_args");
}
