/* Job building of pf_cvt_color's GPU path (src/kernels/gpu_color.h). */
#ifndef PF_GPU_COLOR_JOBS_H
#define PF_GPU_COLOR_JOBS_H

#include "gpu/gpu_arena.h"
#include "kernels/gpu_color.h"
#include "pixflow/ops.h"

size_t pfi_gpu_color_bytes(int count, size_t *scratch_bytes);

/* Arguments validated by pf_cvt_color (code decodes, pairs checked). */
pf_status pfi_gpu_color_build(pfi_arena *a, int count, const pf_image src[], const pf_image dst[],
                              pf_color_code code, const pfk_color_batch **dev_batch, pfi_grid *grid);

#endif
