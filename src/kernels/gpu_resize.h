/* Per-output-pixel resize for the GPU (and for CPU tests of the GPU path).
 *
 * The CPU runs a resize plan in two passes: a horizontal pass over each
 * source row it needs into a row buffer, then a vertical pass over ksize
 * buffer rows (src/ref/resize_rows_ref.c). Every buffer element is a pure
 * function of one source row, and its type is exact for what the CPU
 * stores (int16 / int32 sums, the u8 of Pillow's clipped pass, float), so
 * recomputing the horizontal taps of the ksize source rows inside one
 * output element, then applying the vertical step in the reference's
 * order, gives the CPU's bits. The tables (tap indices and weights) are
 * the CPU plan's own (src/plan/resize_tables.c, resize_aa_tables.c,
 * resize_tv_tables.c), copied
 * into the launch arena by src/gpu/resize_jobs.c.
 *
 * Valid C11 and CUDA C++: no compound literals, VLAs, restrict or
 * designated initializers; every function is PF_HD. */
#ifndef PF_KERNELS_GPU_RESIZE_H
#define PF_KERNELS_GPU_RESIZE_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/gpu_mem.h"
#include "kernels/resize_math.h"


/* One sample. Pointers are device addresses (emulated arena: host). */
typedef struct pfk_resize_job {
    const PF_GLOBAL uint8_t *src;        /* pixel (0,0), channel 0 */
    PF_GLOBAL uint8_t *dst;    /* NULL when only pfk_resize_u8_value is used */
    ptrdiff_t src_row, src_plane; /* byte strides (plane: CHW only) */
    ptrdiff_t dst_row, dst_plane;
    int32_t sw, sh, dw, dh;
    int32_t planes;            /* channels for CHW with > 1 channel, else 1 */
    int32_t cn;                /* channels interleaved in one plane (1 for CHW) */
    int32_t type;              /* PFK_RZ_T_* */
    int32_t src_aligned;       /* src data and strides aligned to the element size */
    int32_t dst_aligned;
    int32_t kind, hk, vk;      /* PFK_RZ_*, PFK_H_*, PFK_V_* */
    int32_t kh, kv;            /* taps per output along x / y (SEP) */
    int32_t vsplit;            /* elements [0, vsplit) of a row use the SIMD-lane formula */
    int32_t afx, afy;          /* AREA_FAST integer factors */
    int32_t h_shift, v_shift;  /* precision of the torchvision int16 weights (TV kinds) */
    const PF_GLOBAL int32_t *nn_x, *nn_y;              /* NN: source column / row per output */
    const PF_GLOBAL int32_t *h_idx, *v_idx;            /* SEP: dw * kh, dh * kv source pixels / rows */
    const PF_GLOBAL int16_t *h_icoef, *v_icoef;        /* OpenCV 11-bit / torch int16 weights (u8 kinds) */
    const PF_GLOBAL int32_t *h_acoef, *v_acoef;        /* Pillow 22-bit weights (antialias u8) */
    const PF_GLOBAL float *h_fcoef, *v_fcoef;          /* float weights (float kinds, u8 cubic lanes) */
} pfk_resize_job;

typedef struct pfk_resize_batch {
    int32_t count;
    const PF_GLOBAL pfk_resize_job *jobs;
} pfk_resize_batch;

/* ------------------------------------------------------------ loads */

PF_HD float pfk_rz_ld(const PF_GLOBAL pfk_resize_job *j, const PF_GLOBAL uint8_t *row, int32_t e) {
    if (j->type == PFK_RZ_T_U8) return (float)row[e];
    if (j->type == PFK_RZ_T_U16) {
        const PF_GLOBAL uint8_t *p = row + (ptrdiff_t)e * 2;
        if (j->src_aligned) return (float)*(const PF_GLOBAL uint16_t *)(const PF_GLOBAL void *)p;
        return (float)pfk_ldu_u16(p);
    }
    const PF_GLOBAL uint8_t *p = row + (ptrdiff_t)e * 4;
    if (j->src_aligned) return *(const PF_GLOBAL float *)(const PF_GLOBAL void *)p;
    return pfk_ldu_f32(p);
}

PF_HD const PF_GLOBAL uint8_t *pfk_rz_src_row(const PF_GLOBAL pfk_resize_job *j, int32_t plane, int32_t y) {
    return j->src + (ptrdiff_t)plane * j->src_plane + (ptrdiff_t)y * j->src_row;
}

/* ------------------------------------------------- horizontal passes */
/* Element e = dx * cn + c of the horizontal pass over source row `row`,
 * as the CPU's buffer holds it. Pads (zero weights) are included, as the
 * reference loops over all ksize taps. */

/* PFK_H_U8_I32: int32 sum of u8 x int16 (exact in any order). */
PF_HD int32_t pfk_rz_h_i32(const PF_GLOBAL pfk_resize_job *j, const PF_GLOBAL uint8_t *row, int32_t e) {
    int32_t dx = e / j->cn, c = e - dx * j->cn;
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)dx * j->kh;
    const PF_GLOBAL int16_t *w = j->h_icoef + (ptrdiff_t)dx * j->kh;
    int32_t s = 0;
    for (int32_t k = 0; k < j->kh; k++) s += row[ix[k] * j->cn + c] * w[k];
    return s;
}

/* PFK_H_U8_LIN16: the two-tap sum pre-shifted by 4, as int16. */
PF_HD int16_t pfk_rz_lin16_v(uint8_t a, uint8_t b, int16_t w0, int16_t w1) {
    int32_t s = a * w0 + b * w1;
    return (int16_t)(s >> 4);
}

PF_HD int16_t pfk_rz_lin16(const PF_GLOBAL uint8_t *row, int32_t o0, int32_t o1, int16_t w0, int16_t w1) {
    return pfk_rz_lin16_v(row[o0], row[o1], w0, w1);
}

/* u8 LINEAR (PFK_H_U8_LIN16 + PFK_V_U8_LINEAR) for pixel x, channel c
 * of a plane, both passes (the vertical one: OpenCV's pmulhw steps). */
PF_HD uint8_t pfk_rz_linear_u8(const PF_GLOBAL pfk_resize_job *j, int32_t plane, int32_t x, int32_t y, int32_t c) {
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)x * 2, *sy = j->v_idx + (ptrdiff_t)y * 2;
    const PF_GLOBAL int16_t *w = j->h_icoef + (ptrdiff_t)x * 2, *bt = j->v_icoef + (ptrdiff_t)y * 2;
    int32_t o0 = ix[0] * j->cn + c, o1 = ix[1] * j->cn + c;
    return pfk_v_u8_linear16(pfk_rz_lin16(pfk_rz_src_row(j, plane, sy[0]), o0, o1, w[0], w[1]),
                             pfk_rz_lin16(pfk_rz_src_row(j, plane, sy[1]), o0, o1, w[0], w[1]), bt[0], bt[1]);
}

/* PFK_H_F32: float sum, taps left to right. */
PF_HD float pfk_rz_h_f32(const PF_GLOBAL pfk_resize_job *j, const PF_GLOBAL uint8_t *row, int32_t e) {
    int32_t dx = e / j->cn, c = e - dx * j->cn;
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)dx * j->kh;
    const PF_GLOBAL float *w = j->h_fcoef + (ptrdiff_t)dx * j->kh;
    float v = pfk_rz_ld(j, row, ix[0] * j->cn + c) * w[0];
    for (int32_t k = 1; k < j->kh; k++) v = v + pfk_rz_ld(j, row, ix[k] * j->cn + c) * w[k];
    return v;
}

/* PFK_H_AA_U8: Pillow's 22-bit pass, clipped to u8. */
PF_HD uint8_t pfk_rz_h_aa(const PF_GLOBAL pfk_resize_job *j, const PF_GLOBAL uint8_t *row, int32_t e) {
    int32_t dx = e / j->cn, c = e - dx * j->cn;
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)dx * j->kh;
    const PF_GLOBAL int32_t *w = j->h_acoef + (ptrdiff_t)dx * j->kh;
    int32_t ss = 1 << (PFK_AA_BITS - 1);
    for (int32_t k = 0; k < j->kh; k++) ss += row[ix[k] * j->cn + c] * w[k];
    return pfk_aa_clip8(ss);
}

/* PFK_H_TV_U8: torch's int16 pass with the axis precision, clamped to u8. */
PF_HD uint8_t pfk_rz_h_tv(const PF_GLOBAL pfk_resize_job *j, const PF_GLOBAL uint8_t *row, int32_t e) {
    int32_t dx = e / j->cn, c = e - dx * j->cn;
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)dx * j->kh;
    const PF_GLOBAL int16_t *w = j->h_icoef + (ptrdiff_t)dx * j->kh;
    int32_t acc = 1 << (j->h_shift - 1);
    for (int32_t k = 0; k < j->kh; k++) acc += row[ix[k] * j->cn + c] * w[k];
    return pfk_tv_u8(acc, j->h_shift);
}

/* -------------------------------------------------- element results */
/* Element e (= dx * cn + c) of output row y of plane `plane`: the u8
 * result of the integer kinds, the float sum of the float kinds (the
 * caller saturates it to u8/u16 as the CPU's vertical kernel does), and
 * the area-fast result in the job's dtype. */

/* Separable u8 kinds: the result as u8. */
PF_HD uint8_t pfk_rz_sep_u8(const PF_GLOBAL pfk_resize_job *j, int32_t plane, int32_t y, int32_t e) {
    const PF_GLOBAL int32_t *sy = j->v_idx + (ptrdiff_t)y * j->kv;
    ptrdiff_t t = (ptrdiff_t)y * j->kv;
    if (j->vk == PFK_V_U8_CUBIC && e < j->vsplit) { /* OpenCV's float lanes */
        const PF_GLOBAL float *b = j->v_fcoef + t;
        return pfk_v_u8_cubic_float(pfk_rz_h_i32(j, pfk_rz_src_row(j, plane, sy[0]), e),
                                    pfk_rz_h_i32(j, pfk_rz_src_row(j, plane, sy[1]), e),
                                    pfk_rz_h_i32(j, pfk_rz_src_row(j, plane, sy[2]), e),
                                    pfk_rz_h_i32(j, pfk_rz_src_row(j, plane, sy[3]), e), b[0], b[1], b[2], b[3]);
    }
    switch (j->vk) {
    case PFK_V_U8_LINEAR: {
        int32_t dx = e / j->cn;
        return pfk_rz_linear_u8(j, plane, dx, y, e - dx * j->cn);
    }
    case PFK_V_TV_U8: {
        int32_t acc = 1 << (j->v_shift - 1);
        for (int32_t k = 0; k < j->kv; k++)
            acc += pfk_rz_h_tv(j, pfk_rz_src_row(j, plane, sy[k]), e) * j->v_icoef[t + k];
        return pfk_tv_u8(acc, j->v_shift);
    }
    case PFK_V_AA_U8: {
        int32_t ss = 1 << (PFK_AA_BITS - 1);
        for (int32_t k = 0; k < j->kv; k++)
            ss += pfk_rz_h_aa(j, pfk_rz_src_row(j, plane, sy[k]), e) * j->v_acoef[t + k];
        return pfk_aa_clip8(ss);
    }
    default: { /* PFK_V_U8_FIX22, and PFK_V_U8_CUBIC past the SIMD lanes */
        int32_t s = 0;
        for (int32_t k = 0; k < j->kv; k++)
            s += pfk_rz_h_i32(j, pfk_rz_src_row(j, plane, sy[k]), e) * j->v_icoef[t + k];
        return pfk_v_u8_fix22(s);
    }
    }
}

/* PFK_V_F32 over float horizontal sums: nested (last tap first) on
 * [0, vsplit), left to right after; the caller saturates. */
PF_HD float pfk_rz_sep_f(const PF_GLOBAL pfk_resize_job *j, int32_t plane, int32_t y, int32_t e) {
    const PF_GLOBAL int32_t *sy = j->v_idx + (ptrdiff_t)y * j->kv;
    const PF_GLOBAL float *b = j->v_fcoef + (ptrdiff_t)y * j->kv;
    int32_t k = j->kv;
    float v;
    if (e < j->vsplit) {
        v = pfk_rz_h_f32(j, pfk_rz_src_row(j, plane, sy[k - 1]), e) * b[k - 1];
        for (int32_t q = k - 2; q >= 0; q--) v = pfk_rz_h_f32(j, pfk_rz_src_row(j, plane, sy[q]), e) * b[q] + v;
    } else {
        v = pfk_rz_h_f32(j, pfk_rz_src_row(j, plane, sy[0]), e) * b[0];
        for (int32_t q = 1; q < k; q++) v = v + pfk_rz_h_f32(j, pfk_rz_src_row(j, plane, sy[q]), e) * b[q];
    }
    return v;
}

/* OpenCV resizeAreaFast, one element (see PFI_AREA_FAST in
 * resize_rows_ref.c: the same branches and summation order). The result
 * is returned through the typed pointers for the job's dtype. */
PF_HD void pfk_rz_area_fast(const PF_GLOBAL pfk_resize_job *j, int32_t plane, int32_t y, int32_t dx, uint8_t *o8,
                            uint16_t *o16, float *of) {
    int32_t cn = j->cn, fx = j->afx, fy = j->afy, area = fx * fy;
    int32_t sy0 = y * fy;
    int32_t avail = j->sh - sy0 < fy ? j->sh - sy0 : fy;
    int32_t t = j->type;
    if (avail <= 0) { *o8 = 0; *o16 = 0; *of = 0.f; return; }
    int32_t w = avail == fy ? (j->sw / fx) * cn : 0;
    int32_t i = (dx / cn) * fx * cn + dx % cn;
    if (dx < w) {
        if (fx == 2 && fy == 2 && (cn == 1 || cn == 3 || cn == 4) && t != PFK_RZ_T_F32) {
            const PF_GLOBAL uint8_t *r0 = pfk_rz_src_row(j, plane, sy0), *r1 = pfk_rz_src_row(j, plane, sy0 + 1);
            int32_t s = (int32_t)pfk_rz_ld(j, r0, i) + (int32_t)pfk_rz_ld(j, r0, i + cn) +
                        (int32_t)pfk_rz_ld(j, r1, i) + (int32_t)pfk_rz_ld(j, r1, i + cn) + 2;
            *o8 = (uint8_t)(s >> 2);
            *o16 = (uint16_t)(s >> 2);
            return;
        }
        if (t == PFK_RZ_T_F32 && dx < j->vsplit) { /* OpenCV SIMD lanes: pairwise */
            const PF_GLOBAL uint8_t *r0 = pfk_rz_src_row(j, plane, sy0), *r1 = pfk_rz_src_row(j, plane, sy0 + 1);
            float v = (pfk_rz_ld(j, r0, i) + pfk_rz_ld(j, r0, i + cn)) +
                      (pfk_rz_ld(j, r1, i) + pfk_rz_ld(j, r1, i + cn));
            *of = v * 0.25f;
            return;
        }
        float scale = 1.f / (float)area;
        if (t == PFK_RZ_T_U8) {
            int32_t sum = 0, k = 0;
            for (; k <= area - 4; k += 4) {
                int32_t q = 0;
                for (int32_t u = 0; u < 4; u++)
                    q += pfk_rz_src_row(j, plane, sy0 + (k + u) / fx)[i + ((k + u) % fx) * cn];
                sum += q;
            }
            for (; k < area; k++) sum += pfk_rz_src_row(j, plane, sy0 + k / fx)[i + (k % fx) * cn];
            *o8 = pfk_sat_u8_f((float)sum * scale);
            return;
        }
        float sum = 0.f;
        int32_t k = 0;
        for (; k <= area - 4; k += 4) {
            float q = pfk_rz_ld(j, pfk_rz_src_row(j, plane, sy0 + k / fx), i + (k % fx) * cn);
            for (int32_t u = 1; u < 4; u++)
                q = q + pfk_rz_ld(j, pfk_rz_src_row(j, plane, sy0 + (k + u) / fx), i + ((k + u) % fx) * cn);
            sum = sum + q;
        }
        for (; k < area; k++) sum = sum + pfk_rz_ld(j, pfk_rz_src_row(j, plane, sy0 + k / fx), i + (k % fx) * cn);
        if (t == PFK_RZ_T_U16) *o16 = pfk_sat_u16_f(sum * scale);
        else *of = sum * scale;
        return;
    }
    /* partial cells at the right/bottom edge */
    int32_t count = 0, sw = j->sw * cn;
    int32_t isum = 0;
    float fsum = 0.f;
    for (int32_t ry = 0; ry < fy && ry < avail; ry++) {
        const PF_GLOBAL uint8_t *r = pfk_rz_src_row(j, plane, sy0 + ry);
        for (int32_t sx = 0; sx < fx * cn && i + sx < sw; sx += cn) {
            if (t == PFK_RZ_T_U8) isum += r[i + sx];
            else fsum = fsum + pfk_rz_ld(j, r, i + sx);
            count++;
        }
    }
    if (t == PFK_RZ_T_U8) *o8 = count ? pfk_sat_u8_f((float)isum / (float)count) : (uint8_t)0;
    else if (t == PFK_RZ_T_U16) *o16 = count ? pfk_sat_u16_f(fsum / (float)count) : (uint16_t)0;
    else *of = count ? fsum / (float)count : 0.f;
}

/* ------------------------------------------------------ public entries */

/* Channel c of output pixel (x, y) of a u8 job (HWC or CHW source); the
 * fused preprocess calls it per output pixel. (x, y) must lie inside
 * the job's output. */
PF_HD uint8_t pfk_resize_u8_value(const PF_GLOBAL pfk_resize_job *j, int32_t x, int32_t y, int32_t c) {
    int32_t plane = j->planes > 1 ? c : 0;
    int32_t ch = j->planes > 1 ? 0 : c;
    int32_t e = x * j->cn + ch;
    switch (j->kind) {
    case PFK_RZ_COPY: return pfk_rz_src_row(j, plane, y)[e];
    case PFK_RZ_NN: return pfk_rz_src_row(j, plane, j->nn_y[y])[j->nn_x[x] * j->cn + ch];
    case PFK_RZ_AREA_FAST: {
        uint8_t o8 = 0;
        uint16_t o16 = 0;
        float of = 0.f;
        pfk_rz_area_fast(j, plane, y, e, &o8, &o16, &of);
        return o8;
    }
    default:
        if (j->vk == PFK_V_U8_LINEAR) return pfk_rz_linear_u8(j, plane, x, y, ch);
        if (j->hk == PFK_H_F32) return pfk_sat_u8_f(pfk_rz_sep_f(j, plane, y, e));
        return pfk_rz_sep_u8(j, plane, y, e);
    }
}

/* The cheap kinds of a u8 HWC job: COPY, NN and the two-tap LINEAR. */
PF_HD int pfk_resize_u8_cheap(const PF_GLOBAL pfk_resize_job *j) {
    return j->type == PFK_RZ_T_U8 && j->planes == 1 &&
           (j->kind == PFK_RZ_COPY || j->kind == PFK_RZ_NN || (j->kind == PFK_RZ_SEP && j->vk == PFK_V_U8_LINEAR));
}

/* pfk_resize_u8_pixel for a job with pfk_resize_u8_cheap (only those
 * kinds are compiled in: a kernel specialised for them stays small). */
PF_HD void pfk_resize_u8_pixel_cheap(const PF_GLOBAL pfk_resize_job *j, int32_t x, int32_t y, uint8_t out[4]) {
    int32_t cn = j->cn < 4 ? j->cn : 4; /* jobs have 1..4 channels; the bound is for the compiler */
    if (j->kind == PFK_RZ_COPY || j->kind == PFK_RZ_NN) {
        int32_t sx = j->kind == PFK_RZ_NN ? j->nn_x[x] : x, sy = j->kind == PFK_RZ_NN ? j->nn_y[y] : y;
        const PF_GLOBAL uint8_t *p = pfk_rz_src_row(j, 0, sy) + sx * cn;
        for (int32_t c = 0; c < cn; c++) out[c] = p[c];
        return;
    }
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)x * 2, *sy = j->v_idx + (ptrdiff_t)y * 2;
    const PF_GLOBAL int16_t *w = j->h_icoef + (ptrdiff_t)x * 2, *bt = j->v_icoef + (ptrdiff_t)y * 2;
    int16_t w0 = w[0], w1 = w[1], b0 = bt[0], b1 = bt[1];
    int32_t o0 = ix[0] * cn, o1 = ix[1] * cn;
    const PF_GLOBAL uint8_t *r0 = pfk_rz_src_row(j, 0, sy[0]), *r1 = pfk_rz_src_row(j, 0, sy[1]);
    for (int32_t c = 0; c < cn; c++)
        out[c] = pfk_v_u8_linear16(pfk_rz_lin16_v(r0[o0 + c], r0[o1 + c], w0, w1),
                                   pfk_rz_lin16_v(r1[o0 + c], r1[o1 + c], w0, w1), b0, b1);
}

/* All j->cn channels of output pixel (x, y) of a u8 HWC job (planes 1)
 * into out[0 .. cn): the tap indices, weights and row addresses are
 * loaded once for the pixel instead of once per channel, and no element
 * index is divided by cn. Every channel goes through the same integer
 * steps as pfk_resize_u8_value (same bits); the float kinds (non-integer
 * AREA on u8) and AREA_FAST keep the per-channel path, they are rare in
 * preprocessing. (x, y) must lie inside the job's output. */
PF_HD void pfk_resize_u8_pixel(const PF_GLOBAL pfk_resize_job *j, int32_t x, int32_t y, uint8_t out[4]) {
    int32_t cn = j->cn < 4 ? j->cn : 4; /* jobs have 1..4 channels; the bound is for the compiler */
    if (pfk_resize_u8_cheap(j)) {
        pfk_resize_u8_pixel_cheap(j, x, y, out);
        return;
    }
    if (j->planes > 1 || j->kind == PFK_RZ_AREA_FAST || (j->kind == PFK_RZ_SEP && j->hk == PFK_H_F32)) {
        for (int32_t c = 0; c < cn; c++) out[c] = pfk_resize_u8_value(j, x, y, c);
        return;
    }
    /* integer SEP kinds: the horizontal sums of every channel per source
     * row, then the vertical step per channel */
    const PF_GLOBAL int32_t *ix = j->h_idx + (ptrdiff_t)x * j->kh;
    const PF_GLOBAL int32_t *sy = j->v_idx + (ptrdiff_t)y * j->kv;
    ptrdiff_t t = (ptrdiff_t)y * j->kv;
    if (j->vk == PFK_V_AA_U8) {
        const PF_GLOBAL int32_t *w = j->h_acoef + (ptrdiff_t)x * j->kh;
        int32_t vs[4] = {1 << (PFK_AA_BITS - 1), 1 << (PFK_AA_BITS - 1), 1 << (PFK_AA_BITS - 1),
                         1 << (PFK_AA_BITS - 1)};
        for (int32_t k = 0; k < j->kv; k++) {
            const PF_GLOBAL uint8_t *row = pfk_rz_src_row(j, 0, sy[k]);
            int32_t hs[4] = {1 << (PFK_AA_BITS - 1), 1 << (PFK_AA_BITS - 1), 1 << (PFK_AA_BITS - 1),
                             1 << (PFK_AA_BITS - 1)};
            for (int32_t q = 0; q < j->kh; q++) {
                const PF_GLOBAL uint8_t *p = row + ix[q] * cn;
                for (int32_t c = 0; c < cn; c++) hs[c] += p[c] * w[q];
            }
            int32_t bv = j->v_acoef[t + k];
            for (int32_t c = 0; c < cn; c++) vs[c] += pfk_aa_clip8(hs[c]) * bv;
        }
        for (int32_t c = 0; c < cn; c++) out[c] = pfk_aa_clip8(vs[c]);
        return;
    }
    const PF_GLOBAL int16_t *w = j->h_icoef + (ptrdiff_t)x * j->kh;
    if (j->vk == PFK_V_TV_U8) {
        int32_t hh = 1 << (j->h_shift - 1), vh = 1 << (j->v_shift - 1);
        int32_t vs[4] = {vh, vh, vh, vh};
        for (int32_t k = 0; k < j->kv; k++) {
            const PF_GLOBAL uint8_t *row = pfk_rz_src_row(j, 0, sy[k]);
            int32_t hs[4] = {hh, hh, hh, hh};
            for (int32_t q = 0; q < j->kh; q++) {
                const PF_GLOBAL uint8_t *p = row + ix[q] * cn;
                for (int32_t c = 0; c < cn; c++) hs[c] += p[c] * w[q];
            }
            int32_t bv = j->v_icoef[t + k];
            for (int32_t c = 0; c < cn; c++) vs[c] += pfk_tv_u8(hs[c], j->h_shift) * bv;
        }
        for (int32_t c = 0; c < cn; c++) out[c] = pfk_tv_u8(vs[c], j->v_shift);
        return;
    }
    int32_t cub = j->vk == PFK_V_U8_CUBIC; /* kv == 4 */
    int32_t vs[4] = {0, 0, 0, 0}, h4[4][4];
    for (int32_t k = 0; k < j->kv; k++) {
        const PF_GLOBAL uint8_t *row = pfk_rz_src_row(j, 0, sy[k]);
        int32_t hs[4] = {0, 0, 0, 0};
        for (int32_t q = 0; q < j->kh; q++) {
            const PF_GLOBAL uint8_t *p = row + ix[q] * cn;
            for (int32_t c = 0; c < cn; c++) hs[c] += p[c] * w[q];
        }
        int32_t bv = j->v_icoef[t + k];
        for (int32_t c = 0; c < cn; c++) {
            vs[c] += hs[c] * bv;
            if (cub && k < 4) h4[k][c] = hs[c];
        }
    }
    for (int32_t c = 0; c < cn; c++) {
        if (cub && x * cn + c < j->vsplit) { /* OpenCV's float lanes */
            const PF_GLOBAL float *b = j->v_fcoef + t;
            out[c] = pfk_v_u8_cubic_float(h4[0][c], h4[1][c], h4[2][c], h4[3][c], b[0], b[1], b[2], b[3]);
        } else {
            out[c] = pfk_v_u8_fix22(vs[c]);
        }
    }
}

/* Stores element e of output row y of plane `plane` (any dtype). */
PF_HD void pfk_rz_store_elem(const PF_GLOBAL pfk_resize_job *j, int32_t plane, int32_t y, int32_t e,
                             PF_GLOBAL uint8_t *drow) {
    int32_t t = j->type;
    uint8_t o8 = 0;
    uint16_t o16 = 0;
    float of = 0.f;
    if (j->kind == PFK_RZ_COPY || j->kind == PFK_RZ_NN) {
        int32_t sy = j->kind == PFK_RZ_NN ? j->nn_y[y] : y;
        int32_t dx = e / j->cn, c = e - dx * j->cn;
        int32_t se = (j->kind == PFK_RZ_NN ? j->nn_x[dx] : dx) * j->cn + c;
        int32_t es = t == PFK_RZ_T_U8 ? 1 : t == PFK_RZ_T_U16 ? 2 : 4;
        const PF_GLOBAL uint8_t *s = pfk_rz_src_row(j, plane, sy) + (ptrdiff_t)se * es;
        PF_GLOBAL uint8_t *d = drow + (ptrdiff_t)e * es;
        for (int32_t b = 0; b < es; b++) d[b] = s[b]; /* bit copy (keeps NaN payloads) */
        return;
    }
    if (j->kind == PFK_RZ_AREA_FAST) {
        pfk_rz_area_fast(j, plane, y, e, &o8, &o16, &of);
    } else if (j->hk == PFK_H_F32) {
        of = pfk_rz_sep_f(j, plane, y, e);
        if (t == PFK_RZ_T_U8) o8 = pfk_sat_u8_f(of);
        else if (t == PFK_RZ_T_U16) o16 = pfk_sat_u16_f(of);
    } else {
        o8 = pfk_rz_sep_u8(j, plane, y, e);
    }
    if (t == PFK_RZ_T_U8) {
        drow[e] = o8;
    } else if (t == PFK_RZ_T_U16) {
        PF_GLOBAL uint8_t *d = drow + (ptrdiff_t)e * 2;
        if (j->dst_aligned) *(PF_GLOBAL uint16_t *)(PF_GLOBAL void *)d = o16;
        else pfk_stu_u16(d, o16);
    } else {
        PF_GLOBAL uint8_t *d = drow + (ptrdiff_t)e * 4;
        if (j->dst_aligned) *(PF_GLOBAL float *)(PF_GLOBAL void *)d = of;
        else pfk_stu_f32(d, of);
    }
}

/* Computes and stores every channel of output pixel (x, y) of sample n;
 * returns at once outside that sample's output. */
PF_HD void pfk_resize_at(const PF_GLOBAL pfk_resize_batch *b, int32_t n, int32_t x, int32_t y) {
    const PF_GLOBAL pfk_resize_job *j = &b->jobs[n];
    if (x < 0 || y < 0 || x >= j->dw || y >= j->dh) return;
    if (j->type == PFK_RZ_T_U8 && j->planes == 1 && j->cn <= 4 &&
        (j->kind == PFK_RZ_SEP ? j->hk != PFK_H_F32 : j->kind != PFK_RZ_AREA_FAST)) {
        /* u8 HWC: taps and weights once for all channels */
        uint8_t px[4];
        pfk_resize_u8_pixel(j, x, y, px);
        PF_GLOBAL uint8_t *d = j->dst + (ptrdiff_t)y * j->dst_row + (ptrdiff_t)x * j->cn;
        for (int32_t c = 0; c < j->cn; c++) d[c] = px[c];
        return;
    }
    if (j->kind == PFK_RZ_SEP && j->vk == PFK_V_U8_LINEAR) { /* the common case, without divisions */
        for (int32_t p = 0; p < j->planes; p++) {
            PF_GLOBAL uint8_t *d =
                j->dst + (ptrdiff_t)p * j->dst_plane + (ptrdiff_t)y * j->dst_row + (ptrdiff_t)x * j->cn;
            for (int32_t c = 0; c < j->cn; c++) d[c] = pfk_rz_linear_u8(j, p, x, y, c);
        }
        return;
    }
    for (int32_t p = 0; p < j->planes; p++) {
        PF_GLOBAL uint8_t *drow = j->dst + (ptrdiff_t)p * j->dst_plane + (ptrdiff_t)y * j->dst_row;
        for (int32_t c = 0; c < j->cn; c++) pfk_rz_store_elem(j, p, y, x * j->cn + c, drow);
    }
}

#endif
