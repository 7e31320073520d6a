/* pf_warp_affine / pf_warp_perspective on a CUDA device (ctest cuda_warp,
 * label cuda): the random cases of the emulated test (unit/warp_cases.h)
 * uploaded whole (canaries and padding included), warped on the device
 * on a created stream and on the NULL stream, downloaded and compared
 * byte for byte with the CPU op; plus a 1080p u8 rotation. Skips (77)
 * without a device. Re-run one case: test_cuda_warp <case> */
#include "cuda/cuda_skip.h"
#include "pixflow/runtime.h"
#include "unit/warp_cases.h"

/* Uploads a view's whole buffer; *dv is the same view on the device. */
static pf_status upload(pf_device *gpu, pf_stream *s, const view *v, void **dev, pf_image *dv) {
    pf_status st = pf_malloc(gpu, PF_ALLOC_DEVICE, v->size, dev);
    if (st != PF_OK) return st;
    if ((st = pf_memcpy_async(s, *dev, v->buf, v->size)) != PF_OK) return st;
    *dv = v->im;
    dv->data = (uint8_t *)*dev + ((const uint8_t *)v->im.data - v->buf);
    dv->mem = PF_MEM_CUDA;
    dv->device = 0;
    return PF_OK;
}

static int run_case(pf_device *gpu, pf_stream *stream, int cs) {
    warp_case wc;
    warp_case_make(cs, &wc);
    pf_status want = wc.persp ? pf_warp_perspective(NULL, wc.count, wc.s, wc.dref, wc.mats, wc.nmat, &wc.o)
                              : pf_warp_affine(NULL, wc.count, wc.s, wc.dref, wc.mats, wc.nmat, &wc.o);
    void *dsrc[MAXN] = {0}, *ddst[MAXN] = {0};
    pf_image ds[MAXN], dd[MAXN];
    pf_stream *s = cs % 2 ? NULL : stream; /* NULL: the device's synchronous per-thread stream */
    pf_stream *copy = stream;
    int bad = 0;
    for (int i = 0; i < wc.count; i++) {
        CHECK_STATUS(upload(gpu, copy, &wc.src[i], &dsrc[i], &ds[i]), PF_OK);
        CHECK_STATUS(upload(gpu, copy, &wc.out[i], &ddst[i], &dd[i]), PF_OK);
    }
    CHECK_STATUS(pf_stream_synchronize(copy), PF_OK);
    pf_status got = wc.persp ? pf_warp_perspective(s, wc.count, ds, dd, wc.mats, wc.nmat, &wc.o)
                             : pf_warp_affine(s, wc.count, ds, dd, wc.mats, wc.nmat, &wc.o);
    CHECK_STATUS(got, want);
    if (got == PF_OK && want == PF_OK) {
        for (int i = 0; i < wc.count; i++)
            CHECK_STATUS(pf_memcpy_async(copy, wc.out[i].buf, ddst[i], wc.out[i].size), PF_OK);
        CHECK_STATUS(pf_stream_synchronize(copy), PF_OK);
        for (int i = 0; i < wc.count; i++) {
            long k = warp_case_diff(&wc, i);
            if (k >= 0) warp_case_report(&wc, cs, i, k, s ? "CUDA (stream)" : "CUDA (NULL stream)"), bad = 1;
        }
    }
    CHECK(!bad);
    for (int i = 0; i < wc.count; i++) pf_free(gpu, PF_ALLOC_DEVICE, dsrc[i]), pf_free(gpu, PF_ALLOC_DEVICE, ddst[i]);
    warp_case_free(&wc);
    return want == PF_OK;
}

/* A full-HD u8 BGR rotation (the common augmentation) on the device. */
static void full_hd(pf_device *gpu, pf_stream *stream) {
    enum { W = 1920, H = 1080 };
    size_t n = (size_t)W * H * 3;
    uint8_t *src = malloc(n), *want = malloc(n), *got = malloc(n);
    uint64_t rng = 77;
    for (size_t i = 0; i < n; i++) src[i] = (uint8_t)((i % 5791) ^ (pft_rand(&rng) & 15));
    pf_image hs = pf_image_hwc(src, W, H, 3, PF_U8, 0), hw = pf_image_hwc(want, W, H, 3, PF_U8, 0);
    double m[6];
    CHECK_STATUS(pf_rotation_matrix_2d(W / 2.f, H / 2.f, 17.5, 0.9, m), PF_OK);
    for (int interp = 0; interp < 3; interp++) {
        pf_warp_opts o = pf_warp_opts_defaults();
        o.interp = (pf_interp)interp;
        o.border_value[0] = 114, o.border_value[1] = 114, o.border_value[2] = 114;
        CHECK_STATUS(pf_warp_affine(NULL, 1, &hs, &hw, m, 1, &o), PF_OK);
        void *ds = NULL, *dd = NULL;
        CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, n, &ds), PF_OK);
        CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, n, &dd), PF_OK);
        pf_image vs = hs, vd = hw;
        vs.data = ds, vs.mem = PF_MEM_CUDA, vd.data = dd, vd.mem = PF_MEM_CUDA;
        CHECK_STATUS(pf_image_copy_async(stream, &hs, &vs), PF_OK);
        CHECK_STATUS(pf_warp_affine(stream, 1, &vs, &vd, m, 1, &o), PF_OK);
        pf_image hg = pf_image_hwc(got, W, H, 3, PF_U8, 0);
        CHECK_STATUS(pf_image_copy_async(stream, &vd, &hg), PF_OK);
        CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
        CHECK(memcmp(want, got, n) == 0);
        pf_free(gpu, PF_ALLOC_DEVICE, ds);
        pf_free(gpu, PF_ALLOC_DEVICE, dd);
    }
    free(src), free(want), free(got);
}

/* Device views get the CPU path's argument checks; pf_remap has no
 * device version. */
static void device_args(pf_device *gpu, pf_stream *stream) {
    void *p = NULL, *q = NULL, *mx = NULL;
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, 64 * 64 * 3, &p), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, 64 * 64 * 3, &q), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, 64 * 64 * 4, &mx), PF_OK);
    pf_image s = pf_image_hwc(p, 64, 64, 3, PF_U8, 0), d = pf_image_hwc(q, 64, 64, 3, PF_U8, 0);
    pf_image m = pf_image_hwc(mx, 64, 64, 1, PF_F32, 0);
    s.mem = d.mem = m.mem = PF_MEM_CUDA;
    double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, sing[6] = {1, 2, 0, 2, 4, 0};
    CHECK_STATUS(pf_warp_affine(stream, 1, &s, &d, id, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("nmatrices");
    CHECK_STATUS(pf_warp_affine(stream, 1, &s, &d, sing, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("singular");
    pf_image d4 = d;
    d4.channels = 1;
    CHECK_STATUS(pf_warp_perspective(stream, 1, &s, &d4, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0]");
    CHECK_STATUS(pf_remap(stream, 1, &s, &d, &m, &m, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("pf_remap");
    CHECK_STATUS(pf_warp_perspective(stream, 1, &s, &d, id, 1, NULL), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(stream), PF_OK);
    pf_free(gpu, PF_ALLOC_DEVICE, p), pf_free(gpu, PF_ALLOC_DEVICE, q), pf_free(gpu, PF_ALLOC_DEVICE, mx);
}

int main(int argc, char **argv) {
    pf_device *gpu = pft_cuda_device_or_skip("test_cuda_warp");
    pf_stream *stream;
    CHECK_STATUS(pf_stream_create(gpu, &stream), PF_OK);
    if (pft_fail) return pft_summary("test_cuda_warp");
    int first = 0, last = 600, ok = 0;
    if (argc > 1) first = last = atoi(argv[1]), last++;
    for (int cs = first; cs < last; cs++) ok += run_case(gpu, stream, cs);
    if (argc <= 1) full_hd(gpu, stream), device_args(gpu, stream);
    printf("test_cuda_warp: %d cases (%d warped) + 1080p, bit-exact comparison\n", last - first, ok);
    pf_stream_destroy(stream);
    pf_device_close(gpu);
    return pft_summary("test_cuda_warp");
}
