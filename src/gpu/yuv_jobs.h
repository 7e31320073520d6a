/* Job building of pf_cvt_color_from_yuv's GPU path (src/kernels/gpu_yuv.h):
 * plain C, run by the CUDA op and by the CPU emulation tests. */
#ifndef PF_GPU_YUV_JOBS_H
#define PF_GPU_YUV_JOBS_H

#include "gpu/gpu_arena.h"
#include "kernels/gpu_yuv.h"
#include "pixflow/ops.h"

/* Staging bytes for a batch of count frames (upper bound); no scratch. */
size_t pfi_gpu_yuv_bytes(int count, size_t *scratch_bytes);

/* Arguments already validated by pf_cvt_color_from_yuv (code decodes,
 * opts valid, planes sized): fills the batch and its jobs in the arena
 * (device addresses) and the launch grid. */
pf_status pfi_gpu_yuv_build(pfi_arena *a, int count, const pf_yuv src[], const pf_image dst[],
                            pf_color_code code, const pf_color_opts *opts,
                            const pfk_yuv_batch **dev_batch, pfi_grid *grid);

#endif
