/* CUDA warps (pf_warp_affine / pf_warp_perspective): one thread per
 * output pixel of one sample, the body shared with the CPU tests
 * (kernels/gpu_warp.h), compiled with -fmad=false so every output has the
 * CPU reference's bits (the fixed-point positions are computed in double,
 * as on the CPU). */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "cuda/gpu_arena.h"
#include "kernels/gpu_warp.h"
}

/* Any batch: the options are read per sample. */
__global__ void pfi_cuda_warp(const pfk_warp_batch *b, int32_t nsamples) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    /* grid z is capped at 65535: larger batches loop */
    for (int32_t n = (int32_t)blockIdx.z; n < nsamples; n += (int32_t)gridDim.z) pfk_warp_at(b, n, x, y);
}

/* One interpolation and dtype class for the whole batch (the usual case):
 * the body is compiled for those constants only, so it needs fewer
 * registers than the generic kernel. */
template <int INTERP, int IS_U8>
__global__ void pfi_cuda_warp_fixed(const pfk_warp_batch *b, int32_t nsamples) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    for (int32_t n = (int32_t)blockIdx.z; n < nsamples; n += (int32_t)gridDim.z)
        pfk_warp_at_as(b, n, x, y, INTERP, IS_U8);
}

/* variant: pfi_gpu_warp_variant (-1 = generic). */
extern "C" int pfi_cu_launch_warp(void *stream, const void *dev_batch, pfi_grid g, int variant) {
    if (g.w <= 0 || g.h <= 0 || g.n <= 0) return 0;
    dim3 block(32, 8, 1);
    dim3 grid((unsigned)((g.w + 31) / 32), (unsigned)((g.h + 7) / 8), (unsigned)(g.n < 65535 ? g.n : 65535));
    const pfk_warp_batch *b = (const pfk_warp_batch *)dev_batch;
    cudaStream_t s = (cudaStream_t)stream;
    switch (variant) {
    case 0: pfi_cuda_warp_fixed<0, 0><<<grid, block, 0, s>>>(b, g.n); break;
    case 1: pfi_cuda_warp_fixed<0, 1><<<grid, block, 0, s>>>(b, g.n); break;
    case 2: pfi_cuda_warp_fixed<1, 0><<<grid, block, 0, s>>>(b, g.n); break;
    case 3: pfi_cuda_warp_fixed<1, 1><<<grid, block, 0, s>>>(b, g.n); break;
    case 4: pfi_cuda_warp_fixed<2, 0><<<grid, block, 0, s>>>(b, g.n); break;
    case 5: pfi_cuda_warp_fixed<2, 1><<<grid, block, 0, s>>>(b, g.n); break;
    default: pfi_cuda_warp<<<grid, block, 0, s>>>(b, g.n); break;
    }
    return (int)cudaGetLastError();
}
