/* pixflow bench filter: the filters vs their OpenCV counterparts on a
 * bundled photo (1920x1080 and a 224x224 crop, u8 RGB), 1 and 2 threads;
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

typedef struct filter_case { int op, ksize; const char *name; } filter_case;

static const filter_case k_cases[] = {
    {0, 3, "gaussian 3x3"}, {0, 5, "gaussian 5x5"}, {1, 5, "box 5x5"},      {2, 3, "median 3x3"},
    {2, 5, "median 5x5"},   {3, 3, "erode 3x3"},    {4, 3, "filter_2d 3x3"}, {5, 3, "sharpen 1.5"},
};

/* a 3x3 edge-enhancing kernel with non-trivial weights */
static const float k_kernel3[9] = {-0.125f, -0.25f, -0.125f, -0.25f, 2.5f, -0.25f, -0.125f, -0.25f, -0.125f};
static const float k_factor = 1.5f;

typedef struct filter_ctx {
    pf_stream *stream;
    const filter_case *fc;
    pf_image src, dst;
    uint8_t *cv_dst;
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
    return pfb_cv_filter(c->fc->op, c->fc->ksize, k_kernel3, (double)k_factor, c->src.data, c->src.width,
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
    size_t cap = (size_t)w * (size_t)h * 3;
    uint8_t *pd = malloc(cap), *cd = malloc(cap);
    pf_stream *s2 = NULL;
    if (pd == NULL || cd == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench filter: setup failed\n");
        free(px); free(pd); free(cd);
        return 1;
    }
    bench_print_banner(rounds);
    bench_print_header("filters (u8 RGB)");
    int rc = 0;
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
            const filter_case *fc = &k_cases[k];
            filter_ctx ctx = {NULL, fc, pf_image_hwc(px, bw, bh, 3, PF_U8, (ptrdiff_t)w * 3),
                              pf_image_hwc(pd, bw, bh, 3, PF_U8, 0), cd};
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench filter: %s failed: %s\n", fc->name, pf_last_error());
                rc = 1;
                continue;
            }
            int maxd = 0;
            for (size_t i = 0; i < (size_t)bw * (size_t)bh * 3; i++) {
                int d = abs((int)pd[i] - (int)cd[i]);
                if (d > maxd) maxd = d;
            }
            char verdict[64];
            if (fc->op == 5) snprintf(verdict, sizeof verdict, "torchvision semantics (vs cv: max diff %d)", maxd);
            else if (maxd == 0) snprintf(verdict, sizeof verdict, "bit-exact");
            else snprintf(verdict, sizeof verdict, "max diff %d", maxd);
            if (maxd > (fc->op == 4 ? 1 : 0) && fc->op != 5) rc = 1;
            char label[64];
            snprintf(label, sizeof label, "%s %s", size ? "224" : "1080p", fc->name);
            bench_rows_1_2(label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        }
    }
    pf_stream_destroy(s2);
    free(px); free(pd); free(cd);
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
