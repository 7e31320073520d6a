/* GPU warp (pf_warp_affine / pf_warp_perspective): per-sample jobs and
 * the per-output-pixel body of the CUDA kernel, in plain C that also
 * compiles as CUDA C++ (tests run it on the CPU with an emulated arena).
 *
 * Every output pixel redoes exactly what the CPU reference does for it
 * (src/ref/warp_ref.c and kernels/warp_math.h): the fixed-point source
 * position (affine: the row origin X0/Y0 and the column terms adelta/bdelta,
 * each rounded from double; perspective: the block origin and the
 * per-pixel division in double), then the sampling with OpenCV's border
 * rules. The interpolation weights are the entries of the CPU's tables,
 * recomputed per pixel by the function that builds those tables
 * (pfk_warp_table_entry), so nothing has to be uploaded per launch. */
#ifndef PF_KERNELS_GPU_WARP_H
#define PF_KERNELS_GPU_WARP_H

#include <stddef.h>
#include <stdint.h>
#include "kernels/border_math.h"
#include "kernels/gpu_mem.h"
#include "kernels/warp_math.h"
#include "pixflow/core.h"


/* One sample. Pointers are device addresses (host addresses in tests). */
typedef struct pfk_warp_job {
    const PF_GLOBAL uint8_t *src; /* pixel (0, 0) of plane 0 */
    PF_GLOBAL uint8_t *dst;       /* pixel (0, 0) of plane 0; NULL when a fused op stores itself */
    ptrdiff_t src_row, src_plane; /* byte strides (any sign; plane: CHW only) */
    ptrdiff_t dst_row, dst_plane;
    int32_t src_w, src_h, dst_w, dst_h;
    int32_t cn;           /* interleaved channels per plane: HWC channels, CHW 1 */
    int32_t planes;       /* HWC 1, CHW channels */
    int32_t dtype;        /* PF_U8, PF_U16 or PF_F32 */
    int32_t esize;        /* bytes per element */
    int32_t interp;       /* PF_INTERP_NEAREST, LINEAR or CUBIC */
    int32_t border;       /* pf_border value or PF_BORDER_TRANSPARENT */
    int32_t perspective;  /* 0 affine (m[0..5]), 1 perspective (m[0..8]) */
    int32_t persp_bw;     /* perspective: OpenCV's block width (pfk_persp_block_w) */
    double m[9];          /* dst -> src */
    union {               /* border value per channel, saturated to dtype */
        uint8_t u8[4];
        uint16_t u16[4];
        float f32[4];
    } cval;
} pfk_warp_job;

typedef struct pfk_warp_batch {
    int32_t count;
    const PF_GLOBAL pfk_warp_job *jobs;
} pfk_warp_batch;

/* ---------------------------------------------------------- positions */

/* Source position of output pixel (x, y) for interp (j->interp, or the
 * same value as a constant): int16 column/row and, for
 * LINEAR/CUBIC, the 1/32-pixel table index (kernels/warp_math.h). The
 * CPU computes the affine row origin once per row and the column terms
 * once per column; both are pure functions of (matrix, x, y), so
 * recomputing them per pixel gives the same integers. Perspective chunks
 * on the CPU start at multiples of the block width, so the origin column
 * of pixel x is x rounded down to one. */
PF_HD void pfk_warp_position(const PF_GLOBAL pfk_warp_job *j, int interp, int32_t x, int32_t y, int32_t *sx,
                             int32_t *sy, int32_t *e) {
    int nearest = interp == PF_INTERP_NEAREST;
    int16_t ix, iy;
    uint16_t a;
    if (j->perspective) {
        int32_t bx = x / j->persp_bw * j->persp_bw;
        double m[9], o[3]; /* a private copy: the math takes plain pointers (OpenCL: private) */
        for (int k = 0; k < 9; k++) m[k] = j->m[k];
        pfk_persp_origin(m, bx, y, o);
        pfk_persp_px(m, o, x - bx, nearest, &ix, &iy, &a);
    } else {
        int32_t X0 = pfk_affine_row(j->m[1], j->m[2], y, nearest);
        int32_t Y0 = pfk_affine_row(j->m[4], j->m[5], y, nearest);
        pfk_affine_px(X0, Y0, pfk_affine_col(j->m[0], x), pfk_affine_col(j->m[3], x), nearest, &ix, &iy, &a);
    }
    *sx = ix;
    *sy = iy;
    *e = a & (PFK_INTER_TAB2 - 1);
}

/* The weights of table entry e: 2x2 (LINEAR) or 4x4 (CUBIC), integer
 * (u8) and float (u16/f32), the same entries as pfi_warp_tab_i/_f. */
PF_HD void pfk_warp_weights(int interp, int32_t e, float wf[16], int16_t wi[16]) {
    if (interp != PF_INTERP_NEAREST) pfk_warp_table_entry(interp == PF_INTERP_CUBIC, e, wf, wi);
}

/* ------------------------------------------------------------ sampling */

PF_HD int32_t pfk_warp_bidx(const PF_GLOBAL pfk_warp_job *j, int32_t p, int32_t len) {
    return pfk_border_index(p, len, j->border == PF_BORDER_TRANSPARENT ? PF_BORDER_REFLECT_101 : j->border);
}

/* Source column/row of a tap at (sx, sy) after the border rule: as they
 * are when all the pixel's taps are inside, else pfk_warp_bidx's
 * (negative: not read, the border value instead). */
PF_HD void pfk_warp_tap_pos(const PF_GLOBAL pfk_warp_job *j, int inside, int32_t sx, int32_t sy, int32_t *bx,
                            int32_t *by) {
    *bx = inside ? sx : pfk_warp_bidx(j, sx, j->src_w);
    *by = inside ? sy : pfk_warp_bidx(j, sy, j->src_h);
}

/* Element c of source pixel (bx, by) of `plane`, as float (u16/f32) or
 * integer (u8); bx or by < 0 (outside under CONSTANT) gives the border
 * value of channel ch. */
PF_HD float pfk_warp_tap_f(const PF_GLOBAL pfk_warp_job *j, const PF_GLOBAL uint8_t *plane, int32_t bx, int32_t by,
                           int32_t c, int32_t ch) {
    if (bx < 0 || by < 0) return j->dtype == PF_U16 ? (float)j->cval.u16[ch] : j->cval.f32[ch];
    const PF_GLOBAL uint8_t *p = plane + (ptrdiff_t)by * j->src_row + ((ptrdiff_t)bx * j->cn + c) * j->esize;
    return j->dtype == PF_U16 ? (float)pfk_ld_u16(p) : pfk_ld_f32(p);
}

PF_HD int32_t pfk_warp_tap_i(const PF_GLOBAL pfk_warp_job *j, const PF_GLOBAL uint8_t *plane, int32_t bx, int32_t by,
                             int32_t c, int32_t ch) {
    if (bx < 0 || by < 0) return j->cval.u8[ch];
    return plane[(ptrdiff_t)by * j->src_row + (ptrdiff_t)bx * j->cn + c];
}

/* Which rule samples the pixel at integer position (sx, sy): the
 * reference's classification (nearest_row / linear_taps / cubic_row). */
enum { PFK_WARP_LEAVE = 0, PFK_WARP_CVAL, PFK_WARP_INSIDE, PFK_WARP_BORDER };

PF_HD int pfk_warp_class(const PF_GLOBAL pfk_warp_job *j, int interp, int32_t sx, int32_t sy) {
    int32_t w = j->src_w, h = j->src_h;
    /* (not "constant": an address space in OpenCL C, which compiles this too) */
    int transparent = j->border == PF_BORDER_TRANSPARENT, cborder = j->border == PF_BORDER_CONSTANT;
    if (interp == PF_INTERP_NEAREST) {
        if ((uint32_t)sx < (uint32_t)w && (uint32_t)sy < (uint32_t)h) return PFK_WARP_INSIDE;
        return transparent ? PFK_WARP_LEAVE : PFK_WARP_BORDER;
    }
    if (interp == PF_INTERP_LINEAR) {
        if ((uint32_t)sx < (uint32_t)(w - 1) && (uint32_t)sy < (uint32_t)(h - 1)) return PFK_WARP_INSIDE;
        if (transparent) return PFK_WARP_LEAVE;
        if (cborder && (sx >= w || sx + 1 < 0 || sy >= h || sy + 1 < 0)) return PFK_WARP_CVAL;
        return PFK_WARP_BORDER;
    }
    int32_t x0 = sx - 1, y0 = sy - 1;
    if ((uint32_t)x0 < (uint32_t)(w > 3 ? w - 3 : 0) && (uint32_t)y0 < (uint32_t)(h > 3 ? h - 3 : 0))
        return PFK_WARP_INSIDE;
    if (transparent && ((uint32_t)sx >= (uint32_t)w || (uint32_t)sy >= (uint32_t)h)) return PFK_WARP_LEAVE;
    if (cborder && (x0 >= w || x0 + 4 <= 0 || y0 >= h || y0 + 4 <= 0)) return PFK_WARP_CVAL;
    return PFK_WARP_BORDER;
}

/* u8 element c (border channel ch) of the output pixel sampled at
 * (sx, sy) with weights wi, for a pixel of class cls != LEAVE. */
PF_HD uint8_t pfk_warp_elem_u8(const PF_GLOBAL pfk_warp_job *j, int interp, const PF_GLOBAL uint8_t *plane, int cls,
                               int32_t sx, int32_t sy, const int16_t *wi, int32_t c, int32_t ch) {
    if (cls == PFK_WARP_CVAL) return j->cval.u8[ch];
    int inside = cls == PFK_WARP_INSIDE;
    if (interp == PF_INTERP_NEAREST) {
        int32_t bx, by;
        pfk_warp_tap_pos(j, inside, sx, sy, &bx, &by);
        return (uint8_t)pfk_warp_tap_i(j, plane, bx, by, c, ch);
    }
    if (interp == PF_INTERP_LINEAR) {
        int32_t bx0, by0, bx1, by1;
        pfk_warp_tap_pos(j, inside, sx, sy, &bx0, &by0);
        pfk_warp_tap_pos(j, inside, sx + 1, sy + 1, &bx1, &by1);
        int32_t sum = pfk_warp_tap_i(j, plane, bx0, by0, c, ch) * wi[0] +
                      pfk_warp_tap_i(j, plane, bx1, by0, c, ch) * wi[1] +
                      pfk_warp_tap_i(j, plane, bx0, by1, c, ch) * wi[2] +
                      pfk_warp_tap_i(j, plane, bx1, by1, c, ch) * wi[3];
        return pfk_warp_cast_u8(sum);
    }
    int32_t x0 = sx - 1, y0 = sy - 1, sum = 0;
    if (inside) {
        for (int r = 0; r < 4; r++)
            for (int k = 0; k < 4; k++) sum += pfk_warp_tap_i(j, plane, x0 + k, y0 + r, c, ch) * wi[4 * r + k];
        return pfk_warp_cast_u8(sum);
    }
    /* border: start from the border value, add (tap - value) * weight for
     * the taps the border rule keeps (OpenCV's remapBicubic) */
    int32_t cv = j->cval.u8[ch];
    sum = cv * PFK_REMAP_COEF_ONE;
    for (int r = 0; r < 4; r++) {
        int32_t by = pfk_warp_bidx(j, y0 + r, j->src_h);
        if (by < 0) continue;
        for (int k = 0; k < 4; k++) {
            int32_t bx = pfk_warp_bidx(j, x0 + k, j->src_w);
            if (bx >= 0) sum += (pfk_warp_tap_i(j, plane, bx, by, c, ch) - cv) * wi[4 * r + k];
        }
    }
    return pfk_warp_cast_u8(sum);
}

/* u16/f32 element as float (u16 values are exact in float; the caller
 * saturates u16 results as the reference's store does). */
PF_HD float pfk_warp_elem_f(const PF_GLOBAL pfk_warp_job *j, int interp, const PF_GLOBAL uint8_t *plane, int cls,
                            int32_t sx, int32_t sy, const float *wf, int32_t c, int32_t ch) {
    if (cls == PFK_WARP_CVAL) return pfk_warp_tap_f(j, plane, -1, -1, c, ch);
    int inside = cls == PFK_WARP_INSIDE;
    if (interp == PF_INTERP_NEAREST) {
        int32_t bx, by;
        pfk_warp_tap_pos(j, inside, sx, sy, &bx, &by);
        return pfk_warp_tap_f(j, plane, bx, by, c, ch);
    }
    if (interp == PF_INTERP_LINEAR) {
        int32_t bx0, by0, bx1, by1;
        pfk_warp_tap_pos(j, inside, sx, sy, &bx0, &by0);
        pfk_warp_tap_pos(j, inside, sx + 1, sy + 1, &bx1, &by1);
        return pfk_warp_tap_f(j, plane, bx0, by0, c, ch) * wf[0] + pfk_warp_tap_f(j, plane, bx1, by0, c, ch) * wf[1] +
               pfk_warp_tap_f(j, plane, bx0, by1, c, ch) * wf[2] + pfk_warp_tap_f(j, plane, bx1, by1, c, ch) * wf[3];
    }
    int32_t x0 = sx - 1, y0 = sy - 1;
    if (inside) {
        float sum = 0;
        for (int r = 0; r < 4; r++) {
            /* each row summed left to right, then added to the running sum */
            float row = pfk_warp_tap_f(j, plane, x0, y0 + r, c, ch) * wf[4 * r] +
                        pfk_warp_tap_f(j, plane, x0 + 1, y0 + r, c, ch) * wf[4 * r + 1] +
                        pfk_warp_tap_f(j, plane, x0 + 2, y0 + r, c, ch) * wf[4 * r + 2] +
                        pfk_warp_tap_f(j, plane, x0 + 3, y0 + r, c, ch) * wf[4 * r + 3];
            sum = r == 0 ? row : sum + row;
        }
        return sum;
    }
    float cv = pfk_warp_tap_f(j, plane, -1, -1, c, ch), sum = cv * 1.f;
    for (int r = 0; r < 4; r++) {
        int32_t by = pfk_warp_bidx(j, y0 + r, j->src_h);
        if (by < 0) continue;
        for (int k = 0; k < 4; k++) {
            int32_t bx = pfk_warp_bidx(j, x0 + k, j->src_w);
            if (bx >= 0) sum += (pfk_warp_tap_f(j, plane, bx, by, c, ch) - cv) * wf[4 * r + k];
        }
    }
    return sum;
}

/* ------------------------------------------------------ entry points */

/* Channels [c0, c0 + nc) of output pixel (x, y) of a u8 HWC job into
 * out[0 .. nc), for one interpolation (a constant after inlining). 0 when
 * TRANSPARENT leaves the pixel untouched (out not written). */
PF_HD int pfk_warp_u8_channels(const PF_GLOBAL pfk_warp_job *j, int interp, int32_t x, int32_t y, int32_t c0,
                               int32_t nc, uint8_t *out) {
    int32_t sx, sy, e;
    float wf[16];
    int16_t wi[16];
    pfk_warp_position(j, interp, x, y, &sx, &sy, &e);
    int cls = pfk_warp_class(j, interp, sx, sy);
    if (cls == PFK_WARP_LEAVE) return 0;
    if (cls != PFK_WARP_CVAL) pfk_warp_weights(interp, e, wf, wi);
    for (int32_t k = 0; k < nc; k++) out[k] = pfk_warp_elem_u8(j, interp, j->src, cls, sx, sy, wi, c0 + k, c0 + k);
    return 1;
}

PF_HD int pfk_warp_u8_channels_any(const PF_GLOBAL pfk_warp_job *j, int32_t x, int32_t y, int32_t c0, int32_t nc,
                                   uint8_t *out) {
    if (j->interp == PF_INTERP_NEAREST) return pfk_warp_u8_channels(j, PF_INTERP_NEAREST, x, y, c0, nc, out);
    if (j->interp == PF_INTERP_LINEAR) return pfk_warp_u8_channels(j, PF_INTERP_LINEAR, x, y, c0, nc, out);
    return pfk_warp_u8_channels(j, PF_INTERP_CUBIC, x, y, c0, nc, out);
}

/* Channel c of output pixel (x, y) of a u8 HWC job (the fused
 * preprocess's warp stage). With a CONSTANT border (the intended use)
 * every pixel has a value, the border value where OpenCV writes it; under
 * TRANSPARENT the pixels OpenCV leaves untouched give 0 (a fused op that
 * needs them must use pfk_warp_u8_pixel). */
PF_HD uint8_t pfk_warp_u8_value(const PF_GLOBAL pfk_warp_job *j, int32_t x, int32_t y, int32_t c) {
    uint8_t v = 0;
    pfk_warp_u8_channels_any(j, x, y, c, 1, &v);
    return v;
}

/* All j->cn channels of output pixel (x, y) of a u8 HWC job at once (one
 * position and one set of weights for the pixel): 1 with out[0 .. cn)
 * filled, 0 where TRANSPARENT leaves the pixel untouched. */
PF_HD int pfk_warp_u8_pixel(const PF_GLOBAL pfk_warp_job *j, int32_t x, int32_t y, uint8_t out[4]) {
    return pfk_warp_u8_channels_any(j, x, y, 0, j->cn, out);
}

/* Every channel of output pixel (x, y) of job j, for one interpolation
 * and dtype class. The callers pass constants, so after inlining each
 * combination is its own straight-line code (LINEAR: four weights in
 * registers, no per-pixel branching on the options). */
PF_HD void pfk_warp_store(const PF_GLOBAL pfk_warp_job *j, int interp, int is_u8, int32_t x, int32_t y) {
    int32_t sx, sy, e;
    float wf[16];
    int16_t wi[16];
    pfk_warp_position(j, interp, x, y, &sx, &sy, &e);
    int cls = pfk_warp_class(j, interp, sx, sy);
    if (cls == PFK_WARP_LEAVE) return;
    if (cls != PFK_WARP_CVAL) pfk_warp_weights(interp, e, wf, wi);
    for (int32_t p = 0; p < j->planes; p++) {
        const PF_GLOBAL uint8_t *plane = j->src + (ptrdiff_t)p * j->src_plane;
        PF_GLOBAL uint8_t *out = j->dst + (ptrdiff_t)p * j->dst_plane + (ptrdiff_t)y * j->dst_row +
                       (ptrdiff_t)x * j->cn * j->esize;
        for (int32_t c = 0; c < j->cn; c++) {
            int32_t ch = j->planes > 1 ? p : c;
            if (is_u8) {
                out[c] = pfk_warp_elem_u8(j, interp, plane, cls, sx, sy, wi, c, ch);
            } else {
                float v = pfk_warp_elem_f(j, interp, plane, cls, sx, sy, wf, c, ch);
                if (j->dtype == PF_U16) pfk_st_u16(out + 2 * c, pfk_sat_u16_f(v));
                else pfk_st_f32(out + 4 * c, v);
            }
        }
    }
}

/* Computes and stores every channel of output pixel (x, y) of sample n
 * when the whole batch has interpolation `interp` and is u8 (is_u8 1) or
 * u16/f32 (0): the body of the launcher's specialised kernels. Nothing
 * outside that sample's output, nor where TRANSPARENT leaves the
 * destination untouched. */
PF_HD void pfk_warp_at_as(const PF_GLOBAL pfk_warp_batch *b, int32_t n, int32_t x, int32_t y, int interp, int is_u8) {
    const PF_GLOBAL pfk_warp_job *j = &b->jobs[n];
    if (x >= j->dst_w || y >= j->dst_h) return;
    pfk_warp_store(j, interp, is_u8, x, y);
}

/* The same for any batch: the options are read from the job. */
PF_HD void pfk_warp_at(const PF_GLOBAL pfk_warp_batch *b, int32_t n, int32_t x, int32_t y) {
    const PF_GLOBAL pfk_warp_job *j = &b->jobs[n];
    int is_u8 = j->dtype == PF_U8;
    if (j->interp == PF_INTERP_NEAREST) {
        if (is_u8) pfk_warp_at_as(b, n, x, y, PF_INTERP_NEAREST, 1);
        else pfk_warp_at_as(b, n, x, y, PF_INTERP_NEAREST, 0);
    } else if (j->interp == PF_INTERP_LINEAR) {
        if (is_u8) pfk_warp_at_as(b, n, x, y, PF_INTERP_LINEAR, 1);
        else pfk_warp_at_as(b, n, x, y, PF_INTERP_LINEAR, 0);
    } else {
        if (is_u8) pfk_warp_at_as(b, n, x, y, PF_INTERP_CUBIC, 1);
        else pfk_warp_at_as(b, n, x, y, PF_INTERP_CUBIC, 0);
    }
}

#endif
