/* Conversion engine: row construction, kernel choice and row-parallel run. */
#include <stdlib.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/convert_exec.h"

typedef struct cvt_job {
    const pfi_cvt_sample *s;
    const pfi_ktable *k;
} cvt_job;

/* Pointer and element step of channel ch of image im at row y. */
static const void *chan_ptr(const pf_image *im, int ch, int32_t y, int32_t *step) {
    size_t esz = pf_dtype_size(im->dtype);
    if (im->layout == PF_HWC || im->channels == 1) {
        *step = im->channels;
        return (const char *)pfi_row_ptr(im, 0, y) + (size_t)ch * esz;
    }
    *step = 1;
    return pfi_row_ptr(im, ch, y);
}

/* One HWC image read (and one written) channel c -> c for all channels:
 * the row is one channel of width * channels elements. */
static int flattenable(const pfi_cvt_sample *s) {
    if (s->xf.kind == PFI_CVT_NORM) return 0;
    for (int c = 0; c < s->dcn; c++)
        if (s->sim[c] != s->sim[0] || s->dim[c] != s->dim[0] || s->sch[c] != c || s->dch[c] != c)
            return 0;
    return s->sim[0] != NULL && s->sim[0]->channels == s->dcn && s->dim[0]->channels == s->dcn &&
           (s->dcn == 1 || (s->sim[0]->layout == PF_HWC && s->dim[0]->layout == PF_HWC));
}

static void build_row(const pfi_cvt_sample *s, int32_t y, int flat, pfi_cvt_row *r) {
    r->dcn = flat ? 1 : s->dcn;
    for (int c = 0; c < r->dcn; c++) {
        int32_t st = 1;
        r->sch[c] = (int8_t)(s->sim[c] ? s->sch[c] : -1);
        r->src[c] = s->sim[c] ? chan_ptr(s->sim[c], s->sch[c], y, &st) : NULL;
        r->sstep[c] = flat ? 1 : st;
        r->dst[c] = (void *)chan_ptr(s->dim[c], s->dch[c], y, &st);
        r->dstep[c] = flat ? 1 : st;
    }
}

/* The slot whose kernel handles this row shape, or -1. */
static int pick_slot(const pfi_cvt_row *r, const pfi_cvt_xform *x) {
    if (r->dcn == 1 && r->src[0] && r->sstep[0] == 1 && r->dstep[0] == 1 && x->kind == PFI_CVT_SCALE &&
        !x->dbl) {
        if (x->sdt == PF_U8 && x->ddt == PF_F32) return PFI_CVT_U8_F32;
        if (x->sdt == PF_F32 && x->ddt == PF_U8) return PFI_CVT_F32_U8;
        if (x->sdt == PF_F32 && x->ddt == PF_F16) return PFI_CVT_F32_F16;
        if (x->sdt == PF_F16 && x->ddt == PF_F32) return PFI_CVT_F16_F32;
        return -1;
    }
    if (r->dcn != 3 || x->sdt != PF_U8) return -1;
    for (int c = 0; c < 3; c++)
        if (r->src[c] == NULL) return -1;
    int hwc_src = 1, planar_dst = 1, planar_src = 1, hwc_dst = 1;
    const uint8_t *base = (const uint8_t *)r->src[0] - r->sch[0];
    const uint8_t *dbase = r->dst[0];
    for (int c = 0; c < 3; c++) {
        hwc_src &= r->sstep[c] == 3 && (const uint8_t *)r->src[c] - r->sch[c] == base;
        planar_dst &= r->dstep[c] == 1;
        planar_src &= r->sstep[c] == 1;
        hwc_dst &= r->dstep[c] == 3 && (uint8_t *)r->dst[c] == dbase + c;
    }
    if (hwc_src && planar_dst) {
        if (x->kind == PFI_CVT_NORM && x->ddt == PF_F32) return PFI_NORM_U8C3_F32_CHW;
        if (x->kind == PFI_CVT_NORM && x->ddt == PF_F16) return PFI_NORM_U8C3_F16_CHW;
        if (x->kind == PFI_CVT_COPY) return PFI_FMT_U8C3_HWC_CHW;
    }
    if (planar_src && hwc_dst && x->kind == PFI_CVT_COPY) return PFI_FMT_U8C3_CHW_HWC;
    return -1;
}

static void advance(pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    size_t ses = pf_dtype_size(x->sdt), des = pf_dtype_size(x->ddt);
    for (int c = 0; c < r->dcn; c++) {
        if (r->src[c]) r->src[c] = (const char *)r->src[c] + (ptrdiff_t)n * r->sstep[c] * (ptrdiff_t)ses;
        r->dst[c] = (char *)r->dst[c] + (ptrdiff_t)n * r->dstep[c] * (ptrdiff_t)des;
    }
}

static void cvt_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const cvt_job *j = ctx;
    const pfi_cvt_sample *s = &j->s[i];
    int flat = flattenable(s);
    int32_t width = flat ? s->width * s->dcn : s->width;
    for (int32_t y = y0; y < y1; y++) {
        pfi_cvt_row r;
        build_row(s, y, flat, &r);
        int slot = pick_slot(&r, &s->xf);
        pfi_cvt_fast_fn fast = slot < 0 ? pfi_cvt_fast_ref : (pfi_cvt_fast_fn)j->k->fn[slot];
        int32_t done = fast == pfi_cvt_fast_ref ? 0 : width / PFI_CVT_BLOCK * PFI_CVT_BLOCK;
        if (done) {
            fast(&r, &s->xf, done);
            advance(&r, &s->xf, done);
        }
        if (done < width) pfi_cvt_row_ref(&r, &s->xf, 0, width - done);
    }
}

pf_status pfi_cvt_run(pf_stream *stream, const char *op, int count, const pfi_cvt_sample *samples) {
    int32_t *rows = malloc((size_t)(unsigned)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    for (int i = 0; i < count; i++) {
        rows[i] = samples[i].height;
        rows[count + i] = samples[i].width * samples[i].dcn;
    }
    cvt_job j = {samples, pfi_kfamily_table(&pfi_convert_family, pf_stream_isa(stream))};
    pfi_run_rows(stream, count, rows, rows + count, 1, cvt_rows, &j);
    free(rows);
    return PF_OK;
}
