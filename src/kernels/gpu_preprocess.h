/*
 * GPU fused preprocess (pf_preprocess_run on device views): the per-sample
 * job and the per-pixel body shared by the CUDA kernel and the CPU tests.
 *
 * Output pixel (x, y) of sample n is computed from scratch, in the order
 * of the CPU chain (src/cpu/preprocess_canvas.c + preprocess_emit.c):
 *   letterbox rect? no -> pad value
 *   yes -> flips (read mirrored) -> the u8 canvas value of the crop at that
 *   position (copy / resize / warp sampler) -> swap R,B when the colour ops
 *   need RGB -> brightness, contrast, saturation, hue in jitter_order ->
 *   grayscale (3) -> gamma -> grayscale (1) -> output channel c reads
 *   canvas channel order[c] -> the plan's normalization table for c.
 * Every step is a function of the pixel alone except contrast, which
 * blends with the mean of the grayscale of the canvas as it is just before
 * contrast: a pre-pass (pfk_pp_sum_at) evaluates the chain up to there and
 * sums floor(gray) (3 channels) or the value (1 channel) into an integer
 * per sample, exactly the CPU's sum; the main pass divides it once.
 * Brightness and gamma are u8 -> u8 tables built on the host by the CPU
 * ops themselves (gamma uses a double pow the device does not round the
 * same way).
 */
#ifndef PF_KERNELS_GPU_PREPROCESS_H
#define PF_KERNELS_GPU_PREPROCESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/gpu_resize.h"
#include "kernels/gpu_warp.h"
#include "kernels/gpu_yuv_crop.h"
#include "kernels/pf_hd.h"
#include "kernels/photo_math.h"
#include "kernels/preprocess_chain.h"

typedef struct pfk_pp_job {
    int32_t sampler;          /* PFK_PP_* */
    int32_t sc;               /* source channels (1 or 3) */
    /* COPY: the crop itself (its size equals the canvas) */
    const PF_GLOBAL uint8_t *src;
    ptrdiff_t src_stride;
    union {                   /* RESIZE: crop -> rw x rh; WARP: crop -> out size (= rw x rh) */
        pfk_resize_job resize;
        pfk_warp_job warp;
    } geo;
    /* 4:2:0 frame sample converted on the fly (yuv_src 1): the sampler's
     * source pixel (sx, sy) is frame pixel (yuv.x0 + sx, yuv.y0 + sy)
     * through pfk_yuv_fetch; src / geo.resize.src are NULL then. Only
     * COPY, or RESIZE of kind COPY, NN, 2-tap LINEAR or 2x2 AREA_FAST. */
    int32_t yuv_src;
    pfk_yuv_crop_job yuv;
    /* canvas = the resized (or warped) crop: rw x rh at (left, top) */
    int32_t rw, rh, left, top;
    int32_t flip_h, flip_v;
    int32_t swap_first;       /* swap R,B before the colour ops */
    int32_t gray3;            /* rgb_to_grayscale (3 channels) after the jitter ops */
    int32_t gray1;            /* 3 -> 1 channel at the end (1-channel plan) */
    int32_t cc;               /* canvas channels after the chain (1 or 3) */
    int8_t order[4];          /* output channel c reads canvas channel order[c] */
    int8_t ops[4];            /* jitter_order with skipped (identity) ops as PFK_PP_OP_NONE */
    int32_t contrast_at;      /* index in ops of contrast, -1 when skipped */
    const PF_GLOBAL uint8_t *bright_lut; /* 256 entries */
    const PF_GLOBAL uint8_t *gamma_lut;  /* 256 entries, NULL: gamma 1 */
    float con_ratio, con_alpha;
    PF_GLOBAL uint64_t *con_sum; /* the pre-pass's integer sum (zeroed by the upload) */
    float sat_ratio, sat_alpha;
    float hue;
    /* output sample: element (c, y, x) at out + c * plane + y * row + x * px */
    PF_GLOBAL uint8_t *out;
    ptrdiff_t out_row, out_plane, out_px;
} pfk_pp_job;

typedef struct pfk_pp_batch {
    int32_t count;
    const PF_GLOBAL pfk_pp_job *jobs;
    int32_t out_w, out_h, out_c, esize;
    const PF_GLOBAL uint8_t *lut; /* the plan's normalized output elements: channel c, value v at
                                 lut + c * lut_row + v * esize */
    int32_t lut_row;
    int32_t aligned;          /* every output element is esize-aligned (typed stores on the device) */
    int32_t cheap;            /* every sample's sampler is cheap (pfk_pp_job_cheap): the kernel
                                 specialised for those runs */
    uint8_t pad_u8[4];
} pfk_pp_batch;

/* Sampler of a 4:2:0 sample converted on the fly: the CPU resizes the
 * converted rectangle, and a converted pixel depends only on its own luma
 * and its 2x2 block's chroma, so converting each tap (pfk_yuv_fetch) and
 * applying the resize steps to those values gives the CPU's bits. */
PF_HD void pfk_pp_yuv_pixel(const PF_GLOBAL pfk_pp_job *j, int32_t x, int32_t y, uint8_t px[4]) {
    const PF_GLOBAL pfk_yuv_crop_job *f = &j->yuv;
    const PF_GLOBAL pfk_resize_job *r = &j->geo.resize;
    int32_t cn = j->sc < 3 ? j->sc : 3;
    int32_t kind = j->sampler == PFK_PP_COPY ? PFK_RZ_COPY : r->kind;
    if (kind == PFK_RZ_COPY || kind == PFK_RZ_NN) {
        int32_t sx = kind == PFK_RZ_NN ? r->nn_x[x] : x, sy = kind == PFK_RZ_NN ? r->nn_y[y] : y;
        pfk_yuv_fetch(f, f->x0 + sx, f->y0 + sy, px);
        return;
    }
    uint8_t a[3], b[3], c[3], d[3];
    if (kind == PFK_RZ_AREA_FAST) { /* 2x2 (LINEAR's exact 2x shortcut); u8: resize_rows_ref's branches */
        int32_t sy0 = y * 2, avail = r->sh - sy0 < 2 ? r->sh - sy0 : 2;
        if (avail <= 0) {
            px[0] = px[1] = px[2] = 0;
            return;
        }
        int32_t sx0 = x * 2;
        if (avail == 2 && x < r->sw / 2) { /* a whole cell */
            pfk_yuv_fetch(f, f->x0 + sx0, f->y0 + sy0, a);
            pfk_yuv_fetch(f, f->x0 + sx0 + 1, f->y0 + sy0, b);
            pfk_yuv_fetch(f, f->x0 + sx0, f->y0 + sy0 + 1, c);
            pfk_yuv_fetch(f, f->x0 + sx0 + 1, f->y0 + sy0 + 1, d);
            for (int32_t k = 0; k < cn; k++) px[k] = (uint8_t)((a[k] + b[k] + c[k] + d[k] + 2) >> 2);
            return;
        }
        int32_t isum[3] = {0, 0, 0}, count = 0;
        for (int32_t ry = 0; ry < avail; ry++)
            for (int32_t sx = sx0; sx < sx0 + 2 && sx < r->sw; sx++) {
                pfk_yuv_fetch(f, f->x0 + sx, f->y0 + sy0 + ry, a);
                for (int32_t k = 0; k < cn; k++) isum[k] += a[k];
                count++;
            }
        for (int32_t k = 0; k < cn; k++) px[k] = count ? pfk_sat_u8_f((float)isum[k] / (float)count) : (uint8_t)0;
        return;
    }
    /* two-tap LINEAR */
    const PF_GLOBAL int32_t *ix = r->h_idx + (ptrdiff_t)x * 2, *sy = r->v_idx + (ptrdiff_t)y * 2;
    const PF_GLOBAL int16_t *w = r->h_icoef + (ptrdiff_t)x * 2, *bt = r->v_icoef + (ptrdiff_t)y * 2;
    int16_t w0 = w[0], w1 = w[1], b0 = bt[0], b1 = bt[1];
    pfk_yuv_fetch(f, f->x0 + ix[0], f->y0 + sy[0], a);
    pfk_yuv_fetch(f, f->x0 + ix[1], f->y0 + sy[0], b);
    pfk_yuv_fetch(f, f->x0 + ix[0], f->y0 + sy[1], c);
    pfk_yuv_fetch(f, f->x0 + ix[1], f->y0 + sy[1], d);
    for (int32_t k = 0; k < cn; k++)
        px[k] = pfk_v_u8_linear16(pfk_rz_lin16_v(a[k], b[k], w0, w1), pfk_rz_lin16_v(c[k], d[k], w0, w1), b0, b1);
}

/* Whether job j's sampler is cheap: a 4:2:0 sample converted on the fly,
 * a copy, or a resize of a cheap kind (pfk_resize_u8_cheap). */
PF_HD int pfk_pp_job_cheap(const PF_GLOBAL pfk_pp_job *j) {
    return j->yuv_src || j->sampler == PFK_PP_COPY ||
           (j->sampler == PFK_PP_RESIZE && pfk_resize_u8_cheap(&j->geo.resize));
}

/* The u8 channels of the canvas at (x, y) before any colour op, the
 * whole pixel at once (taps, weights or the warp position once per
 * pixel). cheap (a constant at each call site): the batch has only cheap
 * samplers, so the others are not compiled into that variant. */
PF_HD void pfk_pp_sample(const PF_GLOBAL pfk_pp_job *j, int cheap, int32_t x, int32_t y, uint8_t px[4]) {
    if (j->yuv_src) {
        pfk_pp_yuv_pixel(j, x, y, px);
    } else if (j->sampler == PFK_PP_RESIZE) {
        if (cheap) pfk_resize_u8_pixel_cheap(&j->geo.resize, x, y, px);
        else pfk_resize_u8_pixel(&j->geo.resize, x, y, px);
    } else if (j->sampler == PFK_PP_WARP && !cheap) {
        px[0] = px[1] = px[2] = px[3] = 0; /* TRANSPARENT leaves 0, as pfk_warp_u8_value (not used here) */
        pfk_warp_u8_pixel(&j->geo.warp, x, y, px);
    } else {
        const PF_GLOBAL uint8_t *p = j->src + (ptrdiff_t)y * j->src_stride + (ptrdiff_t)x * j->sc;
        for (int32_t c = 0; c < j->sc; c++) px[c] = p[c];
    }
}

/* The mean the contrast blends with, from the pre-pass's integer sum
 * (the CPU's expression: double sum / double area, rounded to float).
 * A function of the sample alone: the CUDA kernel evaluates it once per
 * block, not per pixel. 0 when the sample has no contrast. */
PF_HD float pfk_pp_con_other(const PF_GLOBAL pfk_pp_job *j) {
    if (j->contrast_at < 0) return 0.f;
    return (float)((double)*j->con_sum / ((double)j->rw * (double)j->rh));
}

PF_HD void pfk_pp_contrast(const PF_GLOBAL pfk_pp_job *j, uint8_t *px, int32_t ch, float other) {
    for (int32_t c = 0; c < ch; c++) px[c] = pfk_blend_u8(px[c], j->con_ratio, other, j->con_alpha);
}

/* Canvas pixel (x, y) through the geometry, the swap and the colour ops
 * ops[0 .. upto); with upto == 4 also grayscale, gamma and the final
 * 1-channel gray. con_other: pfk_pp_con_other(j) (unused when upto stops
 * before contrast). cheap: as pfk_pp_sample. Returns the channel count of
 * px. */
PF_HD int32_t pfk_pp_canvas(const PF_GLOBAL pfk_pp_job *j, int cheap, int32_t x, int32_t y, int32_t upto,
                            float con_other, uint8_t px[4]) {
    int32_t ch = j->sc;
    pfk_pp_sample(j, cheap, x, y, px);
    if (j->swap_first) {
        uint8_t t = px[0];
        px[0] = px[2];
        px[2] = t;
    }
    for (int32_t k = 0; k < upto; k++) {
        switch (j->ops[k]) {
        case PF_JITTER_BRIGHTNESS:
            for (int32_t c = 0; c < ch; c++) px[c] = j->bright_lut[px[c]];
            break;
        case PF_JITTER_CONTRAST: pfk_pp_contrast(j, px, ch, con_other); break;
        case PF_JITTER_SATURATION: pfk_saturation_px_u8(px, px, j->sat_ratio, j->sat_alpha); break;
        case PF_JITTER_HUE: pfk_hue_px_u8(px, px, j->hue); break;
        default: break;
        }
    }
    if (upto < 4) return ch;
    if (j->gray3) px[0] = px[1] = px[2] = pfk_gray_u8(px[0], px[1], px[2]);
    if (j->gamma_lut)
        for (int32_t c = 0; c < ch; c++) px[c] = j->gamma_lut[px[c]];
    if (j->gray1) {
        px[0] = pfk_gray_u8(px[0], px[1], px[2]);
        ch = 1;
    }
    return ch;
}

/* Pre-pass: canvas pixel (x, y)'s term of sample n's contrast sum (0 when
 * the sample has no contrast or (x, y) is outside its canvas). */
PF_HD uint32_t pfk_pp_sum_job(const PF_GLOBAL pfk_pp_job *j, int cheap, int32_t x, int32_t y) {
    if (j->contrast_at < 0 || x >= j->rw || y >= j->rh) return 0;
    uint8_t px[4];
    int32_t ch = pfk_pp_canvas(j, cheap, x, y, j->contrast_at, 0.f, px);
    return ch == 3 ? pfk_gray_floor_u8(px[0], px[1], px[2]) : (uint32_t)px[0];
}

PF_HD uint32_t pfk_pp_sum_at(const PF_GLOBAL pfk_pp_batch *b, int32_t n, int32_t x, int32_t y) {
    if (n >= b->count) return 0;
    return b->cheap ? pfk_pp_sum_job(&b->jobs[n], 1, x, y) : pfk_pp_sum_job(&b->jobs[n], 0, x, y);
}

/* Element c of an output pixel: the normalization table's entry for v
 * (lut: the batch's table, or a copy of its first out_c rows in shared
 * memory; 32-bit offsets, the table is 4 KiB). */
PF_HD void pfk_pp_store(const PF_GLOBAL pfk_pp_batch *b, const PF_GLOBAL uint8_t *lut, PF_GLOBAL uint8_t *d, int32_t c,
                        uint8_t v) {
    const PF_GLOBAL uint8_t *e = lut + c * b->lut_row + (int32_t)v * b->esize;
#if defined(__CUDA_ARCH__)
    if (b->aligned) { /* one store per element instead of esize byte stores */
        if (b->esize == 4) {
            *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)e;
            return;
        }
        if (b->esize == 2) {
            *(uint16_t *)(void *)d = *(const uint16_t *)(const void *)e;
            return;
        }
    }
#endif
    for (int32_t k = 0; k < b->esize; k++) d[k] = e[k];
}

/* Output pixel (x, y) of job j (all channels), (x, y) inside the output
 * (the caller checks b->out_w / out_h). lut and con_other as above: the
 * CUDA kernel passes its per-block copies, the CPU emulation the batch's
 * table and pfk_pp_con_other(j). cheap: b->cheap, as a constant. */
PF_HD void pfk_pp_px(const PF_GLOBAL pfk_pp_batch *b, const PF_GLOBAL pfk_pp_job *j, int cheap,
                     const PF_GLOBAL uint8_t *lut, float con_other, int32_t x, int32_t y) {
    uint8_t v[4];
    int32_t ix = x - j->left, iy = y - j->top;
    if (ix < 0 || iy < 0 || ix >= j->rw || iy >= j->rh) {
        for (int32_t c = 0; c < b->out_c; c++) v[c] = b->pad_u8[j->cc == 1 ? 0 : c];
    } else {
        uint8_t px[4];
        pfk_pp_canvas(j, cheap, j->flip_h ? j->rw - 1 - ix : ix, j->flip_v ? j->rh - 1 - iy : iy, 4, con_other, px);
        for (int32_t c = 0; c < b->out_c; c++) v[c] = px[j->order[c]];
    }
    PF_GLOBAL uint8_t *o = j->out + (ptrdiff_t)y * j->out_row + (ptrdiff_t)x * j->out_px;
    for (int32_t c = 0; c < b->out_c; c++) pfk_pp_store(b, lut, o + (ptrdiff_t)c * j->out_plane, c, v[c]);
}

/* Computes and stores output pixel (x, y) of sample n (all channels). */
PF_HD void pfk_pp_at(const PF_GLOBAL pfk_pp_batch *b, int32_t n, int32_t x, int32_t y) {
    if (n >= b->count || x >= b->out_w || y >= b->out_h) return;
    const PF_GLOBAL pfk_pp_job *j = &b->jobs[n];
    if (b->cheap) pfk_pp_px(b, j, 1, b->lut, pfk_pp_con_other(j), x, y);
    else pfk_pp_px(b, j, 0, b->lut, pfk_pp_con_other(j), x, y);
}

#endif
