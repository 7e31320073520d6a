/* Job building of pf_flip's GPU path (src/kernels/gpu_flip.h). */
#ifndef PF_GPU_FLIP_JOBS_H
#define PF_GPU_FLIP_JOBS_H

#include "gpu/gpu_arena.h"
#include "kernels/gpu_flip.h"
#include "pixflow/ops.h"

size_t pfi_gpu_flip_bytes(int count, size_t *scratch_bytes);

/* Arguments validated by pf_flip (codes valid, pairs checked). */
pf_status pfi_gpu_flip_build(pfi_arena *a, int count, const pf_image src[], const pf_image dst[],
                             const pf_flip_code codes[], int ncodes, const pfk_flip_batch **dev_batch,
                             pfi_grid *grid);

#endif
