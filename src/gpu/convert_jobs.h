/* Job building of the element map (pf_convert, pf_reformat,
 * pf_normalize MEAN_STD) on the GPU (src/kernels/gpu_convert.h), from the
 * CPU engine's samples (pfi_cvt_make_samples / pfi_norm_make_samples). */
#ifndef PF_GPU_CONVERT_JOBS_H
#define PF_GPU_CONVERT_JOBS_H

#include "ops/convert_args.h"
#include "gpu/gpu_arena.h"
#include "kernels/gpu_convert.h"
#include "kernels/gpu_minmax.h"

size_t pfi_gpu_cvt_bytes(int count, size_t *scratch_bytes);

/* dev_jobs (may be NULL) receives the device address of the jobs array. */
pf_status pfi_gpu_cvt_build(pfi_arena *a, int count, const pfi_cvt_sample smp[],
                            const pfk_cvt_batch **dev_batch, pfi_grid *grid, pfk_cvt_job **dev_jobs);

/* pf_normalize PF_NORM_MINMAX's reduction (src/kernels/gpu_minmax.h) over
 * src, feeding the element-map jobs at cvt_jobs (device address, from
 * pfi_gpu_cvt_build). */
size_t pfi_gpu_minmax_bytes(int count, size_t *scratch_bytes);
pf_status pfi_gpu_minmax_build(pfi_arena *a, int count, const pf_image src[], double lo, double hi,
                               pfk_cvt_job *cvt_jobs, const pfk_minmax_batch **dev_batch, pfi_grid *grid);

#endif
