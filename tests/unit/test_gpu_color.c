/* GPU emulation test of pf_cvt_color: the CUDA job builder and kernel body
 * (src/kernels/gpu_color.h) run on the CPU over the launch grid, compared
 * byte for byte (padding included) with the public CPU op, for every code
 * and dtype the GPU path supports, 3/4 channels, odd sizes, negative
 * strides, in place, and batches of different sizes. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/color_jobs.h"
#include "gpu_emul.h"
#include "pixflow/ops.h"

enum { MAXB = 4 };
static int g_reported;

static const int k_codes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 36, 37, 38, 39,
                              40, 41, 54, 55, 66, 67, 70, 71};

/* Channel counts a code accepts (as pf_cvt_color validates them). */
static void channels(int code, uint64_t *rng, int *scn, int *dcn) {
    int any = pft_range(rng, 3, 4);
    switch (code) {
    case 0: *scn = 3, *dcn = 4; return;
    case 1: *scn = 4, *dcn = 3; return;
    case 2: *scn = 3, *dcn = 4; return;
    case 3: *scn = 4, *dcn = 3; return;
    case 4: *scn = 3, *dcn = 3; return;
    case 5: *scn = 4, *dcn = 4; return;
    case 6: case 7: *scn = any, *dcn = 1; return;
    case 10: case 11: *scn = 4, *dcn = 1; return;
    case 8: *scn = 1, *dcn = 3; return;
    case 9: *scn = 1, *dcn = 4; return;
    case 36: case 37: case 40: case 41: case 66: case 67: *scn = any, *dcn = 3; return;
    default: *scn = 3, *dcn = any; return; /* inverse YCrCb / HSV */
    }
}

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    int code = k_codes[pft_rand(&rng) % (sizeof k_codes / sizeof k_codes[0])];
    int hsv = code >= 40;
    static const pf_dtype dts[3] = {PF_U8, PF_U16, PF_F32};
    pf_dtype dt = hsv ? (pft_rand(&rng) & 1 ? PF_F32 : PF_U8) : dts[pft_rand(&rng) % 3];
    int scn, dcn;
    channels(code, &rng, &scn, &dcn);
    int in_place = scn == dcn && pft_range(&rng, 0, 3) == 0;
    int count = pft_range(&rng, 1, MAXB);
    pft_img scpu[MAXB], sgpu[MAXB], dcpu[MAXB], dgpu[MAXB];
    pf_image sc[MAXB], sg[MAXB], dc[MAXB], dg[MAXB];
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 100), h = pft_range(&rng, 1, 12);
        pft_img_make(&scpu[i], w, h, scn, dt, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        if (dt == PF_F32) pft_img_fill_f32(&scpu[i], &rng);
        pft_img_clone(&sgpu[i], &scpu[i]);
        sc[i] = scpu[i].im;
        sg[i] = sgpu[i].im;
        if (in_place) {
            dc[i] = sc[i];
            dg[i] = sg[i];
            continue;
        }
        pft_img_make(&dcpu[i], w, h, dcn, dt, PF_HWC, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dgpu[i], &dcpu[i]);
        dc[i] = dcpu[i].im;
        dg[i] = dgpu[i].im;
    }
    pf_status st = pf_cvt_color(NULL, count, sc, dc, (pf_color_code)code, NULL);
    CHECK_STATUS(st, PF_OK);
    size_t scratch, bytes = pfi_gpu_color_bytes(count, &scratch);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_color_batch *b = NULL;
    pfi_grid g;
    st = pfi_gpu_color_build(&a, count, sg, dg, (pf_color_code)code, &b, &g);
    CHECK_STATUS(st, PF_OK);
    if (st == PF_OK) PFT_EMULATE_GRID(pfk_color_at, b, g);
    int ok = 1;
    for (int i = 0; i < count; i++) {
        long at = in_place ? pft_img_diff(&scpu[i], &sgpu[i]) : pft_img_diff(&dcpu[i], &dgpu[i]);
        if (at < 0 && !in_place) at = pft_img_diff(&scpu[i], &sgpu[i]); /* src untouched alike */
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "color case seed %llu: code %d %s %d->%d ch%s sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, code, pf_dtype_name(dt), scn, dcn, in_place ? " in place" : "", i,
                    (int)sc[i].width, (int)sc[i].height, at);
        pft_img_free(&scpu[i]), pft_img_free(&sgpu[i]);
        if (!in_place) pft_img_free(&dcpu[i]), pft_img_free(&dgpu[i]);
    }
    pfi_arena_emulated_free(&a);
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    return pft_seeded_main(argc, argv, "gpu_emul_color", run_case, 5000, 2000);
}
