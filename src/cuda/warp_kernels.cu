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

__global__ void pfi_cuda_warp(const pfk_warp_batch *b, int32_t nsamples) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    /* grid z is capped at 65535: larger batches loop */
    for (int32_t n = (int32_t)blockIdx.z; n < nsamples; n += (int32_t)gridDim.z) pfk_warp_at(b, n, x, y);
}

extern "C" int pfi_cu_launch_warp(void *stream, const void *dev_batch, pfi_grid g) {
    if (g.w <= 0 || g.h <= 0 || g.n <= 0) return 0;
    dim3 block(32, 8, 1);
    dim3 grid((unsigned)((g.w + 31) / 32), (unsigned)((g.h + 7) / 8), (unsigned)(g.n < 65535 ? g.n : 65535));
    pfi_cuda_warp<<<grid, block, 0, (cudaStream_t)stream>>>((const pfk_warp_batch *)dev_batch, g.n);
    return (int)cudaGetLastError();
}
