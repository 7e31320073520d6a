/*
 * GPU fused preprocess of 4:2:0 frames, emulated: the conversion pass,
 * the contrast pre-pass and the main pass run on the CPU over their launch
 * grids (emulated arena: staging and scratch are host memory) and the
 * whole pitched tensor buffer (canaries included) is compared BIT-EXACTLY
 * with the CPU pf_preprocess_run_yuv, and the letterbox info too. Both
 * routes are covered: samples converted tap by tap inside the preprocess
 * (no affine, NEAREST / LINEAR without antialias, including LINEAR's 2x2
 * area shortcut: cases >= 100000) and samples converted into scratch by
 * the conversion pass first (the others), mixed in one batch too.
 * Random cases (tests/gpu_pp_cases.h): NV12 / NV21 / YV12 / I420 in RGB and
 * BGR, GRAY, BT.601 / BT.709 x limited / full or opts NULL, odd crop
 * offsets and sizes, every transform and output format of the image
 * tests. Re-run one case: test_gpu_preprocess_yuv <case>.
 */
#include "augment/preprocess_plan.h"
#include "gpu/preprocess_jobs.h"
#include "gpu/preprocess_yuv_jobs.h"
#include "gpu_pp_cases.h"

static int g_samples, g_cases, g_on_the_fly, g_scratch, g_cheap_batches, g_area2;
static size_t g_compared, g_differing;

/* Cases >= 100000: LINEAR without antialias and crops of exactly twice
 * the output size, so the resize is OpenCV's 2x2 area shortcut
 * (AREA_FAST), which the on-the-fly sampler converts tap by tap too. */
static int make_case(int k, pp_yuv_case *c) {
    if (pp_yuv_case_make(k, c)) return 1;
    if (k < 100000) return 0;
    int32_t wmin = 1 << 30, hmin = 1 << 30;
    for (int i = 0; i < c->count; i++) {
        if (c->src[i].y.width < wmin) wmin = c->src[i].y.width;
        if (c->src[i].y.height < hmin) hmin = c->src[i].y.height;
    }
    c->d.interp = PF_INTERP_LINEAR;
    c->d.antialias = false;
    c->d.out_width = wmin / 2;
    c->d.out_height = hmin / 2;
    uint64_t seed = (uint64_t)k * 0x9e3779b97f4a7c15ull + 1;
    for (int i = 0; i < c->count; i++) {
        pf_aug_params *p = &c->params[i];
        p->affine = false;
        p->crop_w = 2 * c->d.out_width;
        p->crop_h = 2 * c->d.out_height;
        p->crop_x = pft_range(&seed, 0, c->src[i].y.width - p->crop_w); /* odd offsets too */
        p->crop_y = pft_range(&seed, 0, c->src[i].y.height - p->crop_h);
    }
    c->total = pp_tensor_for(&c->d, c->count, &c->t);
    return 0;
}

static int run_case(int k) {
    pp_yuv_case c;
    if (make_case(k, &c)) {
        CHECK(0);
        pp_yuv_case_free(&c);
        return 1;
    }
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&c.d, &plan), PF_OK);
    uint8_t *cpu = malloc(c.total), *gpu = malloc(c.total);
    int bad = 1;
    if (plan == NULL || cpu == NULL || gpu == NULL) goto done;
    memset(cpu, PP_CANARY, c.total);
    memset(gpu, PP_CANARY, c.total);
    const pf_color_opts *opts = c.use_opts ? c.opts : NULL;
    pf_letterbox_info info_cpu[PP_MAX_BATCH], info_gpu[PP_MAX_BATCH];
    pf_tensor t = c.t;
    t.data = cpu;
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, c.count, c.src, c.codes, opts, c.params, &t, info_cpu), PF_OK);
    t.data = gpu;
    pf_image *shapes = NULL;
    CHECK_STATUS(pfi_pp_yuv_check(plan, c.count, c.src, c.codes, opts, c.params, &t, 0, &shapes), PF_OK);
    free(shapes);
    size_t scratch = 0, bytes = pfi_gpu_preprocess_yuv_bytes(plan, c.count, c.src, c.codes, c.params, &scratch);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_yuv_crop_batch *yb = NULL;
    const pfk_pp_batch *pb = NULL;
    pfi_grid yg, g, sg;
    int cheap = -1;
    pf_status st = pfi_gpu_preprocess_yuv_build(&a, plan, c.count, c.src, c.codes, opts, c.params, &t, info_gpu, &yb,
                                                &yg, &pb, &g, &sg, &cheap);
    CHECK_STATUS(st, PF_OK);
    if (st == PF_OK) {
        int otf = 0;
        for (int i = 0; i < c.count; i++) {
            const pfk_pp_job *j = &pb->jobs[i];
            otf += j->yuv_src;
            /* the builder's choice: on the fly exactly for the cheap
             * samplers, and then no conversion work for that sample */
            CHECK(j->yuv_src == pfi_gpu_pp_yuv_on_the_fly(plan, &c.params[i]));
            CHECK(!j->yuv_src || (yb->jobs[i].w == 0 && yb->jobs[i].h == 0));
            g_area2 += j->yuv_src && j->sampler == PFK_PP_RESIZE && j->geo.resize.kind == PFK_RZ_AREA_FAST;
        }
        g_on_the_fly += otf;
        g_scratch += c.count - otf;
        CHECK(cheap == pb->cheap);
        g_cheap_batches += cheap;
        CHECK(otf < c.count || yg.w == 0); /* all on the fly: one launch, no conversion pass */
        for (int32_t n = 0; n < yg.n; n++)
            for (int32_t y = 0; y < yg.h; y++)
                for (int32_t x = 0; x < yg.w; x++) pfk_yuv_crop_at(yb, n, x, y);
        for (int32_t n = 0; n < sg.n; n++)
            for (int32_t y = 0; y < sg.h; y++)
                for (int32_t x = 0; x < sg.w; x++) {
                    uint32_t term = pfk_pp_sum_at(pb, n, x, y); /* 0 for samples without contrast */
                    if (term) *pb->jobs[n].con_sum += term;
                }
        for (int32_t n = 0; n < g.n; n++)
            for (int32_t y = 0; y < g.h; y++)
                for (int32_t x = 0; x < g.w; x++) pfk_pp_at(pb, n, x, y);
        size_t first, diff = pp_diff(cpu, gpu, c.total, &first);
        g_compared += c.total;
        g_differing += diff;
        g_samples += c.count;
        if (diff) {
            size_t s = first / (size_t)c.t.sample_stride;
            fprintf(stderr, "case %d: %zu of %zu bytes differ, first at %zu (sample %zu, code %d, %dx%d, crop %d,%d "
                            "%dx%d, affine %d); re-run: test_gpu_preprocess_yuv %d\n",
                    k, diff, c.total, first, s, (int)c.codes[s], (int)c.src[s].y.width, (int)c.src[s].y.height,
                    (int)c.params[s].crop_x, (int)c.params[s].crop_y, (int)c.params[s].crop_w,
                    (int)c.params[s].crop_h, c.params[s].affine, k);
        }
        CHECK(diff == 0);
        CHECK(memcmp(info_cpu, info_gpu, (size_t)c.count * sizeof info_cpu[0]) == 0);
        CHECK(a.used <= bytes && a.scratch_used <= scratch);
        bad = diff != 0;
    }
    pfi_arena_emulated_free(&a);
done:
    free(cpu);
    free(gpu);
    pf_preprocess_plan_destroy(plan);
    pp_yuv_case_free(&c);
    g_cases++;
    return bad;
}

/* The device path's validation (reachable here only directly: without a
 * GPU the routing stops first): planes must share src[0].y's memory, the
 * usual frame checks still apply, and host-only rules do not. */
static void device_checks(void) {
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = d.out_height = 8;
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    static uint8_t frame[16 * 12 * 3 / 2];
    static float out[3 * 8 * 8];
    pf_yuv f = pf_yuv_nv12(frame, 16, 12, 16);
    pf_color_code code = PF_COLOR_YUV2RGB_NV12;
    pf_tensor t = pf_tensor_nchw(out, 1, 3, 8, 8, PF_F32);
    t.mem = PF_MEM_CUDA;
    f.y.mem = f.uv.mem = PF_MEM_CUDA;
    pf_image *shapes = NULL;
    CHECK_STATUS(pfi_pp_yuv_check(plan, 1, &f, &code, NULL, NULL, &t, 0, &shapes), PF_OK);
    free(shapes);
    f.uv.mem = PF_MEM_HOST;
    CHECK_STATUS(pfi_pp_yuv_check(plan, 1, &f, &code, NULL, NULL, &t, 0, &shapes), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv is not in the memory of src[0].y");
    f.uv.mem = PF_MEM_CUDA;
    f.uv.device = 1;
    CHECK_STATUS(pfi_pp_yuv_check(plan, 1, &f, &code, NULL, NULL, &t, 0, &shapes), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].uv");
    f.uv.device = 0;
    f.y.width = 15;
    CHECK_STATUS(pfi_pp_yuv_check(plan, 1, &f, &code, NULL, NULL, &t, 0, &shapes), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("even width and height");
    f.y.width = 16;
    /* the CPU path keeps its host rule */
    CHECK_STATUS(pfi_pp_yuv_check(plan, 1, &f, &code, NULL, NULL, &t, 1, &shapes), PF_ERR_UNSUPPORTED);
    CHECK_MSG("not host memory");
    /* public entry: mixed host frame and device tensor */
    pf_yuv h = pf_yuv_nv12(frame, 16, 12, 16);
    CHECK_STATUS(pf_preprocess_run_yuv(plan, NULL, 1, &h, &code, NULL, NULL, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is CUDA device memory");
    pf_preprocess_plan_destroy(plan);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        run_case(atoi(argv[1]));
        return pft_summary("gpu_emul_preprocess_yuv (one case)");
    }
    device_checks();
    int failed = 0;
    for (int k = 0; k < 400 && failed < 5; k++) failed += run_case(k);
    for (int k = 100000; k < 100060 && failed < 5; k++) failed += run_case(k);
    printf("4:2:0 frames: %d cases, %d samples (%d converted on the fly, %d of them 2x2 area; %d through the scratch "
           "pass), %d batches on the cheap kernel, %zu bytes compared, %zu differ\n",
           g_cases, g_samples, g_on_the_fly, g_area2, g_scratch, g_cheap_batches, g_compared, g_differing);
    CHECK(g_on_the_fly > 0 && g_scratch > 0 && g_area2 > 0);
    return pft_summary("gpu_emul_preprocess_yuv");
}
