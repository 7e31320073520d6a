/* pf_cvt_color_from_yuv / pf_cvt_color_to_yuv: argument checks and
 * routing to the backend (CPU: src/cpu/yuv_cpu.c; CUDA decodes:
 * src/cuda/pointwise_cuda.c). */
#include <stdio.h>
#include <stdlib.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"
#include "ops/yuv_code.h"

/* A plane of a frame: host u8, the given channels and exact size. */
static pf_status check_plane(const char *fn, const char *side, int i, const char *plane,
                             const pf_image *im, int32_t w, int32_t h, int32_t cn, int host) {
    char name[96];
    snprintf(name, sizeof name, "%s: %s[%d].%s", fn, side, i, plane);
    pf_status st = pf_image_validate(im, name);
    if (st != PF_OK) return st;
    if (host && im->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s is device memory; the CPU path needs host views", name);
    if (im->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s.dtype is %s; 4:2:0 planes are u8", name,
                        pf_dtype_name(im->dtype));
    if (im->channels != cn)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s has %d channels; it must have %d", name,
                        (int)im->channels, (int)cn);
    if (cn > 1 && im->layout != PF_HWC)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is PF_CHW; it must be interleaved (PF_HWC)", name);
    if (im->width != w || im->height != h)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is %dx%d; it must be %dx%d", name,
                        (int)im->width, (int)im->height, (int)w, (int)h);
    return PF_OK;
}

/* The frame's luma plane first (it fixes W x H, which must be even), then
 * the chroma planes the layout uses. */
static pf_status check_frame(const char *fn, const char *side, int i, const pf_yuv *f,
                             const pfi_yuv_code *c, int host) {
    char name[96];
    snprintf(name, sizeof name, "%s: %s[%d].y", fn, side, i);
    pf_status st = pf_image_validate(&f->y, name);
    if (st != PF_OK) return st;
    int32_t w = f->y.width, h = f->y.height;
    if ((w | h) & 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s is %dx%d; 4:2:0 frames need an even width and height", name, (int)w,
                        (int)h);
    if ((st = check_plane(fn, side, i, "y", &f->y, w, h, 1, host)) != PF_OK) return st;
    if (c->kind == PFK_YUV_FRAME_SP) return check_plane(fn, side, i, "uv", &f->uv, w / 2, h / 2, 2, host);
    if (c->kind == PFK_YUV_FRAME_PLANAR) {
        if ((st = check_plane(fn, side, i, "u", &f->u, w / 2, h / 2, 1, host)) != PF_OK) return st;
        return check_plane(fn, side, i, "v", &f->v, w / 2, h / 2, 1, host);
    }
    return PF_OK;
}

/* The planes of frame f that the code touches (y first), NULL-terminated. */
static int frame_planes(const pf_yuv *f, const pfi_yuv_code *c, const pf_image *out[4],
                        const char *names[4]) {
    int n = 0;
    out[n] = &f->y, names[n++] = "y";
    if (c->kind == PFK_YUV_FRAME_SP) out[n] = &f->uv, names[n++] = "uv";
    if (c->kind == PFK_YUV_FRAME_PLANAR) {
        out[n] = &f->u, names[n++] = "u";
        out[n] = &f->v, names[n++] = "v";
    }
    return n;
}

/* The RGB-side image of sample i: host u8 HWC, cn channels, w x h. */
static pf_status check_rgb(const char *fn, const char *side, int i, const pf_image *im,
                           int32_t w, int32_t h, int32_t cn, int host) {
    char name[96];
    snprintf(name, sizeof name, "%s: %s[%d]", fn, side, i);
    pf_status st = pf_image_validate(im, name);
    if (st != PF_OK) return st;
    if (host && im->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s is device memory; the CPU path needs host views", name);
    if (im->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s.dtype is %s; 4:2:0 conversions are u8 only", name,
                        pf_dtype_name(im->dtype));
    if (im->channels != cn)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s has %d channels; this code needs %d", name,
                        (int)im->channels, (int)cn);
    if (cn > 1 && im->layout != PF_HWC)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is PF_CHW; it must be interleaved (PF_HWC)", name);
    if (im->width != w || im->height != h)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is %dx%d; it must match the frame's %dx%d",
                        name, (int)im->width, (int)im->height, (int)w, (int)h);
    return PF_OK;
}

/* Every check of pf_cvt_color_from_yuv but where the memory is (host:
 * also require host views, for the CPU path). */
static pf_status check_from_yuv(const char *fn, int count, const pf_yuv src[], const pf_image dst[],
                                pf_color_code code, const pf_color_opts *opts, int host) {
    pf_status st = pfi_check_batch(fn, count, src, dst);
    if (st != PF_OK) return st;
    pfi_yuv_code c;
    pfk_yuv_coeffs coeffs;
    if (!pfi_yuv_decode_code(code, &c))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: code %d is not a 4:2:0 -> RGB/BGR/RGBA/BGRA/GRAY code (90..106)", fn,
                        (int)code);
    if ((st = pfi_yuv_check_opts(fn, opts, &coeffs)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        if ((st = check_frame(fn, "src", i, &src[i], &c, host)) != PF_OK) return st;
        if ((st = check_rgb(fn, "dst", i, &dst[i], src[i].y.width, src[i].y.height, c.cn, host)) != PF_OK)
            return st;
        const pf_image *planes[4];
        const char *names[4];
        int n = frame_planes(&src[i], &c, planes, names);
        for (int k = 0; k < n; k++)
            if (pfi_images_overlap(planes[k], &dst[i]))
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] overlaps src[%d].%s", fn, i, i,
                                names[k]);
    }
    return PF_OK;
}

/* Where the call runs: every plane the code reads and every dst image
 * must be in one memory (pfi_route names the first one that is not). */
static pf_status route_frames(const char *fn, pf_stream *stream, int count, const pf_yuv src[],
                              const pf_image dst[], const pfi_yuv_code *c, const pfi_backend **be,
                              pf_stream **ds) {
    typedef char view_name[32];
    size_t n = (size_t)count * 4;
    pfi_view_ref *views = malloc(n * sizeof *views);
    view_name *names = malloc(n * sizeof *names);
    if (views == NULL || names == NULL) {
        free(views);
        free(names);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", fn, count);
    }
    int nv = 0;
    for (int i = 0; i < count; i++) {
        const pf_image *planes[4];
        const char *pnames[4];
        int np = frame_planes(&src[i], c, planes, pnames);
        planes[np] = &dst[i];
        for (int k = 0; k <= np; k++, nv++) {
            if (k < np) snprintf(names[nv], sizeof names[nv], "src[%d].%s", i, pnames[k]);
            else snprintf(names[nv], sizeof names[nv], "dst[%d]", i);
            views[nv].mem = planes[k]->mem;
            views[nv].device = planes[k]->device;
            views[nv].name = names[nv];
            views[nv].index = -1;
        }
    }
    pf_status st = pfi_route(fn, stream, views, nv, be, ds);
    free(views);
    free(names);
    return st;
}

pf_status pf_cvt_color_from_yuv(pf_stream *stream, int count, const pf_yuv src[], pf_image dst[],
                                pf_color_code code, const pf_color_opts *opts) {
    static const char fn[] = "pf_cvt_color_from_yuv";
    pfi_clear_error();
    const pfi_backend *be = NULL;
    pf_stream *ds = stream;
    pfi_yuv_code c;
    pf_status st = pfi_check_batch(fn, count, src, dst);
    if (st == PF_OK && count > 0 && pfi_yuv_decode_code(code, &c))
        st = route_frames(fn, stream, count, src, dst, &c, &be, &ds);
    if (st != PF_OK) return st;
    if ((st = check_from_yuv(fn, count, src, dst, code, opts, 0)) != PF_OK || count == 0) return st;
    return PFI_KERNEL(be, fn, cvt_color_from_yuv, ds, count, src, dst, code, opts);
}

pf_status pf_cvt_color_to_yuv(pf_stream *stream, int count, const pf_image src[], pf_yuv dst[],
                              pf_color_code code, const pf_color_opts *opts) {
    static const char fn[] = "pf_cvt_color_to_yuv";
    pfi_clear_error();
    pf_status st = pfi_check_batch(fn, count, src, dst);
    if (st != PF_OK) return st;
    pfi_yuv_code c;
    pfk_yuv_coeffs coeffs;
    if (!pfi_yuv_encode_code(code, &c))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: code %d is not an RGB -> 4:2:0 code (127..134, 1000..1007)", fn,
                        (int)code);
    if ((st = pfi_yuv_check_opts(fn, opts, &coeffs)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        if ((st = check_frame(fn, "dst", i, &dst[i], &c, 1)) != PF_OK) return st;
        if ((st = check_rgb(fn, "src", i, &src[i], dst[i].y.width, dst[i].y.height, c.cn, 1)) != PF_OK)
            return st;
        const pf_image *planes[4];
        const char *names[4];
        int n = frame_planes(&dst[i], &c, planes, names);
        for (int k = 0; k < n; k++) {
            if (pfi_images_overlap(planes[k], &src[i]))
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d].%s overlaps src[%d]", fn, i,
                                names[k], i);
            for (int m = 0; m < k; m++)
                if (pfi_images_overlap(planes[k], planes[m]))
                    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d].%s overlaps dst[%d].%s", fn,
                                    i, names[k], i, names[m]);
        }
    }
    if (count == 0) return PF_OK;
    /* no device version: the views were checked to be host memory */
    return PFI_KERNEL(pfi_host_backend(), fn, cvt_color_to_yuv, stream, count, src, dst, code, opts);
}
