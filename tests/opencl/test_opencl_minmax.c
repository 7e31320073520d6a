/* pf_normalize PF_NORM_MINMAX on OpenCL device views (the reduction and
 * finish bodies of src/kernels/gpu_minmax.h, then the element map of
 * gpu_convert.h, as OpenCL C) against the CPU backend, byte for byte over
 * whole buffers (padding bytes are canaries): u8/u16/f32 sources, 1..4
 * channels, HWC/CHW on each side, channel order, strided views (row and
 * plane padding), batches of 1..6 with a different size each, images
 * spanning many 32 x 8 work-groups, lo/hi in either order. f32 sources
 * carry NaN (skipped), +-inf, all-NaN images (min = max = 0), constant
 * images, and +0/-0 mixed at the minimum: the one tie where the device
 * may pick the other zero (gpu_minmax.h), which can only show when lo or
 * hi is -0.0, never drawn here, so every output is bit-exact
 * (docs/exactness.md: the element map has no tolerance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "opencl_util.h"

enum { MAXB = 6 };
static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

/* Element e of (plane p, row y) of t, as float storage. */
static float *f32_row(pft_img *t, int p, int32_t y) {
    return (float *)(void *)((char *)t->im.data + (ptrdiff_t)p * t->im.plane_stride + (ptrdiff_t)y * t->im.row_stride);
}

static void fill_values(pft_img *t, uint64_t *rng) {
    const pf_image *im = &t->im;
    int planes = im->layout == PF_CHW ? im->channels : 1;
    int32_t n = im->layout == PF_CHW ? im->width : im->width * im->channels;
    int kind = pft_range(rng, 0, 9);
    if (im->dtype != PF_F32) {
        if (kind == 0) /* constant image: max == min */
            for (int p = 0; p < planes; p++)
                for (int32_t y = 0; y < im->height; y++)
                    memset((char *)im->data + (ptrdiff_t)p * im->plane_stride + (ptrdiff_t)y * im->row_stride, 0x2a,
                           (size_t)n * pf_dtype_size(im->dtype));
        return; /* else the random bytes */
    }
    for (int p = 0; p < planes; p++)
        for (int32_t y = 0; y < im->height; y++) {
            float *r = f32_row(t, p, y);
            for (int32_t x = 0; x < n; x++) {
                float v = pft_rand_f32(rng);
                switch (kind) {
                case 0: v = NAN; break;                                     /* all NaN */
                case 1: v = pft_rand(rng) % 5 == 0 ? NAN : v; break;         /* NaNs skipped */
                case 2: v = pft_rand(rng) % 17 == 0 ? ((pft_rand(rng) & 1) ? INFINITY : -INFINITY) : v; break;
                case 3: v = fabsf(v); if (pft_rand(rng) % 4 == 0) v = (pft_rand(rng) & 1) ? -0.0f : 0.0f; break;
                case 4: v = 3.25f; break;                                   /* constant */
                default: break;
                }
                r[x] = v;
            }
        }
}

static double rand_bound(uint64_t *rng) {
    double v = (double)((int64_t)(pft_rand(rng) % 20001) - 10000) / 997.0 * 30;
    return v == 0 ? 0.0 : v; /* never -0.0: see the header */
}

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    static const pf_dtype ins[3] = {PF_U8, PF_U16, PF_F32}, outs[4] = {PF_F32, PF_F16, PF_BF16, PF_U8};
    pf_dtype sdt = ins[pft_rand(&rng) % 3], ddt = outs[pft_rand(&rng) % 4];
    int scn = pft_range(&rng, 1, 4), dcn = pft_range(&rng, 1, 4);
    pf_layout sl = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC, dl = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC;
    pf_normalize_opts no = pf_normalize_opts_defaults();
    no.mode = PF_NORM_MINMAX;
    for (int c = 0; c < 4; c++) no.order[c] = (int8_t)pft_range(&rng, 0, scn - 1);
    no.lo = rand_bound(&rng);
    no.hi = pft_rand(&rng) % 5 == 0 ? no.lo : rand_bound(&rng);
    if (pft_rand(&rng) % 4 == 0) no.lo = 0, no.hi = 1;
    int count = pft_range(&rng, 1, MAXB);
    int big = pft_rand(&rng) % 4 == 0;

    pft_img scpu[MAXB], dcpu[MAXB], dout[MAXB];
    pft_dimg ds[MAXB], dd[MAXB];
    pf_image sc[MAXB], dc[MAXB], sv[MAXB], dv[MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, big ? 150 : 40), h = pft_range(&rng, 1, big ? 40 : 10);
        pft_img_make(&scpu[i], w, h, scn, sdt, sl, pft_range(&rng, 0, 5), pft_range(&rng, 0, 1), &rng);
        fill_values(&scpu[i], &rng);
        pft_img_make(&dcpu[i], w, h, dcn, ddt, dl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dout[i], &dcpu[i]);
        sc[i] = scpu[i].im, dc[i] = dcpu[i].im;
        ok &= pft_dimg_make(g_dev, &ds[i], &scpu[i]) && pft_dimg_make(g_dev, &dd[i], &dcpu[i]);
        sv[i] = ds[i].im, dv[i] = dd[i].im;
    }
    CHECK(ok);
    pf_stream *s = seed & 1 ? g_stream : NULL;
    CHECK_STATUS(pf_normalize(NULL, count, sc, dc, &no), PF_OK);
    CHECK_STATUS(pf_normalize(s, count, sv, dv, &no), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&dd[i], &dout[i]));
        long at = pft_img_diff(&dcpu[i], &dout[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "seed %llu: minmax %s %dch %s -> %s %dch %s [%g, %g] sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, pf_dtype_name(sdt), scn, sl == PF_CHW ? "CHW" : "HWC",
                    pf_dtype_name(ddt), dcn, dl == PF_CHW ? "CHW" : "HWC", no.lo, no.hi, i, (int)sc[i].width,
                    (int)sc[i].height, at);
        pft_dimg_free(g_dev, &ds[i]);
        pft_dimg_free(g_dev, &dd[i]);
        pft_img_free(&scpu[i]), pft_img_free(&dcpu[i]), pft_img_free(&dout[i]);
    }
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    g_dev = pft_opencl_device_or_skip("opencl_minmax");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    int rc = pft_seeded_main(argc, argv, "opencl_minmax", run_case, 52000, 240);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return rc;
}
