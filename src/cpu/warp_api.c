/* pf_warp_affine, pf_warp_perspective, pf_remap: argument checks and
 * row-parallel execution. u8 affine and remap rows go through one fused
 * kernel (OpenCV's fixed-point coordinates and the sampling in one pass). Every
 * other row is cut into chunks whose source coordinates are computed once
 * (kernels/warp_math.h) and then sampled for every plane: by the u8 row
 * samplers (vector interior / border classification, 8 pixels a block)
 * or, for u16/f32, by the reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/warp_exec.h"
#include "cpu/warp_matrix.h"
#include "kernels/warp_math.h"
#include "pixflow/ops.h"

/* Perspective chunks never cross OpenCV's block columns (at most 1024
 * pixels wide), so this is also the largest block width. */
#define WARP_CHUNK 1024
#define WARP_MAX_SIDE 32767 /* OpenCV's int16 coordinates: sizes must be below this */

typedef enum warp_kind { W_AFFINE, W_PERSP, W_REMAP } warp_kind;

typedef struct warp_sample {
    double m[9];              /* dst -> src */
    int32_t *adelta, *bdelta; /* affine: per dst column */
    int32_t bw;               /* perspective: block width */
} warp_sample;

typedef struct warp_job {
    warp_kind kind;
    const pf_image *src;
    pf_image *dst;
    const pf_image *mx, *my;
    warp_sample *smp;
    const pf_warp_opts *o;
    const pfi_ktable *k;
} warp_job;

pf_warp_opts pf_warp_opts_defaults(void) {
    pf_warp_opts o;
    memset(&o, 0, sizeof o);
    o.interp = PF_INTERP_LINEAR;
    o.border = PF_BORDER_CONSTANT;
    return o;
}

static void plane_src(const warp_job *j, int i, int c, pfi_warp_src *ps) {
    const pf_image *s = &j->src[i];
    int planar = s->layout == PF_CHW && s->channels > 1;
    memset(ps, 0, sizeof *ps);
    ps->data = pfi_row_ptr(s, planar ? c : 0, 0);
    ps->row_stride = s->row_stride;
    ps->width = s->width;
    ps->height = s->height;
    ps->cn = planar ? 1 : s->channels;
    ps->dtype = s->dtype;
    ps->interp = (int)j->o->interp;
    ps->border = (int)j->o->border;
    for (int k = 0; k < ps->cn; k++)
        pfi_warp_cval_store(ps->dtype, j->o->border_value[planar ? c : k],
                            (uint8_t *)&ps->cval + (size_t)k * pf_dtype_size(ps->dtype));
}

/* Coordinates of pixels [x0, x0 + n) of row y of sample i. */
static void coords(const warp_job *j, int i, int32_t y, int32_t x0, int32_t n, int16_t *xy, uint16_t *a) {
    const warp_sample *w = &j->smp[i];
    int nearest = j->o->interp == PF_INTERP_NEAREST;
    if (j->kind == W_AFFINE) {
        int32_t X0 = pfk_affine_row(w->m[1], w->m[2], y, nearest);
        int32_t Y0 = pfk_affine_row(w->m[4], w->m[5], y, nearest);
        ((pfi_warp_affine_xy_fn)j->k->fn[PFI_WARP_AFFINE_XY])(w->adelta + x0, w->bdelta + x0, X0, Y0, n, nearest,
                                                              xy, a);
    } else if (j->kind == W_PERSP) {
        int32_t bx = x0 / w->bw * w->bw; /* chunks stay inside one block */
        double o[3];
        pfk_persp_origin(w->m, bx, y, o);
        ((pfi_warp_persp_xy_fn)j->k->fn[PFI_WARP_PERSP_XY])(w->m, o, x0 - bx, n, nearest, xy, a);
    } else {
        const float *fx = (const float *)pfi_row_ptr(&j->mx[i], 0, y) + x0;
        const float *fy = (const float *)pfi_row_ptr(&j->my[i], 0, y) + x0;
        ((pfi_warp_remap_xy_fn)j->k->fn[PFI_WARP_REMAP_XY])(fx, fy, n, nearest, xy, a);
    }
}

static void warp_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const warp_job *j = ctx;
    const pf_image *d = &j->dst[i];
    int planar = d->layout == PF_CHW && d->channels > 1;
    int planes = planar ? d->channels : 1;
    int16_t xy[2 * WARP_CHUNK];
    uint16_t a[WARP_CHUNK];
    pfi_warp_src ps[4];
    for (int c = 0; c < planes; c++) plane_src(j, i, c, &ps[c]);
    size_t px = pf_dtype_size(d->dtype) * (size_t)ps[0].cn;
    int interp = ps[0].interp;
    if (d->dtype == PF_U8 && j->kind == W_AFFINE) {
        /* coordinates and sampling in one pass, straight from the column terms */
        const warp_sample *w = &j->smp[i];
        pfi_warp_affine_u8_fn fused = pfi_warp_affine_u8(j->k, interp);
        for (int32_t y = y0; y < y1; y++) {
            int32_t X0 = pfk_affine_row(w->m[1], w->m[2], y, interp == PF_INTERP_NEAREST);
            int32_t Y0 = pfk_affine_row(w->m[4], w->m[5], y, interp == PF_INTERP_NEAREST);
            for (int c = 0; c < planes; c++)
                fused(&ps[c], w->adelta, w->bdelta, X0, Y0, d->width, (uint8_t *)pfi_row_ptr(d, c, y));
        }
        return;
    }
    if (d->dtype == PF_U8 && j->kind == W_REMAP) {
        pfi_warp_remap_u8_fn fused = pfi_warp_remap_u8(j->k, interp);
        for (int32_t y = y0; y < y1; y++) {
            const float *fx = (const float *)pfi_row_ptr(&j->mx[i], 0, y);
            const float *fy = (const float *)pfi_row_ptr(&j->my[i], 0, y);
            for (int c = 0; c < planes; c++) fused(&ps[c], fx, fy, d->width, (uint8_t *)pfi_row_ptr(d, c, y));
        }
        return;
    }
    pfi_warp_u8_row_fn row_u8 = d->dtype == PF_U8 ? pfi_warp_u8_row(j->k, interp) : NULL;
    int32_t chunk = j->kind == W_PERSP ? j->smp[i].bw : WARP_CHUNK;
    for (int32_t y = y0; y < y1; y++) {
        for (int32_t x0 = 0; x0 < d->width; x0 += chunk) {
            int32_t n = d->width - x0 < chunk ? d->width - x0 : chunk;
            coords(j, i, y, x0, n, xy, a);
            for (int c = 0; c < planes; c++) {
                uint8_t *out = (uint8_t *)pfi_row_ptr(d, c, y) + (size_t)x0 * px;
                if (row_u8) row_u8(&ps[c], xy, a, out, n);
                else pfi_warp_row_ref(&ps[c], xy, a, out, n);
            }
        }
    }
}

/* ---------------------------------------------------------------- checks */

static pf_status check_opts(const char *op, const pf_warp_opts *o, int remap) {
    if (o->interp != PF_INTERP_NEAREST && o->interp != PF_INTERP_LINEAR && o->interp != PF_INTERP_CUBIC)
        return pfi_fail(o->interp == PF_INTERP_AREA || o->interp == PF_INTERP_LANCZOS4 ||
                                o->interp == PF_INTERP_NEAREST_EXACT
                            ? PF_ERR_UNSUPPORTED
                            : PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.interp is %d; use NEAREST(0), LINEAR(1) or CUBIC(2)", op, (int)o->interp);
    if ((unsigned)o->border > 5u)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.border is %d; use CONSTANT(0), REPLICATE(1), REFLECT(2), WRAP(3), REFLECT_101(4) "
                        "or TRANSPARENT(5)",
                        op, (int)o->border);
    if (remap ? o->flags != 0 : (o->flags & ~PF_WARP_INVERSE_MAP) != 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.flags is %d; %s", op, o->flags,
                        remap ? "pf_remap takes no flags (0)" : "only PF_WARP_INVERSE_MAP (16) is defined");
    return PF_OK;
}

/* host: the views must be host memory (the CPU path); a device backend
 * runs every other check unchanged. */
static pf_status check_image_pair(const char *op, int i, const pf_image *s, const pf_image *d, int host) {
    char name[64];
    snprintf(name, sizeof name, "%s: src[%d]", op, i);
    pf_status st = pf_image_validate(s, name);
    if (st != PF_OK) return st;
    snprintf(name, sizeof name, "%s: dst[%d]", op, i);
    if ((st = pf_image_validate(d, name)) != PF_OK) return st;
    if (host && (s->mem != PF_MEM_HOST || d->mem != PF_MEM_HOST))
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views", op,
                        s->mem != PF_MEM_HOST ? "src" : "dst", i);
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d].dtype is %s; warps support u8, u16 and f32", op, i,
                        pf_dtype_name(s->dtype));
    if (s->dtype != d->dtype || s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] is %s x%d but dst[%d] is %s x%d; dtype and channels are kept",
                        op, i, pf_dtype_name(s->dtype), (int)s->channels, i, pf_dtype_name(d->dtype),
                        (int)d->channels);
    if (s->channels > 4)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d] has %d channels; at most 4", op, i, (int)s->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] and dst[%d] differ in layout; convert with pf_reformat",
                        op, i, i);
    if (s->width >= WARP_MAX_SIDE || s->height >= WARP_MAX_SIDE || d->width >= WARP_MAX_SIDE ||
        d->height >= WARP_MAX_SIDE)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d] is %dx%d and dst[%d] %dx%d; warps need sides below %d", op, i,
                        (int)s->width, (int)s->height, i, (int)d->width, (int)d->height, WARP_MAX_SIDE);
    if (pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] and dst[%d] overlap; in-place is not supported", op, i,
                        i);
    return PF_OK;
}

static pf_status check_map(const char *op, const char *which, int i, const pf_image *m, const pf_image *d) {
    char name[64];
    snprintf(name, sizeof name, "%s: %s[%d]", op, which, i);
    pf_status st = pf_image_validate(m, name);
    if (st != PF_OK) return st;
    if (m->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views", op, which, i);
    if (m->dtype != PF_F32 || m->channels != 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %s x%d; maps are 1-channel f32", op, which, i,
                        pf_dtype_name(m->dtype), (int)m->channels);
    if (m->width != d->width || m->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %dx%d but dst[%d] is %dx%d; maps have dst's size", op,
                        which, i, (int)m->width, (int)m->height, i, (int)d->width, (int)d->height);
    if (pfi_images_overlap(m, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] and dst[%d] overlap", op, which, i, i);
    return PF_OK;
}

/* ------------------------------------------------------------- execution */

/* Every check of the call that does not depend on where it runs (host:
 * also that the views are host memory); *o receives the options. */
static pf_status check_call(warp_kind kind, const char *op, int count, const pf_image *src, const pf_image *dst,
                            const double *mats, int nmats, const pf_image *mx, const pf_image *my,
                            const pf_warp_opts *opts, int host, pf_warp_opts *o) {
    *o = opts ? *opts : pf_warp_opts_defaults();
    pf_status st = check_opts(op, o, kind == W_REMAP);
    if (st != PF_OK) return st;
    if (kind == W_REMAP) {
        if (mx == NULL || my == NULL)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, mx == NULL ? "map_x" : "map_y");
    } else {
        if (mats == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: matrices is NULL", op);
        if (nmats != 1 && nmats != count)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: nmatrices is %d; it must be 1 or count (%d)", op, nmats,
                            count);
    }
    for (int i = 0; i < count; i++) {
        if ((st = check_image_pair(op, i, &src[i], &dst[i], host)) != PF_OK) return st;
        if (kind == W_REMAP && ((st = check_map(op, "map_x", i, &mx[i], &dst[i])) != PF_OK ||
                                (st = check_map(op, "map_y", i, &my[i], &dst[i])) != PF_OK))
            return st;
    }
    return PF_OK;
}

static pf_status run(pf_stream *stream, warp_kind kind, const char *op, int count, const pf_image *src,
                     pf_image *dst, const double *mats, int nmats, const pf_image *mx, const pf_image *my,
                     const pf_warp_opts *opts) {
    pfi_clear_error();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (src == NULL || dst == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL with count %d", op, src == NULL ? "src" : "dst", count);
    /* device views run on their backend after the same checks */
    const pfi_backend *be;
    pf_stream *dev_stream;
    pf_status st = pfi_route_images(op, stream, count, src, dst, &be, &dev_stream);
    if (st != PF_OK) return st;
    if (be != NULL && kind == W_REMAP) return pfi_unsupported_on(op, be); /* no device remap */
    pf_warp_opts o;
    if ((st = check_call(kind, op, count, src, dst, mats, nmats, mx, my, opts, be == NULL, &o)) != PF_OK) return st;
    if (be != NULL) {
        pf_status (*fn)(pf_stream *, int, const pf_image *, pf_image *, const double *, int, const pf_warp_opts *) =
            kind == W_AFFINE ? be->kernels->warp_affine : be->kernels->warp_perspective;
        return fn ? fn(dev_stream, count, src, dst, mats, nmats, &o) : pfi_unsupported_on(op, be);
    }
    size_t ncols = 0;
    for (int i = 0; i < count && kind == W_AFFINE; i++) ncols += (size_t)dst[i].width;
    warp_sample *smp = calloc((size_t)count, sizeof *smp);
    int32_t *deltas = malloc((ncols ? ncols : 1) * 2 * sizeof *deltas);
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (smp == NULL || deltas == NULL || rows == NULL) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
        goto done;
    }
    int32_t *next = deltas;
    for (int i = 0; i < count && kind != W_REMAP; i++) {
        int mi = nmats == 1 ? 0 : i;
        warp_sample *w = &smp[i];
        const double *in = mats + (size_t)mi * (kind == W_AFFINE ? 6 : 9);
        if ((st = pfi_warp_dst_to_src(op, kind == W_PERSP, in, mi, o.flags, w->m)) != PF_OK) goto done;
        if (kind == W_AFFINE) {
            w->adelta = next;
            w->bdelta = next + dst[i].width;
            for (int32_t x = 0; x < dst[i].width; x++) {
                w->adelta[x] = pfk_affine_col(w->m[0], x);
                w->bdelta[x] = pfk_affine_col(w->m[3], x);
            }
            next += 2 * (size_t)dst[i].width;
        } else {
            w->bw = pfk_persp_block_w(dst[i].width, dst[i].height);
        }
    }
    for (int i = 0; i < count; i++) {
        rows[i] = dst[i].height;
        int32_t cost = o.interp == PF_INTERP_CUBIC ? 8 : o.interp == PF_INTERP_LINEAR ? 3 : 1;
        rows[count + i] = dst[i].width * dst[i].channels * cost;
    }
    warp_job j = {kind, src, dst, mx, my, smp, &o, pfi_kfamily_table(&pfi_warp_family, pf_stream_isa(stream))};
    pfi_run_rows(stream, count, rows, rows + count, 1, warp_rows, &j);
done:
    free(smp);
    free(deltas);
    free(rows);
    return st;
}

pf_status pf_warp_affine(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const double matrices[],
                         int nmatrices, const pf_warp_opts *opts) {
    return run(stream, W_AFFINE, "pf_warp_affine", count, src, dst, matrices, nmatrices, NULL, NULL, opts);
}

pf_status pf_warp_perspective(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                              const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    return run(stream, W_PERSP, "pf_warp_perspective", count, src, dst, matrices, nmatrices, NULL, NULL, opts);
}

pf_status pf_remap(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const pf_image map_x[],
                   const pf_image map_y[], const pf_warp_opts *opts) {
    return run(stream, W_REMAP, "pf_remap", count, src, dst, NULL, 0, map_x, map_y, opts);
}
