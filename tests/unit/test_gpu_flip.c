/* GPU emulation test of pf_flip: job builder + kernel body
 * (src/kernels/gpu_flip.h) run on the CPU over the launch grid, compared
 * byte for byte (padding included) with the public CPU op: every dtype,
 * 1..4 channels, HWC and CHW, per-sample and shared codes, odd sizes,
 * negative strides, odd byte offsets (the 1-byte copy unit). */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/flip_jobs.h"
#include "gpu_emul.h"
#include "pixflow/ops.h"
#include "pixflow/runtime.h"

enum { MAXB = 4 };
static int g_reported;

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    pf_dtype dt = (pf_dtype)pft_range(&rng, 0, 6);
    int cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXB);
    int ncodes = pft_rand(&rng) & 1 ? 1 : count;
    pf_flip_code codes[MAXB];
    for (int i = 0; i < ncodes; i++) codes[i] = (pf_flip_code)pft_range(&rng, -1, 2);
    pft_img simg[MAXB], dcpu[MAXB], dgpu[MAXB];
    pf_image s[MAXB], dc[MAXB], dg[MAXB];
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 70), h = pft_range(&rng, 1, 20);
        pft_img_make(&simg[i], w, h, cn, dt, lay, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        s[i] = simg[i].im;
        pft_img_make(&dcpu[i], w, h, cn, dt, lay, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        if (dt == PF_U8 && pft_range(&rng, 0, 3) == 0) { /* odd addresses: 1-byte units */
            dcpu[i].im.data = (uint8_t *)dcpu[i].im.data + 1;
        }
        pft_img_clone(&dgpu[i], &dcpu[i]);
        dc[i] = dcpu[i].im;
        dg[i] = dgpu[i].im;
    }
    pf_status st = pf_flip(NULL, count, s, dc, codes, ncodes);
    CHECK_STATUS(st, PF_OK);
    size_t scratch, bytes = pfi_gpu_flip_bytes(count, &scratch);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_flip_batch *b = NULL;
    pfi_grid g;
    st = pfi_gpu_flip_build(&a, count, s, dg, codes, ncodes, &b, &g);
    CHECK_STATUS(st, PF_OK);
    if (st == PF_OK) PFT_EMULATE_GRID(pfk_flip_at, b, g);
    int ok = 1;
    for (int i = 0; i < count; i++) {
        long at = pft_img_diff(&dcpu[i], &dgpu[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "flip case seed %llu: %s %dch %s code %d sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, pf_dtype_name(dt), cn, lay == PF_CHW ? "CHW" : "HWC",
                    (int)codes[ncodes == 1 ? 0 : i], i, (int)s[i].width, (int)s[i].height, at);
        pft_img_free(&simg[i]), pft_img_free(&dcpu[i]), pft_img_free(&dgpu[i]);
    }
    pfi_arena_emulated_free(&a);
    CHECK(ok);
    return ok;
}

/* Device views where no CUDA device can run them (no GPU here, or a
 * build without CUDA): every routed pointwise op fails cleanly, naming
 * CUDA, before touching memory. Only where pf_device_count says 0: on a
 * GPU machine these host buffers labelled as device memory would be
 * handed to kernels. */
static void no_device_checks(void) {
    int n = 0;
    if (pf_device_count(PF_DEVICE_CUDA, &n) != PF_OK || n != 0) return;
    uint8_t a[48] = {0}, b[48] = {0};
    pf_image s = pf_image_hwc(a, 4, 4, 3, PF_U8, 12), d = pf_image_hwc(b, 4, 4, 3, PF_U8, 12);
    s.mem = d.mem = PF_MEM_CUDA;
    pf_flip_code code = PF_FLIP_BOTH;
    CHECK(pf_flip(NULL, 1, &s, &d, &code, 1) != PF_OK);
    CHECK_MSG("CUDA");
    CHECK(pf_cvt_color(NULL, 1, &s, &d, PF_COLOR_BGR2RGB, NULL) != PF_OK);
    CHECK_MSG("CUDA");
    CHECK(pf_convert(NULL, 1, &s, &d, NULL) != PF_OK);
    CHECK_MSG("CUDA");
    CHECK(pf_normalize(NULL, 1, &s, &d, NULL) != PF_OK);
    CHECK_MSG("CUDA");
    pf_yuv f = pf_yuv_nv12(a, 4, 4, 0);
    f.y.mem = f.uv.mem = PF_MEM_CUDA;
    CHECK(pf_cvt_color_from_yuv(NULL, 1, &f, &d, PF_COLOR_YUV2RGB_NV12, NULL) != PF_OK);
    CHECK_MSG("CUDA");
    f.uv.mem = PF_MEM_HOST; /* mixed planes: the first offender is named */
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &d, PF_COLOR_YUV2RGB_NV12, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv is host memory");
    printf("no CUDA device: %s\n", pf_last_error());
    for (int i = 0; i < 48; i++) CHECK(b[i] == 0);
}

int main(int argc, char **argv) {
    no_device_checks();
    return pft_seeded_main(argc, argv, "gpu_emul_flip", run_case, 9000, 1500);
}
