/* Launchers of the pointwise CUDA kernels (src/cuda/pointwise_kernels.cu):
 * each queues one launch of grid g on `stream` (a cudaStream_t) reading
 * the batch at device address dev_batch, and returns the cudaError_t of
 * the launch as int (0 = success; nothing is launched for an empty grid). */
#ifndef PF_CUDA_POINTWISE_LAUNCH_H
#define PF_CUDA_POINTWISE_LAUNCH_H

#include "gpu/gpu_arena.h"

int pfi_cu_launch_yuv(void *stream, const void *dev_batch, pfi_grid g);
int pfi_cu_launch_color(void *stream, const void *dev_batch, pfi_grid g);
int pfi_cu_launch_flip(void *stream, const void *dev_batch, pfi_grid g);
int pfi_cu_launch_cvt(void *stream, const void *dev_batch, pfi_grid g);
/* pf_normalize NORM_MINMAX: the reduction over grid g, then one thread per
 * sample (count) writing the element-map transforms. */
int pfi_cu_launch_minmax(void *stream, const void *dev_batch, pfi_grid g);
int pfi_cu_launch_minmax_finish(void *stream, const void *dev_batch, int count);

#endif
