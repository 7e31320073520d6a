/* pf_convert, pf_reformat and pf_normalize (PF_NORM_MEAN_STD) on OpenCL
 * device views (the shared body src/kernels/gpu_convert.h as OpenCL C)
 * against the CPU backend, byte for byte over whole buffers (padding bytes
 * are canaries): every dtype pair, 1..4 channels on each side, HWC/CHW on
 * each side, channel order with fills, alpha/beta, per-sample mean/std,
 * f32 NaN/inf inputs, negative strides, batches of 1..5. The float
 * outputs are bit-exact too (docs/exactness.md: the element map has no
 * tolerance). PF_NORM_MINMAX: tests/opencl/test_opencl_minmax.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "opencl_util.h"

enum { MAXB = 5 };
enum { OP_CONVERT, OP_REFORMAT, OP_NORMALIZE };
static const char *const k_ops[] = {"convert", "reformat", "normalize"};
static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

static void fill_values(pft_img *t, uint64_t *rng) {
    if (t->im.dtype == PF_F32) pft_img_fill_f32(t, rng);
    if (pft_range(rng, 0, 7) == 0) { /* constant (u8/u16) or all-NaN (f32) images: the MINMAX corner cases */
        int planes = t->im.layout == PF_CHW ? t->im.channels : 1;
        int32_t n = (t->im.layout == PF_CHW ? 1 : t->im.channels) * t->im.width * (int32_t)pf_dtype_size(t->im.dtype);
        for (int p = 0; p < planes; p++)
            for (int32_t y = 0; y < t->im.height; y++)
                memset((char *)t->im.data + (ptrdiff_t)p * t->im.plane_stride + (ptrdiff_t)y * t->im.row_stride,
                       t->im.dtype == PF_F32 ? 0xff : 0x2a, (size_t)n);
    }
    /* other dtypes: the random bytes (f16/bf16 NaN and inf included) */
}

static float rand_param(uint64_t *rng, int nonzero) {
    float v = (float)((double)((int64_t)(pft_rand(rng) % 20001) - 10000) / 997.0);
    return nonzero && v == 0 ? 0.5f : v;
}

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    int op = pft_range(&rng, 0, 2);
    pf_dtype sdt = (pf_dtype)pft_range(&rng, 0, 6), ddt = (pf_dtype)pft_range(&rng, 0, 6);
    if (op == OP_REFORMAT) ddt = sdt;
    if (op == OP_NORMALIZE) {
        static const pf_dtype ins[3] = {PF_U8, PF_U16, PF_F32}, outs[4] = {PF_F32, PF_F16, PF_BF16, PF_U8};
        sdt = ins[pft_rand(&rng) % 3];
        ddt = outs[pft_rand(&rng) % 4];
    }
    int scn = pft_range(&rng, 1, 4), dcn = pft_range(&rng, 1, 4);
    pf_layout sl = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC, dl = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC;
    int8_t order[4];
    for (int c = 0; c < 4; c++) order[c] = (int8_t)pft_range(&rng, op < OP_NORMALIZE ? -1 : 0, scn - 1);
    double fill = (double)rand_param(&rng, 0) * 40;
    pf_convert_opts co = pf_convert_opts_defaults();
    memcpy(co.order, order, 4);
    co.fill = fill;
    if (pft_rand(&rng) % 3) {
        co.alpha = (double)rand_param(&rng, 0);
        co.beta = (double)rand_param(&rng, 0) * 10;
    }
    int count = pft_range(&rng, 1, MAXB);
    pf_norm_params per[MAXB];
    pf_normalize_opts no = pf_normalize_opts_defaults();
    memcpy(no.order, order, 4);
    no.scale = pft_rand(&rng) & 1 ? 1.0f : 1.0f / 255.0f;
    for (int c = 0; c < 4; c++) no.params.mean[c] = rand_param(&rng, 0), no.params.std[c] = rand_param(&rng, 1);
    for (int i = 0; i < count; i++)
        for (int c = 0; c < 4; c++) per[i].mean[c] = rand_param(&rng, 0), per[i].std[c] = rand_param(&rng, 1);
    if (pft_rand(&rng) & 1) no.per_sample = per;

    pft_img scpu[MAXB], dcpu[MAXB], dout[MAXB];
    pft_dimg ds[MAXB], dd[MAXB];
    pf_image sc[MAXB], dc[MAXB], sv[MAXB], dv[MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 60), h = pft_range(&rng, 1, 12);
        pft_img_make(&scpu[i], w, h, scn, sdt, sl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        fill_values(&scpu[i], &rng);
        pft_img_make(&dcpu[i], w, h, dcn, ddt, dl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dout[i], &dcpu[i]);
        sc[i] = scpu[i].im, dc[i] = dcpu[i].im;
        ok &= pft_dimg_make(g_dev, &ds[i], &scpu[i]) && pft_dimg_make(g_dev, &dd[i], &dcpu[i]);
        sv[i] = ds[i].im, dv[i] = dd[i].im;
    }
    CHECK(ok);
    pf_stream *s = seed & 1 ? g_stream : NULL;
    pf_status st = op == OP_CONVERT    ? pf_convert(NULL, count, sc, dc, &co)
                   : op == OP_REFORMAT ? pf_reformat(NULL, count, sc, dc, order, fill)
                                       : pf_normalize(NULL, count, sc, dc, &no);
    CHECK_STATUS(st, PF_OK);
    st = op == OP_CONVERT    ? pf_convert(s, count, sv, dv, &co)
         : op == OP_REFORMAT ? pf_reformat(s, count, sv, dv, order, fill)
                             : pf_normalize(s, count, sv, dv, &no);
    CHECK_STATUS(st, PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&dd[i], &dout[i]));
        long at = pft_img_diff(&dcpu[i], &dout[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "seed %llu: pf_%s %s %dch %s -> %s %dch %s sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, k_ops[op], pf_dtype_name(sdt), scn, sl == PF_CHW ? "CHW" : "HWC",
                    pf_dtype_name(ddt), dcn, dl == PF_CHW ? "CHW" : "HWC", i, (int)sc[i].width, (int)sc[i].height,
                    at);
        pft_dimg_free(g_dev, &ds[i]);
        pft_dimg_free(g_dev, &dd[i]);
        pft_img_free(&scpu[i]), pft_img_free(&dcpu[i]), pft_img_free(&dout[i]);
    }
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    g_dev = pft_opencl_device_or_skip("opencl_convert");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    int rc = pft_seeded_main(argc, argv, "opencl_convert", run_case, 31000, 300);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return rc;
}
