/* GPU kernel body of pf_cvt_color_from_yuv: one thread per output pixel
 * (x, y) of sample n, with the reference's fixed-point math
 * (src/kernels/yuv_math.h), so each byte equals the CPU result. The chroma
 * pair of the pixel's 2x2 block is read by each of its four threads (it
 * stays in L1/L2; recomputing its terms costs three multiplies). */
#ifndef PF_KERNELS_GPU_YUV_H
#define PF_KERNELS_GPU_YUV_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/yuv_math.h"

/* One frame -> one RGB/BGR(A)/GRAY image. Chroma sample (i, j) of the
 * frame is u[j * u_stride + i * c_step] (v likewise): c_step is 2 for
 * NV12/NV21 (u, v point into the interleaved plane) and 1 for I420/YV12. */
typedef struct pfk_yuv_job {
    const PF_GLOBAL uint8_t *y, *u, *v;
    ptrdiff_t y_stride, u_stride, v_stride;
    int32_t c_step;
    int32_t width, height; /* of the frame and of dst */
    PF_GLOBAL uint8_t *dst;
    ptrdiff_t dst_stride;
} pfk_yuv_job;

typedef struct pfk_yuv_batch {
    pfk_yuv_coeffs k;
    int32_t cn;         /* dst channels: 1 (GRAY: copies Y), 3 or 4 (alpha 255) */
    int32_t blue_first; /* BGR(A) */
    int32_t count;
    const PF_GLOBAL pfk_yuv_job *jobs;
} pfk_yuv_batch;

PF_HD void pfk_yuv_at(const PF_GLOBAL pfk_yuv_batch *b, int32_t n, int32_t x, int32_t y) {
    const PF_GLOBAL pfk_yuv_job *j = &b->jobs[n];
    if (x >= j->width || y >= j->height) return;
    uint8_t luma = j->y[(ptrdiff_t)y * j->y_stride + x];
    PF_GLOBAL uint8_t *o = j->dst + (ptrdiff_t)y * j->dst_stride + (ptrdiff_t)x * b->cn;
    if (b->cn == 1) {
        o[0] = luma;
        return;
    }
    ptrdiff_t ci = (ptrdiff_t)(x >> 1) * j->c_step, cj = y >> 1;
    const pfk_yuv_coeffs k = b->k; /* a private copy: the math takes plain pointers (OpenCL: private) */
    pfk_yuv_chroma ch = pfk_yuv_chroma_terms(&k, j->u[cj * j->u_stride + ci], j->v[cj * j->v_stride + ci]);
    uint8_t rgb[3];
    pfk_yuv_decode(&k, &ch, luma, rgb);
    /* selects, not a runtime index: rgb[] stays in registers on the GPU */
    o[0] = b->blue_first ? rgb[2] : rgb[0];
    o[1] = rgb[1];
    o[2] = b->blue_first ? rgb[0] : rgb[2];
    if (b->cn == 4) o[3] = 255;
}

#endif
