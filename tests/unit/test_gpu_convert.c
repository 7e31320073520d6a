/* GPU emulation test of the element map (pf_convert, pf_reformat,
 * pf_normalize MEAN_STD): the job builder and kernel body
 * (src/kernels/gpu_convert.h) run on the CPU over the launch grid from the
 * same samples the CUDA op builds, compared byte for byte (padding
 * included) with the public CPU op: every dtype pair, 1..4 channels on
 * each side, HWC/CHW on each side, channel order with fills, alpha/beta,
 * per-sample mean/std, in place, negative strides, varshape batches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/convert_args.h"
#include "gpu/convert_jobs.h"
#include "gpu_emul.h"
#include "pixflow/ops.h"

enum { MAXB = 4 };
enum { OP_CONVERT, OP_REFORMAT, OP_NORMALIZE, OP_MINMAX };
static int g_reported;
static const char *const k_ops[] = {"convert", "reformat", "normalize", "normalize(MINMAX)"};

/* NORM_MINMAX's two steps before the map: the reduction (a plain fold
 * where the device uses warp shuffles and atomics) and the finish. */
static void emulate_minmax(const pfk_minmax_batch *b, pfi_grid g) {
    for (int32_t n = 0; n < g.n; n++)
        for (int32_t y = 0; y < g.h; y++)
            for (int32_t x = 0; x < g.w; x++) {
                int32_t lo, hi;
                if (!pfk_minmax_at(b, n, x, y, &lo, &hi)) continue;
                int32_t *k = b->jobs[n].keys;
                k[0] = lo < k[0] ? lo : k[0];
                k[1] = hi > k[1] ? hi : k[1];
            }
    for (int32_t n = 0; n < b->count; n++) pfk_minmax_finish(b, n);
}

static void fill_values(pft_img *t, uint64_t *rng) {
    if (t->im.dtype == PF_F32) pft_img_fill_f32(t, rng);
    if (pft_range(rng, 0, 7) == 0) { /* constant (u8/u16) or all-NaN (f32) images: the MINMAX corner cases */
        int planes = t->im.layout == PF_CHW ? t->im.channels : 1;
        int32_t n = (t->im.layout == PF_CHW ? 1 : t->im.channels) * t->im.width * (int32_t)pf_dtype_size(t->im.dtype);
        for (int p = 0; p < planes; p++)
            for (int32_t y = 0; y < t->im.height; y++)
                memset((char *)t->im.data + (ptrdiff_t)p * t->im.plane_stride + (ptrdiff_t)y * t->im.row_stride,
                       t->im.dtype == PF_F32 ? 0xff : 0x2a, (size_t)n);
    }
    /* other dtypes: the random bytes (f16/bf16 NaN and inf included) */
}

static float rand_param(uint64_t *rng, int nonzero) {
    float v = (float)((double)((int64_t)(pft_rand(rng) % 20001) - 10000) / 997.0);
    return nonzero && v == 0 ? 0.5f : v;
}

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    int op = pft_range(&rng, 0, 3);
    pf_dtype sdt = (pf_dtype)pft_range(&rng, 0, 6), ddt = (pf_dtype)pft_range(&rng, 0, 6);
    if (op == OP_REFORMAT) ddt = sdt;
    if (op >= OP_NORMALIZE) {
        static const pf_dtype ins[3] = {PF_U8, PF_U16, PF_F32}, outs[4] = {PF_F32, PF_F16, PF_BF16, PF_U8};
        sdt = ins[pft_rand(&rng) % 3];
        ddt = outs[pft_rand(&rng) % 4];
    }
    int scn = pft_range(&rng, 1, 4), dcn = pft_range(&rng, 1, 4);
    int in_place = op < OP_NORMALIZE && pf_dtype_size(sdt) == pf_dtype_size(ddt) && pft_range(&rng, 0, 4) == 0;
    if (in_place) dcn = scn;
    pf_layout sl = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC, dl = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC;
    if (in_place) dl = sl;
    int8_t order[4];
    for (int c = 0; c < 4; c++) {
        int fill_ok = op < OP_NORMALIZE && !in_place;
        order[c] = (int8_t)(in_place ? c : pft_range(&rng, fill_ok ? -1 : 0, scn - 1));
    }
    double fill = (double)rand_param(&rng, 0) * 40;
    pf_convert_opts co = pf_convert_opts_defaults();
    memcpy(co.order, order, 4);
    co.fill = fill;
    if (pft_rand(&rng) % 3) {
        co.alpha = (double)rand_param(&rng, 0);
        co.beta = (double)rand_param(&rng, 0) * 10;
    }
    int count = pft_range(&rng, 1, MAXB);
    pf_norm_params per[MAXB];
    pf_normalize_opts no = pf_normalize_opts_defaults();
    memcpy(no.order, order, 4);
    no.scale = pft_rand(&rng) & 1 ? 1.0f : 1.0f / 255.0f;
    for (int c = 0; c < 4; c++) no.params.mean[c] = rand_param(&rng, 0), no.params.std[c] = rand_param(&rng, 1);
    for (int i = 0; i < count; i++)
        for (int c = 0; c < 4; c++) per[i].mean[c] = rand_param(&rng, 0), per[i].std[c] = rand_param(&rng, 1);
    if (pft_rand(&rng) & 1) no.per_sample = per;
    if (op == OP_MINMAX) {
        no.mode = PF_NORM_MINMAX;
        no.lo = (double)rand_param(&rng, 0) * 30;
        no.hi = (double)rand_param(&rng, 0) * 30;
    }

    pft_img scpu[MAXB], sgpu[MAXB], dcpu[MAXB], dgpu[MAXB];
    pf_image sc[MAXB], sg[MAXB], dc[MAXB], dg[MAXB];
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 40), h = pft_range(&rng, 1, 9);
        pft_img_make(&scpu[i], w, h, scn, sdt, sl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        fill_values(&scpu[i], &rng);
        pft_img_clone(&sgpu[i], &scpu[i]);
        sc[i] = scpu[i].im, sg[i] = sgpu[i].im;
        if (in_place) {
            dc[i] = sc[i], dg[i] = sg[i];
            dc[i].dtype = dg[i].dtype = ddt;
            continue;
        }
        pft_img_make(&dcpu[i], w, h, dcn, ddt, dl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&dgpu[i], &dcpu[i]);
        dc[i] = dcpu[i].im, dg[i] = dgpu[i].im;
    }
    pf_status st = op == OP_CONVERT    ? pf_convert(NULL, count, sc, dc, &co)
                   : op == OP_REFORMAT ? pf_reformat(NULL, count, sc, dc, order, fill)
                                       : pf_normalize(NULL, count, sc, dc, &no);
    CHECK_STATUS(st, PF_OK);
    pfi_cvt_sample *smp = NULL;
    st = op >= OP_NORMALIZE ? pfi_norm_make_samples(count, sg, dg, &no, &smp)
                            : pfi_cvt_make_samples("test", count, sg, dg, order, fill, op == OP_REFORMAT,
                                                   op == OP_REFORMAT ? 1 : co.alpha, op == OP_REFORMAT ? 0 : co.beta,
                                                   &smp);
    CHECK_STATUS(st, PF_OK);
    size_t scratch, sc2, bytes = pfi_gpu_cvt_bytes(count, &scratch) + pfi_gpu_minmax_bytes(count, &sc2);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_cvt_batch *b = NULL;
    pfi_grid g;
    pfk_cvt_job *jobs = NULL;
    const pfk_minmax_batch *mb = NULL;
    pfi_grid mg;
    if (st == PF_OK) st = pfi_gpu_cvt_build(&a, count, smp, &b, &g, &jobs);
    if (st == PF_OK && op == OP_MINMAX) st = pfi_gpu_minmax_build(&a, count, sg, no.lo, no.hi, jobs, &mb, &mg);
    CHECK_STATUS(st, PF_OK);
    if (st == PF_OK && op == OP_MINMAX) emulate_minmax(mb, mg);
    if (st == PF_OK) PFT_EMULATE_GRID(pfk_cvt_at, b, g);
    int ok = 1;
    for (int i = 0; i < count; i++) {
        long at = pft_img_diff(&scpu[i], &sgpu[i]);
        if (at < 0 && !in_place) at = pft_img_diff(&dcpu[i], &dgpu[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr,
                    "convert case seed %llu: pf_%s %s %dch %s -> %s %dch %s%s sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, k_ops[op], pf_dtype_name(sdt), scn, sl == PF_CHW ? "CHW" : "HWC",
                    pf_dtype_name(ddt), dcn, dl == PF_CHW ? "CHW" : "HWC", in_place ? " in place" : "", i,
                    (int)sc[i].width, (int)sc[i].height, at);
        pft_img_free(&scpu[i]), pft_img_free(&sgpu[i]);
        if (!in_place) pft_img_free(&dcpu[i]), pft_img_free(&dgpu[i]);
    }
    free(smp);
    pfi_arena_emulated_free(&a);
    CHECK(ok);
    return ok;
}

int main(int argc, char **argv) {
    return pft_seeded_main(argc, argv, "gpu_emul_convert", run_case, 20000, 4000);
}
