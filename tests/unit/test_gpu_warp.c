/* GPU warp kernel body and job builder on the CPU (ctest gpu_emul_warp):
 * jobs built into an emulated arena (device address == host address),
 * the whole launch grid run with pfk_warp_at, and the result compared
 * byte for byte, canaries included, with the public CPU pf_warp_affine /
 * pf_warp_perspective on the same views. Random cases (fixed seed) cover
 * every dtype, 1..4 channels, HWC and CHW, NEAREST/LINEAR/CUBIC, every
 * border (TRANSPARENT and CONSTANT values out of the dtype's range),
 * INVERSE_MAP or not, nmatrices 1 or count, varshape batches, padded,
 * negative and misaligned strides, and matrices that push coordinates
 * past int16. Also checks pfk_warp_u8_value (the fused preprocess's
 * entry) against the same CPU output. Re-run one case:
 *   test_gpu_warp <case>   */
#include "gpu/warp_jobs.h"
#include "unit/warp_cases.h"

static int run_case(int cs, int *u8_values_checked) {
    warp_case wc;
    warp_case_make(cs, &wc);
    int persp = wc.persp, count = wc.count, nmat = wc.nmat, cn = wc.cn;
    pf_warp_opts o = wc.o;
    pf_image *s = wc.s, *dref = wc.dref, *dout = wc.dout;
    const double *mats = wc.mats;
    pf_status want = persp ? pf_warp_perspective(NULL, count, s, dref, mats, nmat, &o)
                           : pf_warp_affine(NULL, count, s, dref, mats, nmat, &o);
    int bad = 0;
    if (want == PF_OK) {
        size_t scratch;
        pfi_arena a;
        size_t bytes = pfi_gpu_warp_bytes(count, &scratch);
        CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
        const pfk_warp_batch *batch = NULL;
        pfi_grid g;
        pf_status st = pfi_gpu_warp_build(&a, persp ? "pf_warp_perspective" : "pf_warp_affine", persp, count, s,
                                          dout, mats, nmat, &o, &batch, &g);
        CHECK_STATUS(st, PF_OK);
        if (st == PF_OK) {
            CHECK(g.n == count && a.used <= bytes);
            /* first as the launcher runs it (the specialised body for the
             * batch's variant), then the generic body from the canaries again */
            int variant = pfi_gpu_warp_variant(count, s, &o);
            CHECK(variant == (int)o.interp * 2 + (wc.dt == PF_U8));
            uint8_t *canary[MAXN];
            for (int i = 0; i < count; i++) {
                canary[i] = malloc(wc.out[i].size);
                memcpy(canary[i], wc.out[i].buf, wc.out[i].size);
            }
            for (int pass = 0; pass < 2; pass++) {
                for (int32_t n = 0; n < g.n; n++)
                    for (int32_t y = 0; y < g.h; y++)
                        for (int32_t x = 0; x < g.w; x++) {
                            if (pass == 0) pfk_warp_at_as(batch, n, x, y, variant / 2, variant % 2);
                            else pfk_warp_at(batch, n, x, y);
                        }
                for (int i = 0; i < count; i++) {
                    long k = warp_case_diff(&wc, i);
                    if (k >= 0)
                        warp_case_report(&wc, cs, i, k, pass ? "emulated generic body" : "emulated launch body"),
                            bad = 1;
                    memcpy(wc.out[i].buf, canary[i], wc.out[i].size);
                }
            }
            for (int i = 0; i < count; i++) free(canary[i]);
            /* the fused entry: u8 HWC with a CONSTANT border */
            if (wc.dt == PF_U8 && (wc.lay == PF_HWC || cn == 1) && o.border == PF_BORDER_CONSTANT) {
                for (int i = 0; i < count; i++) {
                    const pfk_warp_job *j = &batch->jobs[i];
                    for (int32_t y = 0; y < j->dst_h; y++)
                        for (int32_t x = 0; x < j->dst_w; x++) {
                            uint8_t px[4] = {0, 0, 0, 0};
                            CHECK(pfk_warp_u8_pixel(j, x, y, px) == 1);
                            for (int32_t c = 0; c < cn; c++) {
                                uint8_t v = pfk_warp_u8_value(j, x, y, c);
                                uint8_t r = ((const uint8_t *)dref[i].data)[y * dref[i].row_stride + x * cn + c];
                                if ((v != r || px[c] != r) && !bad) {
                                    fprintf(stderr,
                                            "case %d sample %d: pfk_warp_u8_value(%d, %d, %d) = %d, "
                                            "pfk_warp_u8_pixel %d, CPU %d\n",
                                            cs, i, x, y, c, v, px[c], r);
                                    bad = 1;
                                }
                            }
                        }
                    (*u8_values_checked)++;
                }
            }
        }
        pfi_arena_emulated_free(&a);
    } else {
        /* a singular random matrix: the GPU builder must refuse it the same way */
        size_t scratch;
        pfi_arena a;
        size_t bytes = pfi_gpu_warp_bytes(count, &scratch);
        CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
        const pfk_warp_batch *batch;
        pfi_grid g;
        CHECK_STATUS(pfi_gpu_warp_build(&a, "pf_warp_affine", persp, count, s, dout, mats, nmat, &o, &batch, &g), want);
        pfi_arena_emulated_free(&a);
    }
    CHECK(!bad);
    warp_case_free(&wc);
    return want == PF_OK;
}

/* Perspective positions depend on OpenCV's block origin: with x / 10 +
 * 1/320 per pixel the exact source column lands on a 1/64 tie, and
 * evaluating from the block's left column (as OpenCV does) or from column
 * 0 rounds some of those ties differently (columns 82, 87, ... of a
 * 64-wide block). The GPU body must use the block origins. */
static void check_block_origin(void) {
    enum { SW = 200, SH = 20, DW = 256, DH = 16 };
    static uint8_t sp[SW * SH], want[DW * DH], got[DW * DH];
    for (int i = 0; i < SW * SH; i++) sp[i] = (uint8_t)(i * 37 + i / SW);
    pf_image src = pf_image_hwc(sp, SW, SH, 1, PF_U8, 0);
    pf_image dw = pf_image_hwc(want, DW, DH, 1, PF_U8, 0), dg = pf_image_hwc(got, DW, DH, 1, PF_U8, 0);
    double m[9] = {0.1, 0, 0.003125, 0, 1, 0, 0, 0, 1};
    pf_warp_opts o = pf_warp_opts_defaults();
    o.flags = PF_WARP_INVERSE_MAP;
    CHECK_STATUS(pf_warp_perspective(NULL, 1, &src, &dw, m, 1, &o), PF_OK);
    size_t scratch;
    pfi_arena a;
    size_t bytes = pfi_gpu_warp_bytes(1, &scratch);
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_warp_batch *b;
    pfi_grid g;
    CHECK_STATUS(pfi_gpu_warp_build(&a, "pf_warp_perspective", 1, 1, &src, &dg, m, 1, &o, &b, &g), PF_OK);
    for (int32_t y = 0; y < g.h; y++)
        for (int32_t x = 0; x < g.w; x++) pfk_warp_at(b, 0, x, y);
    CHECK(memcmp(want, got, sizeof want) == 0);
    pfi_arena_emulated_free(&a);
}

/* A batch mixing u8 with u16/f32 samples has no specialised kernel. */
static void check_variant_mix(void) {
    uint8_t a[4];
    uint16_t b[4];
    pf_image im[2] = {pf_image_hwc(a, 2, 2, 1, PF_U8, 0), pf_image_hwc(b, 2, 2, 1, PF_U16, 0)};
    pf_warp_opts o = pf_warp_opts_defaults();
    CHECK(pfi_gpu_warp_variant(2, im, &o) == -1);
    CHECK(pfi_gpu_warp_variant(1, im, &o) == 3);
    CHECK(pfi_gpu_warp_variant(1, im + 1, &o) == 2);
}

/* The job filler alone, as the fused preprocess calls it: one u8 HWC
 * sample, an inverse matrix, a CONSTANT border. */
static void check_job_fill(void) {
    uint8_t px[5 * 4 * 3];
    for (int i = 0; i < (int)sizeof px; i++) px[i] = (uint8_t)(i * 7);
    pf_image src = pf_image_hwc(px, 5, 4, 3, PF_U8, 0);
    uint8_t want[3 * 2 * 3];
    pf_image dst = pf_image_hwc(want, 3, 2, 3, PF_U8, 0);
    double m[6] = {1.25, 0.1, 0.3, -0.2, 1.5, 0.7};
    pf_warp_opts o = pf_warp_opts_defaults();
    o.flags = PF_WARP_INVERSE_MAP;
    o.border_value[0] = 9, o.border_value[1] = 300, o.border_value[2] = -4;
    CHECK_STATUS(pf_warp_affine(NULL, 1, &src, &dst, m, 1, &o), PF_OK);
    pfk_warp_job j;
    CHECK_STATUS(pfi_gpu_warp_job_fill(NULL, &src, 3, 2, m, 0, &o, &j), PF_OK);
    CHECK(j.cval.u8[0] == 9 && j.cval.u8[1] == 255 && j.cval.u8[2] == 0 && j.dst == NULL);
    int same = 1;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 3; c++) same &= pfk_warp_u8_value(&j, x, y, c) == want[(y * 3 + x) * 3 + c];
    CHECK(same);
}

int main(int argc, char **argv) {
    int first = 0, last = 1500, ok = 0, u8v = 0;
    if (argc > 1) first = last = atoi(argv[1]), last++;
    check_job_fill();
    check_block_origin();
    check_variant_mix();
    for (int cs = first; cs < last; cs++) ok += run_case(cs, &u8v);
    printf("test_gpu_warp: %d cases (%d warped, %d fused-entry samples), bit-exact comparison\n", last - first, ok,
           u8v);
    return pft_summary("test_gpu_warp");
}
