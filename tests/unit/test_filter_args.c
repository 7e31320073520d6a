/* Filters: bad arguments are rejected with a status and a message naming
 * the argument, before any output is written; and properties that must
 * hold whatever OpenCV does: a delta kernel copies, a 1x1 box copies,
 * erode <= src <= dilate, per-sample parameters, results independent of
 * the thread count, and torchvision's sharpness formula (a C
 * transcription, checked here on hand-computed pixels). */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

#define W 37
#define H 23

static uint8_t g_a[W * H * 3], g_b[W * H * 3], g_c[W * H * 3];

static int untouched(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0xAB) return 0;
    return 1;
}

static void bad_arguments(void) {
    pf_image src = pf_image_hwc(g_a, W, H, 3, PF_U8, 0), dst = pf_image_hwc(g_b, W, H, 3, PF_U8, 0);
    memset(g_b, 0xAB, sizeof g_b);
    pf_gaussian_params gp;
    pf_gaussian_params_defaults(&gp);
    CHECK(gp.ksize_x == 3 && gp.sigma_x == 0 && gp.border == PF_BORDER_REFLECT_101);
    CHECK_STATUS(pf_gaussian_blur(NULL, 0, NULL, NULL, NULL, 0), PF_OK);
    CHECK_STATUS(pf_gaussian_blur(NULL, -1, &src, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, NULL, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, NULL, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, NULL, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params is NULL");
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 2), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("nparams is 2");
    gp.ksize_x = 4;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].ksize_x is 4");
    gp.ksize_x = -3;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ksize");
    gp.ksize_x = 0;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("positive sigma");
    gp.ksize_x = 3;
    gp.sigma_x = (double)NAN;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("not finite");
    gp.sigma_x = 0;
    gp.border = PF_BORDER_WRAP;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("PF_BORDER_WRAP");
    gp.border = (pf_border)9;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &dst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("border is 9");
    pf_gaussian_params_defaults(&gp);

    /* dtype / channel / size / overlap mismatches */
    static float fb[W * H * 3];
    pf_image fdst = pf_image_hwc(fb, W, H, 3, PF_F32, 0);
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &fdst, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is f32");
    pf_image d4 = pf_image_hwc(g_b, W, H, 1, PF_U8, 0);
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &d4, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("channels");
    pf_image small = pf_image_hwc(g_b, W - 1, H, 3, PF_U8, 0);
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &small, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 36x23");
    pf_image f16s = pf_image_hwc(g_a, 8, 8, 1, PF_F16, 0), f16d = pf_image_hwc(g_b, 8, 8, 1, PF_F16, 0);
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &f16s, &f16d, &gp, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].dtype is f16; pf_gaussian_blur takes u8, u16 or f32");
    /* u16 is taken by Gaussian / box / median / erode / dilate, not by filter_2d or sharpen */
    pf_image u16s = pf_image_hwc(g_a, 8, 8, 1, PF_U16, 0), u16d = pf_image_hwc(g_b, 8, 8, 1, PF_U16, 0);
    float k1 = 1.0f, fac = 2.0f;
    pf_filter2d_params fp16;
    pf_filter2d_params_defaults(&fp16);
    fp16.kernel = &k1;
    fp16.ksize_x = fp16.ksize_y = 1;
    CHECK_STATUS(pf_filter_2d(NULL, 1, &u16s, &u16d, &fp16, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].dtype is u16; pf_filter_2d takes u8 or f32");
    CHECK_STATUS(pf_sharpen(NULL, 1, &u16s, &u16d, &fac, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("pf_sharpen takes u8 or f32");
    pf_image inplace = src;
    CHECK_STATUS(pf_gaussian_blur(NULL, 1, &src, &inplace, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    /* the second sample is bad: nothing is written for the first either */
    pf_image s2[2] = {src, src}, d2[2] = {dst, small};
    CHECK_STATUS(pf_gaussian_blur(NULL, 2, s2, d2, &gp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1]");
    CHECK(untouched(g_b, sizeof g_b));

    pf_box_params bp;
    pf_box_params_defaults(&bp);
    bp.ksize_x = 0;
    CHECK_STATUS(pf_box_blur(NULL, 1, &src, &dst, &bp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].ksize_x is 0");
    bp.ksize_x = 4;
    bp.anchor_x = 4;
    CHECK_STATUS(pf_box_blur(NULL, 1, &src, &dst, &bp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].anchor_x is 4");
    bp.anchor_x = -2;
    CHECK_STATUS(pf_box_blur(NULL, 1, &src, &dst, &bp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("anchor_x is -2");

    int32_t mk = 4;
    CHECK_STATUS(pf_median_blur(NULL, 1, &src, &dst, &mk, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ksizes[0] is 4");
    mk = -1;
    CHECK_STATUS(pf_median_blur(NULL, 1, &src, &dst, &mk, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ksizes[0] is -1");
    mk = 7;
    pf_image fsrc = pf_image_hwc(fb, W, H, 3, PF_F32, 0);
    static float fb2[W * H * 3];
    pf_image fdst2 = pf_image_hwc(fb2, W, H, 3, PF_F32, 0);
    CHECK_STATUS(pf_median_blur(NULL, 1, &fsrc, &fdst2, &mk, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("u8 only");
    CHECK_STATUS(pf_median_blur(NULL, 1, &src, &dst, NULL, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ksizes is NULL");

    pf_filter2d_params fp;
    pf_filter2d_params_defaults(&fp);
    fp.ksize_x = fp.ksize_y = 3;
    CHECK_STATUS(pf_filter_2d(NULL, 1, &src, &dst, &fp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].kernel is NULL");
    float kern[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0};
    fp.kernel = kern;
    fp.anchor_y = 3;
    CHECK_STATUS(pf_filter_2d(NULL, 1, &src, &dst, &fp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].anchor_y is 3");
    fp.anchor_y = -1;
    kern[2] = INFINITY;
    CHECK_STATUS(pf_filter_2d(NULL, 1, &src, &dst, &fp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("kernel[2] is not finite");
    kern[2] = 0;
    fp.border = PF_BORDER_WRAP;
    CHECK_STATUS(pf_filter_2d(NULL, 1, &src, &dst, &fp, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("WRAP");

    pf_morph_params mp;
    pf_morph_params_defaults(&mp);
    CHECK(mp.iterations == 1 && mp.border == PF_BORDER_CONSTANT && !mp.use_border_value);
    mp.iterations = -1;
    CHECK_STATUS(pf_erode(NULL, 1, &src, &dst, &mp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].iterations is -1");
    mp.iterations = 1;
    mp.ksize_y = 0;
    CHECK_STATUS(pf_dilate(NULL, 1, &src, &dst, &mp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_dilate: params[0].ksize_y is 0");
    mp.ksize_y = 3;
    mp.iterations = 1000;
    CHECK_STATUS(pf_dilate(NULL, 1, &src, &dst, &mp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("iterations");

    float f = -0.5f;
    CHECK_STATUS(pf_sharpen(NULL, 1, &src, &dst, &f, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("factors[0] is -0.5");
    f = NAN;
    CHECK_STATUS(pf_sharpen(NULL, 1, &src, &dst, &f, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("factors[0]");
    CHECK(untouched(g_b, sizeof g_b));
}

static void properties(void) {
    uint64_t rng = 5;
    for (size_t i = 0; i < sizeof g_a; i++) g_a[i] = (uint8_t)pft_rand(&rng);
    pf_image src = pf_image_hwc(g_a, W, H, 3, PF_U8, 0), dst = pf_image_hwc(g_b, W, H, 3, PF_U8, 0);
    pf_image dst2 = pf_image_hwc(g_c, W, H, 3, PF_U8, 0);

    /* delta kernel = copy, for every border and an off-centre anchor */
    float kern[15] = {0};
    kern[7] = 1.0f; /* 5x3 kernel, centre tap */
    pf_filter2d_params fp;
    pf_filter2d_params_defaults(&fp);
    fp.kernel = kern;
    fp.ksize_x = 5;
    fp.ksize_y = 3;
    for (int b = 0; b <= 4; b++) {
        if (b == PF_BORDER_WRAP) continue;
        fp.border = (pf_border)b;
        CHECK_STATUS(pf_filter_2d(NULL, 1, &src, &dst, &fp, 1), PF_OK);
        CHECK(memcmp(g_a, g_b, sizeof g_a) == 0);
    }
    /* box 1x1 = copy; median 1 = copy; morphology with 0 iterations = copy */
    pf_box_params bp;
    pf_box_params_defaults(&bp);
    bp.ksize_x = bp.ksize_y = 1;
    memset(g_b, 0, sizeof g_b);
    CHECK_STATUS(pf_box_blur(NULL, 1, &src, &dst, &bp, 1), PF_OK);
    CHECK(memcmp(g_a, g_b, sizeof g_a) == 0);
    /* erode <= src <= dilate */
    pf_morph_params mp;
    pf_morph_params_defaults(&mp);
    mp.ksize_x = 4;
    mp.ksize_y = 3;
    CHECK_STATUS(pf_erode(NULL, 1, &src, &dst, &mp, 1), PF_OK);
    CHECK_STATUS(pf_dilate(NULL, 1, &src, &dst2, &mp, 1), PF_OK);
    int order = 1;
    for (size_t i = 0; i < sizeof g_a; i++) order &= g_b[i] <= g_a[i] && g_a[i] <= g_c[i];
    CHECK(order);
    mp.iterations = 0;
    CHECK_STATUS(pf_erode(NULL, 1, &src, &dst, &mp, 1), PF_OK);
    CHECK(memcmp(g_a, g_b, sizeof g_a) == 0);

    /* thread-count independence: every op, 1 vs 2 vs 3 threads, tall image */
    enum { TW = 64, TH = 301 };
    uint8_t *big = malloc(TW * TH * 3), *o1 = malloc(TW * TH * 3), *o2 = malloc(TW * TH * 3);
    for (size_t i = 0; i < TW * TH * 3; i++) big[i] = (uint8_t)pft_rand(&rng);
    pf_image bs = pf_image_hwc(big, TW, TH, 3, PF_U8, 0);
    pf_image b1 = pf_image_hwc(o1, TW, TH, 3, PF_U8, 0), b2 = pf_image_hwc(o2, TW, TH, 3, PF_U8, 0);
    pf_stream *s2 = NULL, *s3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(2, &s2), PF_OK);
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);
    pf_gaussian_params gp;
    pf_gaussian_params_defaults(&gp);
    gp.ksize_x = 7;
    gp.ksize_y = 9;
    gp.sigma_x = 1.7;
    int32_t mk = 5;
    float sf = 2.0f;
    float k3[9] = {0.1f, -0.2f, 0.3f, 0.4f, 0.5f, -0.6f, 0.7f, 0.8f, -0.9f};
    fp.kernel = k3;
    fp.ksize_x = fp.ksize_y = 3;
    fp.border = PF_BORDER_REFLECT;
    mp.iterations = 2;
    for (int op = 0; op < 6; op++) {
        pf_stream *streams[3] = {NULL, s2, s3};
        for (int t = 0; t < 3; t++) {
            pf_image *o = t == 0 ? &b1 : &b2;
            pf_status st;
            switch (op) {
            case 0: st = pf_gaussian_blur(streams[t], 1, &bs, o, &gp, 1); break;
            case 1: st = pf_box_blur(streams[t], 1, &bs, o, &bp, 1); break;
            case 2: st = pf_median_blur(streams[t], 1, &bs, o, &mk, 1); break;
            case 3: st = pf_filter_2d(streams[t], 1, &bs, o, &fp, 1); break;
            case 4: st = pf_dilate(streams[t], 1, &bs, o, &mp, 1); break;
            default: st = pf_sharpen(streams[t], 1, &bs, o, &sf, 1); break;
            }
            CHECK_STATUS(st, PF_OK);
            if (t > 0) {
                int same = memcmp(o1, o2, TW * TH * 3) == 0;
                if (!same) fprintf(stderr, "op %d differs with %d threads\n", op, t + 1);
                CHECK(same);
            }
        }
    }
    pf_stream_destroy(s2);
    pf_stream_destroy(s3);
    free(big);
    free(o1);
    free(o2);

    /* per-sample parameters: sample 1 uses its own ksize */
    pf_image ss[2] = {src, src}, dd[2] = {dst, dst2};
    int32_t ks[2] = {1, 3};
    CHECK_STATUS(pf_median_blur(NULL, 2, ss, dd, ks, 2), PF_OK);
    CHECK(memcmp(g_a, g_b, sizeof g_a) == 0);
    CHECK(memcmp(g_a, g_c, sizeof g_a) != 0);
}

/* The formula of pf_sharpen, written out: degenerate = round(conv3x3) on
 * the interior, torchvision 0.29's blend x + g * (degenerate - x) rounded
 * once to f32 (torch's fused multiply-add), clamp, truncate. The oracle is
 * the real torchvision (tests/python/test_photo_torchvision.py); this
 * checks the C library alone, in every build. */
static void sharpen_formula(void) {
    enum { SW = 6, SH = 5 };
    uint8_t s[SW * SH], d[SW * SH];
    uint64_t rng = 11;
    for (int i = 0; i < SW * SH; i++) s[i] = (uint8_t)pft_rand(&rng);
    const float factors[] = {0.0f, 0.3f, 1.0f, 1.7f, 4.0f};
    for (size_t fi = 0; fi < sizeof factors / sizeof factors[0]; fi++) {
        float f = factors[fi], g = (float)(1.0 - (double)f);
        pf_image a = pf_image_hwc(s, SW, SH, 1, PF_U8, 0), b = pf_image_hwc(d, SW, SH, 1, PF_U8, 0);
        CHECK_STATUS(pf_sharpen(NULL, 1, &a, &b, &f, 1), PF_OK);
        int ok = 1;
        for (int y = 0; y < SH; y++)
            for (int x = 0; x < SW; x++) {
                float deg = s[y * SW + x];
                if (y > 0 && y < SH - 1 && x > 0 && x < SW - 1) {
                    float side = 1.0f / 13.0f, centre = 5.0f / 13.0f, acc = 0.0f;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            acc += (float)s[(y + dy) * SW + x + dx] * (dx == 0 && dy == 0 ? centre : side);
                    deg = rintf(acc);
                }
                float v = fmaf(g, deg - (float)s[y * SW + x], (float)s[y * SW + x]);
                v = v < 0 ? 0 : v > 255 ? 255 : v;
                ok &= d[y * SW + x] == (uint8_t)v;
            }
        CHECK(ok);
    }
    /* images with a side <= 2 are copied */
    pf_image a = pf_image_hwc(s, 2, SH, 1, PF_U8, SW), b = pf_image_hwc(d, 2, SH, 1, PF_U8, 0);
    float f = 3.0f;
    CHECK_STATUS(pf_sharpen(NULL, 1, &a, &b, &f, 1), PF_OK);
    int same = 1;
    for (int y = 0; y < SH; y++) same &= memcmp(s + y * SW, d + y * 2, 2) == 0;
    CHECK(same);
}

int main(void) {
    bad_arguments();
    properties();
    sharpen_formula();
    return pft_summary("test_filter_args");
}
