/* GPU kernel bodies of the pixel-parallel post-processing ops: one thread
 * per output pixel (x, y) of sample n, plain C shared with the CPU
 * emulation tests. The per-pixel math is the CPU reference's
 * (src/kernels/mask_math.h): masks from logits (argmax / threshold) and
 * CV-CUDA Composite. */
#ifndef PF_KERNELS_GPU_POST_H
#define PF_KERNELS_GPU_POST_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/mask_math.h"
#include "kernels/pf_hd.h"

/* pf_masks_from_logits: contiguous [n, c, h, w] f32 -> [n, out_c, h, w] u8 */
typedef struct pfk_logits_batch {
    const PF_GLOBAL float *src;
    PF_GLOBAL uint8_t *dst;
    int32_t count, channels, height, width;
    int32_t mode;     /* 0 argmax, 1 threshold */
    float threshold;
    uint8_t value;
} pfk_logits_batch;

PF_HD void pfk_logits_at(const PF_GLOBAL pfk_logits_batch *b, int32_t n, int32_t x, int32_t y) {
    if (n >= b->count || x >= b->width || y >= b->height) return;
    size_t plane = (size_t)b->height * (size_t)b->width, at = (size_t)y * (size_t)b->width + (size_t)x;
    const PF_GLOBAL float *s = b->src + (size_t)n * (size_t)b->channels * plane + at;
    if (b->mode == 0) {
        float best = s[0];
        int32_t bi = 0;
        for (int32_t c = 1; c < b->channels; c++) {
            float v = s[(size_t)c * plane];
            if (pfk_argmax_takes(v, best)) {
                best = v;
                bi = c;
            }
        }
        b->dst[(size_t)n * plane + at] = (uint8_t)bi;
        return;
    }
    PF_GLOBAL uint8_t *d = b->dst + (size_t)n * (size_t)b->channels * plane + at;
    for (int32_t c = 0; c < b->channels; c++) d[(size_t)c * plane] = pfk_threshold_u8(s[(size_t)c * plane], b->threshold, b->value);
}

/* pf_composite: u8 HWC fg / bg (cn channels), mask (1), dst (dcn) */
typedef struct pfk_composite_job {
    const PF_GLOBAL uint8_t *fg, *bg, *mask;
    PF_GLOBAL uint8_t *dst;
    ptrdiff_t fg_stride, bg_stride, mask_stride, dst_stride;
    int32_t width, height, cn, dcn;
} pfk_composite_job;

typedef struct pfk_composite_batch {
    int32_t count;
    const PF_GLOBAL pfk_composite_job *jobs;
} pfk_composite_batch;

PF_HD void pfk_composite_at(const PF_GLOBAL pfk_composite_batch *b, int32_t n, int32_t x, int32_t y) {
    if (n >= b->count) return;
    const PF_GLOBAL pfk_composite_job *j = &b->jobs[n];
    if (x >= j->width || y >= j->height) return;
    const PF_GLOBAL uint8_t *f = j->fg + (ptrdiff_t)y * j->fg_stride + (ptrdiff_t)x * j->cn;
    const PF_GLOBAL uint8_t *g = j->bg + (ptrdiff_t)y * j->bg_stride + (ptrdiff_t)x * j->cn;
    uint8_t m = j->mask[(ptrdiff_t)y * j->mask_stride + x];
    PF_GLOBAL uint8_t *d = j->dst + (ptrdiff_t)y * j->dst_stride + (ptrdiff_t)x * j->dcn;
    uint8_t v[4];
    for (int32_t c = 0; c < j->cn; c++) v[c] = pfk_composite_u8(f[c], g[c], m); /* read all before writing (in place) */
    for (int32_t c = 0; c < j->cn; c++) d[c] = v[c];
    if (j->dcn > j->cn) d[3] = 255;
}

#endif
