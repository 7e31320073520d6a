/* pf_warp_affine, pf_warp_perspective, pf_remap on the CPU: row-parallel.
 * u8 affine and remap rows go through one fused kernel (OpenCV's
 * fixed-point coordinates and the sampling in one pass). Every other row
 * is cut into chunks whose source coordinates are computed once
 * (kernels/warp_math.h) and then sampled for every plane: by the u8 row
 * samplers (vector interior / border classification, 8 pixels a block)
 * or, for u16/f32, by the reference. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/warp_exec.h"
#include "kernels/warp_math.h"
#include "ops/warp_matrix.h"

/* Perspective chunks never cross OpenCV's block columns (at most 1024
 * pixels wide), so this is also the largest block width. */
#define WARP_CHUNK 1024

typedef struct warp_sample {
    double m[9];              /* dst -> src */
    int32_t *adelta, *bdelta; /* affine: per dst column */
    int32_t bw;               /* perspective: block width */
} warp_sample;

typedef struct warp_job {
    pfi_warp_kind kind;
    const pf_image *src;
    pf_image *dst;
    const pf_image *mx, *my;
    warp_sample *smp;
    const pf_warp_opts *o;
    const pfi_warp_kernels *k;
} warp_job;

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
    if (j->kind == PFI_WARP_AFFINE) {
        int32_t X0 = pfk_affine_row(w->m[1], w->m[2], y, nearest);
        int32_t Y0 = pfk_affine_row(w->m[4], w->m[5], y, nearest);
        j->k->affine_xy(w->adelta + x0, w->bdelta + x0, X0, Y0, n, nearest,
                                                              xy, a);
    } else if (j->kind == PFI_WARP_PERSPECTIVE) {
        int32_t bx = x0 / w->bw * w->bw; /* chunks stay inside one block */
        double o[3];
        pfk_persp_origin(w->m, bx, y, o);
        j->k->persp_xy(w->m, o, x0 - bx, n, nearest, xy, a);
    } else {
        const float *fx = (const float *)pfi_row_ptr(&j->mx[i], 0, y) + x0;
        const float *fy = (const float *)pfi_row_ptr(&j->my[i], 0, y) + x0;
        j->k->remap_xy(fx, fy, n, nearest, xy, a);
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
    if (d->dtype == PF_U8 && j->kind == PFI_WARP_AFFINE) {
        /* coordinates and sampling in one pass, straight from the column terms */
        const warp_sample *w = &j->smp[i];
        pfi_warp_affine_u8_fn fused = j->k->affine_u8[interp];
        for (int32_t y = y0; y < y1; y++) {
            int32_t X0 = pfk_affine_row(w->m[1], w->m[2], y, interp == PF_INTERP_NEAREST);
            int32_t Y0 = pfk_affine_row(w->m[4], w->m[5], y, interp == PF_INTERP_NEAREST);
            for (int c = 0; c < planes; c++)
                fused(&ps[c], w->adelta, w->bdelta, X0, Y0, d->width, (uint8_t *)pfi_row_ptr(d, c, y));
        }
        return;
    }
    if (d->dtype == PF_U8 && j->kind == PFI_WARP_REMAP) {
        pfi_warp_remap_u8_fn fused = j->k->remap_u8[interp];
        for (int32_t y = y0; y < y1; y++) {
            const float *fx = (const float *)pfi_row_ptr(&j->mx[i], 0, y);
            const float *fy = (const float *)pfi_row_ptr(&j->my[i], 0, y);
            for (int c = 0; c < planes; c++) fused(&ps[c], fx, fy, d->width, (uint8_t *)pfi_row_ptr(d, c, y));
        }
        return;
    }
    pfi_warp_u8_row_fn row_u8 = d->dtype == PF_U8 ? j->k->u8_row[interp] : NULL;
    int32_t chunk = j->kind == PFI_WARP_PERSPECTIVE ? j->smp[i].bw : WARP_CHUNK;
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

/* The run of a validated call: per-sample matrices (dst -> src) and
 * column terms, then the rows. */
static pf_status run(pf_stream *stream, pfi_warp_kind kind, const char *op, int count, const pf_image *src,
                     pf_image *dst, const double *mats, int nmats, const pf_image *mx, const pf_image *my,
                     const pf_warp_opts *opts) {
    pf_warp_opts o = *opts;
    pf_status st = PF_OK;
    size_t ncols = 0;
    for (int i = 0; i < count && kind == PFI_WARP_AFFINE; i++) ncols += (size_t)dst[i].width;
    warp_sample *smp = calloc((size_t)count, sizeof *smp);
    int32_t *deltas = malloc((ncols ? ncols : 1) * 2 * sizeof *deltas);
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (smp == NULL || deltas == NULL || rows == NULL) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
        goto done;
    }
    int32_t *next = deltas;
    for (int i = 0; i < count && kind != PFI_WARP_REMAP; i++) {
        int mi = nmats == 1 ? 0 : i;
        warp_sample *w = &smp[i];
        const double *in = mats + (size_t)mi * (kind == PFI_WARP_AFFINE ? 6 : 9);
        if ((st = pfi_warp_dst_to_src(op, kind == PFI_WARP_PERSPECTIVE, in, mi, o.flags, w->m)) != PF_OK) goto done;
        if (kind == PFI_WARP_AFFINE) {
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


pf_status pfi_cpu_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                              int nmatrices, const pf_warp_opts *opts) {
    return run(s, PFI_WARP_AFFINE, "pf_warp_affine", count, src, dst, matrices, nmatrices, NULL, NULL, opts);
}

pf_status pfi_cpu_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                   const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    return run(s, PFI_WARP_PERSPECTIVE, "pf_warp_perspective", count, src, dst, matrices, nmatrices, NULL, NULL, opts);
}

pf_status pfi_cpu_remap(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_image map_x[],
                        const pf_image map_y[], const pf_warp_opts *opts) {
    return run(s, PFI_WARP_REMAP, "pf_remap", count, src, dst, NULL, 0, map_x, map_y, opts);
}
