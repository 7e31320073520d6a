/*
 * pf_preprocess_run_yuv: the fused preprocess with 4:2:0 frames as the
 * sources. The frames are checked here (planes, codes, overlap with the
 * tensor); the run is the image run (preprocess_run.c) with a source
 * provider that converts each sample's crop rectangle into the worker's
 * scratch with pf_cvt_color_from_yuv, right before its resize reads it.
 *
 * Why this is exact: YUV -> RGB of pixel (x, y) reads only Y(x, y) and the
 * chroma sample (x/2, y/2), so converting a sub-rectangle whose origin is
 * even gives the same bytes as converting the whole frame and cropping.
 * The crop is widened down to even x0, y0 and up to even x1, y1 (<= W, H,
 * which are even), and the geometry is shifted by the widening.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/preprocess_internal.h"
#include "pixflow/video.h"

#define OP "pf_preprocess_run_yuv"

typedef struct yuv_source {
    const pf_yuv *frames;
    const pf_color_code *codes;
    const pf_color_opts *opts;
} yuv_source;

/* 0 for NV12/NV21, 1 for YV12/I420, 2 for GRAY; -1 for codes the fused
 * path does not take (4-channel and encode codes). */
static int code_kind(pf_color_code code, int *channels) {
    int v = (int)code;
    *channels = 3;
    if (v >= 90 && v <= 93) return 0;
    if (v >= 98 && v <= 101) return 1;
    if (v == 106) {
        *channels = 1;
        return 2;
    }
    return -1;
}

void pfi_pp_yuv_rect(const pfi_pp_geom *g, int32_t *x0, int32_t *y0, int32_t *x1, int32_t *y1) {
    *x0 = g->cx & ~1;
    *y0 = g->cy & ~1;
    *x1 = (g->cx + g->cw + 1) & ~1;
    *y1 = (g->cy + g->ch + 1) & ~1;
}

static size_t source_bytes(const void *ctx, int i, const pfi_pp_geom *g) {
    const yuv_source *s = ctx;
    int cn;
    code_kind(s->codes[i], &cn);
    int32_t x0, y0, x1, y1;
    pfi_pp_yuv_rect(g, &x0, &y0, &x1, &y1);
    return (size_t)(x1 - x0) * (size_t)(y1 - y0) * (size_t)cn;
}

static pf_status source_make(const void *ctx, int i, pf_stream *stream, const pfi_pp_geom *g,
                             unsigned char *scratch, pf_image *img, pfi_pp_geom *local) {
    const yuv_source *s = ctx;
    const pf_yuv *f = &s->frames[i];
    int cn, kind = code_kind(s->codes[i], &cn);
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
    if ((st = pf_cvt_color_from_yuv(stream, 1, &sub, img, s->codes[i], s->opts ? &s->opts[i] : NULL)) != PF_OK)
        return st;
    *local = *g;
    local->cx = g->cx - x0;
    local->cy = g->cy - y0;
    return PF_OK;
}

/* like: NULL for host planes (the CPU path), else the plane (y) whose
 * memory every plane must share (the device path). */
static pf_status check_plane(int i, const char *plane, const pf_image *im, int32_t w, int32_t h, int32_t cn,
                             const pf_image *like) {
    char name[64];
    snprintf(name, sizeof name, OP ": src[%d].%s", i, plane);
    pf_status st = pf_image_validate(im, name);
    if (st != PF_OK) return st;
    if (like == NULL && im->mem != PF_MEM_HOST) return pfi_fail(PF_ERR_UNSUPPORTED, "%s is not host memory", name);
    if (like != NULL && (im->mem != like->mem || im->device != like->device))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is not in the memory of src[%d].y (CUDA device %d)", name, i,
                        (int)like->device);
    if (im->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s.dtype is %s; 4:2:0 planes are u8", name, pf_dtype_name(im->dtype));
    if (im->channels != cn || (cn > 1 && im->layout != PF_HWC))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s has %d channels (%s); it must be %d interleaved", name,
                        (int)im->channels, im->layout == PF_HWC ? "HWC" : "CHW", (int)cn);
    if (im->width != w || im->height != h)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is %dx%d; it must be %dx%d", name, (int)im->width,
                        (int)im->height, (int)w, (int)h);
    return PF_OK;
}

static pf_status check_overlap(int i, const char *plane, const pf_image *im, const char *dlo, const char *dhi) {
    const char *lo, *hi;
    pfi_image_extent(im, &lo, &hi);
    if (lo < dhi && dlo < hi)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": src[%d].%s overlaps the samples of dst being written", i,
                        plane);
    return PF_OK;
}

/* Frame i: its code, its planes, the opts, and no plane inside the
 * tensor's written span [dlo, dhi). */
static pf_status check_frame(int i, const pf_yuv *f, pf_color_code code, const pf_color_opts *o, const char *dlo,
                             const char *dhi, const pf_image *like, pf_image *shape) {
    int cn, kind = code_kind(code, &cn);
    if (kind < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": codes[%d] is %d; use a 3-channel PF_COLOR_YUV2{RGB,BGR}_{NV12,NV21,YV12,I420} code "
                           "or PF_COLOR_YUV2GRAY_420",
                        i, (int)code);
    char name[64];
    snprintf(name, sizeof name, OP ": src[%d].y", i);
    pf_status st = pf_image_validate(&f->y, name);
    if (st != PF_OK) return st;
    int32_t w = f->y.width, h = f->y.height;
    if ((w | h) & 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is %dx%d; 4:2:0 frames need an even width and height", name,
                        (int)w, (int)h);
    if ((st = check_plane(i, "y", &f->y, w, h, 1, like)) != PF_OK) return st;
    if ((st = check_overlap(i, "y", &f->y, dlo, dhi)) != PF_OK) return st;
    if (kind == 0) {
        if ((st = check_plane(i, "uv", &f->uv, w / 2, h / 2, 2, like)) != PF_OK) return st;
        if ((st = check_overlap(i, "uv", &f->uv, dlo, dhi)) != PF_OK) return st;
    } else if (kind == 1) {
        if ((st = check_plane(i, "u", &f->u, w / 2, h / 2, 1, like)) != PF_OK) return st;
        if ((st = check_plane(i, "v", &f->v, w / 2, h / 2, 1, like)) != PF_OK) return st;
        if ((st = check_overlap(i, "u", &f->u, dlo, dhi)) != PF_OK) return st;
        if ((st = check_overlap(i, "v", &f->v, dlo, dhi)) != PF_OK) return st;
    }
    if (o != NULL) {
        if (o->yuv_matrix != PF_YUV_BT601 && o->yuv_matrix != PF_YUV_BT709)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": opts[%d].yuv_matrix is %d; use PF_YUV_BT601 or PF_YUV_BT709",
                            i, (int)o->yuv_matrix);
        if (o->yuv_range != PF_YUV_LIMITED && o->yuv_range != PF_YUV_FULL)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": opts[%d].yuv_range is %d; use PF_YUV_LIMITED or PF_YUV_FULL",
                            i, (int)o->yuv_range);
    }
    /* geometry and the shared checks only read the size and channels */
    *shape = pf_image_hwc(f->y.data, w, h, cn, PF_U8, 0);
    return PF_OK;
}

/* The image path's checks name pf_preprocess_run; say which call failed. */
static pf_status renamed(pf_status st) {
    const char *prefix = PFI_PP_OP ": ";
    const char *msg = pf_last_error();
    if (strncmp(msg, prefix, strlen(prefix)) != 0) return st;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", msg + strlen(prefix));
    return pfi_fail(st, OP ": %s", copy);
}

pf_status pfi_pp_yuv_check(const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                           const pf_color_code codes[], const pf_color_opts opts[], const pf_aug_params params[],
                           const pf_tensor *dst, int host, pf_image **shapes_out) {
    *shapes_out = NULL;
    if (plan == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": plan is NULL");
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": count is %d; it must be >= 0", count);
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst is NULL");
    if (count == 0) return PF_OK;
    if (src == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": src is NULL with count %d", count);
    if (codes == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": codes is NULL with count %d", count);
    pf_status st = pf_tensor_validate(dst, "dst");
    if (st != PF_OK) return st;
    if (dst->n < count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst->n is %d but count is %d; the tensor needs n >= count",
                        (int)dst->n, count);
    pf_image first, last;
    if ((st = pf_tensor_views(dst, 0, 1, &first)) != PF_OK) return st;
    if ((st = pf_tensor_views(dst, count - 1, 1, &last)) != PF_OK) return st;
    const char *lo0, *hi0, *lo1, *hi1;
    pfi_image_extent(&first, &lo0, &hi0);
    pfi_image_extent(&last, &lo1, &hi1);
    const char *dlo = lo0 < lo1 ? lo0 : lo1, *dhi = hi0 > hi1 ? hi0 : hi1;
    pf_image *shapes = malloc((size_t)count * sizeof *shapes);
    if (shapes == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d samples", count);
    for (int i = 0; i < count && st == PF_OK; i++)
        st = check_frame(i, &src[i], codes[i], opts ? &opts[i] : NULL, dlo, dhi, host ? NULL : &src[0].y, &shapes[i]);
    if (st == PF_OK && (st = pfi_pp_check_shapes(plan, count, shapes, params, dst, host)) != PF_OK) st = renamed(st);
    if (st != PF_OK) {
        free(shapes);
        return st;
    }
    *shapes_out = shapes;
    return PF_OK;
}

pf_status pf_preprocess_run_yuv(pf_preprocess_plan *plan, pf_stream *stream, int count, const pf_yuv src[],
                                const pf_color_code codes[], const pf_color_opts opts[],
                                const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    pfi_clear_error();
    /* where it runs: from src[0].y and dst (every plane is checked against
     * src[0].y's memory below) */
    const pfi_backend *be = NULL;
    pf_stream *s = stream;
    pfi_view_ref v[2] = {{PF_MEM_HOST, 0, "src[0].y", -1}, {PF_MEM_HOST, 0, "dst", -1}};
    int nv = 0;
    if (src != NULL && count > 0) v[nv++] = (pfi_view_ref){src[0].y.mem, src[0].y.device, "src[0].y", -1};
    if (dst != NULL) v[nv++] = (pfi_view_ref){dst->mem, dst->device, "dst", -1};
    pf_status st = pfi_route(OP, stream, v, nv, &be, &s);
    if (st != PF_OK) return st;
    pf_image *shapes = NULL;
    st = pfi_pp_yuv_check(plan, count, src, codes, opts, params, dst, be == NULL, &shapes);
    if (st != PF_OK || count == 0) return st;
    if (be != NULL) {
        free(shapes);
        return be->kernels->preprocess_yuv
                   ? be->kernels->preprocess_yuv(plan, s, count, src, codes, opts, params, dst, info)
                   : pfi_unsupported_on(OP, be);
    }
    yuv_source ys = {.frames = src, .codes = codes, .opts = opts};
    pfi_pp_source source = {.make = source_make, .bytes = source_bytes, .ctx = &ys};
    st = pfi_pp_execute(plan, stream, count, shapes, &source, params, dst, info, OP);
    free(shapes);
    return st;
}
