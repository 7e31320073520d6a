/* pf_cvt_color and pf_cvt_color_from_yuv (NV12/NV21/I420/YV12) on OpenCL
 * device views (the shared bodies src/kernels/gpu_color.h and gpu_yuv.h
 * as OpenCL C) against the CPU backend, byte for byte over whole buffers
 * (padding bytes are canaries): every code the device path has, u8/u16/f32
 * (f32 with NaN/inf/denormals, bit-exact), 1/3/4 channels, padded and
 * negative strides, BT.601/709 limited/full, batches of 1..5, on a NULL
 * stream and on a created stream. */
#include <stdio.h>
#include <stdlib.h>

#include "opencl_util.h"

enum { MAXB = 5 };
static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

static const int k_codes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 36, 37, 38, 39,
                              40, 41, 54, 55, 66, 67, 70, 71};

/* Channel counts a code accepts (as pf_cvt_color validates them). */
static void channels(int code, uint64_t *rng, int *scn, int *dcn) {
    int any = pft_range(rng, 3, 4);
    switch (code) {
    case 0: *scn = 3, *dcn = 4; return;
    case 1: *scn = 4, *dcn = 3; return;
    case 2: *scn = 3, *dcn = 4; return;
    case 3: *scn = 4, *dcn = 3; return;
    case 4: *scn = 3, *dcn = 3; return;
    case 5: *scn = 4, *dcn = 4; return;
    case 6: case 7: *scn = any, *dcn = 1; return;
    case 10: case 11: *scn = 4, *dcn = 1; return;
    case 8: *scn = 1, *dcn = 3; return;
    case 9: *scn = 1, *dcn = 4; return;
    case 36: case 37: case 40: case 41: case 66: case 67: *scn = any, *dcn = 3; return;
    default: *scn = 3, *dcn = any; return; /* inverse YCrCb / HSV */
    }
}

static int color_case(uint64_t seed) {
    uint64_t rng = seed;
    int code = k_codes[pft_rand(&rng) % (sizeof k_codes / sizeof k_codes[0])];
    int hsv = code >= 40;
    static const pf_dtype dts[3] = {PF_U8, PF_U16, PF_F32};
    pf_dtype dt = hsv ? (pft_rand(&rng) & 1 ? PF_F32 : PF_U8) : dts[pft_rand(&rng) % 3];
    int scn, dcn;
    channels(code, &rng, &scn, &dcn);
    int count = pft_range(&rng, 1, MAXB);
    pft_img scpu[MAXB], dcpu[MAXB], dout[MAXB];
    pft_dimg ds[MAXB], dd[MAXB];
    pf_image sc[MAXB], dc[MAXB], sv[MAXB], dv[MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 100), h = pft_range(&rng, 1, 12);
        pft_img_make(&scpu[i], w, h, scn, dt, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        if (dt == PF_F32) pft_img_fill_f32(&scpu[i], &rng);
        pft_img_make(&dcpu[i], w, h, dcn, dt, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dout[i], &dcpu[i]);
        sc[i] = scpu[i].im, dc[i] = dcpu[i].im;
        ok &= pft_dimg_make(g_dev, &ds[i], &scpu[i]) && pft_dimg_make(g_dev, &dd[i], &dcpu[i]);
        sv[i] = ds[i].im, dv[i] = dd[i].im;
    }
    CHECK(ok);
    pf_stream *s = seed & 1 ? g_stream : NULL;
    CHECK_STATUS(pf_cvt_color(NULL, count, sc, dc, (pf_color_code)code, NULL), PF_OK);
    CHECK_STATUS(pf_cvt_color(s, count, sv, dv, (pf_color_code)code, NULL), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&dd[i], &dout[i]));
        long at = pft_img_diff(&dcpu[i], &dout[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "color seed %llu: code %d %s %d->%d ch sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, code, pf_dtype_name(dt), scn, dcn, i, (int)sc[i].width,
                    (int)sc[i].height, at);
        pft_dimg_free(g_dev, &ds[i]);
        pft_dimg_free(g_dev, &dd[i]);
        pft_img_free(&scpu[i]), pft_img_free(&dcpu[i]), pft_img_free(&dout[i]);
    }
    CHECK(ok);
    return ok;
}

static int yuv_case(uint64_t seed) {
    uint64_t rng = seed;
    int code = pft_range(&rng, 90, 106);
    pf_color_opts o = pf_color_opts_defaults();
    o.yuv_matrix = (pf_yuv_matrix)pft_range(&rng, 0, 1);
    o.yuv_range = (pf_yuv_range)pft_range(&rng, 0, 1);
    int count = pft_range(&rng, 1, MAXB);
    int cn = code == 106 ? 1 : ((code >= 94 && code <= 97) || code >= 102) ? 4 : 3;
    pft_img planes[MAXB][4], dcpu[MAXB], dout[MAXB];
    pft_dimg dpl[MAXB][4], dd[MAXB];
    pf_yuv src[MAXB], dsrc[MAXB];
    pf_image dc[MAXB], dv[MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int32_t w = 2 * pft_range(&rng, 1, 40), h = 2 * pft_range(&rng, 1, 20);
        pft_img_make(&planes[i][0], w, h, 1, PF_U8, PF_HWC, pft_range(&rng, 0, 5), pft_range(&rng, 0, 1), &rng);
        pft_img_make(&planes[i][1], w / 2, h / 2, 2, PF_U8, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1),
                     &rng);
        pft_img_make(&planes[i][2], w / 2, h / 2, 1, PF_U8, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1),
                     &rng);
        pft_img_make(&planes[i][3], w / 2, h / 2, 1, PF_U8, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1),
                     &rng);
        for (int p = 0; p < 4; p++) ok &= pft_dimg_make(g_dev, &dpl[i][p], &planes[i][p]);
        src[i] = (pf_yuv){planes[i][0].im, planes[i][1].im, planes[i][2].im, planes[i][3].im};
        dsrc[i] = (pf_yuv){dpl[i][0].im, dpl[i][1].im, dpl[i][2].im, dpl[i][3].im};
        pft_img_make(&dcpu[i], w, h, cn, PF_U8, PF_HWC, pft_range(&rng, 0, 4), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dout[i], &dcpu[i]);
        ok &= pft_dimg_make(g_dev, &dd[i], &dcpu[i]);
        dc[i] = dcpu[i].im, dv[i] = dd[i].im;
    }
    CHECK(ok);
    pf_stream *s = seed & 1 ? g_stream : NULL;
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, count, src, dc, (pf_color_code)code, &o), PF_OK);
    CHECK_STATUS(pf_cvt_color_from_yuv(s, count, dsrc, dv, (pf_color_code)code, &o), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&dd[i], &dout[i]));
        long at = pft_img_diff(&dcpu[i], &dout[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "yuv seed %llu: code %d matrix %d range %d sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, code, (int)o.yuv_matrix, (int)o.yuv_range, i, (int)dc[i].width,
                    (int)dc[i].height, at);
        for (int p = 0; p < 4; p++) pft_dimg_free(g_dev, &dpl[i][p]), pft_img_free(&planes[i][p]);
        pft_dimg_free(g_dev, &dd[i]);
        pft_img_free(&dcpu[i]), pft_img_free(&dout[i]);
    }
    CHECK(ok);
    return ok;
}

/* Even seeds: pf_cvt_color; odd seeds: pf_cvt_color_from_yuv (each also
 * alternates NULL and created streams through its own seed bits). */
static int run_case(uint64_t seed) { return (seed >> 1) & 1 ? yuv_case(seed) : color_case(seed); }

int main(int argc, char **argv) {
    g_dev = pft_opencl_device_or_skip("opencl_color");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    int rc = pft_seeded_main(argc, argv, "opencl_color", run_case, 41000, 480);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return rc;
}
