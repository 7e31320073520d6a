/* pixflow bench yuv: pf_cvt_color_from_yuv / pf_cvt_color_to_yuv vs
 * cv::cvtColor on a real frame (the bundled photo encoded to I420 by
 * OpenCV, and that frame's chroma interleaved for NV12), at 1920x1080 and
 * a 224x224 centre crop, 1 and 2 threads; outputs compared byte for byte
 * (the NV12 encoder against OpenCV's I420 encoder, chroma interleaved). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#include "opencv_io.h"
#include "opencv_ref.h"
#include "opencv_yuv.h"

typedef struct yuv_case {
    const char *name;
    int encode;          /* 0: frame -> RGB, 1: RGB -> frame */
    int nv12;            /* frame layout */
    int cn;              /* RGB-side channels */
    pf_color_code code;  /* pixflow */
    int cv_code;         /* OpenCV (I420 encoder for the NV12 encode row) */
} yuv_case;

static const yuv_case k_cases[] = {
    {"NV12->RGB", 0, 1, 3, PF_COLOR_YUV2RGB_NV12, 90},
    {"NV12->BGRA", 0, 1, 4, PF_COLOR_YUV2BGRA_NV12, 95},
    {"I420->BGR", 0, 0, 3, PF_COLOR_YUV2BGR_I420, 101},
    {"RGB->I420", 1, 0, 3, PF_COLOR_RGB2YUV_I420, 127},
    {"RGB->NV12 (cv: I420)", 1, 1, 3, PF_COLOR_RGB2YUV_NV12, 127},
};

typedef struct yuv_ctx {
    pf_stream *stream;
    const yuv_case *c;
    int w, h;
    pf_yuv frame;          /* pixflow frame: input (decode) or output (encode) */
    pf_image rgb;          /* pixflow RGB side */
    const uint8_t *cv_in;  /* OpenCV input: the single-plane frame or the RGB */
    ptrdiff_t cv_in_stride;
    uint8_t *cv_out;
} yuv_ctx;

static int run_pf(void *p) {
    yuv_ctx *c = p;
    pf_status st = c->c->encode ? pf_cvt_color_to_yuv(c->stream, 1, &c->rgb, &c->frame, c->c->code, NULL)
                                : pf_cvt_color_from_yuv(c->stream, 1, &c->frame, &c->rgb, c->c->code, NULL);
    return st == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    yuv_ctx *c = p;
    int w = c->w, h = c->h, cn = c->c->cn;
    if (c->c->encode)
        return pfb_cv_cvt_color_frame(c->cv_in, w, h, cn, c->cv_in_stride, c->cv_out, w, h * 3 / 2, 1, w,
                                c->c->cv_code);
    return pfb_cv_cvt_color_frame(c->cv_in, w, h * 3 / 2, 1, w, c->cv_out, w, h, cn, (ptrdiff_t)w * cn,
                            c->c->cv_code);
}

/* pixflow's output equals OpenCV's (for the NV12 encoder: Y equal and the
 * interleaved chroma equal to OpenCV's U and V planes). */
static int outputs_equal(const yuv_ctx *c, const uint8_t *pf_out) {
    size_t wh = (size_t)c->w * (size_t)c->h;
    if (!c->c->encode) return memcmp(pf_out, c->cv_out, wh * (size_t)c->c->cn) == 0;
    if (!c->c->nv12) return memcmp(pf_out, c->cv_out, wh * 3 / 2) == 0;
    if (memcmp(pf_out, c->cv_out, wh) != 0) return 0;
    for (size_t k = 0; k < wh / 4; k++)
        if (pf_out[wh + 2 * k] != c->cv_out[wh + k] || pf_out[wh + 2 * k + 1] != c->cv_out[wh + wh / 4 + k])
            return 0;
    return 1;
}

/* I420 frame of an RGB view (by OpenCV) and its NV12 twin. */
static int make_frames(const uint8_t *rgb, int w, int h, ptrdiff_t stride, uint8_t *i420, uint8_t *nv12) {
    if (pfb_cv_cvt_color_frame(rgb, w, h, 3, stride, i420, w, h * 3 / 2, 1, w, 127) != 0) return -1;
    size_t wh = (size_t)w * (size_t)h;
    memcpy(nv12, i420, wh);
    for (size_t k = 0; k < wh / 4; k++) {
        nv12[wh + 2 * k] = i420[wh + k];
        nv12[wh + 2 * k + 1] = i420[wh + wh / 4 + k];
    }
    return 0;
}

int bench_yuv(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "yuv", &rounds, &data);
    if (prc) return prc;
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (bench_load_rgb("yuv", data, "water_drop_1920x1080.jpg", &px, &w, &h)) return 1;
    w &= ~1, h &= ~1;
    size_t big = (size_t)w * (size_t)h * 4;
    uint8_t *i420 = malloc(big), *nv12 = malloc(big), *pd = malloc(big), *cd = malloc(big);
    pf_stream *s2 = NULL;
    if (!i420 || !nv12 || !pd || !cd || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench yuv: setup failed\n");
        free(px); free(i420); free(nv12); free(pd); free(cd);
        return 1;
    }
    bench_print_banner(rounds);
    bench_print_header("4:2:0 YUV <-> RGB (u8, BT.601 limited)");
    int rc = 0;
    for (int size = 0; size < 2; size++) {
        int bw = size ? 224 : w, bh = size ? 224 : h;
        const uint8_t *rgb = px + ((size_t)(h - bh) / 2 * (size_t)w + (size_t)(w - bw) / 2) * 3;
        ptrdiff_t rstride = (ptrdiff_t)w * 3;
        if (make_frames(rgb, bw, bh, rstride, i420, nv12) != 0) {
            fprintf(stderr, "pixflow bench yuv: OpenCV encode failed\n");
            rc = 1;
            break;
        }
        for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
            const yuv_case *yc = &k_cases[k];
            yuv_ctx ctx;
            ctx.stream = NULL;
            ctx.c = yc;
            ctx.w = bw;
            ctx.h = bh;
            ctx.cv_out = cd;
            if (yc->encode) {
                ctx.rgb = pf_image_hwc((void *)(uintptr_t)rgb, bw, bh, 3, PF_U8, rstride);
                ctx.frame = yc->nv12 ? pf_yuv_nv12(pd, bw, bh, 0) : pf_yuv_i420(pd, bw, bh, 0);
                ctx.cv_in = rgb;
                ctx.cv_in_stride = rstride;
            } else {
                uint8_t *fr = yc->nv12 ? nv12 : i420;
                ctx.frame = yc->nv12 ? pf_yuv_nv12(fr, bw, bh, 0) : pf_yuv_i420(fr, bw, bh, 0);
                ctx.rgb = pf_image_hwc(pd, bw, bh, yc->cn, PF_U8, 0);
                ctx.cv_in = fr;
                ctx.cv_in_stride = bw;
            }
            if (run_pf(&ctx) || run_cv(&ctx)) {
                fprintf(stderr, "pixflow bench yuv: %s failed: %s\n", yc->name, pf_last_error());
                rc = 1;
                continue;
            }
            const char *verdict = outputs_equal(&ctx, pd) ? "bit-exact" : "DIFFERENT";
            if (verdict[0] == 'D') rc = 1;
            char label[64];
            snprintf(label, sizeof label, "%dx%d %s", bw, bh, yc->name);
            bench_rows_1_2(label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        }
    }
    pf_stream_destroy(s2);
    free(px); free(i420); free(nv12); free(pd); free(cd);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_yuv(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench yuv: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
