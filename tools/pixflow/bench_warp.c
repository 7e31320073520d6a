/* pixflow bench warp: pf_warp_affine / pf_warp_perspective / pf_remap vs
 * cv::warpAffine / cv::warpPerspective / cv::remap on a bundled photo
 * (1920x1080 and a 224x224 crop, u8 RGB, same-size output), 1 and 2
 * threads; outputs compared byte for byte. The affine cases rotate by 15
 * degrees and scale by 0.9 about the centre (cv::getRotationMatrix2D). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "opencv_io.h"
#include "opencv_ref.h"
#include "opencv_warp.h"

typedef struct warp_case { int op, interp; const char *name; } warp_case;

static const warp_case k_cases[] = {
    {0, PF_INTERP_LINEAR, "affine linear"}, {0, PF_INTERP_NEAREST, "affine nearest"},
    {0, PF_INTERP_CUBIC, "affine cubic"},   {1, PF_INTERP_LINEAR, "perspective linear"},
    {2, PF_INTERP_LINEAR, "remap linear"},
};

typedef struct warp_ctx {
    pf_stream *stream;
    const warp_case *wc;
    pf_image src, dst, mx, my;
    double m[9];
    uint8_t *cv_dst;
} warp_ctx;

static int run_pf(void *p) {
    warp_ctx *c = p;
    pf_warp_opts o = pf_warp_opts_defaults();
    o.interp = (pf_interp)c->wc->interp;
    pf_status st = c->wc->op == 0   ? pf_warp_affine(c->stream, 1, &c->src, &c->dst, c->m, 1, &o)
                   : c->wc->op == 1 ? pf_warp_perspective(c->stream, 1, &c->src, &c->dst, c->m, 1, &o)
                                    : pf_remap(c->stream, 1, &c->src, &c->dst, &c->mx, &c->my, &o);
    return st == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    warp_ctx *c = p;
    return pfb_cv_warp(c->wc->op, c->m, c->mx.data, c->my.data, c->wc->interp, c->src.data, c->src.width,
                       c->src.height, c->src.row_stride, c->cv_dst, c->dst.width, c->dst.height, c->dst.row_stride,
                       c->src.channels);
}

/* Matrix of the case for a w x h image: the rotation (affine), the same
 * with a perspective tilt (perspective), or maps of a barrel distortion
 * (remap). */
static void setup_case(warp_ctx *c, int w, int h, float *mx, float *my) {
    pf_rotation_matrix_2d((float)w * 0.5f, (float)h * 0.5f, 15.0, 0.9, c->m);
    c->m[6] = 0, c->m[7] = 0, c->m[8] = 1;
    if (c->wc->op == 1) {
        c->m[6] = 0.15 / w;
        c->m[7] = -0.1 / h;
    }
    if (c->wc->op == 2)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double u = (x - w * 0.5) / w, v = (y - h * 0.5) / h, r2 = u * u + v * v, k = 1 + 0.3 * r2;
                mx[(size_t)y * (size_t)w + (size_t)x] = (float)(w * 0.5 + u * k * w);
                my[(size_t)y * (size_t)w + (size_t)x] = (float)(h * 0.5 + v * k * h);
            }
}

int bench_warp(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "warp", &rounds, &data);
    if (prc) return prc;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data, "water_drop_1920x1080.jpg");
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (pfb_cv_load_u8(path, 3, &px, &w, &h) != 0) {
        fprintf(stderr, "pixflow bench warp: cannot read %s\n", path);
        return 1;
    }
    size_t npx = (size_t)w * (size_t)h;
    uint8_t *pd = malloc(npx * 3), *cd = malloc(npx * 3);
    float *mx = malloc(npx * sizeof *mx), *my = malloc(npx * sizeof *my);
    pf_stream *s2 = NULL;
    if (pd == NULL || cd == NULL || mx == NULL || my == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench warp: setup failed\n");
        free(px); free(pd); free(cd); free(mx); free(my);
        return 1;
    }
    printf("pixflow %s vs OpenCV %s; isa %s; median of %d rounds, ms per call\n", pf_version(), pfb_cv_version(),
           pf_isa_name(pf_cpu_active_isa()), rounds);
    bench_print_header("warps (u8 RGB, rotate 15 deg + scale 0.9, border constant)");
    int rc = 0;
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
            warp_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.wc = &k_cases[k];
            ctx.src = pf_image_hwc(px, bw, bh, 3, PF_U8, (ptrdiff_t)w * 3);
            ctx.dst = pf_image_hwc(pd, bw, bh, 3, PF_U8, 0);
            ctx.mx = pf_image_hwc(mx, bw, bh, 1, PF_F32, 0);
            ctx.my = pf_image_hwc(my, bw, bh, 1, PF_F32, 0);
            ctx.cv_dst = cd;
            setup_case(&ctx, bw, bh, mx, my);
            const char *verdict = "bit-exact";
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench warp: %s failed: %s\n", ctx.wc->name, pf_last_error());
                rc = 1;
                continue;
            }
            if (memcmp(pd, cd, (size_t)bw * (size_t)bh * 3) != 0) { verdict = "DIFFERENT"; rc = 1; }
            char label[64];
            snprintf(label, sizeof label, "%s %s", size ? "224" : "1080p", ctx.wc->name);
            for (int t = 1; t <= 2; t++) {
                pfb_cv_set_threads(t);
                ctx.stream = t == 1 ? NULL : s2;
                bench_print_row(label, t, bench_compare(run_pf, &ctx, run_cv, &ctx, rounds), verdict);
            }
        }
    }
    pf_stream_destroy(s2);
    free(px); free(pd); free(cd); free(mx); free(my);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_warp(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench warp: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
