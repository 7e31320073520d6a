/* The photometric ops' shared row runners on the CPU (photo_cpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/photo_cpu.h"
#include "ops/photo_args.h"

typedef struct px_job {
    const pf_image *src;
    pf_image *dst;
    const pfi_photo_task *t;
} px_job;

static void px_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const px_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    const pfi_photo_task *t = &j->t[i];
    size_t es = pf_dtype_size(s->dtype);
    size_t spx = 3 * es, dpx = (size_t)d->channels * es;
    int32_t n = s->width;
    if (pfi_photo_rows_packed(s, d, (size_t)n * spx, (size_t)n * dpx, y0, y1, n)) { /* one long row */
        n *= y1 - y0;
        y1 = y0 + 1;
    }
    int32_t done = t->fast == t->ref ? 0 : n / PFI_PHOTO_PX_BLOCK * PFI_PHOTO_PX_BLOCK;
    for (int32_t y = y0; y < y1; y++) {
        const char *sr = pfi_row_ptr(s, 0, y);
        char *dr = pfi_row_ptr(d, 0, y);
        if (done) t->fast(sr, dr, done, &t->k);
        if (done < n) t->ref(sr + (size_t)done * spx, dr + (size_t)done * dpx, n - done, &t->k);
    }
}

pfi_photo_row_fn pfi_photo_kernel(pf_stream *stream, int slot, pfi_photo_row_fn ref) {
    if (slot < 0) return ref;
    return ((const pfi_photo_kernels *)pfi_kfamily_table(&pfi_photo_family, pf_stream_isa(stream)))->px[slot];
}

void pfi_photo_run_px(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                      const pfi_photo_task *tasks) {
    px_job j = {src, dst, tasks};
    pfi_photo_rows(stream, count, src, px_rows, &j);
}

void pfi_photo_rows(pf_stream *stream, int count, const pf_image src[], pfi_rows_fn fn, void *ctx) {
    if (pf_stream_threads(stream) <= 1) { /* no banding to plan */
        for (int i = 0; i < count; i++) fn(ctx, i, 0, src[i].height);
        return;
    }
    int32_t local[32];
    int32_t *rows = count <= 16 ? local : malloc((size_t)(unsigned)count * 2 * sizeof *rows);
    if (rows == NULL) { /* run inline: same results */
        for (int i = 0; i < count; i++) fn(ctx, i, 0, src[i].height);
        return;
    }
    for (int i = 0; i < count; i++) {
        rows[i] = src[i].height;
        rows[count + i] = src[i].width * src[i].channels;
    }
    pfi_run_rows(stream, count, rows, rows + count, 1, fn, ctx);
    if (rows != local) free(rows);
}

typedef struct copy_job { const pf_image *src; pf_image *dst; } copy_job;

static void copy_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const copy_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    if (pfi_photo_same_view(s, d) && s->channels == d->channels) return;
    size_t es = pf_dtype_size(s->dtype);
    int hwc = s->layout == PF_HWC || s->channels == 1;
    for (int32_t y = y0; y < y1; y++) {
        if (s->channels == d->channels && hwc && (d->layout == PF_HWC || d->channels == 1)) {
            memcpy(pfi_row_ptr(d, 0, y), pfi_row_ptr(s, 0, y), (size_t)s->width * (size_t)s->channels * es);
        } else if (s->channels == d->channels) { /* CHW planes */
            for (int c = 0; c < s->channels; c++)
                memcpy(pfi_row_ptr(d, c, y), pfi_row_ptr(s, c, y), (size_t)s->width * es);
        } else { /* 1 -> dst->channels, HWC */
            const char *sr = pfi_row_ptr(s, 0, y);
            char *dr = pfi_row_ptr(d, 0, y);
            for (int32_t x = 0; x < s->width; x++)
                for (int c = 0; c < d->channels; c++)
                    memcpy(dr + ((size_t)x * (size_t)d->channels + (size_t)c) * es, sr + (size_t)x * es, es);
        }
    }
}

void pfi_photo_copy(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    copy_job j = {src, dst};
    pfi_photo_rows(stream, count, src, copy_rows, &j);
}

pf_status pfi_photo_lut(const char *op, pf_stream *stream, int count, const pf_image src[],
                        pf_image dst[], const uint8_t *tables, int per_channel) {
    pf_status st = PF_OK;
    pf_lut_opts o = pf_lut_opts_defaults();
    if (!per_channel) {
        o.per_sample = 1;
        st = pfi_cpu_lut(stream, count, src, dst, tables, &o);
    } else {
        for (int i = 0; i < count && st == PF_OK; i++) {
            o.table_channels = src[i].channels;
            st = pfi_cpu_lut(stream, 1, &src[i], &dst[i], tables + (size_t)i * PFI_PHOTO_TAB_STRIDE, &o);
        }
    }
    if (st != PF_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", pf_last_error());
        return pfi_fail(st, "%s: %s", op, msg);
    }
    return PF_OK;
}
