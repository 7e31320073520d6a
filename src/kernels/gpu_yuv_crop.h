/*
 * GPU fused preprocess of 4:2:0 frames, first pass: each sample's crop
 * rectangle (widened to even edges, as the CPU's pf_preprocess_run_yuv
 * does) is decoded into packed u8 RGB/BGR (or copied Y for GRAY) in device
 * scratch, pixel by pixel with the reference's math (yuv_math.h: pixel
 * (x, y) reads Y(x, y) and the chroma pair (x/2, y/2) of the frame), so
 * the bytes equal pf_cvt_color_from_yuv's on the whole frame. The fused
 * preprocess kernel then reads that image like any source. Samples whose
 * sampler is cheap (no affine, NEAREST / LINEAR without antialias) skip
 * this pass: the preprocess converts each tap with pfk_yuv_fetch.
 */
#ifndef PF_KERNELS_GPU_YUV_CROP_H
#define PF_KERNELS_GPU_YUV_CROP_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/pf_hd.h"
#include "kernels/yuv_math.h"

typedef struct pfk_yuv_crop_job {
    int32_t kind;             /* pfk_yuv_frame */
    int32_t blue_first;       /* write B, G, R */
    int32_t swap_uv;          /* semi-planar chroma is V, U (NV21) */
    int32_t x0, y0, w, h;     /* the rectangle in the frame (x0, y0 even) */
    const PF_GLOBAL uint8_t *y;       /* frame planes (pixel 0, 0) and byte strides */
    const PF_GLOBAL uint8_t *c0, *c1; /* SP: uv, unused; PLANAR: u, v */
    ptrdiff_t ys, c0s, c1s;
    PF_GLOBAL uint8_t *out;   /* w x h x (3, or 1 for GRAY), packed rows of out_stride */
    ptrdiff_t out_stride;
    pfk_yuv_coeffs k;
} pfk_yuv_crop_job;

typedef struct pfk_yuv_crop_batch {
    int32_t count;
    const PF_GLOBAL pfk_yuv_crop_job *jobs;
} pfk_yuv_crop_batch;

/* Frame pixel (fx, fy) (inside the frame) as the CPU's conversion
 * writes it: out[0..2] in the job's channel order (R,G,B or B,G,R), or
 * out[0] = luma for GRAY. The fused preprocess also calls it at each tap
 * of its cheap samplers (on-the-fly conversion, no scratch pass). */
PF_HD void pfk_yuv_fetch(const PF_GLOBAL pfk_yuv_crop_job *j, int32_t fx, int32_t fy, uint8_t out[3]) {
    uint8_t luma = j->y[(ptrdiff_t)fy * j->ys + fx];
    if (j->kind == PFK_YUV_FRAME_GRAY) {
        out[0] = luma;
        return;
    }
    uint8_t u, v;
    int32_t cx = fx >> 1, cy = fy >> 1; /* fx, fy >= 0 */
    if (j->kind == PFK_YUV_FRAME_SP) {
        const PF_GLOBAL uint8_t *uv = j->c0 + (ptrdiff_t)cy * j->c0s + (ptrdiff_t)cx * 2;
        u = uv[j->swap_uv ? 1 : 0];
        v = uv[j->swap_uv ? 0 : 1];
    } else {
        u = j->c0[(ptrdiff_t)cy * j->c0s + cx];
        v = j->c1[(ptrdiff_t)cy * j->c1s + cx];
    }
    const pfk_yuv_coeffs k = j->k; /* a private copy: the math takes plain pointers (OpenCL: private) */
    pfk_yuv_chroma c = pfk_yuv_chroma_terms(&k, u, v);
    uint8_t rgb[3];
    pfk_yuv_decode(&k, &c, luma, rgb);
    out[0] = rgb[j->blue_first ? 2 : 0];
    out[1] = rgb[1];
    out[2] = rgb[j->blue_first ? 0 : 2];
}

/* Decodes pixel (x, y) of sample n's rectangle (nothing outside it). */
PF_HD void pfk_yuv_crop_at(const PF_GLOBAL pfk_yuv_crop_batch *b, int32_t n, int32_t x, int32_t y) {
    if (n >= b->count) return;
    const PF_GLOBAL pfk_yuv_crop_job *j = &b->jobs[n];
    if (x >= j->w || y >= j->h) return;
    uint8_t px[3];
    pfk_yuv_fetch(j, j->x0 + x, j->y0 + y, px);
    int32_t cn = j->kind == PFK_YUV_FRAME_GRAY ? 1 : 3;
    PF_GLOBAL uint8_t *o = j->out + (ptrdiff_t)y * j->out_stride + (ptrdiff_t)x * cn;
    for (int32_t c = 0; c < cn; c++) o[c] = px[c];
}

#endif
