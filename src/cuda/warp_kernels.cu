/* CUDA warps (pf_warp_affine / pf_warp_perspective): one thread per
 * output pixel of one sample, the body shared with the CPU tests
 * (kernels/gpu_warp.h), compiled with -fmad=false so every output has the
 * CPU reference's bits (the fixed-point positions are computed in double,
 * as on the CPU). */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gpu/gpu_arena.h"
#include "kernels/gpu_warp.h"
}
#include "cuda/cu_grid.cuh"

/* Any batch: the options are read per sample. Sample n0 + blockIdx.z,
 * row block by0 + blockIdx.y (chunks of at most 65535: cu_grid.cuh). */
__global__ void pfi_cu_warp(const pfk_warp_batch *b, int32_t n0, int32_t by0) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    pfk_warp_at(b, n0 + (int32_t)blockIdx.z, x, y);
}

/* One interpolation and dtype class for the whole batch (the usual case):
 * the body is compiled for those constants only, so it needs fewer
 * registers than the generic kernel. */
template <int INTERP, int IS_U8>
__global__ void pfi_cu_warp_fixed(const pfk_warp_batch *b, int32_t n0, int32_t by0) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    pfk_warp_at_as(b, n0 + (int32_t)blockIdx.z, x, y, INTERP, IS_U8);
}

/* variant: pfi_gpu_warp_variant (2 * interp + is_u8, -1 = generic). */
extern "C" int pfi_cu_launch_warp(void *stream, const void *dev_batch, pfi_grid g, int variant) {
    const pfk_warp_batch *b = (const pfk_warp_batch *)dev_batch;
    cudaStream_t s = (cudaStream_t)stream;
    dim3 block(32, 8, 1);
    return (int)pfi_cu_chunks(pfi_cu_blocks(g.w, 32), pfi_cu_blocks(g.h, 8), g.n,
                              [&](dim3 grid, int32_t n0, int32_t by0) {
        switch (variant) {
        case 2 * PF_INTERP_NEAREST + 0: pfi_cu_warp_fixed<PF_INTERP_NEAREST, 0><<<grid, block, 0, s>>>(b, n0, by0); break;
        case 2 * PF_INTERP_NEAREST + 1: pfi_cu_warp_fixed<PF_INTERP_NEAREST, 1><<<grid, block, 0, s>>>(b, n0, by0); break;
        case 2 * PF_INTERP_LINEAR + 0: pfi_cu_warp_fixed<PF_INTERP_LINEAR, 0><<<grid, block, 0, s>>>(b, n0, by0); break;
        case 2 * PF_INTERP_LINEAR + 1: pfi_cu_warp_fixed<PF_INTERP_LINEAR, 1><<<grid, block, 0, s>>>(b, n0, by0); break;
        case 2 * PF_INTERP_CUBIC + 0: pfi_cu_warp_fixed<PF_INTERP_CUBIC, 0><<<grid, block, 0, s>>>(b, n0, by0); break;
        case 2 * PF_INTERP_CUBIC + 1: pfi_cu_warp_fixed<PF_INTERP_CUBIC, 1><<<grid, block, 0, s>>>(b, n0, by0); break;
        default: pfi_cu_warp<<<grid, block, 0, s>>>(b, n0, by0); break;
        }
    });
}
