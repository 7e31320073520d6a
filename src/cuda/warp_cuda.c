/* pf_warp_affine / pf_warp_perspective on a CUDA stream: the jobs
 * (matrices inverted on the host exactly as the CPU path does) go up in
 * one staged copy, then one launch covers the whole batch. */
#include "core/error.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"
#include "gpu/warp_jobs.h"

int pfi_cu_launch_warp(void *stream, const void *dev_batch, pfi_grid g, int variant); /* warp_kernels.cu */

static pf_status warp(pf_stream *s, const char *op, int perspective, int count, const pf_image src[],
                      pf_image dst[], const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    pf_warp_opts o = opts ? *opts : pf_warp_opts_defaults();
    size_t scratch, bytes = pfi_gpu_warp_bytes(count, &scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_warp_batch *batch;
    pfi_grid g;
    st = pfi_gpu_warp_build(&a, op, perspective, count, src, dst, matrices, nmatrices, &o, &batch, &g);
    if (st != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    int variant = pfi_gpu_warp_variant(count, src, &o);
    return pfi_cuda_launched(s, op, pfi_cu_launch_warp(pfi_cuda_stream(s), batch, g, variant));
}

pf_status pfi_cuda_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                               int nmatrices, const pf_warp_opts *opts) {
    return warp(s, "pf_warp_affine", 0, count, src, dst, matrices, nmatrices, opts);
}

pf_status pfi_cuda_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                    const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    return warp(s, "pf_warp_perspective", 1, count, src, dst, matrices, nmatrices, opts);
}
