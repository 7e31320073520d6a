/* pixflow bench color: pf_cvt_color vs cv::cvtColor on a bundled photo
 * (1920x1080 and a 224x224 crop of it), the common u8 codes, 1 and 2
 * threads; outputs compared byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#include "opencv_color.h"
#include "opencv_io.h"
#include "opencv_ref.h"

typedef struct color_ctx {
    pf_stream *stream;
    pf_image src, dst;
    uint8_t *cv_dst;
    int code;
} color_ctx;

static int run_pf(void *p) {
    color_ctx *c = p;
    return pf_cvt_color(c->stream, 1, &c->src, &c->dst, (pf_color_code)c->code, NULL) == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    color_ctx *c = p;
    return pfb_cv_cvt_color(c->src.data, c->src.width, c->src.height, c->src.row_stride,
                            c->src.channels, c->cv_dst, c->dst.row_stride, c->dst.channels, c->code);
}

typedef struct bench_code { int code; const char *name; int scn, dcn; int from; } bench_code;
/* from: which source image (0 = BGR photo, 1 = its gray, 2 = its HSV) */
static const bench_code k_codes[] = {
    {PF_COLOR_BGR2RGB, "BGR2RGB", 3, 3, 0},     {PF_COLOR_BGR2GRAY, "BGR2GRAY", 3, 1, 0},
    {PF_COLOR_GRAY2BGR, "GRAY2BGR", 1, 3, 1},   {PF_COLOR_BGR2BGRA, "BGR2BGRA", 3, 4, 0},
    {PF_COLOR_BGR2HSV, "BGR2HSV", 3, 3, 0},     {PF_COLOR_HSV2BGR, "HSV2BGR", 3, 3, 2},
    {PF_COLOR_BGR2YCrCb, "BGR2YCrCb", 3, 3, 0},
};

int bench_color(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "color", &rounds, &data);
    if (prc) return prc;
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (bench_load_rgb("color", data, "water_drop_1920x1080.jpg", &px, &w, &h)) return 1;
    size_t npx = (size_t)w * (size_t)h;
    uint8_t *gray = malloc(npx), *hsv = malloc(npx * 3);
    uint8_t *pd = malloc(npx * 4), *cd = malloc(npx * 4);
    pf_stream *s2 = NULL;
    pf_image bgr_full = pf_image_hwc(px, w, h, 3, PF_U8, 0);
    pf_image gray_full = pf_image_hwc(gray, w, h, 1, PF_U8, 0);
    pf_image hsv_full = pf_image_hwc(hsv, w, h, 3, PF_U8, 0);
    if (gray == NULL || hsv == NULL || pd == NULL || cd == NULL || pf_stream_create_cpu(2, &s2) != PF_OK ||
        pf_cvt_color(NULL, 1, &bgr_full, &gray_full, PF_COLOR_BGR2GRAY, NULL) != PF_OK ||
        pf_cvt_color(NULL, 1, &bgr_full, &hsv_full, PF_COLOR_BGR2HSV, NULL) != PF_OK) {
        fprintf(stderr, "pixflow bench color: setup failed\n");
        free(px), free(gray), free(hsv), free(pd), free(cd);
        pf_stream_destroy(s2);
        return 1;
    }
    bench_print_banner(rounds);
    bench_print_header("cvt_color (u8)");
    int rc = 0;
    for (size_t k = 0; k < sizeof k_codes / sizeof k_codes[0]; k++) {
        const bench_code *bc = &k_codes[k];
        const uint8_t *srcimg = bc->from == 0 ? px : bc->from == 1 ? gray : hsv;
        for (int size = 0; size < 2; size++) {
            int bw = size ? 224 : w, bh = size ? 224 : h;
            color_ctx ctx;
            ctx.stream = NULL;
            ctx.src = pf_image_hwc((void *)(uintptr_t)srcimg, bw, bh, bc->scn, PF_U8, (ptrdiff_t)w * bc->scn);
            ctx.dst = pf_image_hwc(pd, bw, bh, bc->dcn, PF_U8, 0);
            ctx.cv_dst = cd;
            ctx.code = bc->code;
            const char *verdict = "bit-exact";
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench color: run failed: %s\n", pf_last_error());
                rc = 1;
                continue;
            }
            if (memcmp(pd, cd, (size_t)bw * (size_t)bh * (size_t)bc->dcn) != 0) {
                verdict = "DIFFERENT";
                rc = 1;
            }
            char label[64];
            snprintf(label, sizeof label, "%s %dx%d", bc->name, bw, bh);
            bench_rows_1_2(label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        }
    }
    pf_stream_destroy(s2);
    free(px), free(gray), free(hsv), free(pd), free(cd);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_color(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench color: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
