/* pixflow bench filter: the filters vs their OpenCV counterparts on a
 * bundled photo (1920x1080 and a 224x224 crop, RGB: u8, plus f32 rows and
 * a u16 Gaussian row made from the same pixels), 1 and 2 threads;
 * each row says how the outputs compare (bit-exact, or the max
 * difference). Sharpen follows torchvision, so its OpenCV column is the
 * usual OpenCV spelling of the same idea (filter2D + addWeighted), timed
 * for reference only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#include "opencv_filter.h"
#include "opencv_io.h"
#include "opencv_ref.h"

/* depth: 0 u8, 1 u16, 2 f32 (u16 = u8 * 257, f32 = u8 / 255 of the photo) */
typedef struct filter_case { int op, ksize, depth; const char *name; } filter_case;

static const filter_case k_cases[] = {
    {0, 3, 0, "gaussian 3x3"},      {0, 5, 0, "gaussian 5x5"},      {1, 5, 0, "box 5x5"},
    {2, 3, 0, "median 3x3"},        {2, 5, 0, "median 5x5"},        {3, 3, 0, "erode 3x3"},
    {3, 5, 0, "erode 5x5"},         {4, 3, 0, "filter_2d 3x3"},     {5, 3, 0, "sharpen 1.5"},
    {0, 5, 1, "gaussian 5x5 u16"},  {1, 5, 2, "box 5x5 f32"},       {3, 3, 2, "erode 3x3 f32"},
    {4, 3, 2, "filter_2d 3x3 f32"}, {5, 3, 2, "sharpen 1.5 f32"},
};

/* a 3x3 edge-enhancing kernel with non-trivial weights */
static const float k_kernel3[9] = {-0.125f, -0.25f, -0.125f, -0.25f, 2.5f, -0.25f, -0.125f, -0.25f, -0.125f};
static const float k_factor = 1.5f;

typedef struct filter_ctx {
    pf_stream *stream;
    const filter_case *fc;
    pf_image src, dst;
    void *cv_dst;
} filter_ctx;

static int run_pf(void *p) {
    filter_ctx *c = p;
    pf_status st;
    int32_t k = c->fc->ksize;
    switch (c->fc->op) {
    case 0: {
        pf_gaussian_params gp;
        pf_gaussian_params_defaults(&gp);
        gp.ksize_x = gp.ksize_y = k;
        st = pf_gaussian_blur(c->stream, 1, &c->src, &c->dst, &gp, 1);
        break;
    }
    case 1: {
        pf_box_params bp;
        pf_box_params_defaults(&bp);
        bp.ksize_x = bp.ksize_y = k;
        st = pf_box_blur(c->stream, 1, &c->src, &c->dst, &bp, 1);
        break;
    }
    case 2: st = pf_median_blur(c->stream, 1, &c->src, &c->dst, &k, 1); break;
    case 3: {
        pf_morph_params mp;
        pf_morph_params_defaults(&mp);
        mp.ksize_x = mp.ksize_y = k;
        st = pf_erode(c->stream, 1, &c->src, &c->dst, &mp, 1);
        break;
    }
    case 4: {
        pf_filter2d_params fp;
        pf_filter2d_params_defaults(&fp);
        fp.kernel = k_kernel3;
        fp.ksize_x = fp.ksize_y = 3;
        st = pf_filter_2d(c->stream, 1, &c->src, &c->dst, &fp, 1);
        break;
    }
    default: st = pf_sharpen(c->stream, 1, &c->src, &c->dst, &k_factor, 1); break;
    }
    return st == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    filter_ctx *c = p;
    return pfb_cv_filter(c->fc->op, c->fc->ksize, k_kernel3, (double)k_factor, c->fc->depth, c->src.data, c->src.width,
                         c->src.height, c->src.row_stride, c->cv_dst, c->dst.row_stride, c->src.channels);
}

int bench_filter(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "filter", &rounds, &data);
    if (prc) return prc;
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (bench_load_rgb("filter", data, "water_drop_1920x1080.jpg", &px, &w, &h)) return 1;
    size_t npx = (size_t)w * (size_t)h * 3, cap = npx * 4;
    uint8_t *pd = malloc(cap), *cd = malloc(cap), *p16 = malloc(npx * 2), *p32 = malloc(cap);
    pf_stream *s2 = NULL;
    if (pd == NULL || cd == NULL || p16 == NULL || p32 == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench filter: setup failed\n");
        free(px); free(pd); free(cd); free(p16); free(p32);
        return 1;
    }
    for (size_t i = 0; i < npx; i++) {
        ((uint16_t *)(void *)p16)[i] = (uint16_t)(px[i] * 257);
        ((float *)(void *)p32)[i] = (float)px[i] / 255.0f;
    }
    bench_print_banner(rounds);
    bench_print_header("filters (RGB; u8 unless marked)");
    int rc = 0;
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
            const filter_case *fc = &k_cases[k];
            pf_dtype dt = fc->depth == 2 ? PF_F32 : fc->depth == 1 ? PF_U16 : PF_U8;
            size_t es = pf_dtype_size(dt);
            uint8_t *in = fc->depth == 2 ? p32 : fc->depth == 1 ? p16 : px;
            filter_ctx ctx = {NULL, fc, pf_image_hwc(in, bw, bh, 3, dt, (ptrdiff_t)((size_t)w * 3 * es)),
                              pf_image_hwc(pd, bw, bh, 3, dt, 0), cd};
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench filter: %s failed: %s\n", fc->name, pf_last_error());
                rc = 1;
                continue;
            }
            double maxd = 0;
            for (size_t i = 0; i < (size_t)bw * (size_t)bh * 3; i++) {
                double a, b;
                if (dt == PF_F32) {
                    a = (double)((const float *)(const void *)pd)[i];
                    b = (double)((const float *)(const void *)cd)[i];
                } else if (dt == PF_U16) {
                    a = ((const uint16_t *)(const void *)pd)[i];
                    b = ((const uint16_t *)(const void *)cd)[i];
                } else {
                    a = pd[i];
                    b = cd[i];
                }
                double d = a > b ? a - b : b - a;
                if (d > maxd) maxd = d;
            }
            char verdict[80];
            if (fc->op == 5) snprintf(verdict, sizeof verdict, "torchvision semantics (vs cv: max diff %.3g)", maxd);
            else if (maxd == 0) snprintf(verdict, sizeof verdict, "bit-exact");
            else snprintf(verdict, sizeof verdict, "max diff %.3g", maxd);
            /* u8 / u16: exact except filter_2d (<= 1); f32: within 1e-5 */
            double tol = dt == PF_F32 ? 1e-5 : fc->op == 4 ? 1 : 0;
            if (maxd > tol && fc->op != 5) rc = 1;
            char label[64];
            snprintf(label, sizeof label, "%s %s", size ? "224" : "1080p", fc->name);
            bench_rows_1_2(label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        }
    }
    pf_stream_destroy(s2);
    free(px); free(pd); free(cd); free(p16); free(p32);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_filter(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench filter: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
