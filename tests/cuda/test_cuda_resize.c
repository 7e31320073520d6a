/* pf_resize on a CUDA device vs the CPU path, bit for bit: random images
 * uploaded to device memory (padded, misaligned and bottom-up views),
 * varshape batches over every interpolation, antialias, u8/u16/f32,
 * 1..4 channels, HWC and CHW, run on a created stream and on the NULL
 * stream (synchronous), downloaded and compared with pf_resize on host
 * copies. Skips (77) without a CUDA device.
 *
 * Re-run one case: test_cuda_resize <case>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "pixflow/runtime.h"
#include "skip_policy.h"
#include "test_util.h"

#define MAXB 3

static const pf_interp k_interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR,   PF_INTERP_CUBIC,
                                      PF_INTERP_AREA,    PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
static const pf_dtype k_types[] = {PF_U8, PF_U16, PF_F32};

typedef struct pair {
    pf_image host, dev;
    void *hmem, *dmem;
    size_t bytes;
} pair;

/* Host packed view + a device view of the same shape with `pad` bytes per
 * row, starting `mis` bytes into the allocation, rows bottom-up if flip. */
static int make_pair(pf_device *gpu, pair *p, int w, int h, int cn, pf_dtype dt, pf_layout lay, int pad, int mis,
                     int flip, uint64_t *rng) {
    size_t es = pf_dtype_size(dt);
    int planar = lay == PF_CHW && cn > 1;
    size_t hrow = (size_t)w * (planar ? 1 : (size_t)cn) * es, drow = hrow + (size_t)pad;
    size_t hbytes = hrow * (size_t)h * (size_t)cn, dplane = drow * (size_t)h;
    p->bytes = dplane * (size_t)cn + (size_t)mis;
    p->hmem = malloc(hbytes);
    if (p->hmem == NULL || pf_malloc(gpu, PF_ALLOC_DEVICE, p->bytes, &p->dmem) != PF_OK) return 0;
    for (size_t i = 0; i < hbytes / es; i++) {
        uint64_t r = pft_rand(rng);
        if (dt == PF_U8) ((uint8_t *)p->hmem)[i] = (uint8_t)r;
        else if (dt == PF_U16) ((uint16_t *)p->hmem)[i] = (uint16_t)r;
        else ((float *)p->hmem)[i] = (float)((int)(r % 200001) - 100000) / 997.f;
    }
    p->host = lay == PF_CHW ? pf_image_chw(p->hmem, w, h, cn, dt, 0, 0) : pf_image_hwc(p->hmem, w, h, cn, dt, 0);
    char *base = (char *)p->dmem + mis + (flip ? drow * (size_t)(h - 1) : 0);
    ptrdiff_t rs = flip ? -(ptrdiff_t)drow : (ptrdiff_t)drow;
    p->dev = lay == PF_CHW ? pf_image_chw(base, w, h, cn, dt, rs, (ptrdiff_t)dplane) : pf_image_hwc(base, w, h, cn, dt, rs);
    p->dev.mem = PF_MEM_CUDA;
    p->dev.device = 0;
    return 1;
}

static void free_pair(pf_device *gpu, pair *p) {
    free(p->hmem);
    pf_free(gpu, PF_ALLOC_DEVICE, p->dmem);
}

static void run_case(pf_device *gpu, pf_stream *s, int ci) {
    uint64_t rng = 0x51ed27ull ^ ((uint64_t)ci * 0x9e3779b97f4a7c15ull);
    pft_rand(&rng);
    pf_dtype dt = k_types[pft_range(&rng, 0, 2)];
    pf_interp ip = k_interps[pft_range(&rng, 0, 5)];
    int aa = pft_range(&rng, 0, 2) == 0, cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_range(&rng, 0, 2) == 0 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXB);
    pf_resize_opts o = {ip, aa != 0, PF_RESIZE_OPENCV};
    size_t es = pf_dtype_size(dt);
    pair sp[MAXB], dp[MAXB];
    pf_image hs[MAXB], hd[MAXB], ds[MAXB], dd[MAXB];
    int uniform = pft_range(&rng, 0, 2) == 0; /* one shape: samples share tables */
    int sw0 = 0, sh0 = 0, dw0 = 0, dh0 = 0;
    for (int i = 0; i < count; i++) {
        int sw = pft_range(&rng, 1, 700), sh = pft_range(&rng, 1, 500);
        int dw = pft_range(&rng, 1, 400), dh = pft_range(&rng, 1, 300);
        if (pft_range(&rng, 0, 3) == 0) { dw = (sw + 1) / 2; dh = (sh + 1) / 2; sw = 2 * dw; sh = 2 * dh; }
        if (uniform && i > 0) { sw = sw0; sh = sh0; dw = dw0; dh = dh0; }
        sw0 = sw; sh0 = sh; dw0 = dw; dh0 = dh;
        int ok = make_pair(gpu, &sp[i], sw, sh, cn, dt, lay, pft_range(&rng, 0, 5), pft_range(&rng, 0, 3),
                           pft_range(&rng, 0, 1), &rng);
        ok = ok && make_pair(gpu, &dp[i], dw, dh, cn, dt, lay, pft_range(&rng, 0, 5) * (int)es, 0, 0, &rng);
        CHECK(ok);
        if (!ok) return;
        hs[i] = sp[i].host; hd[i] = dp[i].host; ds[i] = sp[i].dev; dd[i] = dp[i].dev;
        CHECK_STATUS(pf_image_copy_async(s, &hs[i], &ds[i]), PF_OK);
    }
    CHECK_STATUS(pf_resize(NULL, count, hs, hd, &o), PF_OK); /* CPU reference into the host dst */
    for (int pass = 0; pass < 2; pass++) {
        pf_stream *run = pass == 0 ? s : NULL;
        /* canary-filled outputs first, so a pass that writes nothing fails */
        for (int i = 0; i < count; i++) {
            size_t n = (size_t)hd[i].width * (size_t)hd[i].height * (size_t)cn * es;
            char *canary = malloc(n);
            memset(canary, 0xA5, n);
            pf_image cv = lay == PF_CHW ? pf_image_chw(canary, hd[i].width, hd[i].height, cn, dt, 0, 0)
                                        : pf_image_hwc(canary, hd[i].width, hd[i].height, cn, dt, 0);
            CHECK_STATUS(pf_image_copy_async(s, &cv, &dd[i]), PF_OK);
            CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
            free(canary);
        }
        CHECK_STATUS(pf_resize(run, count, ds, dd, &o), PF_OK);
        if (pass == 0) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
        for (int i = 0; i < count; i++) {
            size_t n = (size_t)hd[i].width * (size_t)hd[i].height * (size_t)cn * es;
            char *got = malloc(n);
            pf_image gv = lay == PF_CHW ? pf_image_chw(got, hd[i].width, hd[i].height, cn, dt, 0, 0)
                                        : pf_image_hwc(got, hd[i].width, hd[i].height, cn, dt, 0);
            CHECK_STATUS(pf_image_copy_async(NULL, &dd[i], &gv), PF_OK);
            int same = memcmp(got, hd[i].data, n) == 0;
            CHECK(same);
            if (!same)
                fprintf(stderr, "  case %d sample %d pass %d: %s interp %d aa %d c%d %s %dx%d -> %dx%d differs\n", ci, i,
                        pass, pf_dtype_name(dt), (int)ip, aa, cn, lay == PF_CHW ? "CHW" : "HWC", hs[i].width,
                        hs[i].height, hd[i].width, hd[i].height);
            free(got);
        }
    }
    for (int i = 0; i < count; i++) { free_pair(gpu, &sp[i]); free_pair(gpu, &dp[i]); }
}

int main(int argc, char **argv) {
    int n = 0;
    pf_status st = pf_device_count(PF_DEVICE_CUDA, &n);
    if (st != PF_OK || n == 0) {
        char why[512];
        snprintf(why, sizeof why, "no CUDA device (%s)", st != PF_OK ? pf_last_error() : "pf_device_count says 0");
        return pft_skip_gpu("cuda_resize", why);
    }
    pf_device *gpu = NULL;
    pf_stream *s = NULL;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CUDA, 0, &gpu), PF_OK);
    CHECK_STATUS(pf_stream_create(gpu, &s), PF_OK);
    if (gpu == NULL || s == NULL) return pft_summary("cuda_resize");
    int cases = 0;
    if (argc > 1) { run_case(gpu, s, atoi(argv[1])); cases = 1; }
    else for (; cases < 120; cases++) run_case(gpu, s, cases);
    pf_stream_destroy(s);
    pf_device_close(gpu);
    printf("cuda_resize: %d cases\n", cases);
    return pft_summary("cuda_resize");
}
