/* Conversion engine: row construction, kernel choice and row-parallel run. */
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/convert_exec.h"

typedef struct cvt_job {
    const pfi_cvt_sample *s;
    const pfi_convert_kernels *k;
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
    if (s->xf.kind == PFK_CVT_NORM) return 0;
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
    if (r->dcn == 1 && r->src[0] && r->sstep[0] == 1 && r->dstep[0] == 1 && x->kind == PFK_CVT_SCALE &&
        !x->dbl) {
        if (x->sdt == PF_U8 && x->ddt == PF_F32) return PFI_CVT_U8_F32;
        if (x->sdt == PF_F32 && x->ddt == PF_U8) return PFI_CVT_F32_U8;
        if (x->sdt == PF_F32 && x->ddt == PF_F16) return PFI_CVT_F32_F16;
        if (x->sdt == PF_F16 && x->ddt == PF_F32) return PFI_CVT_F16_F32;
        return -1;
    }
    int cn = r->dcn;
    if (cn != 3 && cn != 4) return -1;
    for (int c = 0; c < cn; c++)
        if (r->src[c] == NULL) return -1;
    /* HWC: channel c of one pixel at base + c elements; planar: step 1 */
    ptrdiff_t ses = (ptrdiff_t)pf_dtype_size(x->sdt), des = (ptrdiff_t)pf_dtype_size(x->ddt);
    int hwc_src = 1, planar_dst = 1, planar_src = 1, hwc_dst = 1;
    const char *base = (const char *)r->src[0] - r->sch[0] * ses;
    const char *dbase = r->dst[0];
    for (int c = 0; c < cn; c++) {
        hwc_src &= r->sstep[c] == cn && (const char *)r->src[c] - r->sch[c] * ses == base;
        planar_dst &= r->dstep[c] == 1;
        planar_src &= r->sstep[c] == 1;
        hwc_dst &= r->dstep[c] == cn && (const char *)r->dst[c] == dbase + c * des;
    }
    int norm = x->kind == PFK_CVT_NORM && cn == 3, f32 = x->ddt == PF_F32, f16 = x->ddt == PF_F16;
    if (hwc_src && planar_dst) {
        if (norm && x->sdt == PF_U8 && (f32 || f16)) return f32 ? PFI_NORM_U8C3_F32_CHW : PFI_NORM_U8C3_F16_CHW;
        if (norm && x->sdt == PF_F32 && (f32 || f16)) return f32 ? PFI_NORM_F32C3_F32_CHW : PFI_NORM_F32C3_F16_CHW;
        if (x->kind == PFK_CVT_COPY && x->sdt == PF_U8) return cn == 3 ? PFI_FMT_U8C3_HWC_CHW : PFI_FMT_U8C4_HWC_CHW;
    }
    if (hwc_src && hwc_dst && norm && x->sdt == PF_U8 && (f32 || f16))
        return f32 ? PFI_NORM_U8C3_F32_HWC : PFI_NORM_U8C3_F16_HWC;
    if (planar_src && hwc_dst && x->kind == PFK_CVT_COPY && x->sdt == PF_U8)
        return cn == 3 ? PFI_FMT_U8C3_CHW_HWC : PFI_FMT_U8C4_CHW_HWC;
    return -1;
}

static void advance(pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    size_t ses = pf_dtype_size(x->sdt), des = pf_dtype_size(x->ddt);
    for (int c = 0; c < r->dcn; c++) {
        if (r->src[c]) r->src[c] = (const char *)r->src[c] + (ptrdiff_t)n * r->sstep[c] * (ptrdiff_t)ses;
        r->dst[c] = (char *)r->dst[c] + (ptrdiff_t)n * r->dstep[c] * (ptrdiff_t)des;
    }
}

/* One row of n pixels: the fast kernel on whole blocks, the reference on
 * the rest. */
static void run_row(pfi_cvt_row *r, const pfi_cvt_xform *x, pfi_cvt_fast_fn fast, int32_t n) {
    int32_t done = fast == pfi_cvt_fast_ref ? 0 : n / PFI_CVT_BLOCK * PFI_CVT_BLOCK;
    if (done) {
        fast(r, x, done);
        advance(r, x, done);
    }
    if (done < n) pfi_cvt_row_ref(r, x, 0, n - done);
}

/* Byte step from one row to the next of every channel's src and dst (a
 * channel's row y is always its image's data + y * row_stride + offset). */
static void row_strides(const pfi_cvt_sample *s, int dcn, ptrdiff_t sst[4], ptrdiff_t dst[4]) {
    for (int c = 0; c < dcn; c++) {
        sst[c] = s->sim[c] ? s->sim[c]->row_stride : 0;
        dst[c] = s->dim[c]->row_stride;
    }
}

/* Whether `rows` rows of `width` pixels are one row of width * rows pixels:
 * every channel's next row starts right after its previous one (positive
 * strides only). Collapsing them is what OpenCV does for continuous
 * matrices; it saves the per-row setup and the per-row tail, which at
 * 224x224 cost as much as the kernel. */
static int contiguous(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t width, int32_t rows,
                      const ptrdiff_t sst[4], const ptrdiff_t dst[4]) {
    if (rows < 2 || (int64_t)width * rows > INT32_MAX / 4) return 0;
    ptrdiff_t ses = (ptrdiff_t)pf_dtype_size(x->sdt), des = (ptrdiff_t)pf_dtype_size(x->ddt);
    for (int c = 0; c < r->dcn; c++) {
        if (r->src[c] && sst[c] != (ptrdiff_t)width * r->sstep[c] * ses) return 0;
        if (dst[c] != (ptrdiff_t)width * r->dstep[c] * des) return 0;
    }
    return 1;
}

/* Whether the row shape (and so the slot) is the same on every row: the
 * pointer relations pick_slot checks hold on all rows when every src
 * channel moves by the same stride, and every dst channel too. */
static int uniform(int dcn, const ptrdiff_t sst[4], const ptrdiff_t dst[4], const pfi_cvt_row *r) {
    int first = -1; /* first channel that reads a src (others are fills) */
    for (int c = 0; c < dcn; c++) {
        if (dst[c] != dst[0]) return 0;
        if (!r->src[c]) continue;
        if (first < 0) first = c;
        if (sst[c] != sst[first]) return 0;
    }
    return 1;
}

static void cvt_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const cvt_job *j = ctx;
    const pfi_cvt_sample *s = &j->s[i];
    int flat = flattenable(s);
    int32_t width = flat ? s->width * s->dcn : s->width;
    /* Row setup and the kernel choice happen once per band, not per row. */
    pfi_cvt_row r0;
    build_row(s, y0, flat, &r0);
    ptrdiff_t sst[4] = {0}, dst[4] = {0};
    row_strides(s, r0.dcn, sst, dst);
    int32_t rows = y1 - y0;
    if (contiguous(&r0, &s->xf, width, rows, sst, dst)) {
        width *= rows;
        rows = 1;
    }
    int same_shape = uniform(r0.dcn, sst, dst, &r0);
    int slot = pick_slot(&r0, &s->xf);
    for (int32_t k = 0; k < rows; k++) {
        pfi_cvt_row r = r0;
        for (int c = 0; c < r.dcn; c++) {
            if (r.src[c]) r.src[c] = (const char *)r0.src[c] + (ptrdiff_t)k * sst[c];
            r.dst[c] = (char *)r0.dst[c] + (ptrdiff_t)k * dst[c];
        }
        if (!same_shape) slot = pick_slot(&r, &s->xf);
        run_row(&r, &s->xf, slot < 0 ? pfi_cvt_fast_ref : j->k->row[slot], width);
    }
}

pf_status pfi_cvt_run(pf_stream *stream, const char *op, int count, const pfi_cvt_sample *samples) {
    int32_t local[16];
    int32_t *rows = count <= 8 ? local : malloc((size_t)(unsigned)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    for (int i = 0; i < count; i++) {
        rows[i] = samples[i].height;
        /* Work per row in "pixels" of 4 bytes (the unit pfi_run_rows sizes
         * tasks in): a u8 (de)interleave moves a quarter of what an f32
         * conversion does, and waking the pool for a 224x224 u8 merge costs
         * more than the merge. */
        size_t es = pf_dtype_size(samples[i].xf.sdt), ed = pf_dtype_size(samples[i].xf.ddt);
        int64_t work = (int64_t)samples[i].width * samples[i].dcn * (int64_t)(es > ed ? es : ed) / 4;
        rows[count + i] = (int32_t)(work < 1 ? 1 : work > INT32_MAX ? INT32_MAX : work);
    }
    cvt_job j = {samples, pfi_kfamily_table(&pfi_convert_family, pf_stream_isa(stream))};
    pfi_run_rows(stream, count, rows, rows + count, 1, cvt_rows, &j);
    if (rows != local) free(rows);
    return PF_OK;
}
