/* pf_resize on OpenCL device views (the shared body src/kernels/gpu_resize.h
 * as OpenCL C, on the CPU plan's tables) against the CPU backend, byte for
 * byte over whole buffers (padding bytes are canaries): every
 * interpolation (NEAREST, LINEAR, CUBIC, AREA, LANCZOS4, NEAREST_EXACT),
 * antialias, the OpenCV / Pillow / torchvision flavours, u8/u16/f32
 * (finite float inputs; the outputs bit-exact too), 1..4 channels, HWC and CHW, padded,
 * negative and misaligned strides, batches of 1..4 of one or varied
 * shapes, on a NULL stream and on a created stream. Re-run one case:
 * test_opencl_resize <case>. */
#include "opencl_util.h"

#define MAXB 4

static const pf_interp k_interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR,   PF_INTERP_CUBIC,
                                      PF_INTERP_AREA,    PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
static const pf_dtype k_types[] = {PF_U8, PF_U16, PF_F32};
static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

/* Picks output sizes that reach every plan branch: random, integer
 * downscales (area fast, LINEAR 2x -> AREA), exact 2x, upscales, same
 * size (copy), strong downscales (wide antialias / area cells). */
static void pick_sizes(uint64_t *rng, int *sw, int *sh, int *dw, int *dh) {
    int mode = pft_range(rng, 0, 6);
    *sw = pft_range(rng, 1, 90);
    *sh = pft_range(rng, 1, 70);
    switch (mode) {
    case 1: { int fx = pft_range(rng, 2, 5), fy = pft_range(rng, 2, 5);
              *dw = pft_range(rng, 1, 20); *dh = pft_range(rng, 1, 15); *sw = *dw * fx; *sh = *dh * fy; break; }
    case 2: *dw = pft_range(rng, 1, 40); *dh = pft_range(rng, 1, 30); *sw = 2 * *dw; *sh = 2 * *dh; break;
    case 3: *dw = *sw + pft_range(rng, 1, 60); *dh = *sh + pft_range(rng, 1, 50); break;
    case 4: *dw = *sw; *dh = *sh; break;
    case 5: *sw = pft_range(rng, 60, 200); *sh = pft_range(rng, 40, 150);
            *dw = pft_range(rng, 1, 12); *dh = pft_range(rng, 1, 10); break;
    default: *dw = pft_range(rng, 1, 90); *dh = pft_range(rng, 1, 70); break;
    }
}

/* Finite f32 pixels through the view (any alignment: memcpy per element).
 * NaN inputs are left out: their outputs' sign and payload are not part of
 * the contract (docs/exactness.md, "GPU resize"). */
static void fill_f32_view(const pf_image *im, uint64_t *rng) {
    int planes = im->layout == PF_CHW ? im->channels : 1;
    int32_t n = im->layout == PF_CHW ? im->width : im->width * im->channels;
    for (int p = 0; p < planes; p++)
        for (int32_t y = 0; y < im->height; y++)
            for (int32_t x = 0; x < n; x++) {
                float v = pft_rand_f32(rng);
                memcpy((char *)im->data + (ptrdiff_t)p * im->plane_stride + (ptrdiff_t)y * im->row_stride + 4 * x, &v,
                       4);
            }
}

static int run_case(uint64_t ci) {
    uint64_t rng = 0x9e3779b97f4a7c15ull ^ (ci * 0x100000001b3ull);
    pft_rand(&rng);
    pf_dtype dt = k_types[pft_range(&rng, 0, 2)];
    pf_interp ip = k_interps[pft_range(&rng, 0, 5)];
    int aa = pft_range(&rng, 0, 2) == 0;
    int cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_range(&rng, 0, 2) == 0 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXB);
    pf_resize_flavor fl = ci % 3 == 2 ? PF_RESIZE_TORCHVISION : PF_RESIZE_OPENCV;
    if (fl == PF_RESIZE_TORCHVISION && ip == PF_INTERP_AREA) ip = PF_INTERP_CUBIC;
    if (fl == PF_RESIZE_TORCHVISION && ip == PF_INTERP_LANCZOS4) aa = 1;
    pf_resize_opts o = {ip, aa != 0, fl};
    int uniform = pft_range(&rng, 0, 2) == 0;
    int sw0 = 0, sh0 = 0, dw0 = 0, dh0 = 0;
    pft_img scpu[MAXB], dcpu[MAXB], dout[MAXB];
    pft_dimg ds[MAXB], dd[MAXB];
    pf_image sc[MAXB], dc[MAXB], sv[MAXB], dv[MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int sw, sh, dw, dh;
        pick_sizes(&rng, &sw, &sh, &dw, &dh);
        if (uniform && i > 0) sw = sw0, sh = sh0, dw = dw0, dh = dh0;
        sw0 = sw, sh0 = sh, dw0 = dw, dh0 = dh;
        pft_img_make(&scpu[i], sw, sh, cn, dt, lay, pft_range(&rng, 0, 3), pft_range(&rng, 0, 3) == 0, &rng);
        pft_img_make(&dcpu[i], dw, dh, cn, dt, lay, pft_range(&rng, 0, 3), pft_range(&rng, 0, 3) == 0, &rng);
        /* odd addresses: the byte-wise loads and stores of gpu_mem.h */
        if (dt != PF_U8 && pft_range(&rng, 0, 4) == 0) scpu[i].im.data = (uint8_t *)scpu[i].im.data + 1;
        if (dt != PF_U8 && pft_range(&rng, 0, 4) == 0) dcpu[i].im.data = (uint8_t *)dcpu[i].im.data + 1;
        if (dt == PF_F32) fill_f32_view(&scpu[i].im, &rng);
        pft_img_clone(&dout[i], &dcpu[i]);
        sc[i] = scpu[i].im, dc[i] = dcpu[i].im;
        ok &= pft_dimg_make(g_dev, &ds[i], &scpu[i]) && pft_dimg_make(g_dev, &dd[i], &dcpu[i]);
        sv[i] = ds[i].im, dv[i] = dd[i].im;
    }
    CHECK(ok);
    pf_stream *s = ci & 1 ? g_stream : NULL;
    pf_status want = pf_resize(NULL, count, sc, dc, &o);
    pf_status got = pf_resize(s, count, sv, dv, &o);
    if (s && got == PF_OK) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK_STATUS(got, want);
    if (got != want) ok = 0;
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&dd[i], &dout[i]));
        long at = pft_img_diff(&dcpu[i], &dout[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "resize case %llu: %s interp %d aa %d flavor %d %dch %s sample %d %dx%d -> %dx%d differs "
                            "at byte %ld\n",
                    (unsigned long long)ci, pf_dtype_name(dt), (int)ip, aa, (int)fl, cn, lay == PF_CHW ? "CHW" : "HWC",
                    i, (int)sc[i].width, (int)sc[i].height, (int)dc[i].width, (int)dc[i].height, at);
        pft_dimg_free(g_dev, &ds[i]);
        pft_dimg_free(g_dev, &dd[i]);
        pft_img_free(&scpu[i]), pft_img_free(&dcpu[i]), pft_img_free(&dout[i]);
    }
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    g_dev = pft_opencl_device_or_skip("opencl_resize");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    int rc = pft_seeded_main(argc, argv, "opencl_resize", run_case, 0, 300);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return rc;
}
