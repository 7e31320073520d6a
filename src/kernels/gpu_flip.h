/* GPU kernel body of pf_flip: thread (x, y) of sample n copies output
 * pixel (x, y) of every plane from source pixel (flip_x ? W-1-x : x,
 * flip_y ? H-1-y : y). Pixels are opaque bytes (like the CPU reference,
 * src/ref/geom_ref.c), moved in the widest unit (1, 2, 4 or 8 bytes) that
 * divides the pixel size and every address and stride of the sample, so
 * a warp moves whole aligned words along a row. */
#ifndef PF_KERNELS_GPU_FLIP_H
#define PF_KERNELS_GPU_FLIP_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/pf_hd.h"

typedef struct pfk_flip_job {
    const PF_GLOBAL uint8_t *src;
    PF_GLOBAL uint8_t *dst;
    ptrdiff_t src_stride, dst_stride;   /* bytes between rows */
    ptrdiff_t src_plane, dst_plane;     /* bytes between planes (CHW) */
    int32_t width, height;
    int32_t planes;                     /* CHW: channels; HWC: 1 */
    int32_t units;                      /* copy units per pixel */
    int32_t unit;                       /* bytes per unit: 1, 2, 4 or 8 */
    int32_t flip_x, flip_y;
} pfk_flip_job;

typedef struct pfk_flip_batch {
    int32_t count;
    const PF_GLOBAL pfk_flip_job *jobs;
} pfk_flip_batch;

PF_HD void pfk_flip_at(const PF_GLOBAL pfk_flip_batch *b, int32_t n, int32_t x, int32_t y) {
    const PF_GLOBAL pfk_flip_job *j = &b->jobs[n];
    if (x >= j->width || y >= j->height) return;
    int32_t sx = j->flip_x ? j->width - 1 - x : x, sy = j->flip_y ? j->height - 1 - y : y;
    const int32_t u = j->units;
    for (int32_t p = 0; p < j->planes; p++) {
        const PF_GLOBAL uint8_t *s = j->src + (ptrdiff_t)p * j->src_plane + (ptrdiff_t)sy * j->src_stride +
                           (ptrdiff_t)sx * u * j->unit;
        PF_GLOBAL uint8_t *d =
            j->dst + (ptrdiff_t)p * j->dst_plane + (ptrdiff_t)y * j->dst_stride + (ptrdiff_t)x * u * j->unit;
        switch (j->unit) {
        case 8: {
            PF_GLOBAL uint64_t *dw = (PF_GLOBAL uint64_t *)(PF_GLOBAL void *)d;
            const PF_GLOBAL uint64_t *sw = (const PF_GLOBAL uint64_t *)(const PF_GLOBAL void *)s;
            for (int32_t k = 0; k < u; k++) dw[k] = sw[k];
            break;
        }
        case 4: {
            PF_GLOBAL uint32_t *dw = (PF_GLOBAL uint32_t *)(PF_GLOBAL void *)d;
            const PF_GLOBAL uint32_t *sw = (const PF_GLOBAL uint32_t *)(const PF_GLOBAL void *)s;
            for (int32_t k = 0; k < u; k++) dw[k] = sw[k];
            break;
        }
        case 2: {
            PF_GLOBAL uint16_t *dw = (PF_GLOBAL uint16_t *)(PF_GLOBAL void *)d;
            const PF_GLOBAL uint16_t *sw = (const PF_GLOBAL uint16_t *)(const PF_GLOBAL void *)s;
            for (int32_t k = 0; k < u; k++) dw[k] = sw[k];
            break;
        }
        default:
            for (int32_t k = 0; k < u; k++) d[k] = s[k];
            break;
        }
    }
}

#endif
