/* pf_flip, pf_rotate, pf_transpose on the CPU. All three map every output
 * row to a run of source pixels with a fixed byte step: +-pixel size (a
 * source row, forwards or reversed) or +-row stride (a source column).
 * Rows are done in parallel bands; column reads go in blocks of
 * PFI_COL_BLOCK output pixels so a band's source rows stay in cache. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/geom_exec.h"

#define PFI_COL_BLOCK 64

typedef enum geom_kind { G_COPY, G_FLIP_V, G_FLIP_H, G_FLIP_HV, G_TRANSPOSE, G_ROT_CW, G_ROT_CCW } geom_kind;

typedef struct geom_job {
    const pf_image *src;
    pf_image *dst;
    const geom_kind *kind;
    const pfi_geom_kernels *k;
} geom_job;

static int32_t pixel_bytes(const pf_image *im) {
    return (int32_t)pf_dtype_size(im->dtype) * (im->layout == PF_HWC ? im->channels : 1);
}

/* dst(x, y) = src(sx(y), sy(x)) for the quarter turns and transpose:
 * output row y is source column sx, read down (transpose, CCW) or up (CW). */
static const uint8_t *column_start(const pf_image *s, int c, geom_kind kind, int32_t y, int32_t x0,
                                   int32_t px) {
    int32_t sx = kind == G_ROT_CCW ? s->width - 1 - y : y;
    int32_t sy = kind == G_ROT_CW ? s->height - 1 - x0 : x0;
    return (const uint8_t *)pfi_row_ptr(s, c, sy) + (ptrdiff_t)sx * px;
}

/* Groups of 8 output rows go through the 8x8 tile kernel (8 source rows x
 * 8 adjacent source pixels per tile); leftover rows and columns use the
 * column gather. Output columns are walked in blocks of PFI_COL_BLOCK so
 * the source rows a block touches stay in cache. */
static void turned_rows(const geom_job *j, const pf_image *s, const pf_image *d, int c, geom_kind kind,
                        int32_t px, int32_t y0, int32_t y1) {
    ptrdiff_t step = kind == G_ROT_CW ? -s->row_stride : s->row_stride;
    pfi_tile8_fn tile = pfi_tile8(j->k, px);
    int32_t y = y0;
    if (tile) {
        for (; y + 8 <= y1; y += 8) {
            int32_t x = 0;
            for (; x + 8 <= d->width; x += 8) {
                /* CCW reads the 8 source columns right to left: start at the
                 * leftmost one and fill the 8 output rows bottom-up. */
                int ccw = kind == G_ROT_CCW;
                const uint8_t *sp = column_start(s, c, kind, ccw ? y + 7 : y, x, px);
                uint8_t *dp = (uint8_t *)pfi_row_ptr(d, c, ccw ? y + 7 : y) + (ptrdiff_t)x * px;
                tile(sp, step, dp, ccw ? -d->row_stride : d->row_stride);
            }
            for (int32_t k = 0; k < 8 && x < d->width; k++)
                pfi_gather_row_ref(column_start(s, c, kind, y + k, x, px), step,
                                   (uint8_t *)pfi_row_ptr(d, c, y + k) + (ptrdiff_t)x * px, d->width - x, px);
        }
    }
    for (int32_t x0 = 0; x0 < d->width && y < y1; x0 += PFI_COL_BLOCK) {
        int32_t n = d->width - x0 < PFI_COL_BLOCK ? d->width - x0 : PFI_COL_BLOCK;
        for (int32_t yy = y; yy < y1; yy++)
            pfi_gather_row_ref(column_start(s, c, kind, yy, x0, px), step,
                               (uint8_t *)pfi_row_ptr(d, c, yy) + (ptrdiff_t)x0 * px, n, px);
    }
}

static void geom_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const geom_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    geom_kind kind = j->kind[i];
    int32_t px = pixel_bytes(s);
    int planes = s->layout == PF_CHW ? s->channels : 1;
    for (int c = 0; c < planes; c++) {
        if (kind <= G_FLIP_HV) {
            for (int32_t y = y0; y < y1; y++) {
                int32_t sy = kind == G_FLIP_V || kind == G_FLIP_HV ? s->height - 1 - y : y;
                const uint8_t *sr = pfi_row_ptr(s, c, sy);
                uint8_t *dr = pfi_row_ptr(d, c, y);
                if (kind == G_FLIP_H || kind == G_FLIP_HV) pfi_flip_row(j->k, sr, dr, d->width, px);
                else memcpy(dr, sr, (size_t)d->width * (size_t)px);
            }
            continue;
        }
        turned_rows(j, s, d, c, kind, px, y0, y1);
    }
}

static pf_status run(pf_stream *stream, int count, const pf_image *src, pf_image *dst, geom_kind *kinds) {
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "geometry: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        rows[i] = dst[i].height;
        /* pure data movement: about one unit of work per 8 bytes */
        rows[count + i] = (int32_t)(((int64_t)dst[i].width * dst[i].channels * (int64_t)pf_dtype_size(dst[i].dtype) + 7) / 8);
    }
    geom_job j = {src, dst, kinds, pfi_kfamily_table(&pfi_geom_family, pf_stream_isa(stream))};
    /* bands of whole 8-row tiles for the turned kinds */
    pfi_run_rows(stream, count, rows, rows + count, 8, geom_rows, &j);
    free(rows);
    return PF_OK;
}

static geom_kind flip_kind(pf_flip_code c) {
    switch (c) {
    case PF_FLIP_VERTICAL: return G_FLIP_V;
    case PF_FLIP_HORIZONTAL: return G_FLIP_H;
    case PF_FLIP_BOTH: return G_FLIP_HV;
    default: return G_COPY;
    }
}

static geom_kind rotate_kind(pf_rotate_code c) {
    switch (c) {
    case PF_ROTATE_90_CLOCKWISE: return G_ROT_CW;
    case PF_ROTATE_90_COUNTERCLOCKWISE: return G_ROT_CCW;
    case PF_ROTATE_180: return G_FLIP_HV;
    default: return G_COPY;
    }
}

/* kinds[i] for every sample (from codes[] when given), then the run. */
static pf_status run_codes(pf_stream *s, const char *op, int count, const pf_image src[], pf_image dst[],
                           const pf_flip_code fcodes[], const pf_rotate_code rcodes[], int ncodes) {
    geom_kind *kinds = malloc((size_t)count * sizeof *kinds);
    if (kinds == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    for (int i = 0; i < count; i++)
        kinds[i] = fcodes ? flip_kind(fcodes[ncodes == 1 ? 0 : i])
                          : rcodes ? rotate_kind(rcodes[ncodes == 1 ? 0 : i]) : G_TRANSPOSE;
    pf_status st = run(s, count, src, dst, kinds);
    free(kinds);
    return st;
}

pf_status pfi_cpu_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_flip_code codes[],
                       int ncodes) {
    return run_codes(s, "pf_flip", count, src, dst, codes, NULL, ncodes);
}

pf_status pfi_cpu_rotate(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_rotate_code codes[],
                         int ncodes) {
    return run_codes(s, "pf_rotate", count, src, dst, NULL, codes, ncodes);
}

pf_status pfi_cpu_transpose(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    return run_codes(s, "pf_transpose", count, src, dst, NULL, NULL, 1);
}
