/* pf_cvt_color_from_yuv / pf_cvt_color_to_yuv: argument checks and
 * row-pair-parallel execution of the 4:2:0 kernels (src/ref/yuv_rows.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/yuv_exec.h"
#include "pixflow/ops.h"

/* (declared in yuv_exec.h: the GPU preprocess of frames reads codes too) */
int pfi_yuv_decode_code(pf_color_code code, pfi_yuv_code *c) {
    int v = (int)code;
    if (v >= 90 && v <= 97) { /* NV12/NV21: RGB, BGR, RGB, BGR, RGBA, BGRA, RGBA, BGRA */
        int o = v - 90;
        c->kind = PFI_FRAME_SP;
        c->blue_first = o & 1;
        c->swap_uv = (o >> 1) & 1;
        c->cn = o >= 4 ? 4 : 3;
        return 1;
    }
    if (v >= 98 && v <= 105) { /* YV12, IYUV x {RGB, BGR}, then the same with alpha */
        int o = v - 98;
        c->kind = PFI_FRAME_P;
        c->blue_first = o & 1;
        c->swap_uv = 0; /* u/v are named planes: YV12 differs from I420 only in memory order */
        c->cn = o >= 4 ? 4 : 3;
        return 1;
    }
    if (v == 106) {
        c->kind = PFI_FRAME_GRAY;
        c->blue_first = c->swap_uv = 0;
        c->cn = 1;
        return 1;
    }
    return 0;
}

static int encode_code(pf_color_code code, pfi_yuv_code *c) {
    int v = (int)code;
    if (v >= 127 && v <= 134) { /* I420 RGB, BGR, RGBA, BGRA; then YV12 */
        int o = (v - 127) & 3;
        c->kind = PFI_FRAME_P;
        c->blue_first = o & 1;
        c->cn = o >= 2 ? 4 : 3;
        c->swap_uv = 0;
        return 1;
    }
    if (v >= 1000 && v <= 1007) { /* NV12 RGB, BGR, RGBA, BGRA; then NV21 */
        int o = v - 1000;
        c->kind = PFI_FRAME_SP;
        c->blue_first = o & 1;
        c->cn = (o & 3) >= 2 ? 4 : 3;
        c->swap_uv = o >= 4;
        return 1;
    }
    return 0;
}

pf_status pfi_yuv_check_opts(const char *fn, const pf_color_opts *opts, pfk_yuv_coeffs *k) {
    int m = opts ? (int)opts->yuv_matrix : (int)PF_YUV_BT601;
    int r = opts ? (int)opts->yuv_range : (int)PF_YUV_LIMITED;
    if (m != PF_YUV_BT601 && m != PF_YUV_BT709)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts->yuv_matrix is %d; use PF_YUV_BT601 or PF_YUV_BT709", fn, m);
    if (r != PF_YUV_LIMITED && r != PF_YUV_FULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts->yuv_range is %d; use PF_YUV_LIMITED or PF_YUV_FULL", fn, r);
    *k = *pfi_yuv_coeffs(m, r);
    return PF_OK;
}

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
    if (c->kind == PFI_FRAME_SP) return check_plane(fn, side, i, "uv", &f->uv, w / 2, h / 2, 2, host);
    if (c->kind == PFI_FRAME_P) {
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
    if (c->kind == PFI_FRAME_SP) out[n] = &f->uv, names[n++] = "uv";
    if (c->kind == PFI_FRAME_P) {
        out[n] = &f->u, names[n++] = "u";
        out[n] = &f->v, names[n++] = "v";
    }
    return n;
}

/* ------------------------------------------------------------ execution */

typedef struct yuv_job {
    const pf_yuv *frames;
    const pf_image *images;
    pfi_yuv_code c;
    pfi_yuv_params p;
    pfi_kfn fast; /* the dispatched kernel for c.kind and the direction */
} yuv_job;

/* Columns the fast kernel covers (the reference takes the rest). */
static int32_t fast_cols(pfi_kfn fast, pfi_kfn ref, int32_t w) {
    return fast == ref ? 0 : w / PFI_YUV_BLOCK * PFI_YUV_BLOCK;
}

/* Where the fast kernel runs once more for the tail: the last whole
 * block, overlapping the columns already done (it rewrites them with the
 * same bytes; outputs never overlap inputs). Returns w when the row is
 * all blocks or narrower than one block (then the reference takes the
 * tail). The start is even because w and the block are. */
static int32_t tail_start(int32_t n, int32_t w) {
    return n > 0 && n < w ? w - PFI_YUV_BLOCK : w;
}

static void decode_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const yuv_job *j = ctx;
    const pf_yuv *f = &j->frames[i];
    const pf_image *d = &j->images[i];
    const int32_t w = f->y.width, cn = j->p.cn;
    for (int32_t y = y0; y < y1; y += 2) {
        const uint8_t *l0 = pfi_row_ptr(&f->y, 0, y), *l1 = pfi_row_ptr(&f->y, 0, y + 1);
        uint8_t *o0 = pfi_row_ptr(d, 0, y), *o1 = pfi_row_ptr(d, 0, y + 1);
        if (j->c.kind == PFI_FRAME_GRAY) {
            memcpy(o0, l0, (size_t)w);
            memcpy(o1, l1, (size_t)w);
            continue;
        }
        if (j->c.kind == PFI_FRAME_SP) {
            const uint8_t *uv = pfi_row_ptr(&f->uv, 0, y / 2);
            pfi_yuv_sp_to_rgb_fn k = (pfi_yuv_sp_to_rgb_fn)j->fast;
            int32_t n = fast_cols(j->fast, (pfi_kfn)pfi_yuv_sp_to_rgb_ref, w), t = tail_start(n, w);
            if (n) k(l0, l1, uv, o0, o1, n, &j->p);
            if (t < w) k(l0 + t, l1 + t, uv + t, o0 + t * cn, o1 + t * cn, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_yuv_sp_to_rgb_ref(l0 + n, l1 + n, uv + n, o0 + n * cn, o1 + n * cn, w - n, &j->p);
        } else {
            const uint8_t *u = pfi_row_ptr(&f->u, 0, y / 2), *v = pfi_row_ptr(&f->v, 0, y / 2);
            pfi_yuv_p_to_rgb_fn k = (pfi_yuv_p_to_rgb_fn)j->fast;
            int32_t n = fast_cols(j->fast, (pfi_kfn)pfi_yuv_p_to_rgb_ref, w), t = tail_start(n, w);
            if (n) k(l0, l1, u, v, o0, o1, n, &j->p);
            if (t < w)
                k(l0 + t, l1 + t, u + t / 2, v + t / 2, o0 + t * cn, o1 + t * cn, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_yuv_p_to_rgb_ref(l0 + n, l1 + n, u + n / 2, v + n / 2, o0 + n * cn,
                                     o1 + n * cn, w - n, &j->p);
        }
    }
}

static void encode_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const yuv_job *j = ctx;
    const pf_image *s = &j->images[i];
    const pf_yuv *f = &j->frames[i];
    const int32_t w = s->width, cn = j->p.cn;
    for (int32_t y = y0; y < y1; y += 2) {
        const uint8_t *i0 = pfi_row_ptr(s, 0, y), *i1 = pfi_row_ptr(s, 0, y + 1);
        uint8_t *l0 = pfi_row_ptr(&f->y, 0, y), *l1 = pfi_row_ptr(&f->y, 0, y + 1);
        if (j->c.kind == PFI_FRAME_SP) {
            uint8_t *uv = pfi_row_ptr(&f->uv, 0, y / 2);
            pfi_rgb_to_yuv_sp_fn k = (pfi_rgb_to_yuv_sp_fn)j->fast;
            int32_t n = fast_cols(j->fast, (pfi_kfn)pfi_rgb_to_yuv_sp_ref, w), t = tail_start(n, w);
            if (n) k(i0, i1, l0, l1, uv, n, &j->p);
            if (t < w) k(i0 + t * cn, i1 + t * cn, l0 + t, l1 + t, uv + t, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_rgb_to_yuv_sp_ref(i0 + n * cn, i1 + n * cn, l0 + n, l1 + n, uv + n, w - n, &j->p);
        } else {
            uint8_t *u = pfi_row_ptr(&f->u, 0, y / 2), *v = pfi_row_ptr(&f->v, 0, y / 2);
            pfi_rgb_to_yuv_p_fn k = (pfi_rgb_to_yuv_p_fn)j->fast;
            int32_t n = fast_cols(j->fast, (pfi_kfn)pfi_rgb_to_yuv_p_ref, w), t = tail_start(n, w);
            if (n) k(i0, i1, l0, l1, u, v, n, &j->p);
            if (t < w)
                k(i0 + t * cn, i1 + t * cn, l0 + t, l1 + t, u + t / 2, v + t / 2, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_rgb_to_yuv_p_ref(i0 + n * cn, i1 + n * cn, l0 + n, l1 + n, u + n / 2, v + n / 2,
                                     w - n, &j->p);
        }
    }
}

static pf_status run(pf_stream *stream, int count, const char *fn, yuv_job *j, int encode) {
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", fn, count);
    for (int i = 0; i < count; i++) {
        rows[i] = j->frames[i].y.height;
        rows[count + i] = j->frames[i].y.width;
    }
    const pfi_ktable *k = pfi_kfamily_table(&pfi_yuv_family, pf_stream_isa(stream));
    int slot = encode ? (j->c.kind == PFI_FRAME_SP ? PFI_YUV_RGB_TO_NV12 : PFI_YUV_RGB_TO_I420)
                      : (j->c.kind == PFI_FRAME_SP ? PFI_YUV_NV12_TO_RGB : PFI_YUV_I420_TO_RGB);
    j->fast = k->fn[slot];
    pfi_run_rows(stream, count, rows, rows + count, 2, encode ? encode_rows : decode_rows, j);
    free(rows);
    return PF_OK;
}

static pf_status check_batch_args(const char *fn, int count, const void *src, const void *dst) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", fn, count);
    if (count > 0 && src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src is NULL with count %d", fn, count);
    if (count > 0 && dst == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst is NULL with count %d", fn, count);
    return PF_OK;
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
                                pf_color_code code, const pf_color_opts *opts, int host, yuv_job *j) {
    pf_status st = check_batch_args(fn, count, src, dst);
    if (st != PF_OK) return st;
    memset(j, 0, sizeof *j);
    if (!pfi_yuv_decode_code(code, &j->c))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: code %d is not a 4:2:0 -> RGB/BGR/RGBA/BGRA/GRAY code (90..106)", fn,
                        (int)code);
    if ((st = pfi_yuv_check_opts(fn, opts, &j->p.k)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        if ((st = check_frame(fn, "src", i, &src[i], &j->c, host)) != PF_OK) return st;
        if ((st = check_rgb(fn, "dst", i, &dst[i], src[i].y.width, src[i].y.height, j->c.cn, host)) != PF_OK)
            return st;
        const pf_image *planes[4];
        const char *names[4];
        int n = frame_planes(&src[i], &j->c, planes, names);
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
    pf_status st = check_batch_args(fn, count, src, dst);
    if (st == PF_OK && count > 0 && pfi_yuv_decode_code(code, &c))
        st = route_frames(fn, stream, count, src, dst, &c, &be, &ds);
    if (st != PF_OK) return st;
    yuv_job j;
    if ((st = check_from_yuv(fn, count, src, dst, code, opts, be == NULL, &j)) != PF_OK || count == 0)
        return st;
    if (be != NULL)
        return be->kernels->cvt_color_from_yuv ? be->kernels->cvt_color_from_yuv(ds, count, src, dst, code, opts)
                                               : pfi_unsupported_on(fn, be);
    j.frames = src;
    j.images = dst;
    j.p.cn = j.c.cn;
    j.p.blue_first = j.c.blue_first;
    j.p.swap_uv = j.c.swap_uv;
    return run(stream, count, fn, &j, 0);
}

pf_status pf_cvt_color_to_yuv(pf_stream *stream, int count, const pf_image src[], pf_yuv dst[],
                              pf_color_code code, const pf_color_opts *opts) {
    static const char fn[] = "pf_cvt_color_to_yuv";
    pfi_clear_error();
    pf_status st = check_batch_args(fn, count, src, dst);
    if (st != PF_OK) return st;
    yuv_job j;
    memset(&j, 0, sizeof j);
    if (!encode_code(code, &j.c))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: code %d is not an RGB -> 4:2:0 code (127..134, 1000..1007)", fn,
                        (int)code);
    if ((st = pfi_yuv_check_opts(fn, opts, &j.p.k)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        if ((st = check_frame(fn, "dst", i, &dst[i], &j.c, 1)) != PF_OK) return st;
        if ((st = check_rgb(fn, "src", i, &src[i], dst[i].y.width, dst[i].y.height, j.c.cn, 1)) != PF_OK)
            return st;
        const pf_image *planes[4];
        const char *names[4];
        int n = frame_planes(&dst[i], &j.c, planes, names);
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
    j.frames = dst;
    j.images = src;
    j.p.cn = j.c.cn;
    j.p.blue_first = j.c.blue_first;
    j.p.swap_uv = j.c.swap_uv;
    return run(stream, count, fn, &j, 1);
}
