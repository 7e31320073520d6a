/* Launchers of the post-processing CUDA kernels (src/cuda/post_kernels.cu).
 * Each queues its launches on `stream` (a cudaStream_t) and returns the
 * first cudaError_t as int (0 = success). */
#ifndef PF_CUDA_POST_LAUNCH_H
#define PF_CUDA_POST_LAUNCH_H

#include <stddef.h>

#include "gpu/gpu_arena.h"
#include "gpu/post_jobs.h"

int pfi_cu_launch_logits(void *stream, const void *dev_batch, pfi_grid g);
int pfi_cu_launch_composite(void *stream, const void *dev_batch, pfi_grid g);
/* Temporary bytes of the segmented sort of `total` keys in `count`
 * segments (0 on error: then *err holds the cudaError_t). */
size_t pfi_cu_nms_sort_bytes(long long total, int count, int *err);
/* The whole pf_nms sequence (gpu_nms.h): host_batch is the staging copy
 * of the batch (its pointers are device addresses). */
int pfi_cu_launch_nms(void *stream, const void *dev_batch, const pfk_nms_batch *host_batch,
                      const pfi_gpu_nms_plan *plan, void *sort_temp, size_t sort_bytes);

#endif
