/* Bad arguments of every photometric op: each is rejected with a status
 * and a message naming the argument, before any output is written. */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static uint8_t sbuf[8 * 6 * 4], dbuf[8 * 6 * 4];
static float fbuf[8 * 6 * 4];

int main(void) {
    pf_image s = pf_image_hwc(sbuf, 8, 6, 3, PF_U8, 0), d = pf_image_hwc(dbuf, 8, 6, 3, PF_U8, 0);
    pf_image src2[2] = {s, s}, dst2[2] = {d, d};
    double one = 1.0, neg = -0.5, nan_ = (double)NAN, two[2] = {1.0, 1.0}, three[3] = {1, 1, 1};
    memset(dbuf, 7, sizeof dbuf);

    /* n must be 1 or count; factor arrays non-NULL */
    CHECK_STATUS(pf_adjust_brightness(NULL, 2, src2, dst2, three, 3), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("n is 3");
    CHECK_STATUS(pf_adjust_brightness(NULL, 2, src2, dst2, two, 2), PF_OK);
    CHECK_STATUS(pf_adjust_contrast(NULL, 1, &s, &d, NULL, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("factors is NULL");
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &s, &d, &one, 0), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_adjust_brightness(NULL, -1, &s, &d, &one, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    CHECK_STATUS(pf_adjust_brightness(NULL, 0, NULL, NULL, NULL, 0), PF_OK);
    CHECK_STATUS(pf_invert(NULL, 1, NULL, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");

    /* negative / NaN factors */
    memset(dbuf, 7, sizeof dbuf);
    CHECK_STATUS(pf_adjust_brightness(NULL, 1, &s, &d, &neg, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("factors[0] is -0.5");
    CHECK(dbuf[0] == 7); /* nothing written */
    CHECK_STATUS(pf_adjust_contrast(NULL, 1, &s, &d, &nan_, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("factors[0]");
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &s, &d, &neg, 1), PF_ERR_INVALID_ARGUMENT);
    double hue_bad = 0.6;
    CHECK_STATUS(pf_adjust_hue(NULL, 1, &s, &d, &hue_bad, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("hues[0] is 0.6");
    CHECK_STATUS(pf_adjust_gamma(NULL, 1, &s, &d, &neg, NULL, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("gammas[0]");
    CHECK_STATUS(pf_adjust_gamma(NULL, 1, &s, &d, &one, &nan_, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("gains[0]");
    double thr = 256.0;
    CHECK_STATUS(pf_solarize(NULL, 1, &s, &d, &thr, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("thresholds[0] is 256");
    CHECK_STATUS(pf_solarize(NULL, 1, &s, &d, &nan_, 1), PF_ERR_INVALID_ARGUMENT);
    pf_image sf = pf_image_hwc(fbuf, 8, 6, 1, PF_F32, 0), df = pf_image_hwc(fbuf + 48, 8, 6, 1, PF_F32, 0);
    thr = 1.5;
    CHECK_STATUS(pf_solarize(NULL, 1, &sf, &df, &thr, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("<= 1");
    int bits[2] = {9, -1};
    CHECK_STATUS(pf_posterize(NULL, 1, &s, &d, bits, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("bits[0] is 9");
    CHECK_STATUS(pf_posterize(NULL, 1, &s, &d, bits + 1, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("bits[0] is -1");
    float m[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    m[5] = INFINITY;
    CHECK_STATUS(pf_color_twist(NULL, 1, &s, &d, m, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("element 5");
    double mean = 0, sig = -0.1;
    CHECK_STATUS(pf_gaussian_noise(NULL, 1, &s, &d, &mean, &sig, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("sigmas[0]");
    CHECK_STATUS(pf_gaussian_noise(NULL, 1, &s, &d, &nan_, &one, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("means[0]");

    /* channels and dtypes */
    pf_image s4 = pf_image_hwc(sbuf, 8, 6, 4, PF_U8, 0), d4 = pf_image_hwc(dbuf, 8, 6, 4, PF_U8, 0);
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &s4, &d4, &one, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("4 channels");
    CHECK_STATUS(pf_adjust_hue(NULL, 1, &s4, &d4, &mean, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_color_twist(NULL, 1, &s4, &d4, m, 1), PF_ERR_INVALID_ARGUMENT);
    pf_image s1 = pf_image_hwc(sbuf, 8, 6, 1, PF_U8, 0), d1 = pf_image_hwc(dbuf, 8, 6, 1, PF_U8, 0);
    m[5] = 1;
    CHECK_STATUS(pf_color_twist(NULL, 1, &s1, &d1, m, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("3 (RGB)");
    CHECK_STATUS(pf_invert(NULL, 1, &s4, &d4), PF_OK); /* channel-wise: 4 is fine */
    CHECK_STATUS(pf_rgb_to_grayscale(NULL, 1, &s4, &d1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] has 4 channels");
    pf_image d2c = pf_image_hwc(dbuf, 8, 6, 2, PF_U8, 0);
    CHECK_STATUS(pf_rgb_to_grayscale(NULL, 1, &s, &d2c), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] has 2 channels");
    CHECK_STATUS(pf_invert(NULL, 1, &s, &d1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] has 1 channels");
    pf_image s16 = pf_image_hwc(sbuf, 4, 6, 3, PF_U16, 0), d16 = pf_image_hwc(dbuf, 4, 6, 3, PF_U16, 0);
    CHECK_STATUS(pf_invert(NULL, 1, &s16, &d16), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].dtype is u16");
    pf_image dwf = pf_image_hwc(fbuf, 8, 6, 3, PF_F32, 0);
    CHECK_STATUS(pf_invert(NULL, 1, &s, &dwf), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].dtype is f32");
    pf_image dsmall = pf_image_hwc(dbuf, 7, 6, 3, PF_U8, 0);
    CHECK_STATUS(pf_equalize(NULL, 1, &s, &dsmall), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 7x6");
    pf_image chw = pf_image_chw(sbuf, 8, 6, 3, PF_U8, 0, 0), chwd = pf_image_chw(dbuf, 8, 6, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &chw, &chwd, &one, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("CHW");
    CHECK_STATUS(pf_invert(NULL, 1, &chw, &chwd), PF_OK); /* channel-wise ops take CHW */
    CHECK_STATUS(pf_invert(NULL, 1, &chw, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("differ in layout");
    pf_image bad = s;
    bad.data = NULL;
    CHECK_STATUS(pf_autocontrast(NULL, 1, &bad, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0]");

    /* overlap: the same view is in place, a shifted one is rejected */
    CHECK_STATUS(pf_invert(NULL, 1, &s, &s), PF_OK);
    pf_image shifted = pf_image_hwc(sbuf + 3, 7, 6, 3, PF_U8, 24);
    pf_image s7 = pf_image_hwc(sbuf, 7, 6, 3, PF_U8, 24);
    CHECK_STATUS(pf_adjust_hue(NULL, 1, &s7, &shifted, &mean, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    CHECK_STATUS(pf_gaussian_noise(NULL, 1, &s7, &shifted, &mean, &one, 1, NULL), PF_ERR_INVALID_ARGUMENT);

    /* erase rectangles */
    pf_erase_rect r = {6, 2, 3, 2, {1, 2, 3, 4}};
    int32_t cnt = 1;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("rects[0]");
    r.x = -1;
    r.width = 1;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    r.x = 0;
    r.height = 5; /* y 2 + 5 > 6 */
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("leaves src[0]");
    r.height = -1;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    r.height = 1;
    r.value[1] = (double)NAN;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("value[1] is NaN");
    r.value[1] = 2;
    cnt = -1;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("rect_counts[0] is -1");
    cnt = 2;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, NULL, &cnt, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("rects is NULL");
    int32_t cnts[3] = {1, 1, 1};
    CHECK_STATUS(pf_erase(NULL, 2, src2, dst2, &r, cnts, 3), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("n is 3");
    cnt = 1;
    CHECK_STATUS(pf_erase(NULL, 1, &s, &d, &r, &cnt, 1), PF_OK);
    CHECK_STATUS(pf_erase(NULL, 1, &s16, &d16, &r, &cnt, 1), PF_OK); /* erase takes u16 */
    return pft_summary("test_photo_args");
}
