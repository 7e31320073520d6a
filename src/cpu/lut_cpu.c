/* pf_lut on the CPU: row-parallel, the dispatched kernel on whole blocks
 * and the reference on the rest. */
#include <stdlib.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/lut_exec.h"

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

pf_status pfi_cpu_lut(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const uint8_t *tables,
                      const pf_lut_opts *opts) {
    pf_lut_opts o = *opts;
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_lut: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        rows[i] = src[i].height;
        rows[count + i] = src[i].width * src[i].channels;
    }
    const pfi_lut_kernels *k = pfi_kfamily_table(&pfi_lut_family, pf_stream_isa(stream));
    lut_job j = {src, dst, tables, o, k->u8};
    pfi_run_rows(stream, count, rows, rows + count, 1, lut_rows, &j);
    free(rows);
    return PF_OK;
}
