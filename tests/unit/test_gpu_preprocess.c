/*
 * GPU fused preprocess, emulated: jobs built into an emulated arena
 * (device address == host address) and the kernel bodies run on the CPU
 * over the launch grids (contrast pre-pass, then the main pass), compared
 * BIT-EXACTLY with the CPU pf_preprocess_run on the same host views: the
 * whole pitched tensor buffer, canaries between rows / samples included,
 * so a wrong grid or a stray write fails.
 *
 * Random cases (fixed seed): params from pf_aug_sample with every
 * transform on (RRC, flips, ColorJitter with random order, grayscale,
 * affine) plus a random gamma, identity samples, letterbox centre /
 * top-left or none, 1 / 3 output channels, f32 / f16 / bf16 / u8, NCHW /
 * NHWC, swap_rb, 1- and 3-channel sources of different sizes in one batch
 * (negative row strides too). A failure prints the case number; re-run
 * one case with: test_gpu_preprocess <case>.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/preprocess_internal.h"
#include "cuda/preprocess_jobs.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

#define CANARY 0xA5
#define MAX_BATCH 5

static uint64_t g_seed;

static float frand(float lo, float hi) {
    return lo + (hi - lo) * (float)(pft_rand(&g_seed) % 1000001u) / 1000000.0f;
}

/* The launch grids on the CPU: pre-pass sums, then every output pixel. */
static void run_emulated(const pfk_pp_batch *b, pfi_grid g, pfi_grid sg) {
    for (int32_t n = 0; n < sg.n; n++)
        for (int32_t y = 0; y < sg.h; y++)
            for (int32_t x = 0; x < sg.w; x++) {
                uint32_t t = pfk_pp_sum_at(b, n, x, y);
                if (t) *b->jobs[n].con_sum += t;
            }
    for (int32_t n = 0; n < g.n; n++)
        for (int32_t y = 0; y < g.h; y++)
            for (int32_t x = 0; x < g.w; x++) pfk_pp_at(b, n, x, y);
}

typedef struct case_stats {
    int cases, samples, contrast_samples, letterbox, affine, resized, copied;
    size_t bytes_compared, bytes_differing;
} case_stats;

static case_stats g_stats;

static pf_preprocess_desc random_desc(void) {
    static const pf_dtype dts[4] = {PF_F32, PF_F16, PF_BF16, PF_U8};
    static const pf_interp ips[6] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC,
                                     PF_INTERP_AREA, PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = pft_range(&g_seed, 1, 37);
    d.out_height = pft_range(&g_seed, 1, 29);
    d.out_channels = pft_range(&g_seed, 0, 3) == 0 ? 1 : 3;
    d.out_dtype = dts[pft_range(&g_seed, 0, 3)];
    d.out_layout = pft_range(&g_seed, 0, 1) ? PF_CHW : PF_HWC;
    d.interp = ips[pft_range(&g_seed, 0, 5)];
    d.antialias = pft_range(&g_seed, 0, 3) == 0;
    d.letterbox = pft_range(&g_seed, 0, 1);
    d.letterbox_align = pft_range(&g_seed, 0, 1) ? PF_LETTERBOX_CENTER : PF_LETTERBOX_TOP_LEFT;
    d.swap_rb = pft_range(&g_seed, 0, 1);
    d.scale = frand(0.001f, 0.02f);
    for (int c = 0; c < 4; c++) {
        d.pad_value[c] = (double)pft_range(&g_seed, 0, 255) + 0.5 * pft_range(&g_seed, 0, 1);
        d.mean[c] = frand(-1.0f, 1.0f);
        d.std[c] = frand(0.1f, 2.0f);
    }
    return d;
}

static pf_aug_policy random_policy(int affine_ok, int32_t ow, int32_t oh) {
    pf_aug_policy p = pf_aug_policy_defaults();
    p.random_resized_crop = pft_range(&g_seed, 0, 3) != 0;
    p.hflip_p = 0.5f;
    p.vflip_p = 0.5f;
    p.color_jitter = true;
    p.brightness[0] = 0.5f, p.brightness[1] = 1.5f;
    p.contrast[0] = 0.5f, p.contrast[1] = 1.5f;
    p.saturation[0] = 0.0f, p.saturation[1] = 2.0f;
    p.hue[0] = -0.5f, p.hue[1] = 0.5f;
    p.grayscale_p = 0.3f;
    p.random_affine = affine_ok && pft_range(&g_seed, 0, 1);
    p.degrees[0] = -40.0f, p.degrees[1] = 40.0f;
    p.translate[0] = 0.2f, p.translate[1] = 0.2f;
    p.scale_range[0] = 0.7f, p.scale_range[1] = 1.3f;
    p.shear[0] = -15.0f, p.shear[1] = 15.0f, p.shear[2] = -10.0f, p.shear[3] = 10.0f;
    p.affine_width = ow;
    p.affine_height = oh;
    return p;
}

/* One random case; returns 0 when GPU == CPU bit for bit. */
static int run_case(int k, int copy_only) {
    g_seed = 0x51ed2705ull * (uint64_t)(k + 1) + 12345u;
    pf_preprocess_desc d = random_desc();
    int affine_ok = !copy_only && (d.interp == PF_INTERP_NEAREST || d.interp == PF_INTERP_LINEAR ||
                                   d.interp == PF_INTERP_CUBIC);
    int count = pft_range(&g_seed, 1, MAX_BATCH);
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    if (plan == NULL) return 1;

    /* sources: random sizes, 1 or 3 channels, some bottom-up */
    pf_image src[MAX_BATCH];
    uint8_t *pix[MAX_BATCH];
    int32_t ws[MAX_BATCH], hs[MAX_BATCH];
    for (int i = 0; i < count; i++) {
        int c = pft_range(&g_seed, 0, 2) == 0 ? 1 : 3;
        int32_t w = copy_only ? d.out_width + pft_range(&g_seed, 0, 9) : pft_range(&g_seed, 1, 61);
        int32_t h = copy_only ? d.out_height + pft_range(&g_seed, 0, 9) : pft_range(&g_seed, 1, 47);
        ptrdiff_t stride = (ptrdiff_t)w * c + pft_range(&g_seed, 0, 5);
        pix[i] = malloc((size_t)stride * (size_t)h);
        for (ptrdiff_t b = 0; b < stride * h; b++) pix[i][b] = (uint8_t)pft_rand(&g_seed);
        src[i] = pf_image_hwc(pix[i], w, h, c, PF_U8, stride);
        if (pft_range(&g_seed, 0, 3) == 0) {
            src[i].data = pix[i] + (size_t)stride * (size_t)(h - 1);
            src[i].row_stride = -stride;
        }
        ws[i] = w;
        hs[i] = h;
    }
    pf_aug_params params[MAX_BATCH];
    pf_aug_policy pol = random_policy(affine_ok, d.out_width, d.out_height);
    CHECK_STATUS(pf_aug_sample(&pol, (uint64_t)k, 3, 100, count, ws, hs, params), PF_OK);
    for (int i = 0; i < count; i++) {
        pf_aug_params *p = &params[i];
        if (pft_range(&g_seed, 0, 1)) p->gamma = frand(0.3f, 2.5f);
        if (pft_range(&g_seed, 0, 9) == 0) p->gamma = 2.0f; /* torch's exact special case */
        if (pft_range(&g_seed, 0, 7) == 0) *p = pf_aug_params_identity();
        if (copy_only) { /* a crop the plan keeps at its size: the resize is a copy */
            p->affine = false;
            p->crop_w = d.out_width;
            p->crop_h = d.letterbox ? pft_range(&g_seed, 1, d.out_height) : d.out_height;
            p->crop_x = pft_range(&g_seed, 0, ws[i] - p->crop_w);
            p->crop_y = pft_range(&g_seed, 0, hs[i] - p->crop_h);
        }
        g_stats.contrast_samples += p->contrast != 1.0f;
        g_stats.affine += p->affine;
        g_stats.samples++;
    }
    g_stats.letterbox += d.letterbox;

    /* pitched tensor: padded rows and samples, canaries everywhere */
    size_t es = pf_dtype_size(d.out_dtype);
    pf_tensor t;
    memset(&t, 0, sizeof t);
    t.n = count;
    t.channels = d.out_channels;
    t.height = d.out_height;
    t.width = d.out_width;
    t.dtype = d.out_dtype;
    t.layout = d.out_layout;
    ptrdiff_t row = (ptrdiff_t)(es * (size_t)d.out_width * (size_t)(d.out_layout == PF_HWC ? d.out_channels : 1));
    t.row_stride = row + (ptrdiff_t)es * pft_range(&g_seed, 0, 3);
    t.plane_stride = d.out_layout == PF_CHW ? t.row_stride * d.out_height + (ptrdiff_t)es * pft_range(&g_seed, 0, 2) : 0;
    ptrdiff_t sample = d.out_layout == PF_CHW ? t.plane_stride * d.out_channels : t.row_stride * d.out_height;
    t.sample_stride = sample + (ptrdiff_t)es * pft_range(&g_seed, 0, 4);
    size_t total = (size_t)t.sample_stride * (size_t)count;
    uint8_t *cpu = malloc(total), *gpu = malloc(total);
    memset(cpu, CANARY, total);
    memset(gpu, CANARY, total);
    pf_letterbox_info info_cpu[MAX_BATCH], info_gpu[MAX_BATCH];

    t.data = cpu;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, count, src, params, &t, info_cpu), PF_OK);

    int bad = 0;
    t.data = gpu;
    CHECK_STATUS(pfi_pp_check_device(plan, count, src, params, &t), PF_OK);
    size_t scratch = 0, bytes = pfi_gpu_preprocess_bytes(plan, count, src, params, &scratch);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_pp_batch *b = NULL;
    pfi_grid g, sg;
    pf_status st = pfi_gpu_preprocess_build(&a, plan, count, src, params, &t, info_gpu, &b, &g, &sg);
    CHECK_STATUS(st, PF_OK);
    if (st == PF_OK) {
        for (int i = 0; i < count; i++) {
            g_stats.copied += b->jobs[i].sampler == PFK_PP_COPY;
            g_stats.resized += b->jobs[i].sampler == PFK_PP_RESIZE;
        }
        run_emulated(b, g, sg);
        size_t diff = 0, first = total;
        for (size_t i = 0; i < total; i++)
            if (cpu[i] != gpu[i]) {
                if (first == total) first = i;
                diff++;
            }
        g_stats.bytes_compared += total;
        g_stats.bytes_differing += diff;
        if (diff) {
            size_t s = first / (size_t)t.sample_stride;
            fprintf(stderr,
                    "case %d: %zu of %zu bytes differ, first at byte %zu (sample %zu: cpu %02x gpu %02x); "
                    "out %dx%dx%d %s %s letterbox %d swap %d interp %d aa %d, src %dx%dx%d affine %d; "
                    "re-run: test_gpu_preprocess %d\n",
                    k, diff, total, first, s, cpu[first], gpu[first], (int)d.out_width, (int)d.out_height,
                    (int)d.out_channels, pf_dtype_name(d.out_dtype), d.out_layout == PF_CHW ? "NCHW" : "NHWC",
                    d.letterbox, d.swap_rb, (int)d.interp, d.antialias, (int)src[s].width, (int)src[s].height,
                    (int)src[s].channels, params[s].affine, k);
            bad = 1;
        }
        CHECK(diff == 0);
        CHECK(memcmp(info_cpu, info_gpu, (size_t)count * sizeof info_cpu[0]) == 0);
        CHECK(a.used <= bytes);
    }
    pfi_arena_emulated_free(&a);
    for (int i = 0; i < count; i++) free(pix[i]);
    free(cpu);
    free(gpu);
    pf_preprocess_plan_destroy(plan);
    g_stats.cases++;
    return bad;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        int k = atoi(argv[1]);
        run_case(k, k >= 100000);
        return pft_summary("gpu_emul_preprocess (one case)");
    }
    int failed = 0;
    for (int k = 0; k < 300 && failed < 5; k++) failed += run_case(100000 + k, 1);
    printf("copy path: %d cases, %d samples (%d with contrast, %d copy samplers), %zu bytes compared, %zu differ\n",
           g_stats.cases, g_stats.samples, g_stats.contrast_samples, g_stats.copied, g_stats.bytes_compared,
           g_stats.bytes_differing);
    return pft_summary("gpu_emul_preprocess");
}
