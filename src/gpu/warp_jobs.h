/* Job builders of the GPU warps (plain C, compiled in every build so the
 * CPU tests exercise them with an emulated arena). */
#ifndef PF_GPU_WARP_JOBS_H
#define PF_GPU_WARP_JOBS_H

#include <stddef.h>

#include "gpu/gpu_arena.h"
#include "kernels/gpu_warp.h"
#include "pixflow/ops.h"

/* One sample's job for a source view (its data: a device address) and an
 * output of dst_w x dst_h, from a matrix that already maps dst -> src
 * (m_inverse: 6 doubles, or 9 when perspective; opts->flags is ignored)
 * and opts' interp, border and border values. The job's dst fields are
 * left empty (NULL, strides 0): a fused op (the GPU preprocess) reads
 * values through pfk_warp_u8_value and stores them itself; the plain warp
 * fills them. Arguments must already be validated (pf_warp_affine's
 * checks); the weights are computed per pixel, so nothing is staged in
 * the arena `a` today (it is part of the signature so that a later
 * table-driven variant need not change callers). */
pf_status pfi_gpu_warp_job_fill(pfi_arena *a, const pf_image *src, int32_t dst_w, int32_t dst_h,
                                const double *m_inverse, int perspective, const pf_warp_opts *opts,
                                pfk_warp_job *job);

/* Staging bytes of pfi_gpu_warp_build for count samples (no scratch). */
size_t pfi_gpu_warp_bytes(int count, size_t *scratch_bytes);

/* The batch of a validated pf_warp_affine (perspective 0) or
 * pf_warp_perspective (1) call: matrices inverted on the host exactly as
 * the CPU path does (unless PF_WARP_INVERSE_MAP), jobs and the batch
 * header staged in a, *dev_batch its device address, grid = the largest
 * output x count. Fails (naming op and the matrix) on a non-finite or
 * singular matrix, or PF_ERR_INTERNAL when the arena is too small. */
pf_status pfi_gpu_warp_build(pfi_arena *a, const char *op, int perspective, int count, const pf_image src[],
                             const pf_image dst[], const double matrices[], int nmatrices, const pf_warp_opts *opts,
                             const pfk_warp_batch **dev_batch, pfi_grid *grid);

/* Which specialised kernel a batch can use: interp * 2 + 1 when every
 * sample is u8, interp * 2 when none is, -1 for a mix (the generic
 * kernel: pfk_warp_at). The launcher's kernels run pfk_warp_at_as with
 * these constants. */
int pfi_gpu_warp_variant(int count, const pf_image src[], const pf_warp_opts *opts);

#endif
