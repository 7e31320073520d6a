/* pf_lut: argument checks and row-parallel execution. */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "pixflow/ops.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/lut_exec.h"
#include "cpu/op_check.h"

pf_lut_opts pf_lut_opts_defaults(void) {
    pf_lut_opts o;
    o.table_channels = 1;
    o.per_sample = 0;
    return o;
}

typedef struct lut_job {
    const pf_image *src;
    pf_image *dst;
    const uint8_t *tables;
    pf_lut_opts o;
    pfi_lut_row_fn fast;
} lut_job;

/* Reference on the part of a row the fast kernel does not cover. */
static void lut_row(const lut_job *j, const uint8_t *s, uint8_t *d, int32_t n, int32_t cn,
                    const uint8_t *t) {
    int32_t block = PFI_LUT_BLOCK(cn);
    int32_t done = j->fast == pfi_lut_row_ref ? 0 : n / block * block;
    if (done) j->fast(s, d, done, cn, t);
    if (done < n) pfi_lut_row_ref(s + done, d + done, n - done, cn, t);
}

static void lut_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const lut_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    int tc = j->o.table_channels;
    const uint8_t *t = j->tables + (j->o.per_sample ? (size_t)i * 256u * (size_t)tc : 0u);
    for (int32_t y = y0; y < y1; y++) {
        if (s->layout == PF_HWC) {
            /* one shared table: treat the row as cn == 1 */
            int32_t cn = tc == 1 ? 1 : s->channels;
            lut_row(j, pfi_row_ptr(s, 0, y), pfi_row_ptr(d, 0, y), s->width * s->channels, cn, t);
        } else {
            for (int c = 0; c < s->channels; c++)
                lut_row(j, pfi_row_ptr(s, c, y), pfi_row_ptr(d, c, y), s->width, 1,
                        t + (tc == 1 ? 0 : 256 * c));
        }
    }
}

static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const pf_lut_opts *o) {
    pf_status st = pfi_check_host_pair("pf_lut", i, s, d);
    if (st != PF_OK) return st;
    if (s->dtype != PF_U8 || d->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_lut: %s[%d].dtype is %s; pf_lut maps u8 to u8",
                        s->dtype != PF_U8 ? "src" : "dst", i,
                        pf_dtype_name(s->dtype != PF_U8 ? s->dtype : d->dtype));
    if (s->width != d->width || s->height != d->height || s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: dst[%d] is %dx%dx%d but src[%d] is %dx%dx%d", i,
                        (int)d->width, (int)d->height, (int)d->channels, i, (int)s->width,
                        (int)s->height, (int)s->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_lut: src[%d] and dst[%d] differ in layout; convert with pf_reformat", i, i);
    if (o->table_channels != 1 && o->table_channels != s->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_lut: opts->table_channels is %d but src[%d] has %d channels; use 1 or %d",
                        o->table_channels, i, (int)s->channels, (int)s->channels);
    /* In place is fine (each byte is read before it is written, by the same
     * kernel call); any other overlap would read already-mapped bytes. */
    int same = s->data == d->data && s->row_stride == d->row_stride &&
               (s->channels == 1 || s->layout == PF_HWC || s->plane_stride == d->plane_stride);
    if (!same && pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_lut: src[%d] and dst[%d] overlap without being the same view", i, i);
    return PF_OK;
}

pf_status pf_lut(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                 const uint8_t *tables, const pf_lut_opts *opts) {
    pfi_clear_error();
    pf_status cst = pfi_check_batch("pf_lut", count, src, dst);
    if (cst != PF_OK || count <= 0) return cst;
    if (tables == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: tables is NULL");
    pf_lut_opts o = opts ? *opts : pf_lut_opts_defaults();
    if (o.table_channels < 1 || o.table_channels > 4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: opts->table_channels is %d; it must be 1..4",
                        o.table_channels);
    if (o.per_sample != 0 && o.per_sample != 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: opts->per_sample is %d; it must be 0 or 1",
                        o.per_sample);
    for (int i = 0; i < count; i++) {
        pf_status st = check_pair(i, &src[i], &dst[i], &o);
        if (st != PF_OK) return st;
    }
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_lut: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        rows[i] = src[i].height;
        rows[count + i] = src[i].width * src[i].channels;
    }
    const pfi_ktable *k = pfi_kfamily_table(&pfi_lut_family, pf_stream_isa(stream));
    lut_job j = {src, dst, tables, o, (pfi_lut_row_fn)k->fn[PFI_LUT_U8]};
    pfi_run_rows(stream, count, rows, rows + count, 1, lut_rows, &j);
    free(rows);
    return PF_OK;
}
