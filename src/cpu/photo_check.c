/* Photometric ops: batch validation and the shared row runners. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/photo_common.h"

int pfi_photo_same_view(const pf_image *s, const pf_image *d) {
    return s->data == d->data && s->row_stride == d->row_stride && s->layout == d->layout &&
           (s->channels == 1 || s->layout == PF_HWC || s->plane_stride == d->plane_stride);
}

static pf_status check_pair(const char *op, int i, const pf_image *s, const pf_image *d,
                            unsigned flags) {
    /* The argument's name is formatted only when a view is invalid (the
     * call is repeated to word the message): snprintf per sample is a
     * measurable part of a small image's call. */
    char name[64];
    pf_status st = pf_image_validate(s, op);
    if (st != PF_OK) {
        snprintf(name, sizeof name, "%s: src[%d]", op, i);
        return pf_image_validate(s, name);
    }
    if ((st = pf_image_validate(d, op)) != PF_OK) {
        snprintf(name, sizeof name, "%s: dst[%d]", op, i);
        return pf_image_validate(d, name);
    }
    if (s->mem != PF_MEM_HOST || d->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views",
                        op, s->mem != PF_MEM_HOST ? "src" : "dst", i);
    int dt_ok = s->dtype == PF_U8 || s->dtype == PF_F32 ||
                ((flags & PFI_PH_ANY_DTYPE) && s->dtype == PF_U16);
    if (!dt_ok)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d].dtype is %s; supported: u8, %sf32", op, i,
                        pf_dtype_name(s->dtype), (flags & PFI_PH_ANY_DTYPE) ? "u16, " : "");
    if (d->dtype != s->dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d].dtype is %s but src[%d].dtype is %s", op, i,
                        pf_dtype_name(d->dtype), i, pf_dtype_name(s->dtype));
    if (s->width != d->width || s->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] is %dx%d but src[%d] is %dx%d", op, i,
                        (int)d->width, (int)d->height, i, (int)s->width, (int)s->height);
    if (flags & PFI_PH_GRAY_DST) {
        if (s->channels != 1 && s->channels != 3)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] has %d channels; it must have 1 or 3",
                            op, i, (int)s->channels);
        if (d->channels != 1 && d->channels != 3)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] has %d channels; it must have 1 or 3",
                            op, i, (int)d->channels);
        if ((s->channels > 1 && s->layout != PF_HWC) || (d->channels > 1 && d->layout != PF_HWC))
            return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is CHW; 3-channel images must be HWC", op,
                            s->channels > 1 && s->layout != PF_HWC ? "src" : "dst", i);
    } else {
        if (d->channels != s->channels)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] has %d channels but src[%d] has %d", op,
                            i, (int)d->channels, i, (int)s->channels);
        if (s->channels > 1 && s->layout != d->layout)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: src[%d] and dst[%d] differ in layout; convert with pf_reformat", op, i, i);
        if ((flags & (PFI_PH_COLOR | PFI_PH_RGB_ONLY)) && s->channels != 3 &&
            !((flags & PFI_PH_COLOR) && s->channels == 1))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] has %d channels; it must have %s", op, i,
                            (int)s->channels, (flags & PFI_PH_COLOR) ? "3 (RGB) or 1" : "3 (RGB)");
        if ((flags & (PFI_PH_COLOR | PFI_PH_RGB_ONLY)) && s->channels == 3 && s->layout != PF_HWC)
            return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d] is CHW; RGB images must be HWC", op, i);
    }
    int same = pfi_photo_same_view(s, d) && s->channels == d->channels;
    if (!same && pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] and dst[%d] overlap without being the same view",
                        op, i, i);
    return PF_OK;
}

pf_status pfi_photo_check(const char *op, int count, const pf_image src[], const pf_image dst[],
                          unsigned flags) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (src == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src is NULL with count %d", op, count);
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst is NULL with count %d", op, count);
    for (int i = 0; i < count; i++) {
        pf_status st = check_pair(op, i, &src[i], &dst[i], flags);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

pf_status pfi_photo_check_n(const char *op, const char *what, const void *arr, int n, int count) {
    if (count > 0 && arr == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, what);
    if (count > 0 && n != 1 && n != count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %d; it must be 1 or count (%d)", op, n, count);
    return PF_OK;
}

pf_status pfi_photo_check_range(const char *op, const char *what, const double *v, int n, double lo,
                                double hi) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]) || v[i] < lo || v[i] > hi)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %g; it must be a finite number in [%g, %g]",
                            op, what, i, v[i], lo, hi);
    return PF_OK;
}

/* ------------------------------------------------------------ runners */

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
    return (pfi_photo_row_fn)pfi_kfamily_table(&pfi_photo_family, pf_stream_isa(stream))->fn[slot];
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
        st = pf_lut(stream, count, src, dst, tables, &o);
    } else {
        for (int i = 0; i < count && st == PF_OK; i++) {
            o.table_channels = src[i].channels;
            st = pf_lut(stream, 1, &src[i], &dst[i], tables + (size_t)i * PFI_PHOTO_TAB_STRIDE, &o);
        }
    }
    if (st != PF_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", pf_last_error());
        return pfi_fail(st, "%s: %s", op, msg);
    }
    return PF_OK;
}
