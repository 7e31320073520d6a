/* pf_preprocess_run on CUDA device views: the batch's jobs go into the
 * stream's parameter arena (one pinned upload), then one launch (two when
 * some sample has contrast: the mean pre-pass). Arguments arrive
 * validated by pf_preprocess_run (pfi_pp_check_device + routing). */
#include "core/error.h"
#include "cpu/preprocess_internal.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"
#include "cuda/preprocess_jobs.h"

/* preprocess_kernels.cu */
int pfi_cu_launch_preprocess(void *stream, const void *dev_batch, pfi_grid grid, pfi_grid sum_grid);

pf_status pfi_cuda_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                              const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    const char *op = PFI_PP_OP;
    if (count == 0) return PF_OK;
    size_t scratch = 0, bytes = pfi_gpu_preprocess_bytes(plan, count, src, params, &scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_pp_batch *batch = NULL;
    pfi_grid grid, sum_grid;
    st = pfi_gpu_preprocess_build(&a, plan, count, src, params, dst, info, &batch, &grid, &sum_grid);
    if (st != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_preprocess(pfi_cuda_stream(s), batch, grid, sum_grid));
}
