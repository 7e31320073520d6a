/*
 * pf_preprocess_run on a CUDA device: the random cases of
 * tests/gpu_pp_cases.h (every transform, letterbox, every out dtype and
 * layout, varshape 1/3-channel sources, pitched tensors) uploaded to the
 * device, run on a created stream and on the NULL stream, downloaded and
 * compared BIT-EXACTLY (whole tensor buffer, canaries included) with the
 * CPU pf_preprocess_run. Skips (77) without a CUDA device.
 * The 4:2:0 cases run pf_preprocess_run_yuv the same way.
 * Re-run one case: test_cuda_preprocess <case> | test_cuda_preprocess yuv <case>.
 */
#include "cuda_skip.h"
#include "gpu_pp_cases.h"
#include "pixflow/runtime.h"

static pf_device *g_dev;

/* Case k on the device with `stream` (NULL: the implicit stream). */
static int run_case(int k, pf_stream *stream) {
    pp_case c;
    if (pp_case_make(k, k >= 100000, &c)) {
        CHECK(0);
        pp_case_free(&c);
        return 1;
    }
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&c.d, &plan), PF_OK);
    const pf_aug_params *params = k % 17 == 5 ? NULL : c.params; /* NULL: identity for all */
    uint8_t *cpu = malloc(c.total), *back = malloc(c.total);
    void *dsrc[PP_MAX_BATCH] = {0}, *dten = NULL;
    int bad = 1;
    pf_image dev_src[PP_MAX_BATCH];
    if (plan == NULL || cpu == NULL || back == NULL) goto done;
    memset(cpu, PP_CANARY, c.total);
    memset(back, PP_CANARY, c.total);
    pf_letterbox_info info_cpu[PP_MAX_BATCH], info_gpu[PP_MAX_BATCH];
    pf_tensor t = c.t;
    t.data = cpu;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, c.count, c.src, params, &t, info_cpu), PF_OK);

    for (int i = 0; i < c.count; i++) {
        CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, c.pix_bytes[i], &dsrc[i]), PF_OK);
        if (dsrc[i] == NULL) goto done;
        CHECK_STATUS(pf_memcpy_async(stream, dsrc[i], c.pix[i], c.pix_bytes[i]), PF_OK);
        dev_src[i] = c.src[i];
        dev_src[i].data = (uint8_t *)dsrc[i] + c.pix_offset[i];
        dev_src[i].mem = PF_MEM_CUDA;
        dev_src[i].device = 0;
    }
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, c.total, &dten), PF_OK);
    if (dten == NULL) goto done;
    CHECK_STATUS(pf_memcpy_async(stream, dten, back, c.total), PF_OK); /* canaries */
    pf_tensor dt = c.t;
    dt.data = dten;
    dt.mem = PF_MEM_CUDA;
    dt.device = 0;
    CHECK_STATUS(pf_preprocess_run(plan, stream, c.count, dev_src, params, &dt, info_gpu), PF_OK);
    CHECK_STATUS(pf_memcpy_async(stream, back, dten, c.total), PF_OK);
    if (stream) CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
    size_t first, diff = pp_diff(cpu, back, c.total, &first);
    if (diff) {
        fprintf(stderr, "%zu of %zu bytes differ (cpu %02x gpu %02x)\n", diff, c.total, cpu[first], back[first]);
        pp_case_describe(&c, k, first, "test_cuda_preprocess");
    }
    CHECK(diff == 0);
    CHECK(memcmp(info_cpu, info_gpu, (size_t)c.count * sizeof info_cpu[0]) == 0);
    bad = diff != 0;
done:
    if (stream) pf_stream_synchronize(stream);
    for (int i = 0; i < c.count; i++) pf_free(g_dev, PF_ALLOC_DEVICE, dsrc[i]);
    pf_free(g_dev, PF_ALLOC_DEVICE, dten);
    free(cpu);
    free(back);
    pf_preprocess_plan_destroy(plan);
    pp_case_free(&c);
    return bad;
}

/* 4:2:0 case k (pf_preprocess_run_yuv) on the device. */
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
    pf_letterbox_info info_cpu[PP_MAX_BATCH], info_gpu[PP_MAX_BATCH];
    pf_tensor t = c.t;
    t.data = cpu;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, c.count, c.src, c.codes, opts, c.params, &t, info_cpu), PF_OK);
    for (int i = 0; i < c.count; i++) {
        CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, c.buf_bytes[i], &dbuf[i]), PF_OK);
        if (dbuf[i] == NULL) goto done;
        CHECK_STATUS(pf_memcpy_async(stream, dbuf[i], c.buf[i], c.buf_bytes[i]), PF_OK);
        dev[i] = pp_yuv_moved(&c.src[i], c.buf[i], dbuf[i], 0);
    }
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, c.total, &dten), PF_OK);
    if (dten == NULL) goto done;
    CHECK_STATUS(pf_memcpy_async(stream, dten, back, c.total), PF_OK);
    pf_tensor dt = c.t;
    dt.data = dten;
    dt.mem = PF_MEM_CUDA;
    dt.device = 0;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, stream, c.count, dev, c.codes, opts, c.params, &dt, info_gpu), PF_OK);
    CHECK_STATUS(pf_memcpy_async(stream, back, dten, c.total), PF_OK);
    if (stream) CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
    size_t first, diff = pp_diff(cpu, back, c.total, &first);
    if (diff)
        fprintf(stderr, "yuv case %d: %zu of %zu bytes differ, first at %zu; re-run: test_cuda_preprocess yuv %d\n", k,
                diff, c.total, first, k);
    CHECK(diff == 0);
    CHECK(memcmp(info_cpu, info_gpu, (size_t)c.count * sizeof info_cpu[0]) == 0);
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

int main(int argc, char **argv) {
    g_dev = pft_cuda_device_or_skip("cuda_preprocess"); /* exits 77 without a GPU */
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create(g_dev, &s), PF_OK);
    if (argc > 2 && strcmp(argv[1], "yuv") == 0) {
        run_yuv_case(atoi(argv[2]), s);
    } else if (argc > 1) {
        run_case(atoi(argv[1]), s);
    } else {
        int failed = 0, cases = 0;
        for (int k = 0; k < 200 && failed < 5; k++, cases++) failed += run_case(k, k % 4 == 3 ? NULL : s);
        for (int k = 0; k < 100 && failed < 5; k++, cases++) failed += run_case(100000 + k, s);
        for (int k = 0; k < 150 && failed < 5; k++, cases++) failed += run_yuv_case(k, k % 4 == 3 ? NULL : s);
        printf("cuda_preprocess: %d cases (images and 4:2:0 frames), %d differ\n", cases, failed);
    }
    pf_stream_destroy(s);
    pf_device_close(g_dev);
    return pft_summary("cuda_preprocess");
}
