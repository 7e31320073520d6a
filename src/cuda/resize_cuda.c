/* pf_resize on a CUDA stream: jobs and the CPU plan's tables built into
 * the stream's parameter arena (resize_jobs.c), one upload, one launch
 * (resize_kernels.cu). Arguments arrive validated by pf_resize. */
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"
#include "gpu/resize_jobs.h"

pf_status pfi_cuda_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                          const pf_resize_opts *opts) {
    size_t scratch = 0;
    size_t bytes = pfi_gpu_resize_bytes(count, src, dst, opts, &scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, "pf_resize", bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_resize_batch *batch = NULL;
    pfi_grid g;
    st = pfi_gpu_resize_build(&a, count, src, dst, opts, &batch, &g);
    if (st != PF_OK) return st;
    st = pfi_cuda_arena_submit(s, "pf_resize", &a);
    if (st != PF_OK) return st;
    return pfi_cuda_launched(s, "pf_resize", pfi_cu_launch_resize(pfi_cuda_stream(s), batch, g));
}
