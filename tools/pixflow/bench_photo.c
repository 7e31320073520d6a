/* pixflow bench photo: the photometric ops on a bundled photo (1920x1080
 * and a 224x224 crop), u8 RGB, 1 and 2 threads, against the closest
 * OpenCV composition (OpenCV has no torchvision-equivalent for most of
 * them: the verdict column says whether the outputs are even meant to
 * agree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "opencv_io.h"
#include "opencv_photo.h"
#include "opencv_ref.h"

typedef struct photo_ctx {
    pf_stream *stream;
    pf_image src, dst;
    uint8_t *cv_dst;
    int op;
    double p;
    float m[12];
} photo_ctx;

static int run_pf(void *q) {
    photo_ctx *c = q;
    pf_status st;
    switch (c->op) {
    case PFB_CV_BRIGHTNESS: st = pf_adjust_brightness(c->stream, 1, &c->src, &c->dst, &c->p, 1); break;
    case PFB_CV_CONTRAST: st = pf_adjust_contrast(c->stream, 1, &c->src, &c->dst, &c->p, 1); break;
    case PFB_CV_SATURATION: st = pf_adjust_saturation(c->stream, 1, &c->src, &c->dst, &c->p, 1); break;
    case PFB_CV_HUE: st = pf_adjust_hue(c->stream, 1, &c->src, &c->dst, &c->p, 1); break;
    case PFB_CV_TWIST: st = pf_color_twist(c->stream, 1, &c->src, &c->dst, c->m, 1); break;
    case PFB_CV_EQUALIZE: st = pf_equalize(c->stream, 1, &c->src, &c->dst); break;
    case PFB_CV_NOISE: {
        double mean = 0.0;
        pf_noise_opts o = pf_noise_opts_defaults();
        o.seed = 7;
        st = pf_gaussian_noise(c->stream, 1, &c->src, &c->dst, &mean, &c->p, 1, &o);
        break;
    }
    default: st = pf_invert(c->stream, 1, &c->src, &c->dst); break;
    }
    return st == PF_OK ? 0 : -1;
}

static int run_cv(void *q) {
    photo_ctx *c = q;
    return pfb_cv_photo(c->op, c->src.data, c->src.width, c->src.height, c->src.row_stride, c->cv_dst,
                        c->dst.row_stride, c->p, c->m);
}

static const struct { int op; double p; const char *name, *cv; } k_cases[] = {
    {PFB_CV_BRIGHTNESS, 1.3, "brightness 1.3", "convertTo"},
    {PFB_CV_CONTRAST, 0.7, "contrast 0.7", "gray+mean+convertTo"},
    {PFB_CV_SATURATION, 1.5, "saturation 1.5", "gray+addWeighted"},
    {PFB_CV_HUE, 0.1, "hue 0.1", "HSV_FULL+add+back"},
    {PFB_CV_TWIST, 0, "color_twist", "cv::transform"},
    {PFB_CV_EQUALIZE, 0, "equalize", "split+equalizeHist"},
    {PFB_CV_INVERT, 0, "invert", "bitwise_not"},
    {PFB_CV_NOISE, 0.1, "gaussian_noise 0.1", "randn 16S + add"},
};

int bench_photo(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "photo", &rounds, &data);
    if (prc) return prc;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data, "water_drop_1920x1080.jpg");
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (pfb_cv_load_u8(path, 3, &px, &w, &h) != 0) {
        fprintf(stderr, "pixflow bench photo: cannot read %s\n", path);
        return 1;
    }
    uint8_t *pd = malloc((size_t)w * (size_t)h * 3), *cd = malloc((size_t)w * (size_t)h * 3);
    pf_stream *s2 = NULL;
    if (pd == NULL || cd == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench photo: setup failed\n");
        free(px); free(pd); free(cd);
        return 1;
    }
    printf("pixflow %s vs the closest OpenCV composition; isa %s; median of %d rounds, ms per call\n",
           pf_version(), pf_isa_name(pf_cpu_active_isa()), rounds);
    bench_print_header("photometric (u8 RGB)");
    int rc = 0;
    static const float twist[12] = {0.9f, 0.1f, 0.0f, 5.0f, 0.05f, 0.8f, 0.15f, -3.0f, 0.0f, 0.2f, 0.9f, 1.5f};
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
            photo_ctx ctx;
            ctx.stream = NULL;
            ctx.src = pf_image_hwc(px, bw, bh, 3, PF_U8, (ptrdiff_t)w * 3);
            ctx.dst = pf_image_hwc(pd, bw, bh, 3, PF_U8, 0);
            ctx.cv_dst = cd;
            ctx.op = k_cases[k].op;
            ctx.p = k_cases[k].p;
            memcpy(ctx.m, twist, sizeof twist);
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench photo: %s failed: %s\n", k_cases[k].name, pf_last_error());
                rc = 1;
                continue;
            }
            size_t nb = (size_t)bw * (size_t)bh * 3, diff = 0;
            for (size_t i = 0; i < nb; i++) diff += pd[i] != cd[i];
            char verdict[96];
            if (k_cases[k].op == PFB_CV_NOISE) /* different generators: only the cost compares */
                snprintf(verdict, sizeof verdict, "other generator (%s)", k_cases[k].cv);
            else if (diff == 0) snprintf(verdict, sizeof verdict, "bit-exact");
            else snprintf(verdict, sizeof verdict, "other formula (%s), %.1f%% bytes differ", k_cases[k].cv,
                          100.0 * (double)diff / (double)nb);
            char label[64];
            snprintf(label, sizeof label, "%dx%d %s", bw, bh, k_cases[k].name);
            for (int t = 1; t <= 2; t++) {
                pfb_cv_set_threads(t);
                ctx.stream = t == 1 ? NULL : s2;
                bench_print_row(label, t, bench_compare(run_pf, &ctx, run_cv, &ctx, rounds), verdict);
            }
        }
    }
    pf_stream_destroy(s2);
    free(px); free(pd); free(cd);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_photo(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench photo: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
