/* CUDA launch grids past the hardware limits (ctest cuda_grid_limits,
 * label cuda): gridDim.y and gridDim.z stop at 65535 blocks, so an image
 * taller than 65535 row blocks (8 rows each: > 524280 rows) or a batch of
 * more than 65535 samples (one grid layer each) must be launched in
 * chunks (src/cuda/cu_grid.cuh); a single launch fails with
 * cudaErrorInvalidConfiguration, and a chunk origin mixed up writes the
 * wrong rows or samples. Each op runs on a tall image and on a 70000-sample
 * batch (views into one buffer) on the device and on the CPU; the whole
 * destination buffers must be equal byte for byte. The emulation tests
 * (tests/unit/test_gpu_*.c) cannot see this: they loop over the logical
 * grid. Skips (77) without a CUDA device. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_skip.h"
#include "pixflow/ops.h"
#include "pixflow/runtime.h"
#include "test_util.h"

static pf_device *g_dev;
static pf_stream *g_stream;

typedef pf_status (*op_fn)(pf_stream *s, int count, const pf_image src[], pf_image dst[]);

static pf_status op_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    const pf_flip_code code = PF_FLIP_BOTH;
    return pf_flip(s, count, src, dst, &code, 1);
}

static pf_status op_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    pf_convert_opts o = pf_convert_opts_defaults();
    o.alpha = 1.0 / 255;
    o.beta = 0.25;
    return pf_convert(s, count, src, dst, &o);
}

static pf_status op_minmax(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.mode = PF_NORM_MINMAX;
    o.lo = -1;
    o.hi = 2;
    return pf_normalize(s, count, src, dst, &o);
}

static pf_status op_color(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    return pf_cvt_color(s, count, src, dst, PF_COLOR_BGR2RGB, NULL);
}

static pf_status op_warp(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    static const double m[6] = {0.9, 0.1, 0.3, -0.05, 1.1, 0.2};
    pf_warp_opts o;
    memset(&o, 0, sizeof o);
    o.interp = PF_INTERP_LINEAR;
    o.border = PF_BORDER_REFLECT_101;
    o.flags = PF_WARP_INVERSE_MAP;
    return pf_warp_affine(s, count, src, dst, m, 1, &o);
}

static pf_status op_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    return pf_resize(s, count, src, dst, NULL);
}

typedef struct op_case {
    const char *name;
    op_fn fn;
    pf_dtype ddt;
    int dw_num, dh_num; /* dst size = src size * num / 2 */
} op_case;

/* count samples of w x h x 3 u8 (HWC, packed, one after another in one
 * buffer) through op c, on the device and on the CPU; 1 when equal. */
static int run(const op_case *c, int count, int32_t w, int32_t h, uint64_t seed) {
    int32_t dw = w * c->dw_num / 2, dh = h * c->dh_num / 2;
    size_t es = pf_dtype_size(c->ddt);
    size_t sbytes = (size_t)w * (size_t)h * 3, dbytes = (size_t)dw * (size_t)dh * 3 * es;
    size_t stot = sbytes * (size_t)count, dtot = dbytes * (size_t)count;
    uint8_t *hs = malloc(stot), *hd = malloc(dtot), *back = malloc(dtot);
    pf_image *si = malloc((size_t)count * sizeof *si), *di = malloc((size_t)count * sizeof *di);
    void *ds = NULL, *dd = NULL;
    int ok = 0;
    if (!hs || !hd || !back || !si || !di) goto done;
    uint64_t rng = seed;
    for (size_t k = 0; k < stot; k++) hs[k] = (uint8_t)(pft_rand(&rng) >> 24);
    memset(hd, 0xA5, dtot);
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, stot, &ds), PF_OK);
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, dtot, &dd), PF_OK);
    if (!ds || !dd) goto done;
    CHECK_STATUS(pf_memcpy_async(g_stream, ds, hs, stot), PF_OK);
    CHECK_STATUS(pf_memcpy_async(g_stream, dd, hd, dtot), PF_OK); /* the same canaries */
    for (int i = 0; i < count; i++) {
        si[i] = pf_image_hwc(hs + (size_t)i * sbytes, w, h, 3, PF_U8, 0);
        di[i] = pf_image_hwc(hd + (size_t)i * dbytes, dw, dh, 3, c->ddt, 0);
    }
    CHECK_STATUS(c->fn(NULL, count, si, di), PF_OK);
    for (int i = 0; i < count; i++) {
        si[i].data = (uint8_t *)ds + (size_t)i * sbytes;
        di[i].data = (uint8_t *)dd + (size_t)i * dbytes;
        si[i].mem = di[i].mem = PF_MEM_CUDA;
        si[i].device = di[i].device = 0;
    }
    pf_status st = c->fn(g_stream, count, si, di);
    CHECK_STATUS(st, PF_OK);
    if (st != PF_OK) fprintf(stderr, "  %s: %s\n", c->name, pf_last_error());
    CHECK_STATUS(pf_memcpy_async(g_stream, back, dd, dtot), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(g_stream), PF_OK);
    size_t at = 0;
    while (at < dtot && back[at] == hd[at]) at++;
    ok = st == PF_OK && at == dtot;
    printf("%-10s %6d x %dx%d: %s", c->name, count, (int)w, (int)h, ok ? "same\n" : "DIFFERS");
    if (!ok && at < dtot) printf(" at byte %zu (sample %zu)\n", at, at / dbytes);
    else if (!ok) printf("\n");
done:
    if (ds) pf_free(g_dev, PF_ALLOC_DEVICE, ds);
    if (dd) pf_free(g_dev, PF_ALLOC_DEVICE, dd);
    free(hs), free(hd), free(back), free(si), free(di);
    return ok;
}

int main(void) {
    g_dev = pft_cuda_device_or_skip("cuda_grid_limits");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    if (g_stream == NULL) return pft_summary("cuda_grid_limits");
    static const op_case ops[] = {
        {"flip", op_flip, PF_U8, 2, 2},          {"convert", op_convert, PF_F32, 2, 2},
        {"minmax", op_minmax, PF_F32, 2, 2},     {"cvt_color", op_color, PF_U8, 2, 2},
        {"warp", op_warp, PF_U8, 3, 3},          {"resize", op_resize, PF_U8, 3, 1},
    };
    int n = (int)(sizeof ops / sizeof ops[0]);
    for (int k = 0; k < n; k++) {
        CHECK(run(&ops[k], 70000, 4, 2, 100 + (uint64_t)k)); /* grid z > 65535 */
        /* grid y > 65535 (8-row blocks); warps take sizes <= 32767 only */
        if (ops[k].fn != op_warp) CHECK(run(&ops[k], 1, 2, 600000, 200 + (uint64_t)k));
    }
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return pft_summary("cuda_grid_limits");
}
