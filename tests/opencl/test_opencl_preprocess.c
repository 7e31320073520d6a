/*
 * pf_preprocess_run on an OpenCL device (PoCL in CI): the random cases of
 * tests/gpu_pp_cases.h (every transform incl. contrast and affine,
 * letterbox, every out dtype incl. u8 -> f32 normalize, CHW / HWC,
 * varshape 1/3-channel sources, per-sample params, pitched tensors)
 * uploaded to the device, run on a created stream and on the NULL
 * stream, downloaded and compared BYTE FOR BYTE (whole tensor buffer,
 * canaries included) with the CPU pf_preprocess_run, letterbox infos
 * too. Then the imagenet-train recipe batch on the photos in data/ for a
 * fixed seed (as the recipe is, and with its colour jitter on), byte
 * identical to the CPU's. Skips (77) without an OpenCL device, except
 * under CI=true (tests/skip_policy.h).
 * The 150 4:2:0 cases run pf_preprocess_run_yuv the same way.
 * Re-run one case: test_opencl_preprocess <case> | test_opencl_preprocess yuv <case>.
 */
#include "../gpu_pp_cases.h"
#include "opencl_util.h"
#include "pixflow/runtime.h"
#ifdef PF_DATA_DIR /* a build with the codec (PIXFLOW_CODEC): the photos of data/ */
#include "../unit/codec_test_io.h"
#include "pixflow/codec.h"
#endif

static pf_device *g_dev;

/* Host tensor t's buffer (total bytes) computed on the CPU and on the
 * device from host sources src (copied to the device); 1 when they
 * differ. */
static int compare_run(pf_preprocess_plan *plan, pf_stream *stream, int count,
                       const pf_image src[], uint8_t *const pix[], const size_t pix_bytes[],
                       const ptrdiff_t pix_offset[], const pf_aug_params *params, const pf_tensor *shape,
                       size_t total, const char *what) {
    uint8_t *cpu = malloc(total), *back = malloc(total);
    void *dsrc[64] = {0}, *dten = NULL;
    pf_image dev_src[64];
    int bad = 1;
    if (cpu == NULL || back == NULL || count > 64) goto done;
    memset(cpu, PP_CANARY, total);
    memset(back, PP_CANARY, total);
    pf_letterbox_info info_cpu[64], info_dev[64];
    memset(info_cpu, 0, sizeof info_cpu);
    memset(info_dev, 0x5a, sizeof info_dev);
    pf_tensor t = *shape;
    t.data = cpu;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, count, src, params, &t, info_cpu), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, pix_bytes[i], &dsrc[i]), PF_OK);
        if (dsrc[i] == NULL) goto done;
        CHECK_STATUS(pf_memcpy_async(stream, dsrc[i], pix[i], pix_bytes[i]), PF_OK);
        dev_src[i] = src[i];
        dev_src[i].data = (uint8_t *)dsrc[i] + pix_offset[i];
        dev_src[i].mem = PF_MEM_OPENCL;
        dev_src[i].device = 0;
    }
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, total, &dten), PF_OK);
    if (dten == NULL) goto done;
    CHECK_STATUS(pf_memcpy_async(stream, dten, back, total), PF_OK); /* canaries */
    pf_tensor dt = *shape;
    dt.data = dten;
    dt.mem = PF_MEM_OPENCL;
    dt.device = 0;
    CHECK_STATUS(pf_preprocess_run(plan, stream, count, dev_src, params, &dt, info_dev), PF_OK);
    CHECK_STATUS(pf_memcpy_async(stream, back, dten, total), PF_OK);
    if (stream) CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
    size_t first, diff = pp_diff(cpu, back, total, &first);
    if (diff)
        fprintf(stderr, "%s: %zu of %zu bytes differ, first at %zu (cpu %02x opencl %02x)\n", what, diff, total,
                first, cpu[first], back[first]);
    CHECK(diff == 0);
    CHECK(memcmp(info_cpu, info_dev, (size_t)count * sizeof info_cpu[0]) == 0);
    bad = diff != 0;
done:
    if (stream) pf_stream_synchronize(stream);
    for (int i = 0; i < count && i < 64; i++) pf_free(g_dev, PF_ALLOC_DEVICE, dsrc[i]);
    pf_free(g_dev, PF_ALLOC_DEVICE, dten);
    free(cpu);
    free(back);
    return bad;
}

/* Random case k (tests/gpu_pp_cases.h). */
static int run_case(int k, pf_stream *stream, int *contrast) {
    pp_case c;
    if (pp_case_make(k, k >= 100000, &c)) {
        CHECK(0);
        pp_case_free(&c);
        return 1;
    }
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&c.d, &plan), PF_OK);
    const pf_aug_params *params = k % 17 == 5 ? NULL : c.params; /* NULL: identity for all */
    for (int i = 0; params && i < c.count; i++) *contrast += params[i].contrast != 1.0f;
    int bad = 1;
    if (plan != NULL) {
        char what[64];
        snprintf(what, sizeof what, "case %d", k);
        bad = compare_run(plan, stream, c.count, c.src, c.pix, c.pix_bytes, c.pix_offset, params, &c.t,
                          c.total, what);
        if (bad) pp_case_describe(&c, k, 0, "test_opencl_preprocess");
    }
    pf_preprocess_plan_destroy(plan);
    pp_case_free(&c);
    return bad;
}

/* Frame f's views moved to OpenCL buffer `to` (pp_yuv_moved says CUDA). */
static pf_yuv yuv_on_opencl(const pf_yuv *f, const uint8_t *from, uint8_t *to) {
    pf_yuv m = pp_yuv_moved(f, from, to, 0);
    pf_image *planes[4] = {&m.y, &m.uv, &m.u, &m.v};
    for (int p = 0; p < 4; p++)
        if (planes[p]->data != NULL) planes[p]->mem = PF_MEM_OPENCL;
    return m;
}

/* 4:2:0 case k (pf_preprocess_run_yuv) on the device vs the CPU. */
static int run_yuv_case(int k, pf_stream *stream) {
    pp_yuv_case c;
    if (pp_yuv_case_make(k, &c)) {
        CHECK(0);
        pp_yuv_case_free(&c);
        return 1;
    }
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&c.d, &plan), PF_OK);
    uint8_t *cpu = malloc(c.total), *back = malloc(c.total);
    void *dbuf[PP_MAX_BATCH] = {0}, *dten = NULL;
    pf_yuv dev[PP_MAX_BATCH];
    const pf_color_opts *opts = c.use_opts ? c.opts : NULL;
    int bad = 1;
    if (plan == NULL || cpu == NULL || back == NULL) goto done;
    memset(cpu, PP_CANARY, c.total);
    memset(back, PP_CANARY, c.total);
    pf_letterbox_info info_cpu[PP_MAX_BATCH], info_dev[PP_MAX_BATCH];
    pf_tensor t = c.t;
    t.data = cpu;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, c.count, c.src, c.codes, opts, c.params, &t, info_cpu), PF_OK);
    for (int i = 0; i < c.count; i++) {
        CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, c.buf_bytes[i], &dbuf[i]), PF_OK);
        if (dbuf[i] == NULL) goto done;
        CHECK_STATUS(pf_memcpy_async(stream, dbuf[i], c.buf[i], c.buf_bytes[i]), PF_OK);
        dev[i] = yuv_on_opencl(&c.src[i], c.buf[i], dbuf[i]);
    }
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, c.total, &dten), PF_OK);
    if (dten == NULL) goto done;
    CHECK_STATUS(pf_memcpy_async(stream, dten, back, c.total), PF_OK);
    pf_tensor dt = c.t;
    dt.data = dten;
    dt.mem = PF_MEM_OPENCL;
    dt.device = 0;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, stream, c.count, dev, c.codes, opts, c.params, &dt, info_dev), PF_OK);
    CHECK_STATUS(pf_memcpy_async(stream, back, dten, c.total), PF_OK);
    if (stream) CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
    size_t first, diff = pp_diff(cpu, back, c.total, &first);
    if (diff)
        fprintf(stderr, "yuv case %d: %zu of %zu bytes differ, first at %zu\n", k, diff, c.total, first);
    CHECK(diff == 0);
    CHECK(memcmp(info_cpu, info_dev, (size_t)c.count * sizeof info_cpu[0]) == 0);
    bad = diff != 0;
done:
    if (stream) pf_stream_synchronize(stream);
    for (int i = 0; i < c.count; i++) pf_free(g_dev, PF_ALLOC_DEVICE, dbuf[i]);
    pf_free(g_dev, PF_ALLOC_DEVICE, dten);
    free(cpu);
    free(back);
    pf_preprocess_plan_destroy(plan);
    pp_yuv_case_free(&c);
    return bad;
}

#ifdef PF_DATA_DIR
/* The imagenet-train recipe batch on the photos of data/, seed 20251, as
 * the recipe is (jitter 0: colour jitter off) and with its colour jitter
 * on (jitter 1: brightness, contrast with its pre-pass, saturation,
 * hue). */
static int run_recipe(pf_stream *stream, int jitter) {
    static const char *const files[] = {"astronaut_500x375.jpg", "chelsea_333x251.jpg", "coffee_500x375.jpg",
                                        "ladybird_375x500.jpg",  "rocket_500x375.jpg",  "camera_gray_512x512.jpg",
                                        "hubble_640x480_progressive.jpg", "green_leaf_1920x1080.jpg"};
    enum { N = (int)(sizeof files / sizeof files[0]) };
    pf_preprocess_desc d;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &d, &pol), PF_OK);
    pol.color_jitter = jitter != 0;
    pf_image src[N];
    uint8_t *pix[N] = {0};
    size_t bytes[N];
    ptrdiff_t off[N];
    int32_t w[N], h[N];
    int bad = 1, n = 0;
    for (; n < N; n++) {
        size_t len = 0;
        unsigned char *f = pft_load(PF_DATA_DIR, files[n], &len);
        pf_decode_result r;
        pf_decode_opts o = pf_decode_opts_defaults();
        CHECK(f != NULL);
        if (f == NULL) break;
        CHECK_STATUS(pf_decode_query(f, len, &o, &r), PF_OK);
        bytes[n] = (size_t)r.width * (size_t)r.height * (size_t)r.channels;
        pix[n] = malloc(bytes[n]);
        off[n] = 0;
        memset(&src[n], 0, sizeof src[n]);
        src[n].data = pix[n];
        src[n].width = r.width;
        src[n].height = r.height;
        src[n].channels = r.channels;
        src[n].dtype = PF_U8;
        src[n].layout = PF_HWC;
        src[n].row_stride = (ptrdiff_t)r.width * r.channels;
        src[n].mem = PF_MEM_HOST;
        w[n] = r.width;
        h[n] = r.height;
        pf_status st = pix[n] ? pf_decode(NULL, f, len, &o, &src[n], NULL) : PF_ERR_OUT_OF_MEMORY;
        CHECK_STATUS(st, PF_OK);
        free(f);
        if (st != PF_OK) {
            n++;
            goto done;
        }
    }
    pf_aug_params params[N];
    CHECK_STATUS(pf_aug_sample(&pol, 20251, 3, 0, N, w, h, params), PF_OK);
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    if (plan != NULL) {
        pf_tensor t;
        size_t es = pf_dtype_size(d.out_dtype);
        memset(&t, 0, sizeof t);
        t.n = N;
        t.channels = d.out_channels;
        t.height = d.out_height;
        t.width = d.out_width;
        t.dtype = d.out_dtype;
        t.layout = d.out_layout;
        t.row_stride = (ptrdiff_t)(es * (size_t)d.out_width * (size_t)(d.out_layout == PF_HWC ? d.out_channels : 1));
        t.plane_stride = d.out_layout == PF_CHW ? t.row_stride * d.out_height : 0;
        t.sample_stride = d.out_layout == PF_CHW ? t.plane_stride * d.out_channels : t.row_stride * d.out_height;
        bad = compare_run(plan, stream, N, src, pix, bytes, off, params, &t, (size_t)t.sample_stride * N,
                          jitter ? "imagenet-train (colour jitter on)" : "imagenet-train");
        printf("opencl_preprocess: imagenet-train%s, %d photos of data/, seed 20251: %s\n",
               jitter ? " with colour jitter" : "", N, bad ? "DIFFERS" : "byte-identical to the CPU");
    }
    pf_preprocess_plan_destroy(plan);
done:
    for (int i = 0; i < n; i++) free(pix[i]);
    return bad;
}
#endif

int main(int argc, char **argv) {
    g_dev = pft_opencl_device_or_skip("opencl_preprocess"); /* exits 77 without a device (not under CI) */
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create(g_dev, &s), PF_OK);
    int contrast = 0;
    if (argc > 2 && strcmp(argv[1], "yuv") == 0) {
        run_yuv_case(atoi(argv[2]), s);
    } else if (argc > 1) {
        run_case(atoi(argv[1]), s, &contrast);
    } else {
        int failed = 0, cases = 0;
        for (int k = 0; k < 200 && failed < 5; k++, cases++) failed += run_case(k, k % 4 == 3 ? NULL : s, &contrast);
        for (int k = 0; k < 60 && failed < 5; k++, cases++) failed += run_case(100000 + k, s, &contrast);
        int yuv_failed = 0;
        for (int k = 0; k < 150 && yuv_failed < 5; k++) yuv_failed += run_yuv_case(k, k % 4 == 3 ? NULL : s);
        printf("opencl_preprocess: %d random cases, %d differ (%d samples with contrast); 150 4:2:0 cases, %d "
               "differ\n",
               cases, failed, contrast, yuv_failed);
        failed += yuv_failed;
        CHECK(contrast > 0); /* the pre-pass ran */
#ifdef PF_DATA_DIR
        failed += run_recipe(s, 0);
        failed += run_recipe(NULL, 1);
#endif
    }
    pf_stream_destroy(s);
    pf_device_close(g_dev);
    return pft_summary("opencl_preprocess");
}
