/* What the GPU job builders (src/gpu/<op>_jobs.c) share: how a kernel
 * walks an image's planes, and the launch grid of a batch. */
#ifndef PF_GPU_GPU_JOBS_H
#define PF_GPU_GPU_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu_arena.h"
#include "pixflow/core.h"

/* Kernels see a CHW image of several channels as `channels` planes of one
 * element per pixel, and anything else (HWC, or a single channel) as one
 * plane of `channels` elements. */
static inline int pfi_gpu_planar(const pf_image *im) { return im->layout == PF_CHW && im->channels > 1; }
static inline int32_t pfi_gpu_planes(const pf_image *im) { return pfi_gpu_planar(im) ? im->channels : 1; }
/* Elements per pixel within one plane. */
static inline int32_t pfi_gpu_plane_cn(const pf_image *im) { return pfi_gpu_planar(im) ? 1 : im->channels; }
/* Bytes between planes; 0 when there is one plane (plane_stride unused). */
static inline ptrdiff_t pfi_gpu_plane_stride(const pf_image *im) {
    return pfi_gpu_planar(im) ? im->plane_stride : 0;
}

/* The grid of a batch: one layer per sample, w x h the largest output
 * (pfi_grid_cover per sample). */
static inline void pfi_grid_begin(pfi_grid *g, int count) {
    g->w = g->h = 0;
    g->n = count;
}
static inline void pfi_grid_cover(pfi_grid *g, int32_t w, int32_t h) {
    if (w > g->w) g->w = w;
    if (h > g->h) g->h = h;
}

#endif
