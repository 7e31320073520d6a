/* pixflow bench geom: pf_flip / pf_rotate / pf_transpose /
 * pf_copy_make_border vs their OpenCV counterparts on a bundled photo
 * (1920x1080 and a 224x224 crop, u8 RGB), 1 and 2 threads; outputs
 * compared byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#include "opencv_geom.h"
#include "opencv_io.h"
#include "opencv_ref.h"

typedef struct geom_case { int op, arg; const char *name; } geom_case;

static const geom_case k_cases[] = {
    {0, 1, "flip horizontal"},   {0, 0, "flip vertical"},      {0, -1, "flip both"},
    {1, 0, "rotate 90 cw"},      {1, 2, "rotate 90 ccw"},      {2, 0, "transpose"},
    {3, 4, "border reflect101 16"}, {3, 0, "border constant 16"},
};

typedef struct geom_ctx {
    pf_stream *stream;
    const geom_case *gc;
    pf_image src, dst;
    uint8_t *cv_dst;
} geom_ctx;

enum { PAD = 16 };

static int run_pf(void *p) {
    geom_ctx *c = p;
    pf_status st;
    switch (c->gc->op) {
    case 0: { pf_flip_code f = (pf_flip_code)c->gc->arg; st = pf_flip(c->stream, 1, &c->src, &c->dst, &f, 1); break; }
    case 1: { pf_rotate_code r = (pf_rotate_code)c->gc->arg; st = pf_rotate(c->stream, 1, &c->src, &c->dst, &r, 1); break; }
    case 2: st = pf_transpose(c->stream, 1, &c->src, &c->dst); break;
    default: {
        pf_border_params bp = {PAD, PAD, (pf_border)c->gc->arg, {0, 0, 0, 0}};
        st = pf_copy_make_border(c->stream, 1, &c->src, &c->dst, &bp, 1);
    }
    }
    return st == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    geom_ctx *c = p;
    return pfb_cv_geom(c->gc->op, c->gc->arg, PAD, c->src.data, c->src.width, c->src.height, c->src.row_stride,
                       c->cv_dst, c->dst.width, c->dst.height, c->dst.row_stride, c->src.channels);
}

int bench_geom(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "geom", &rounds, &data);
    if (prc) return prc;
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (bench_load_rgb("geom", data, "water_drop_1920x1080.jpg", &px, &w, &h)) return 1;
    size_t cap = (size_t)(w + 2 * PAD) * (size_t)(w + 2 * PAD) * 3;
    uint8_t *pd = malloc(cap), *cd = malloc(cap);
    pf_stream *s2 = NULL;
    if (pd == NULL || cd == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench geom: setup failed\n");
        free(px); free(pd); free(cd);
        return 1;
    }
    bench_print_banner(rounds);
    bench_print_header("geometry (u8 RGB)");
    int rc = 0;
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
            const geom_case *gc = &k_cases[k];
            int turn = gc->op == 2 || (gc->op == 1 && gc->arg != 1);
            int dw = turn ? bh : bw, dh = turn ? bw : bh;
            if (gc->op == 3) { dw += 2 * PAD; dh += 2 * PAD; }
            geom_ctx ctx = {NULL, gc, pf_image_hwc(px, bw, bh, 3, PF_U8, (ptrdiff_t)w * 3),
                            pf_image_hwc(pd, dw, dh, 3, PF_U8, 0), cd};
            const char *verdict = "bit-exact";
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench geom: %s failed: %s\n", gc->name, pf_last_error());
                rc = 1;
                continue;
            }
            if (memcmp(pd, cd, (size_t)dw * (size_t)dh * 3) != 0) { verdict = "DIFFERENT"; rc = 1; }
            char label[64];
            snprintf(label, sizeof label, "%s %s", size ? "224" : "1080p", gc->name);
            bench_rows_1_2(label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        }
    }
    pf_stream_destroy(s2);
    free(px); free(pd); free(cd);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_geom(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench geom: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
