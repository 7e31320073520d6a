/*
 * pf_preprocess_run_yuv on the CPU: the image run (preprocess_run.c) with a
 * source provider that converts each sample's crop rectangle into the
 * worker's scratch with the CPU's pf_cvt_color_from_yuv executor
 * (pfi_cpu_cvt_color_from_yuv: the frames, codes and opts were checked
 * once by pfi_pp_yuv_check), right before its resize reads it.
 *
 * Why this is exact: YUV -> RGB of pixel (x, y) reads only Y(x, y) and the
 * chroma sample (x/2, y/2), so converting a sub-rectangle whose origin is
 * even gives the same bytes as converting the whole frame and cropping.
 * The crop is widened down to even x0, y0 and up to even x1, y1 (<= W, H,
 * which are even: pfi_pp_yuv_rect), and the geometry is shifted by the
 * widening.
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cpu/cpu_kernels.h"
#include "cpu/preprocess_cpu.h"

#define OP "pf_preprocess_run_yuv"

typedef struct yuv_source {
    const pf_yuv *frames;
    const pf_color_code *codes;
    const pf_color_opts *opts;
} yuv_source;

static size_t source_bytes(const void *ctx, int i, const pfi_pp_geom *g) {
    const yuv_source *s = ctx;
    int cn;
    pfi_pp_yuv_kind(s->codes[i], &cn);
    int32_t x0, y0, x1, y1;
    pfi_pp_yuv_rect(g, &x0, &y0, &x1, &y1);
    return (size_t)(x1 - x0) * (size_t)(y1 - y0) * (size_t)cn;
}

static pf_status source_make(const void *ctx, int i, pf_stream *stream, const pfi_pp_geom *g,
                             unsigned char *scratch, pf_image *img, pfi_pp_geom *local) {
    const yuv_source *s = ctx;
    const pf_yuv *f = &s->frames[i];
    int cn, kind = pfi_pp_yuv_kind(s->codes[i], &cn);
    int32_t x0, y0, x1, y1;
    pfi_pp_yuv_rect(g, &x0, &y0, &x1, &y1);
    int32_t w = x1 - x0, h = y1 - y0;
    pf_yuv sub;
    memset(&sub, 0, sizeof sub);
    pf_status st = pf_image_roi(&f->y, x0, y0, w, h, &sub.y);
    if (st == PF_OK && kind == 0) st = pf_image_roi(&f->uv, x0 / 2, y0 / 2, w / 2, h / 2, &sub.uv);
    if (st == PF_OK && kind == 1) {
        st = pf_image_roi(&f->u, x0 / 2, y0 / 2, w / 2, h / 2, &sub.u);
        if (st == PF_OK) st = pf_image_roi(&f->v, x0 / 2, y0 / 2, w / 2, h / 2, &sub.v);
    }
    if (st != PF_OK) return st;
    *img = pf_image_hwc(scratch, w, h, cn, PF_U8, 0);
    if ((st = pfi_cpu_cvt_color_from_yuv(stream, 1, &sub, img, s->codes[i], s->opts ? &s->opts[i] : NULL)) != PF_OK)
        return st;
    *local = *g;
    local->cx = g->cx - x0;
    local->cy = g->cy - y0;
    return PF_OK;
}

pf_status pfi_cpu_preprocess_yuv(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                 const pf_color_code codes[], const pf_color_opts opts[],
                                 const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    pf_image *shapes = malloc((size_t)count * sizeof *shapes);
    if (shapes == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d samples", count);
    for (int i = 0; i < count; i++) shapes[i] = pfi_pp_yuv_shape(&src[i], codes[i]);
    yuv_source ys = {.frames = src, .codes = codes, .opts = opts};
    pfi_pp_source source = {.make = source_make, .bytes = source_bytes, .ctx = &ys};
    pf_status st = pfi_pp_execute(plan, s, count, shapes, &source, params, dst, info, OP);
    free(shapes);
    return st;
}
