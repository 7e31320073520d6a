/* GPU kernel bodies of pf_normalize PF_NORM_MINMAX, before the element
 * map (src/kernels/gpu_convert.h) runs:
 *  1. pfk_minmax_at: thread (x, y) of sample n folds the elements of pixel
 *     (x, y) (all channels, all planes; NaN skipped) into an order-keyed
 *     min/max pair; the CUDA wrapper reduces a warp with shuffles, the
 *     OpenCL one (src/opencl/kernels/convert.cl) a work-group in local
 *     memory, and both update the sample's keys atomically (the CPU
 *     emulation folds them in a loop);
 *     min/max are exact and order-independent, so the result does not
 *     depend on the reduction order;
 *  2. pfk_minmax_finish: one thread per sample turns the keys into
 *     OpenCV's scale/shift (pfk_minmax_coeffs, in double as on the CPU)
 *     and writes the convertTo transform into the sample's element-map job.
 * The result equals the CPU path's except for one tie: an f32 image whose
 * minimum (or maximum) is a zero present with both signs, where the CPU
 * keeps the first zero it scans; that sign only reaches the output when
 * lo or hi is -0.0. */
#ifndef PF_KERNELS_GPU_MINMAX_H
#define PF_KERNELS_GPU_MINMAX_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/gpu_convert.h"

typedef struct pfk_minmax_job {
    const PF_GLOBAL uint8_t *src;
    ptrdiff_t row_stride, plane_stride;
    int32_t width, height;
    int32_t planes; /* CHW: channels; HWC: 1 */
    int32_t cn;     /* elements per pixel and plane: HWC channels; CHW 1 */
    pf_dtype dtype; /* u8, u16 or f32 */
    PF_GLOBAL int32_t *keys; /* [min key, max key], initialized to INT32_MAX, INT32_MIN */
} pfk_minmax_job;

typedef struct pfk_minmax_batch {
    int32_t count;
    double lo, hi;
    const PF_GLOBAL pfk_minmax_job *jobs;
    PF_GLOBAL pfk_cvt_job *cvt_jobs; /* the element map's jobs, whose xf step 2 fills */
} pfk_minmax_batch;

/* Order-preserving int32 key of a float (NaN excluded by the caller):
 * a < b as floats <=> key(a) < key(b); -0 sorts just below +0. */
PF_HD int32_t pfk_f32_key(float f) {
    uint32_t u = pfk_f32_bits(f);
    return (int32_t)((u & 0x80000000u) ? u ^ 0x7fffffffu : u);
}

PF_HD float pfk_key_f32(int32_t k) {
    uint32_t u = (uint32_t)k;
    return pfk_bits_f32((u & 0x80000000u) ? u ^ 0x7fffffffu : u);
}

/* Min/max keys of pixel (x, y) of sample n; 0 when it has no element
 * (outside the image, or all NaN). */
PF_HD int pfk_minmax_at(const PF_GLOBAL pfk_minmax_batch *b, int32_t n, int32_t x, int32_t y, int32_t *kmin,
                        int32_t *kmax) {
    const PF_GLOBAL pfk_minmax_job *j = &b->jobs[n];
    if (x >= j->width || y >= j->height) return 0;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    int any = 0;
    for (int32_t p = 0; p < j->planes; p++) {
        const PF_GLOBAL uint8_t *px = j->src + (ptrdiff_t)p * j->plane_stride + (ptrdiff_t)y * j->row_stride;
        for (int32_t c = 0; c < j->cn; c++) {
            int64_t i = (int64_t)x * j->cn + c;
            int32_t k;
            if (j->dtype == PF_U8) {
                k = ((const PF_GLOBAL uint8_t *)px)[i];
            } else if (j->dtype == PF_U16) {
                k = ((const PF_GLOBAL uint16_t *)(const PF_GLOBAL void *)px)[i];
            } else {
                float f = ((const PF_GLOBAL float *)(const PF_GLOBAL void *)px)[i];
                if (f != f) continue;
                k = pfk_f32_key(f);
            }
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
            any = 1;
        }
    }
    *kmin = lo;
    *kmax = hi;
    return any;
}

/* Sample n's convertTo transform from its keys (CPU: image_minmax +
 * pfi_cvt_minmax_coeffs + pfi_cvt_xform_scale). */
PF_HD void pfk_minmax_finish(const PF_GLOBAL pfk_minmax_batch *b, int32_t n) {
    const PF_GLOBAL pfk_minmax_job *j = &b->jobs[n];
    PF_GLOBAL pfk_cvt_xf *x = &b->cvt_jobs[n].xf;
    double mn, mx;
    if (j->keys[0] > j->keys[1]) { /* no element (all NaN) */
        mn = mx = 0;
    } else if (j->dtype == PF_F32) {
        mn = (double)pfk_key_f32(j->keys[0]);
        mx = (double)pfk_key_f32(j->keys[1]);
    } else {
        mn = j->keys[0];
        mx = j->keys[1];
    }
    double scale, shift;
    pfk_minmax_coeffs(mn, mx, b->lo, b->hi, x->ddt == PF_F32, &scale, &shift);
    x->kind = PFK_CVT_SCALE;
    x->noscale = pfk_cvt_noscale(scale, shift);
    x->dbl = 0; /* s32 -> s32 only, and pf_normalize reads u8/u16/f32 */
    x->alpha = (float)scale;
    x->beta = (float)shift;
    x->alpha_d = scale;
    x->beta_d = shift;
}

#endif
