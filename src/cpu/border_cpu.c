/* pf_copy_make_border on the CPU: per-sample column tables and a
 * row-parallel copy. Each output row is either all constant (a source row
 * index of -1) or: left border pixels by table, the source row by memcpy,
 * right border pixels by table. Indices come from pfk_border_index, the
 * same function the warps and filters use. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "kernels/border_math.h"
#include "pixflow/ops.h"

typedef struct border_sample {
    const pf_border_params *p;
    int32_t right;          /* right border width */
    int32_t *xt;            /* source column of each border column: left ones, then right ones */
    uint8_t *const_row;     /* CONSTANT: a full dst row of the value, per plane; else NULL */
} border_sample;

typedef struct border_job {
    const pf_image *src;
    pf_image *dst;
    border_sample *smp;
} border_job;

/* saturate_cast<T>(double) of OpenCV: round half to even, clamp. */
static void raw_value(double v, pf_dtype dt, uint8_t out[8]) {
    memset(out, 0, 8);
    double r = nearbyint(v);
    if (isnan(v)) r = 0;
    switch (dt) {
    case PF_U8: { uint8_t x = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r); memcpy(out, &x, 1); break; }
    case PF_U16: { uint16_t x = (uint16_t)(r < 0 ? 0 : r > 65535 ? 65535 : r); memcpy(out, &x, 2); break; }
    case PF_S16: { int16_t x = (int16_t)(r < -32768 ? -32768 : r > 32767 ? 32767 : r); memcpy(out, &x, 2); break; }
    case PF_S32: {
        int32_t x = (int32_t)(r < -2147483648.0 ? -2147483648.0 : r > 2147483647.0 ? 2147483647.0 : r);
        memcpy(out, &x, 4);
        break;
    }
    case PF_F32: { float x = (float)v; memcpy(out, &x, 4); break; }
    default: break; /* f16/bf16 rejected in check_pair for CONSTANT */
    }
}

/* dst pixel k = src pixel xt[k]; fixed-size copies for the common pixel
 * sizes so each is a single move. */
static void copy_indexed(uint8_t *dst, const uint8_t *src, const int32_t *xt, int32_t n, int32_t px) {
    switch (px) {
#define IDX_CASE(P)                                                                        \
    case P:                                                                                \
        for (int32_t k = 0; k < n; k++) memcpy(dst + (ptrdiff_t)k * P, src + (ptrdiff_t)xt[k] * P, P); \
        return;
        IDX_CASE(1) IDX_CASE(2) IDX_CASE(3) IDX_CASE(4) IDX_CASE(6) IDX_CASE(8) IDX_CASE(12) IDX_CASE(16)
#undef IDX_CASE
    default:
        for (int32_t k = 0; k < n; k++) memcpy(dst + (ptrdiff_t)k * px, src + (ptrdiff_t)xt[k] * px, (size_t)px);
    }
}

static void border_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const border_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    const border_sample *b = &j->smp[i];
    int planar = s->layout == PF_CHW && s->channels > 1;
    int32_t px = (int32_t)pf_dtype_size(s->dtype) * (planar ? 1 : s->channels);
    int32_t left = b->p->left, right = b->right;
    size_t row_bytes = (size_t)d->width * (size_t)px;
    for (int c = 0; c < (planar ? s->channels : 1); c++) {
        const uint8_t *crow = b->const_row ? b->const_row + (size_t)c * row_bytes : NULL;
        for (int32_t y = y0; y < y1; y++) {
            uint8_t *dr = pfi_row_ptr(d, c, y);
            int32_t sy = pfk_border_index(y - b->p->top, s->height, (int)b->p->mode);
            if (sy < 0) { /* constant row */
                memcpy(dr, crow, row_bytes);
                continue;
            }
            const uint8_t *sr = pfi_row_ptr(s, c, sy);
            uint8_t *dright = dr + (ptrdiff_t)(left + s->width) * px;
            if (crow) {
                memcpy(dr, crow, (size_t)left * (size_t)px);
                memcpy(dright, crow, (size_t)right * (size_t)px);
            } else {
                copy_indexed(dr, sr, b->xt, left, px);
                copy_indexed(dright, sr, b->xt + left, right, px);
            }
            memcpy(dr + (ptrdiff_t)left * px, sr, (size_t)s->width * (size_t)px);
        }
    }
}

/* One destination row of the constant per plane (CHW: plane c has value[c];
 * HWC: every pixel is value[0..channels)). */
static pf_status make_const_rows(const pf_image *d, const pf_border_params *p, uint8_t **out) {
    int planar = d->layout == PF_CHW && d->channels > 1;
    size_t es = pf_dtype_size(d->dtype);
    size_t px = es * (size_t)(planar ? 1 : d->channels);
    size_t row = (size_t)d->width * px;
    int planes = planar ? d->channels : 1;
    uint8_t *r = malloc(row * (size_t)planes);
    if (r == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_copy_make_border: out of memory for a %zu-byte row", row);
    for (int c = 0; c < planes; c++) {
        uint8_t pixel[32], raw[8];
        for (int k = 0; k < (planar ? 1 : d->channels); k++) {
            raw_value(p->value[planar ? c : k], d->dtype, raw);
            memcpy(pixel + (size_t)k * es, raw, es);
        }
        for (int32_t x = 0; x < d->width; x++) memcpy(r + (size_t)c * row + (size_t)x * px, pixel, px);
    }
    *out = r;
    return PF_OK;
}

pf_status pfi_cpu_copy_make_border(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                   const pf_border_params params[], int nparams) {
    size_t ncols = 0;
    for (int i = 0; i < count; i++) ncols += (size_t)(dst[i].width - src[i].width);
    border_sample *smp = calloc((size_t)count, sizeof *smp);
    int32_t *xt = malloc((ncols ? ncols : 1) * sizeof *xt);
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    pf_status st = PF_OK;
    if (smp == NULL || xt == NULL || rows == NULL) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_copy_make_border: out of memory for %d samples", count);
        goto done;
    }
    int32_t *next = xt;
    for (int i = 0; i < count; i++) {
        border_sample *b = &smp[i];
        b->p = &params[nparams == 1 ? 0 : i];
        b->right = dst[i].width - src[i].width - b->p->left;
        b->xt = next;
        int32_t sw = src[i].width;
        for (int32_t x = 0; x < b->p->left; x++) next[x] = pfk_border_index(x - b->p->left, sw, (int)b->p->mode);
        for (int32_t x = 0; x < b->right; x++)
            next[b->p->left + x] = pfk_border_index(sw + x, sw, (int)b->p->mode);
        next += b->p->left + b->right;
        if (b->p->mode == PF_BORDER_CONSTANT && (st = make_const_rows(&dst[i], b->p, &b->const_row)) != PF_OK)
            goto done;
        rows[i] = dst[i].height;
        /* pure copies: about one unit of work per 8 bytes */
        rows[count + i] = (int32_t)(((int64_t)dst[i].width * dst[i].channels * (int64_t)pf_dtype_size(dst[i].dtype) + 7) / 8);
    }
    border_job j = {src, dst, smp};
    pfi_run_rows(stream, count, rows, rows + count, 1, border_rows, &j);
done:
    if (smp)
        for (int i = 0; i < count; i++) free(smp[i].const_row);
    free(smp);
    free(xt);
    free(rows);
    return st;
}
