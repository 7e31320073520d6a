/*
 * pf_preprocess_run_yuv's validation: the frames (planes, codes, opts,
 * overlap with the tensor), then the image path's checks on each frame's
 * shape. The crop rectangle rule (pfi_pp_yuv_rect) is shared by the CPU's
 * conversion into scratch and the GPU job builder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augment/preprocess_plan.h"
#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"

#define OP "pf_preprocess_run_yuv"

int pfi_pp_yuv_kind(pf_color_code code, int *channels) {
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

pf_image pfi_pp_yuv_shape(const pf_yuv *f, pf_color_code code) {
    int cn;
    pfi_pp_yuv_kind(code, &cn);
    return pf_image_hwc(f->y.data, f->y.width, f->y.height, cn, PF_U8, 0);
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
    int cn, kind = pfi_pp_yuv_kind(code, &cn);
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
    *shape = pfi_pp_yuv_shape(f, code);
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
    pf_status st = pfi_check_count(OP, count);
    if (st != PF_OK) return st;
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst is NULL");
    if (count == 0) return PF_OK;
    if (src == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": src is NULL with count %d", count);
    if (codes == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": codes is NULL with count %d", count);
    st = pf_tensor_validate(dst, "dst");
    if (st != PF_OK) return st;
    if (dst->n < count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": dst->n is %d but count is %d; the tensor needs n >= count",
                        (int)dst->n, count);
    const char *dlo, *dhi;
    if ((st = pfi_pp_dst_span(dst, count, &dlo, &dhi)) != PF_OK) return st;
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

