/* pf_preprocess_run on CUDA device views: the batch's jobs go into the
 * stream's parameter arena (one pinned upload), then one launch (two when
 * some sample has contrast: the mean pre-pass). Arguments arrive
 * validated by pf_preprocess_run (pfi_pp_check_device + routing).
 * pf_preprocess_run_yuv adds a conversion pass before it for the samples
 * whose sampler is not cheap (their decoded rectangles live in the
 * arena's device scratch); the others convert their taps on the fly. */
#include "core/error.h"
#include "augment/preprocess_plan.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"
#include "gpu/preprocess_jobs.h"
#include "gpu/preprocess_yuv_jobs.h"

/* One grid layer per sample: CUDA's gridDim.z limit. */
#define MAX_SAMPLES 65535

static pf_status check_count(const char *op, int count) {
    if (count <= MAX_SAMPLES) return PF_OK;
    return pfi_fail(PF_ERR_UNSUPPORTED, "%s: count is %d; one CUDA call takes at most %d samples (split the batch)", op,
                    count, MAX_SAMPLES);
}

/* preprocess_kernels.cu */
int pfi_cu_launch_preprocess(void *stream, const void *dev_batch, pfi_grid grid, pfi_grid sum_grid, int cheap);
int pfi_cu_launch_preprocess_yuv(void *stream, const void *yuv_batch, pfi_grid yuv_grid, const void *pp_batch,
                                 pfi_grid grid, pfi_grid sum_grid, int cheap);

pf_status pfi_cuda_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                              const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    const char *op = PFI_PP_OP;
    if (count == 0) return PF_OK;
    pf_status st = check_count(op, count);
    if (st != PF_OK) return st;
    size_t scratch = 0, bytes = pfi_gpu_preprocess_bytes(plan, count, src, params, &scratch);
    pfi_arena a;
    st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_pp_batch *batch = NULL;
    pfi_grid grid, sum_grid;
    int cheap = 0;
    st = pfi_gpu_preprocess_build(&a, plan, count, src, params, dst, info, &batch, &grid, &sum_grid, &cheap);
    if (st != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_preprocess(pfi_cuda_stream(s), batch, grid, sum_grid, cheap));
}

pf_status pfi_cuda_preprocess_yuv(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                  const pf_color_code codes[], const pf_color_opts opts[],
                                  const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    const char *op = "pf_preprocess_run_yuv";
    if (count == 0) return PF_OK;
    pf_status st = check_count(op, count);
    if (st != PF_OK) return st;
    size_t scratch = 0, bytes = pfi_gpu_preprocess_yuv_bytes(plan, count, src, codes, params, &scratch);
    pfi_arena a;
    st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_yuv_crop_batch *yb = NULL;
    const pfk_pp_batch *pb = NULL;
    pfi_grid yg, grid, sum_grid;
    int cheap = 0;
    st = pfi_gpu_preprocess_yuv_build(&a, plan, count, src, codes, opts, params, dst, info, &yb, &yg, &pb, &grid,
                                      &sum_grid, &cheap);
    if (st != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op,
                             pfi_cu_launch_preprocess_yuv(pfi_cuda_stream(s), yb, yg, pb, grid, sum_grid, cheap));
}
