/* Job builder of the GPU fused preprocess (kernel body:
 * src/kernels/gpu_preprocess.h). Plain C, compiled in every build: the
 * CPU tests build jobs into an emulated arena and run the kernel body. */
#ifndef PF_CUDA_PREPROCESS_JOBS_H
#define PF_CUDA_PREPROCESS_JOBS_H

#include <stddef.h>

#include "cuda/gpu_arena.h"
#include "kernels/gpu_preprocess.h"
#include "pixflow/augment.h"

/* Upper bound of the staging bytes pfi_gpu_preprocess_build takes for
 * this batch (arguments validated); *scratch_bytes receives the device
 * scratch it needs. */
size_t pfi_gpu_preprocess_bytes(const pf_preprocess_plan *plan, int count, const pf_image src[],
                                const pf_aug_params params[], size_t *scratch_bytes);

/* The same in parts: the batch's fixed bytes, and one sample's. */
size_t pfi_gpu_preprocess_batch_bytes(const pf_preprocess_plan *plan, int count);
size_t pfi_gpu_preprocess_sample_bytes(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p);

/* Builds the batch of validated arguments (src views and dst on the
 * device the arena uploads to; params may be NULL, info may be NULL or
 * receive count entries). *grid covers the output; *sum_grid covers the
 * canvases of the samples with contrast (n = 0 when none: no pre-pass). */
pf_status pfi_gpu_preprocess_build(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_image src[],
                                   const pf_aug_params params[], const pf_tensor *dst, pf_letterbox_info info[],
                                   const pfk_pp_batch **dev_batch, pfi_grid *grid, pfi_grid *sum_grid);

#endif
