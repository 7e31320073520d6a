/* pixflow bench lut: pf_lut vs cv::LUT on a bundled photo (1920x1080 and a
 * 224x224 crop of it), one shared table and per-channel tables, 1 and 2
 * threads; outputs compared byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#include "opencv_io.h"
#include "opencv_lut.h"
#include "opencv_ref.h"

typedef struct lut_ctx {
    pf_stream *stream;
    pf_image src, dst;
    uint8_t *cv_dst;
    const uint8_t *tables;
    int table_cn;
} lut_ctx;

static int run_pf(void *p) {
    lut_ctx *c = p;
    pf_lut_opts o = pf_lut_opts_defaults();
    o.table_channels = c->table_cn;
    return pf_lut(c->stream, 1, &c->src, &c->dst, c->tables, &o) == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    lut_ctx *c = p;
    return pfb_cv_lut(c->src.data, c->src.width, c->src.height, c->src.row_stride, c->cv_dst,
                      c->dst.row_stride, c->src.channels, c->tables, c->table_cn);
}

int bench_lut(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "lut", &rounds, &data);
    if (prc) return prc;
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (bench_load_rgb("lut", data, "water_drop_1920x1080.jpg", &px, &w, &h)) return 1;
    uint8_t tables[3 * 256];
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++) tables[c * 256 + v] = (uint8_t)(c == 0 ? 255 - v : (v * (c + 2)) >> 2);
    uint8_t *pd = malloc((size_t)w * (size_t)h * 3), *cd = malloc((size_t)w * (size_t)h * 3);
    pf_stream *s2 = NULL;
    if (pd == NULL || cd == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench lut: setup failed\n");
        free(px); free(pd); free(cd);
        return 1;
    }
    bench_print_banner(rounds);
    bench_print_header("lut (u8 RGB)");
    int rc = 0;
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        for (int tcn = 1; tcn <= 3; tcn += 2) {
            lut_ctx ctx;
            ctx.stream = NULL;
            ctx.src = pf_image_hwc(px, bw, bh, 3, PF_U8, (ptrdiff_t)w * 3);
            ctx.dst = pf_image_hwc(pd, bw, bh, 3, PF_U8, 0);
            ctx.cv_dst = cd;
            ctx.tables = tables;
            ctx.table_cn = tcn;
            const char *verdict = "bit-exact";
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench lut: run failed: %s\n", pf_last_error());
                rc = 1;
                continue;
            }
            if (memcmp(pd, cd, (size_t)bw * (size_t)bh * 3) != 0) { verdict = "DIFFERENT"; rc = 1; }
            char label[64];
            snprintf(label, sizeof label, "%dx%d %s", bw, bh, tcn == 1 ? "one table" : "per-channel");
            bench_rows_1_2(label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        }
    }
    pf_stream_destroy(s2);
    free(px); free(pd); free(cd);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_lut(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench lut: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
