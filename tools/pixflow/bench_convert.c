/* pixflow bench convert: pf_convert / pf_normalize / pf_reformat / pf_merge
 * vs OpenCV on a bundled photo (1920x1080 and a 224x224 crop), 1 and 2
 * threads. Cases:
 *   u8->f32     convertTo(CV_32F, 1/255) of the u8 BGR image (HWC)
 *   f32->u8     convertTo(CV_8U, 255) back
 *   norm f32    u8 HWC BGR -> f32 CHW RGB, (x/255 - mean)/std, ImageNet
 *               values; OpenCV: convertTo + subtract + divide + split
 *               (the BGR->RGB swap is the order of split's planes, free)
 *   norm f16    the same to f16 (OpenCV adds convertTo(CV_16F))
 *   f32->f16    convertTo(CV_16F) of the f32 image
 *   hwc->chw    u8 reformat vs cv::split
 *   merge       3 u8 planes -> HWC vs cv::merge
 *   4ch         pf_split / pf_merge of a BGRA version of the photo
 * Every row states whether the outputs are bit-exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#include "opencv_convert.h"
#include "opencv_io.h"
#include "opencv_ref.h"

enum { B_U8_F32, B_F32_U8, B_F32_F16, B_NORM_F32, B_NORM_F16, B_HWC_CHW, B_MERGE, B_SPLIT4, B_MERGE4, B_N };
static const char *const k_case_names[B_N] = {"u8->f32 1/255", "f32->u8 x255", "f32->f16",
                                              "norm BGR->RGB f32 CHW", "norm BGR->RGB f16 CHW",
                                              "hwc->chw u8 (split)", "merge u8", "split u8 4ch", "merge u8 4ch"};

typedef struct cvt_ctx {
    int kind;
    pf_stream *stream;
    int w, h;
    const uint8_t *px;   /* u8 BGR, stride sstride */
    const uint8_t *px4;  /* u8 BGRA, stride sstride4 */
    ptrdiff_t sstride4;
    ptrdiff_t sstride;
    const float *f32in; /* packed w*h*3 floats (for f32->u8) */
    const uint8_t *planes_in;
    void *pf_out, *cv_out;
} cvt_ctx;

static const float k_mean[3] = {0.485f, 0.456f, 0.406f}, k_std[3] = {0.229f, 0.224f, 0.225f}; /* RGB */

static int run(void *p, int opencv) {
    cvt_ctx *c = p;
    int w = c->w, h = c->h;
    void *out = opencv ? c->cv_out : c->pf_out;
    pf_image src = pf_image_hwc((void *)c->px, w, h, 3, PF_U8, c->sstride);
    switch (c->kind) {
    case B_U8_F32:
    case B_F32_U8: {
        int to_u8 = c->kind == B_F32_U8;
        const void *in = to_u8 ? (const void *)c->f32in : (const void *)c->px;
        ptrdiff_t is = to_u8 ? (ptrdiff_t)w * 12 : c->sstride, os = (ptrdiff_t)w * (to_u8 ? 3 : 12);
        double alpha = to_u8 ? 255.0 : 1.0 / 255;
        if (opencv) return pfb_cv_convert(in, w, h, 3, to_u8 ? 5 : 0, is, out, to_u8 ? 0 : 5, os, alpha, 0);
        pf_image s = pf_image_hwc((void *)in, w, h, 3, to_u8 ? PF_F32 : PF_U8, is);
        pf_image d = pf_image_hwc(out, w, h, 3, to_u8 ? PF_U8 : PF_F32, os);
        pf_convert_opts o = pf_convert_opts_defaults();
        o.alpha = alpha;
        return pf_convert(c->stream, 1, &s, &d, &o) == PF_OK ? 0 : -1;
    }
    case B_F32_F16: {
        ptrdiff_t is = (ptrdiff_t)w * 12, os = (ptrdiff_t)w * 6;
        if (opencv) return pfb_cv_convert(c->f32in, w, h, 3, 5, is, out, 7, os, 1, 0);
        pf_image s = pf_image_hwc((void *)c->f32in, w, h, 3, PF_F32, is);
        pf_image d = pf_image_hwc(out, w, h, 3, PF_F16, os);
        return pf_convert(c->stream, 1, &s, &d, NULL) == PF_OK ? 0 : -1;
    }
    case B_SPLIT4: {
        if (opencv) return pfb_cv_split_u8(c->px4, w, h, 4, c->sstride4, out);
        pf_image s4 = pf_image_hwc((void *)c->px4, w, h, 4, PF_U8, c->sstride4), pl[4];
        for (int k = 0; k < 4; k++)
            pl[k] = pf_image_hwc((uint8_t *)out + (size_t)k * (size_t)w * (size_t)h, w, h, 1, PF_U8, 0);
        return pf_split(c->stream, 1, &s4, pl) == PF_OK ? 0 : -1;
    }
    case B_NORM_F32:
    case B_NORM_F16: {
        int half = c->kind == B_NORM_F16;
        size_t plane = (size_t)w * (size_t)h * (half ? 2u : 4u);
        if (opencv) {
            /* per src (BGR) channel; B goes to plane 2, R to plane 0 */
            const float m[3] = {k_mean[2], k_mean[1], k_mean[0]}, s[3] = {k_std[2], k_std[1], k_std[0]};
            const int plane_of[3] = {2, 1, 0};
            return pfb_cv_normalize_chain(c->px, w, h, c->sstride, 1.0f / 255, m, s, out, plane, plane_of, half);
        }
        pf_image d = pf_image_chw(out, w, h, 3, half ? PF_F16 : PF_F32, 0, 0);
        pf_normalize_opts o = pf_normalize_opts_defaults();
        o.scale = 1.0f / 255;
        const int8_t order[4] = {2, 1, 0, 3};
        memcpy(o.order, order, 4);
        memcpy(o.params.mean, k_mean, sizeof k_mean);
        memcpy(o.params.std, k_std, sizeof k_std);
        return pf_normalize(c->stream, 1, &src, &d, &o) == PF_OK ? 0 : -1;
    }
    case B_HWC_CHW: {
        if (opencv) return pfb_cv_split_u8(c->px, w, h, 3, c->sstride, out);
        pf_image d = pf_image_chw(out, w, h, 3, PF_U8, 0, 0);
        return pf_reformat(c->stream, 1, &src, &d, NULL, 0) == PF_OK ? 0 : -1;
    }
    default: { /* merge of 3 or 4 planes */
        int cn = c->kind == B_MERGE4 ? 4 : 3;
        if (opencv) return pfb_cv_merge_u8(c->planes_in, w, h, cn, out, (ptrdiff_t)w * cn);
        pf_image pl[4];
        for (int k = 0; k < cn; k++)
            pl[k] = pf_image_hwc((void *)(c->planes_in + (size_t)k * (size_t)w * (size_t)h), w, h, 1, PF_U8, 0);
        pf_image d = pf_image_hwc(out, w, h, cn, PF_U8, 0);
        return pf_merge(c->stream, 1, cn, pl, &d) == PF_OK ? 0 : -1;
    }
    }
}

static int run_pf(void *p) { return run(p, 0); }
static int run_cv(void *p) { return run(p, 1); }

static size_t out_bytes(int kind, int w, int h) {
    size_t px = (size_t)w * (size_t)h * 3;
    if (kind == B_SPLIT4 || kind == B_MERGE4) return (size_t)w * (size_t)h * 4;
    return kind == B_U8_F32 || kind == B_NORM_F32 ? px * 4 : kind == B_NORM_F16 || kind == B_F32_F16 ? px * 2 : px;
}

int bench_convert(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "convert", &rounds, &data);
    if (prc) return prc;
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (bench_load_rgb("convert", data, "water_drop_1920x1080.jpg", &px, &w, &h)) return 1;
    size_t n = (size_t)w * (size_t)h * 3;
    float *f32in = malloc(n * 4);
    /* planes: up to 4 of w*h; px4: BGRA with alpha = a position pattern */
    uint8_t *planes = malloc(n * 2), *pd = malloc(n * 4), *cd = malloc(n * 4), *px4 = malloc((size_t)w * (size_t)h * 4);
    pf_stream *s2 = NULL;
    if (!f32in || !planes || !pd || !cd || !px4 || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench convert: setup failed\n");
        free(px); free(f32in); free(planes); free(pd); free(cd); free(px4);
        return 1;
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        memcpy(px4 + 4 * i, px + 3 * i, 3);
        px4[4 * i + 3] = (uint8_t)(i * 7);
    }
    for (size_t i = 0; i < n; i++) f32in[i] = (float)px[i] / 255.0f;
    bench_print_banner(rounds);
    bench_print_header("convert / normalize / reformat (u8 BGR photo)");
    int rc = 0;
    for (int kind = 0; kind < B_N; kind++)
        for (int size = 0; size < 2; size++) {
            cvt_ctx c;
            c.kind = kind;
            c.stream = NULL;
            c.w = size ? 224 : w;
            c.h = size ? 224 : h;
            c.px = px;
            c.sstride = (ptrdiff_t)w * 3; /* the 224 case is a crop (ROI) */
            c.px4 = px4;
            c.sstride4 = (ptrdiff_t)w * 4;
            c.f32in = f32in;
            c.planes_in = planes;
            c.pf_out = pd;
            c.cv_out = cd;
            if (kind == B_MERGE) pfb_cv_split_u8(px, c.w, c.h, 3, c.sstride, planes);
            if (kind == B_MERGE4) pfb_cv_split_u8(px4, c.w, c.h, 4, c.sstride4, planes);
            if (kind == B_F32_U8 || kind == B_F32_F16) /* packed f32 input of this size */
                for (int y = 0; y < c.h; y++)
                    for (int x = 0; x < c.w * 3; x++) f32in[(size_t)y * (size_t)c.w * 3 + (size_t)x] = (float)px[(size_t)y * (size_t)w * 3 + (size_t)x] / 255.0f;
            memset(pd, 0, n * 4);
            memset(cd, 1, n * 4);
            if (run_pf(&c) || run_cv(&c)) {
                fprintf(stderr, "pixflow bench convert: %s failed: %s\n", k_case_names[kind], pf_last_error());
                rc = 1;
                continue;
            }
            const char *verdict = "bit-exact";
            if (memcmp(pd, cd, out_bytes(kind, c.w, c.h)) != 0) { verdict = "DIFFERENT"; rc = 1; }
            char label[64];
            snprintf(label, sizeof label, "%dx%d %s", c.w, c.h, k_case_names[kind]);
            bench_rows_1_2(label, s2, &c.stream, run_pf, run_cv, &c, rounds, verdict);
        }
    pf_stream_destroy(s2);
    free(px); free(f32in); free(planes); free(pd); free(cd); free(px4);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_convert(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench convert: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
