/* Filter executor: runs a pfi_filter_plan over row bands.
 *
 * Every band computes its own halo: output row y needs the source rows
 * y - ay .. y - ay + ky - 1 ("virtual" rows, mapped into the image by the
 * border rule). A ring of ky slots caches, per virtual row, either its
 * horizontal pass (separable filters: Gaussian, box, erode / dilate) or
 * its border-padded copy (filter_2d, median). Slot v mod ky holds virtual
 * row v, so walking down the band recomputes each row once. Nothing is
 * shared between bands, so results never depend on the thread count. */
#include <float.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/filter_exec.h"

/* Element size of the horizontal-pass rows the ring holds. */
static size_t ring_elem_size(const pfi_filter_plan *p, const pfi_plane_geo *g) {
    int is_u8 = g->is_u8;
    if (g->dt == PF_U16) return p->kind == PFI_FK_GAUSS || p->kind == PFI_FK_BOX ? sizeof(uint32_t) : 2;
    switch (p->kind) {
    case PFI_FK_GAUSS: return is_u8 ? sizeof(uint16_t) : sizeof(float);
    case PFI_FK_BOX:
        if (!is_u8) return sizeof(double);
        return p->kx * p->ky <= 256 ? sizeof(uint16_t) : sizeof(uint32_t);
    case PFI_FK_ERODE:
    case PFI_FK_DILATE: return is_u8 ? 1 : sizeof(float);
    default: return is_u8 ? 1 : sizeof(float); /* padded source rows */
    }
}

static int ring_holds_padded(pfi_filter_kind k) { return k == PFI_FK_CONV2D || k == PFI_FK_MEDIAN; }

void pfi_filter_border_pixel(const pfi_filter_plan *p, const pfi_plane_geo *g, int plane, uint8_t *px) {
    for (int32_t c = 0; c < g->cn; c++) {
        double v = p->border_value[g->cn == 1 ? plane : c];
        if (g->dt == PF_U8) px[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        else if (g->dt == PF_U16) {
            uint16_t u = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
            memcpy(px + (size_t)c * 2, &u, 2);
        } else {
            float f = (float)v;
            memcpy(px + (size_t)c * 4, &f, 4);
        }
    }
}

/* pad = pixels [xa, xb) of source row s (xa may be negative, xb beyond
 * the width), the outside ones under the plan's border; s < 0 (a
 * CONSTANT row outside the image) fills everything with the border pixel. */
static void pad_range(const pfi_plane_geo *g, const uint8_t *row, int32_t s, int border, int32_t xa, int32_t xb,
                      const uint8_t *cpx, uint8_t *pad) {
    size_t px = (size_t)g->cn * g->esz;
    if (s < 0) {
        for (int32_t x = xa; x < xb; x++) memcpy(pad + (size_t)(x - xa) * px, cpx, px);
        return;
    }
    int32_t ia = xa < 0 ? 0 : xa, ib = xb > g->W ? g->W : xb;
    if (ib > ia) memcpy(pad + (size_t)(ia - xa) * px, row + (size_t)ia * px, (size_t)(ib - ia) * px);
    for (int32_t x = xa; x < xb; x++) {
        if (x >= 0 && x < g->W) {
            x = ib - 1; /* interior done above */
            continue;
        }
        int32_t sx = pfk_border_index(x, g->W, border);
        memcpy(pad + (size_t)(x - xa) * px, sx < 0 ? cpx : row + (size_t)sx * px, px);
    }
}

/* Columns are processed in strips so a strip's ring rows stay in L1. */
static int32_t strip_pixels(const pfi_filter_plan *p, const pfi_plane_geo *g, size_t slot_elem) {
    int64_t budget = 20000 / ((int64_t)slot_elem * (p->ky + 1) * g->cn);
    int64_t px = budget < 64 ? 64 : budget;
    return px >= g->W ? g->W : (int32_t)px;
}

/* Horizontal pass of a separable plan: padded row -> ring slot. */
static void hpass(const pfi_filter_job *j, const pfi_filter_plan *p, const pfi_plane_geo *g, const void *pad, void *out) {
    int32_t n = g->n, step = g->cn;
    const pfi_filter_kernels *k = j->k;
    if (g->dt == PF_U16 && p->kind == PFI_FK_GAUSS) {
        int32_t e = k->hsum_u16(pad, out, p->wx, p->kx, step, 0, n);
        pfi_hsum_u16_ref(pad, out, p->wx, p->kx, step, e, n);
    } else if (g->dt == PF_U16) { /* box */
        pfi_hsum1_u16_ref(pad, out, p->kx, step, n);
    } else if (p->kind == PFI_FK_GAUSS && g->is_u8) {
        int32_t e = k->hsum_u8(pad, out, p->qx, p->kx, step, 0, n);
        pfi_hsum_u8_ref(pad, out, p->qx, p->kx, step, e, n);
    } else if (p->kind == PFI_FK_GAUSS) {
        int32_t e = k->hconv_f32((const float *)pad, out, p->fx, p->kx, step, 0, n);
        pfi_hconv_f32_ref((const float *)pad, out, p->fx, p->kx, step, e, n);
    } else if (p->kind == PFI_FK_BOX && g->is_u8 && p->kx * p->ky <= 256) {
        int32_t e = k->hsum_u8(pad, out, p->qx, p->kx, step, 0, n);
        pfi_hsum_u8_ref(pad, out, p->qx, p->kx, step, e, n);
    } else if (p->kind == PFI_FK_BOX && g->is_u8) {
        pfi_hsum_u8_u32_ref(pad, out, p->kx, step, n);
    } else if (p->kind == PFI_FK_BOX) {
        int32_t e = k->hsum_f32_f64(pad, out, p->kx, step, 0, n);
        pfi_hsum_f32_f64_ref(pad, out, p->kx, step, e, n);
    } else if (g->is_u8) {
        int32_t e = (p->kind == PFI_FK_DILATE ? k->hmax_u8 : k->hmin_u8)(pad, out, p->kx, step, 0, n);
        (p->kind == PFI_FK_DILATE ? pfi_hmax_u8_ref : pfi_hmin_u8_ref)(pad, out, p->kx, step, e, n);
    } else {
        int dil = p->kind == PFI_FK_DILATE;
        int32_t e = (dil ? k->hmax_f32 : k->hmin_f32)(pad, out, p->kx,
                                                                                                step, 0, n);
        (dil ? pfi_hmax_f32_ref : pfi_hmin_f32_ref)(pad, out, p->kx, step, e, n);
    }
}

/* Vertical pass / 2D kernel: ring rows -> one output row. */
static void vpass(const pfi_filter_job *j, const pfi_filter_plan *p, const pfi_plane_geo *g, const void *const *rows,
                  void *out) {
    int32_t n = g->n, step = g->cn;
    const pfi_filter_kernels *k = j->k;
    int32_t e;
    switch (p->kind) {
    case PFI_FK_GAUSS:
        if (g->dt == PF_U16) {
            e = k->vgauss_u16((const uint32_t *const *)rows, p->wy, p->ky, out, 0,
                                                                  n);
            pfi_vgauss_u16_ref((const uint32_t *const *)rows, p->wy, p->ky, out, e, n);
        } else if (g->is_u8 && p->gshift > 0) {
            e = k->vgauss16_u8((const uint16_t *const *)rows, p->qy, p->ky,
                                                                    p->gshift, out, 0, n);
            pfi_vgauss16_u8_ref((const uint16_t *const *)rows, p->qy, p->ky, p->gshift, out, e, n);
        } else if (g->is_u8) {
            e = k->vgauss_u8((const uint16_t *const *)rows, p->qy, p->ky, out, 0, n);
            pfi_vgauss_u8_ref((const uint16_t *const *)rows, p->qy, p->ky, out, e, n);
        } else {
            e = k->vconv_f32((const float *const *)rows, p->fy, p->ky, out, 0, n);
            pfi_vconv_f32_ref((const float *const *)rows, p->fy, p->ky, out, e, n);
        }
        break;
    case PFI_FK_BOX:
        if (g->dt == PF_U16) {
            pfi_vbox_u16_ref((const uint32_t *const *)rows, p->ky, p->kx * p->ky, out, n);
        } else if (g->is_u8 && p->kx * p->ky <= 256) {
            pfk_box_div d = pfk_box_div_make(p->kx * p->ky);
            e = k->vbox_u8((const uint16_t *const *)rows, p->ky, d, out, 0, n);
            pfi_vbox_u8_ref((const uint16_t *const *)rows, p->ky, d, out, e, n);
        } else if (g->is_u8) {
            pfi_vbox_u32_u8_ref((const uint32_t *const *)rows, p->ky, p->kx * p->ky, out, n);
        } else {
            double scale = 1.0 / (p->kx * p->ky);
            e = k->vbox_f64_f32((const double *const *)rows, p->ky, scale,
                                                                      out, 0, n);
            pfi_vbox_f64_f32_ref((const double *const *)rows, p->ky, scale, out, e, n);
        }
        break;
    case PFI_FK_ERODE:
    case PFI_FK_DILATE:
        if (g->is_u8) {
            e = (p->kind == PFI_FK_DILATE ? k->vmax_u8 : k->vmin_u8)((const uint8_t *const *)rows, p->ky, out, 0, n);
            (p->kind == PFI_FK_DILATE ? pfi_vmax_u8_ref : pfi_vmin_u8_ref)((const uint8_t *const *)rows, p->ky,
                                                                        out, e, n);
        } else {
            int dil = p->kind == PFI_FK_DILATE;
            e = (dil ? k->vmax_f32 : k->vmin_f32)(
                (const float *const *)rows, p->ky, out, 0, n);
            (dil ? pfi_vmax_f32_ref : pfi_vmin_f32_ref)((const float *const *)rows, p->ky, out, e, n);
        }
        break;
    case PFI_FK_CONV2D:
        if (g->is_u8) {
            e = k->conv2d_u8((const uint8_t *const *)rows, &p->taps, p->delta,
                                                                out, 0, n);
            pfi_conv2d_u8_ref((const uint8_t *const *)rows, &p->taps, p->delta, out, e, n);
        } else {
            e = k->conv2d_f32((const float *const *)rows, &p->taps, p->delta,
                                                                  out, 0, n);
            pfi_conv2d_f32_ref((const float *const *)rows, &p->taps, p->delta, out, e, n);
        }
        break;
    case PFI_FK_MEDIAN:
        if (g->is_u8 && (p->kx == 3 || p->kx == 5)) {
            e = (p->kx == 3 ? k->median3_u8 : k->median5_u8)((const uint8_t *const *)rows, step, out, 0, n);
            (p->kx == 3 ? pfi_median3_u8_ref : pfi_median5_u8_ref)((const uint8_t *const *)rows, step, out, e, n);
        } else if (g->is_u8) {
            pfi_median_u8_ref((const uint8_t *const *)rows, p->kx, step, out, n);
        } else if (g->dt == PF_U16) {
            pfi_median_u16_ref((const uint16_t *const *)rows, p->kx, step, out, n);
        } else {
            pfi_median_f32_ref((const float *const *)rows, p->kx, step, out, n);
        }
        break;
    default:
        break;
    }
}

/* torchvision adjust_sharpness on rows [y0, y1) of one plane. */
static void sharpen_rows(const pfi_filter_job *j, const pfi_filter_plan *p, const pfi_plane_geo *g, const pf_image *s,
                         const pf_image *d, int c, int32_t y0, int32_t y1) {
    int32_t n = g->n, cn = g->cn;
    for (int32_t y = y0; y < y1; y++) {
        const void *r1 = pfi_row_ptr(s, c, y);
        void *out = pfi_row_ptr(d, c, y);
        int edge_row = y == 0 || y == g->H - 1;
        /* border pixels: blurred == source, but the blend still runs */
        for (int32_t x = 0; x < n; x++) {
            if (!edge_row && x == cn && n - cn > cn) x = n - cn; /* interior: below */
            if (g->is_u8) {
                float v = (float)((const uint8_t *)r1)[x];
                ((uint8_t *)out)[x] = (uint8_t)pfk_sharpen_blend(v, v, p->g, 255.0f);
            } else {
                float v = ((const float *)r1)[x];
                ((float *)out)[x] = pfk_sharpen_blend(v, v, p->g, 1.0f);
            }
        }
        if (edge_row) continue;
        const void *r0 = pfi_row_ptr(s, c, y - 1), *r2 = pfi_row_ptr(s, c, y + 1);
        if (g->is_u8) {
            int32_t e = j->k->sharpen_u8(r0, r1, r2, out, cn, p->g, cn, n - cn);
            pfi_sharpen_u8_ref(r0, r1, r2, out, cn, p->g, e, n - cn);
        } else {
            int32_t e = j->k->sharpen_f32(r0, r1, r2, out, cn, p->g, cn, n - cn);
            pfi_sharpen_f32_ref(r0, r1, r2, out, cn, p->g, e, n - cn);
        }
    }
}

static void filter_band(void *ctx, int i, int32_t y0, int32_t y1) {
    pfi_filter_job *j = ctx;
    const pfi_filter_plan *p = &j->plans[i];
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    pfi_plane_geo g;
    g.W = s->width;
    g.H = s->height;
    g.cn = s->layout == PF_CHW ? 1 : s->channels;
    g.n = g.W * g.cn;
    g.esz = pf_dtype_size(s->dtype);
    g.is_u8 = s->dtype == PF_U8;
    g.dt = s->dtype;
    int planes = s->layout == PF_CHW ? s->channels : 1;

    if (p->kind == PFI_FK_COPY) {
        for (int c = 0; c < planes; c++)
            for (int32_t y = y0; y < y1; y++)
                memcpy(pfi_row_ptr(d, c, y), pfi_row_ptr(s, c, y), (size_t)g.n * g.esz);
        return;
    }
    if (p->kind == PFI_FK_SHARPEN) {
        for (int c = 0; c < planes; c++) sharpen_rows(j, p, &g, s, d, c, y0, y1);
        return;
    }

    if ((p->kind == PFI_FK_ERODE || p->kind == PFI_FK_DILATE) && g.dt != PF_F32) {
        if (pfi_filter_morph_band(j, p, &g, s, d, planes, y0, y1)) atomic_store(&j->oom, 1);
        return;
    }
    int32_t L = p->ax, R = p->kx - 1 - p->ax;
    int padded = ring_holds_padded(p->kind);
    size_t helem = padded ? g.esz : ring_elem_size(p, &g);
    int32_t sw = strip_pixels(p, &g, helem);
    /* every buffer starts on a 64-byte boundary (malloc gives 16) */
    size_t pad_bytes = ((size_t)(sw + p->kx - 1) * (size_t)g.cn * g.esz + 127) & ~(size_t)63;
    size_t slot_bytes = padded ? pad_bytes : ((size_t)sw * (size_t)g.cn * helem + 127) & ~(size_t)63;
    size_t ky = (size_t)p->ky;
    uint8_t *mem = malloc(pad_bytes + ky * slot_bytes + ky * (sizeof(int32_t) + 2 * sizeof(void *)));
    if (mem == NULL) {
        atomic_store(&j->oom, 1);
        return;
    }
    uint8_t *pad = mem, *ring = mem + pad_bytes;
    const void **rows = (const void **)(void *)(ring + ky * slot_bytes);
    const void **slot_ptr = rows + ky; /* what slot t stands for: its buffer or a source row in place */
    int32_t *tag = (int32_t *)(void *)(slot_ptr + ky);
    uint8_t cpx[16];
    size_t px_bytes = (size_t)g.cn * g.esz;

    for (int c = 0; c < planes; c++) {
        pfi_filter_border_pixel(p, &g, c, cpx);
        for (int32_t x0 = 0; x0 < g.W; x0 += sw) {
            pfi_plane_geo sg = g; /* the strip: pixels [x0, x0 + sg.W) */
            sg.W = g.W - x0 < sw ? g.W - x0 : sw;
            sg.n = sg.W * g.cn;
            for (size_t t = 0; t < ky; t++) tag[t] = INT32_MIN;
            for (int32_t y = y0; y < y1; y++) {
                for (int32_t r = 0; r < p->ky; r++) {
                    int32_t v = y - p->ay + r;
                    size_t slot = (size_t)(((v % p->ky) + p->ky) % p->ky);
                    uint8_t *buf = ring + slot * slot_bytes;
                    if (tag[slot] != v) {
                        int32_t sy = pfk_border_index(v, g.H, p->border);
                        const uint8_t *srow = sy >= 0 ? pfi_row_ptr(s, c, sy) : NULL;
                        /* a window inside the row reads the source in place */
                        int inside = srow != NULL && x0 - L >= 0 && x0 + sg.W + R <= g.W;
                        const uint8_t *in_place = inside ? srow + (size_t)(x0 - L) * px_bytes : NULL;
                        slot_ptr[slot] = buf;
                        if (padded && inside) {
                            slot_ptr[slot] = in_place;
                        } else if (padded) {
                            pad_range(&g, srow, sy, p->border, x0 - L, x0 + sg.W + R, cpx, buf);
                        } else if (inside) {
                            hpass(j, p, &sg, in_place, buf);
                        } else {
                            pad_range(&g, srow, sy, p->border, x0 - L, x0 + sg.W + R, cpx, pad);
                            hpass(j, p, &sg, pad, buf);
                        }
                        tag[slot] = v;
                    }
                    rows[r] = slot_ptr[slot];
                }
                vpass(j, p, &sg, rows, (uint8_t *)pfi_row_ptr(d, c, y) + (size_t)x0 * px_bytes);
            }
        }
    }
    free(mem);
}

pf_status pfi_cpu_filter(pf_stream *stream, const char *op, int count, const pf_image src[], pf_image dst[],
                         const pfi_filter_plan *plans) {
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    for (int i = 0; i < count; i++) {
        rows[i] = dst[i].height;
        /* Work per row ~ elements x taps; bands of at least ~8 kernel
         * heights keep the recomputed halo rows a small fraction. */
        int64_t el = (int64_t)dst[i].width * dst[i].channels;
        int64_t cap = 65536 / (8 * (int64_t)(plans[i].ky > 0 ? plans[i].ky : 1));
        rows[count + i] = (int32_t)(el < cap ? el : cap < 1 ? 1 : cap);
    }
    pfi_filter_job j;
    j.src = src;
    j.dst = dst;
    j.plans = plans;
    j.k = pfi_kfamily_table(&pfi_filter_family, pf_stream_isa(stream));
    atomic_init(&j.oom, 0);
    pfi_run_rows(stream, count, rows, rows + count, 1, filter_band, &j);
    free(rows);
    if (atomic_load(&j.oom)) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for filter scratch rows", op);
    return PF_OK;
}
