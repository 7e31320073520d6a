/* GPU emulation test of pf_cvt_color_from_yuv: the CUDA job builder and
 * kernel body (src/kernels/gpu_yuv.h) run on the CPU over the launch grid,
 * compared byte for byte (padding included) with the public CPU op. */
#include <stdio.h>

#include "gpu/yuv_jobs.h"
#include "gpu_emul.h"
#include "pixflow/ops.h"

enum { MAXB = 4 };
static int g_reported; /* failures printed (the first 10) */

typedef struct frame_bufs {
    pft_img y, uv, u, v;
} frame_bufs;

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    int code = pft_range(&rng, 90, 106);
    pf_color_opts o = pf_color_opts_defaults();
    o.yuv_matrix = (pf_yuv_matrix)pft_range(&rng, 0, 1);
    o.yuv_range = (pf_yuv_range)pft_range(&rng, 0, 1);
    int count = pft_range(&rng, 1, MAXB);
    int cn = code == 106 ? 1 : ((code >= 94 && code <= 97) || code >= 102) ? 4 : 3;
    frame_bufs fb[MAXB];
    pft_img dcpu[MAXB], dgpu[MAXB];
    pf_yuv src[MAXB];
    pf_image dc[MAXB], dg[MAXB];
    for (int i = 0; i < count; i++) {
        int32_t w = 2 * pft_range(&rng, 1, 40), h = 2 * pft_range(&rng, 1, 20);
        pft_img_make(&fb[i].y, w, h, 1, PF_U8, PF_HWC, pft_range(&rng, 0, 5), pft_range(&rng, 0, 1), &rng);
        pft_img_make(&fb[i].uv, w / 2, h / 2, 2, PF_U8, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_make(&fb[i].u, w / 2, h / 2, 1, PF_U8, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_make(&fb[i].v, w / 2, h / 2, 1, PF_U8, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        src[i].y = fb[i].y.im;
        src[i].uv = fb[i].uv.im;
        src[i].u = fb[i].u.im;
        src[i].v = fb[i].v.im;
        pft_img_make(&dcpu[i], w, h, cn, PF_U8, PF_HWC, pft_range(&rng, 0, 4), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dgpu[i], &dcpu[i]);
        dc[i] = dcpu[i].im;
        dg[i] = dgpu[i].im;
    }
    int ok = 1;
    pf_status st = pf_cvt_color_from_yuv(NULL, count, src, dc, (pf_color_code)code, &o);
    CHECK_STATUS(st, PF_OK);
    size_t scratch, bytes = pfi_gpu_yuv_bytes(count, &scratch);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_yuv_batch *b = NULL;
    pfi_grid g;
    st = pfi_gpu_yuv_build(&a, count, src, dg, (pf_color_code)code, &o, &b, &g);
    CHECK_STATUS(st, PF_OK);
    if (st == PF_OK) PFT_EMULATE_GRID(pfk_yuv_at, b, g);
    for (int i = 0; i < count; i++) {
        long at = pft_img_diff(&dcpu[i], &dgpu[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10) {
            fprintf(stderr, "yuv case seed %llu: code %d matrix %d range %d sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, code, (int)o.yuv_matrix, (int)o.yuv_range, i, (int)dc[i].width,
                    (int)dc[i].height, at);
        }
        pft_img_free(&fb[i].y), pft_img_free(&fb[i].uv), pft_img_free(&fb[i].u), pft_img_free(&fb[i].v);
        pft_img_free(&dcpu[i]), pft_img_free(&dgpu[i]);
    }
    pfi_arena_emulated_free(&a);
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    return pft_seeded_main(argc, argv, "gpu_emul_yuv", run_case, 1000, 600);
}
