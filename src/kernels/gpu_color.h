/* GPU kernel body of pf_cvt_color: one thread per pixel (x, y) of sample
 * n, through the same per-pixel functions as the CPU reference
 * (src/kernels/color_math.h; src/ref/color_ref.c is the specification),
 * so every output has the CPU path's bits. Channel swaps and gray -> RGB
 * move element bytes, whatever the dtype. In place (the same view, same
 * channel count) is safe: each thread reads its pixel before writing it. */
#ifndef PF_KERNELS_GPU_COLOR_H
#define PF_KERNELS_GPU_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "kernels/color_math.h"
#include "pixflow/core.h"

typedef struct pfk_color_job {
    const PF_GLOBAL uint8_t *src;
    PF_GLOBAL uint8_t *dst;
    ptrdiff_t src_stride, dst_stride;
    int32_t width, height;
    int32_t scn, dcn;
    int32_t hsv_trunc_px; /* u8 HSV -> RGB: pixels x < this truncate (OpenCV's vector loop) */
} pfk_color_job;

typedef struct pfk_color_batch {
    int32_t kind;   /* PFK_COLOR_* */
    pf_dtype dtype; /* u8, u16 or f32, src and dst alike */
    int32_t bidx;   /* index of blue in the RGB-side pixel: 0 BGR, 2 RGB */
    int32_t swap;   /* RGB2RGB: dst 0 <- src 2 and back */
    int32_t hrange; /* HSV: u8 180 / 256 (forward FULL) / 255 (inverse FULL); f32 360 */
    float hscale;   /* HSV: forward hrange / 360 (f32), inverse 6 / hrange */
    int32_t esize;  /* bytes per element */
    uint32_t alpha; /* the dtype's opaque alpha (255, 65535, 1.0f) in its first esize bytes */
    const PF_GLOBAL int32_t *sdiv, *hdiv; /* u8 RGB -> HSV: OpenCV's division tables (256 each) */
    int32_t count;
    const PF_GLOBAL pfk_color_job *jobs;
} pfk_color_batch;

/* The opaque alpha as a T: its first sizeof(T) bytes (OpenCL: the low
 * bits, the same bytes on the little-endian devices the OpenCL backend
 * accepts; OpenCL C has no memcpy). */
#if defined(__OPENCL_C_VERSION__)
#define PFK_COLOR_ALPHA(c3, b, T) ((c3) = (T)(b)->alpha)
#else
#define PFK_COLOR_ALPHA(c3, b, T) memcpy(&(c3), &(b)->alpha, sizeof(c3))
#endif

/* Swaps, alpha and gray -> RGB move elements as opaque words of the
 * dtype's size (u8: 1, u16: 2, f32: 4 bytes), in registers. In place is
 * safe: every element is read before the first write. */
#define PFK_COLOR_MOVE(NAME, T)                                                                      \
    PF_HD void NAME(const PF_GLOBAL pfk_color_batch *b, const PF_GLOBAL pfk_color_job *j,             \
                    const PF_GLOBAL uint8_t *p8, PF_GLOBAL uint8_t *o8) {                             \
        const PF_GLOBAL T *p = (const PF_GLOBAL T *)(const PF_GLOBAL void *)p8;                      \
        PF_GLOBAL T *o = (PF_GLOBAL T *)(PF_GLOBAL void *)o8;                                        \
        T c0, c1, c2, c3;                                                                            \
        if (b->kind == PFK_COLOR_GRAY2RGB) {                                                         \
            c0 = c1 = c2 = p[0];                                                                     \
        } else {                                                                                     \
            int a = b->swap ? 2 : 0;                                                                 \
            c0 = p[a], c1 = p[1], c2 = p[a ^ 2];                                                     \
        }                                                                                            \
        if (j->scn == 4) c3 = p[3];                                                                  \
        else PFK_COLOR_ALPHA(c3, b, T);                                                              \
        o[0] = c0, o[1] = c1, o[2] = c2;                                                             \
        if (j->dcn == 4) o[3] = c3;                                                                  \
    }
PFK_COLOR_MOVE(pfk_color_move8, uint8_t)
PFK_COLOR_MOVE(pfk_color_move16, uint16_t)
PFK_COLOR_MOVE(pfk_color_move32, uint32_t)
#undef PFK_COLOR_MOVE

/* Gray and YCrCb <-> RGB of the integer dtypes: the same fixed-point
 * math (color_math.h) for u8 and u16 with the dtype's chroma offset and
 * maximum. The other kinds are HSV, u8 only as in OpenCV (pfk_color_u8). */
#define PFK_COLOR_YCC(NAME, T, GRAY, HALF, MAXV)                                                     \
    PF_HD void NAME(const PF_GLOBAL pfk_color_batch *b, const PF_GLOBAL pfk_color_job *j,             \
                    const PF_GLOBAL T *s, PF_GLOBAL T *o) {                                           \
        const int bi = b->bidx;                                                                      \
        int32_t r[3];                                                                                \
        if (b->kind == PFK_COLOR_RGB2GRAY) {                                                         \
            int32_t w[3];                                                                            \
            pfk_gray_weights_i(bi, w);                                                               \
            o[0] = GRAY(s[0], s[1], s[2], w);                                                        \
            return;                                                                                  \
        }                                                                                            \
        if (b->kind == PFK_COLOR_RGB2YCRCB) pfk_ycrcb_i(s[0], s[1], s[2], bi, HALF, MAXV, r);        \
        else pfk_ycrcb2rgb_i(s[0], s[1], s[2], bi, HALF, MAXV, r);                                   \
        o[0] = (T)r[0], o[1] = (T)r[1], o[2] = (T)r[2];                                              \
        if (j->dcn == 4) o[3] = (T)MAXV; /* YCrCb -> RGBA (YCrCb itself has 3) */                    \
    }
PFK_COLOR_YCC(pfk_color_ycc8, uint8_t, pfk_gray_u8, 128, 255)
PFK_COLOR_YCC(pfk_color_ycc16, uint16_t, pfk_gray_u16, 32768, 65535)
#undef PFK_COLOR_YCC

PF_HD void pfk_color_u8(const PF_GLOBAL pfk_color_batch *b, const PF_GLOBAL pfk_color_job *j,
                        const PF_GLOBAL uint8_t *s, PF_GLOBAL uint8_t *o, int32_t x) {
    const int bi = b->bidx;
    if (b->kind == PFK_COLOR_RGB2HSV) {
        int32_t bb = s[bi], g = s[1], rr = s[bi ^ 2];
        int32_t v = bb > g ? bb : g, mn = bb < g ? bb : g;
        v = v > rr ? v : rr;
        mn = mn < rr ? mn : rr;
        uint8_t hsv[3]; /* the math writes private memory (OpenCL has no generic pointers) */
        pfk_hsv_u8_core(bb, g, rr, b->sdiv[v], b->hdiv[v - mn], b->hrange, hsv);
        o[0] = hsv[0], o[1] = hsv[1], o[2] = hsv[2];
    } else if (b->kind == PFK_COLOR_HSV2RGB) {
        uint8_t bgr[3];
        pfk_hsv2rgb_u8(s[0], s[1], s[2], b->hscale, x < j->hsv_trunc_px, bgr);
        o[bi] = bgr[0], o[1] = bgr[1], o[bi ^ 2] = bgr[2];
        if (j->dcn == 4) o[3] = 255;
    } else {
        pfk_color_ycc8(b, j, s, o);
    }
}

PF_HD void pfk_color_f32(const PF_GLOBAL pfk_color_batch *b, const PF_GLOBAL pfk_color_job *j,
                         const PF_GLOBAL float *s, PF_GLOBAL float *o) {
    const int bi = b->bidx;
    float t[3];
    switch (b->kind) {
    case PFK_COLOR_RGB2GRAY: o[0] = pfk_gray_f32(s[0], s[1], s[2], bi); break;
    case PFK_COLOR_RGB2YCRCB: /* the math writes private memory, then o */
        pfk_ycrcb_f32(s[0], s[1], s[2], bi, t);
        o[0] = t[0], o[1] = t[1], o[2] = t[2];
        break;
    case PFK_COLOR_YCRCB2RGB:
        pfk_ycrcb2rgb_f32(s[0], s[1], s[2], bi, t);
        o[0] = t[0], o[1] = t[1], o[2] = t[2];
        if (j->dcn == 4) o[3] = 1.0f;
        break;
    case PFK_COLOR_RGB2HSV:
        pfk_hsv_f32(s[bi], s[1], s[bi ^ 2], b->hscale, t);
        o[0] = t[0], o[1] = t[1], o[2] = t[2];
        break;
    default: /* HSV2RGB */
        pfk_hsv2rgb_f32(s[0], s[1], s[2], b->hscale, t);
        o[bi] = t[0], o[1] = t[1], o[bi ^ 2] = t[2];
        if (j->dcn == 4) o[3] = 1.0f;
        break;
    }
}

PF_HD void pfk_color_at(const PF_GLOBAL pfk_color_batch *b, int32_t n, int32_t x, int32_t y) {
    const PF_GLOBAL pfk_color_job *j = &b->jobs[n];
    if (x >= j->width || y >= j->height) return;
    const PF_GLOBAL uint8_t *s = j->src + (ptrdiff_t)y * j->src_stride + (ptrdiff_t)x * j->scn * b->esize;
    PF_GLOBAL uint8_t *o = j->dst + (ptrdiff_t)y * j->dst_stride + (ptrdiff_t)x * j->dcn * b->esize;
    if (b->kind == PFK_COLOR_RGB2RGB || b->kind == PFK_COLOR_GRAY2RGB) {
        if (b->esize == 1) pfk_color_move8(b, j, s, o);
        else if (b->esize == 2) pfk_color_move16(b, j, s, o);
        else pfk_color_move32(b, j, s, o);
    }
    else if (b->dtype == PF_U8) pfk_color_u8(b, j, s, o, x);
    else if (b->dtype == PF_U16)
        pfk_color_ycc16(b, j, (const PF_GLOBAL uint16_t *)(const PF_GLOBAL void *)s,
                        (PF_GLOBAL uint16_t *)(PF_GLOBAL void *)o);
    else
        pfk_color_f32(b, j, (const PF_GLOBAL float *)(const PF_GLOBAL void *)s, (PF_GLOBAL float *)(PF_GLOBAL void *)o);
}

#endif
