/* Job builder of the GPU fused preprocess of 4:2:0 frames
 * (pf_preprocess_run_yuv on device views): samples with a cheap sampler
 * (no affine; NEAREST / LINEAR without antialias) are converted tap by tap
 * inside the preprocess kernel; for the others a conversion pass
 * (src/kernels/gpu_yuv_crop.h) decodes the sample's crop rectangle,
 * widened to even edges as the CPU does, into device scratch; the fused
 * preprocess batch (preprocess_jobs.h) then reads those images with the
 * crops shifted into them. Plain C, compiled in every build. */
#ifndef PF_GPU_PREPROCESS_YUV_JOBS_H
#define PF_GPU_PREPROCESS_YUV_JOBS_H

#include <stddef.h>

#include "gpu/gpu_arena.h"
#include "kernels/gpu_preprocess.h"
#include "kernels/gpu_yuv_crop.h"
#include "pixflow/augment.h"

/* Staging bytes (return) and device scratch (*scratch_bytes: the decoded
 * rectangles) of a validated batch (pfi_pp_yuv_check). */
size_t pfi_gpu_preprocess_yuv_bytes(const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                                    const pf_color_code codes[], const pf_aug_params params[],
                                    size_t *scratch_bytes);

/* Builds both batches: *yuv_batch / *yuv_grid the conversion pass (the
 * samples converted on the fly have an empty rectangle; yuv_grid->w 0
 * when all are: no conversion launch), then *pp_batch / *grid / *sum_grid
 * / *cheap as pfi_gpu_preprocess_build's. info (NULL or count entries) is
 * in frame coordinates, as the CPU reports it. */
pf_status pfi_gpu_preprocess_yuv_build(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                                       const pf_color_code codes[], const pf_color_opts opts[],
                                       const pf_aug_params params[], const pf_tensor *dst, pf_letterbox_info info[],
                                       const pfk_yuv_crop_batch **yuv_batch, pfi_grid *yuv_grid,
                                       const pfk_pp_batch **pp_batch, pfi_grid *grid, pfi_grid *sum_grid,
                                       int *cheap);

#endif
