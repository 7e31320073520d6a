/* pf_warp_affine / pf_warp_perspective on OpenCL device views (the shared
 * body src/kernels/gpu_warp.h as OpenCL C) against the CPU backend, byte
 * for byte over whole buffers, canaries included: the random cases of
 * tests/unit/warp_cases.h (every dtype, 1..4 channels, HWC and CHW,
 * NEAREST/LINEAR/CUBIC, every border including TRANSPARENT, INVERSE_MAP,
 * shared and per-sample matrices, varshape batches, padded, negative and
 * misaligned strides, coordinates past int16), on a NULL stream and on a
 * created stream. Re-run one case: test_opencl_warp <case>. */
#include "opencl_util.h"
#include "unit/warp_cases.h"

static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

/* A device copy of a view's whole buffer, the view at the same offset. */
static int to_device(const view *v, uint8_t **dbuf, pf_image *dim) {
    if (pf_malloc(g_dev, PF_ALLOC_DEVICE, v->size, (void **)dbuf) != PF_OK) return 0;
    if (pf_memcpy_async(NULL, *dbuf, v->buf, v->size) != PF_OK) return 0;
    *dim = v->im;
    dim->data = *dbuf + ((uint8_t *)v->im.data - v->buf);
    dim->mem = PF_MEM_OPENCL;
    dim->device = 0;
    return 1;
}

static int run_case(uint64_t cs) {
    warp_case wc;
    warp_case_make((int)cs, &wc);
    int count = wc.count;
    pf_status want = wc.persp ? pf_warp_perspective(NULL, count, wc.s, wc.dref, wc.mats, wc.nmat, &wc.o)
                              : pf_warp_affine(NULL, count, wc.s, wc.dref, wc.mats, wc.nmat, &wc.o);
    uint8_t *ds[MAXN] = {0}, *dd[MAXN] = {0};
    pf_image dsv[MAXN], ddv[MAXN];
    int ok = 1;
    for (int i = 0; i < count; i++) ok &= to_device(&wc.src[i], &ds[i], &dsv[i]) && to_device(&wc.out[i], &dd[i], &ddv[i]);
    CHECK(ok);
    pf_stream *s = cs & 1 ? g_stream : NULL;
    pf_status got = wc.persp ? pf_warp_perspective(s, count, dsv, ddv, wc.mats, wc.nmat, &wc.o)
                             : pf_warp_affine(s, count, dsv, ddv, wc.mats, wc.nmat, &wc.o);
    if (s && got == PF_OK) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    /* the same answer: both run, or both refuse (e.g. a singular matrix) */
    CHECK_STATUS(got, want);
    if (got != want) ok = 0;
    for (int i = 0; i < count; i++) {
        if (want == PF_OK && got == PF_OK) {
            CHECK(pf_memcpy_async(NULL, wc.out[i].buf, dd[i], wc.out[i].size) == PF_OK);
            long k = warp_case_diff(&wc, i);
            if (k >= 0) {
                ok = 0;
                if (++g_reported <= 10) warp_case_report(&wc, (int)cs, i, k, "OpenCL");
            }
        }
        pf_free(g_dev, PF_ALLOC_DEVICE, ds[i]);
        pf_free(g_dev, PF_ALLOC_DEVICE, dd[i]);
    }
    warp_case_free(&wc);
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    g_dev = pft_opencl_device_or_skip("opencl_warp");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    int rc = pft_seeded_main(argc, argv, "opencl_warp", run_case, 0, 300);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return rc;
}
