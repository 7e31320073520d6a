/*
 * The emit pass of the fused preprocess: each output element is written
 * once, from the u8 canvas, with the flips folded in (rows read in
 * mirrored order, columns through the geometry family's row flip into a
 * small stack buffer), the channel order applied, and normalization done
 * either by the convert family's SIMD kernels (3 -> 3 channels into NCHW
 * f32/f16/u8: the same kernels pf_normalize / pf_reformat run) or by the
 * plan's per-channel tables (any other shape). Letterbox padding is the
 * table entry of the pad value, i.e. exactly what normalizing a padded u8
 * canvas gives.
 */
#include <string.h>

#include "core/image_util.h"
#include "cpu/convert_exec.h"
#include "cpu/geom_exec.h"
#include "cpu/preprocess_cpu.h"

#define CHUNK 256 /* pixels per mirrored chunk (stack buffer of CHUNK * 3 bytes) */

/* Pointer to element (x, y) of channel c of the output sample, and the
 * element step between pixels. */
static unsigned char *out_ptr(const pfi_pp_emit *e, int c, int32_t x, int32_t y, int32_t *step) {
    const pf_image *o = &e->out;
    size_t es = e->plan->esize;
    if (o->layout == PF_CHW) {
        *step = 1;
        return (unsigned char *)pfi_row_ptr(o, c, y) + (size_t)x * es;
    }
    *step = o->channels;
    return (unsigned char *)pfi_row_ptr(o, 0, y) + ((size_t)x * (size_t)o->channels + (size_t)c) * es;
}

static void fill_elems(unsigned char *d, int32_t step, int32_t n, const unsigned char *v, size_t es) {
    if (es == 4) {
        uint32_t u;
        memcpy(&u, v, 4);
        if (step == 1) {
            uint32_t *p = (uint32_t *)(void *)d;
            for (int32_t j = 0; j < n; j++) p[j] = u;
        } else {
            for (int32_t j = 0; j < n; j++) memcpy(d + (size_t)j * (size_t)step * 4, &u, 4);
        }
    } else if (es == 2) {
        uint16_t u;
        memcpy(&u, v, 2);
        for (int32_t j = 0; j < n; j++) memcpy(d + (size_t)j * (size_t)step * 2, &u, 2);
    } else if (step == 1) {
        memset(d, v[0], (size_t)n);
    } else {
        for (int32_t j = 0; j < n; j++) d[(size_t)j * (size_t)step] = v[0];
    }
}

/* Output pixels [x0, x1) of row y are padding: pad_value[c] for output
 * channel c, or pad_value[0] for all when the canvas has one channel (a
 * gray canvas holds one pad value). */
static void emit_pad(const pfi_pp_emit *e, int32_t y, int32_t x0, int32_t x1) {
    const pf_preprocess_plan *pl = e->plan;
    for (int c = 0; c < e->out.channels; c++) {
        int32_t step;
        unsigned char *d = out_ptr(e, c, x0, y, &step);
        uint8_t v = pl->pad_u8[e->canvas->channels == 1 ? 0 : c];
        fill_elems(d, step, x1 - x0, pl->lut[c] + (size_t)v * pl->esize, pl->esize);
    }
}

/* Table path: n canvas pixels px (cc channels each) -> output pixels from x. */
static void emit_lut(const pfi_pp_emit *e, int32_t y, int32_t x, const uint8_t *px, int32_t n) {
    const pf_preprocess_plan *pl = e->plan;
    int32_t cc = e->canvas->channels;
    size_t es = pl->esize;
    for (int c = 0; c < e->out.channels; c++) {
        int32_t step;
        unsigned char *d = out_ptr(e, c, x, y, &step);
        const unsigned char *t = pl->lut[c];
        const uint8_t *s = px + e->order[c];
        size_t ds = (size_t)step * es;
        if (es == 4) {
            for (int32_t j = 0; j < n; j++) memcpy(d + (size_t)j * ds, t + (size_t)s[(size_t)j * (size_t)cc] * 4, 4);
        } else if (es == 2) {
            for (int32_t j = 0; j < n; j++) memcpy(d + (size_t)j * ds, t + (size_t)s[(size_t)j * (size_t)cc] * 2, 2);
        } else {
            for (int32_t j = 0; j < n; j++) d[(size_t)j * ds] = t[s[(size_t)j * (size_t)cc]];
        }
    }
}

/* SIMD path (convert family), whole blocks of PFI_CVT_BLOCK pixels; returns
 * the number of pixels done. */
static int32_t emit_simd(const pfi_pp_emit *e, int32_t y, int32_t x, const uint8_t *px, int32_t n) {
    const pf_preprocess_plan *pl = e->plan;
    const pf_preprocess_desc *d = &pl->d;
    if (e->canvas->channels != 3 || e->out.channels != 3 || e->out.layout != PF_CHW) return 0;
    int slot = d->out_dtype == PF_F32 ? PFI_NORM_U8C3_F32_CHW
             : d->out_dtype == PF_F16 ? PFI_NORM_U8C3_F16_CHW
             : d->out_dtype == PF_U8  ? PFI_FMT_U8C3_HWC_CHW : -1;
    if (slot < 0) return 0;
    if (e->cpu->rcp_exact && d->out_dtype != PF_U8) {
        int ps = d->out_dtype == PF_F32 ? PFI_PP_NORM_F32 : PFI_PP_NORM_F16;
        int32_t blk = n / 16 * 16;
        if (e->pp_simd[ps] && blk > 0) { /* the scalar slot is slower than dividing SIMD */
            void *dst[3];
            for (int c = 0; c < 3; c++) {
                int32_t step;
                dst[c] = out_ptr(e, c, x, y, &step);
            }
            e->pp_table->norm[ps](px, e->order, dst, blk, &e->cpu->norm_k);
            return blk;
        }
    }
    pfi_cvt_fast_fn fast = e->cvt_table->row[slot];
    if (fast == pfi_cvt_fast_ref) return 0;
    int32_t done = n / PFI_CVT_BLOCK * PFI_CVT_BLOCK;
    if (done == 0) return 0;
    pfi_cvt_xform xf;
    memset(&xf, 0, sizeof xf);
    xf.kind = d->out_dtype == PF_U8 ? PFK_CVT_COPY : PFK_CVT_NORM;
    xf.sdt = PF_U8;
    xf.ddt = d->out_dtype;
    xf.scale = d->scale;
    pfi_cvt_row r;
    memset(&r, 0, sizeof r);
    r.dcn = 3;
    for (int c = 0; c < 3; c++) {
        int32_t step;
        xf.mean[c] = d->mean[c];
        xf.stdv[c] = d->std[c];
        r.src[c] = px + e->order[c];
        r.sstep[c] = 3;
        r.sch[c] = e->order[c];
        r.dst[c] = out_ptr(e, c, x, y, &step);
        r.dstep[c] = 1;
    }
    fast(&r, &xf, done);
    return done;
}

static void emit_px(const pfi_pp_emit *e, int32_t y, int32_t x, const uint8_t *px, int32_t n) {
    int32_t done = emit_simd(e, y, x, px, n);
    if (done < n) emit_lut(e, y, x + done, px + (size_t)done * (size_t)e->canvas->channels, n - done);
}

void pfi_pp_emit_rows(const pfi_pp_emit *e, int32_t y0, int32_t y1) {
    const pfi_pp_geom *g = e->g;
    int32_t W = e->out.width, cc = e->canvas->channels;
    uint8_t buf[CHUNK * 3];
    for (int32_t y = y0; y < y1; y++) {
        if (y < g->top || y >= g->top + g->rh) {
            emit_pad(e, y, 0, W);
            continue;
        }
        if (g->left > 0) emit_pad(e, y, 0, g->left);
        if (g->left + g->rw < W) emit_pad(e, y, g->left + g->rw, W);
        int32_t iy = y - g->top;
        const uint8_t *srow = pfi_row_ptr(e->canvas, 0, e->flip_v ? g->rh - 1 - iy : iy);
        if (!e->flip_h) {
            emit_px(e, y, g->left, srow, g->rw);
            continue;
        }
        for (int32_t x0 = 0; x0 < g->rw; x0 += CHUNK) {
            int32_t n = g->rw - x0 < CHUNK ? g->rw - x0 : CHUNK;
            pfi_flip_row(e->geom_table, srow + (size_t)(g->rw - x0 - n) * (size_t)cc, buf, n, cc);
            emit_px(e, y, g->left + x0, buf, n);
        }
    }
}
