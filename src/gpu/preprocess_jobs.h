/* Job builder of the GPU fused preprocess (kernel body:
 * src/kernels/gpu_preprocess.h). Plain C, compiled in every build: the
 * CPU tests build jobs into an emulated arena and run the kernel body. */
#ifndef PF_GPU_PREPROCESS_JOBS_H
#define PF_GPU_PREPROCESS_JOBS_H

#include <stddef.h>

#include "gpu/gpu_arena.h"
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
 * canvases of the samples with contrast (n = 0 when none: no pre-pass).
 * *cheap (NULL: not wanted) receives the batch's `cheap` flag, which
 * picks the kernel variant. */
pf_status pfi_gpu_preprocess_build(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_image src[],
                                   const pf_aug_params params[], const pf_tensor *dst, pf_letterbox_info info[],
                                   const pfk_pp_batch **dev_batch, pfi_grid *grid, pfi_grid *sum_grid, int *cheap);

/* The 4:2:0 builder's entry: as pfi_gpu_preprocess_build, and sample i
 * with yuv[i] != NULL is converted on the fly from that frame description
 * (x0, y0: the origin of src[i]'s rectangle in the frame; src[i].data is
 * never read then). Such a sample must satisfy pfi_gpu_pp_yuv_on_the_fly. */
pf_status pfi_gpu_preprocess_build_yuv(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_image src[],
                                       const pf_aug_params params[], const pf_tensor *dst,
                                       const pfk_yuv_crop_job *const yuv[], const pfk_pp_batch **dev_batch,
                                       pfi_grid *grid, pfi_grid *sum_grid, int *cheap);

/* Whether a 4:2:0 sample with these params converts its taps on the fly
 * (one launch) instead of through the scratch conversion pass: no affine
 * and an interpolation whose resize kinds are cheap (NEAREST,
 * NEAREST_EXACT, LINEAR without antialias: copy, NN, two-tap LINEAR or
 * LINEAR's 2x2 area shortcut). Wide-tap kinds keep the scratch pass:
 * converting every tap of every output pixel would cost more than
 * converting each source pixel once. */
int pfi_gpu_pp_yuv_on_the_fly(const pf_preprocess_plan *plan, const pf_aug_params *p);

#endif
