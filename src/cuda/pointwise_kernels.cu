/* CUDA kernels of the pointwise ops (pf_cvt_color_from_yuv, pf_cvt_color,
 * pf_flip, pf_convert / pf_reformat / pf_normalize). Each __global__ is a
 * thin wrapper: thread (x, y) of grid layer n calls the shared kernel body
 * pfk_X_at (src/kernels/gpu_X.h), which is the same C code the CPU
 * emulation tests run, compiled here with -fmad=false so each output has
 * the CPU reference's bits. Threads are laid out along x in warps of 32,
 * so a warp reads and writes consecutive pixels of one row (coalesced). */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gpu/gpu_arena.h"
#include "kernels/gpu_color.h"
#include "kernels/gpu_convert.h"
#include "kernels/gpu_flip.h"
#include "kernels/gpu_minmax.h"
#include "kernels/gpu_yuv.h"
}
#include "cuda/cu_grid.cuh"

/* 32 x 8 threads per block, one grid layer (z) per sample; grids beyond
 * 65535 row blocks or samples run in chunks (cu_grid.cuh), the kernel
 * adding the chunk's origin n0, by0. */
#define PF_POINTWISE_KERNEL(NAME, BATCH, BODY)                                            \
    __global__ void NAME(const BATCH *b, int32_t n0, int32_t by0) {                       \
        int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);                     \
        int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y; \
        BODY(b, n0 + (int32_t)blockIdx.z, x, y);                                          \
    }

#define PF_POINTWISE_LAUNCHER(FN, KERNEL, BATCH)                                          \
    extern "C" int FN(void *stream, const void *dev_batch, pfi_grid g) {                  \
        return (int)pfi_cu_chunks(pfi_cu_blocks(g.w, 32), pfi_cu_blocks(g.h, 8), g.n,     \
                                  [&](dim3 blocks, int32_t n0, int32_t by0) {             \
                                      KERNEL<<<blocks, dim3(32, 8, 1), 0, (cudaStream_t)stream>>>( \
                                          (const BATCH *)dev_batch, n0, by0);             \
                                  });                                                     \
    }

PF_POINTWISE_KERNEL(pfi_cu_yuv, pfk_yuv_batch, pfk_yuv_at)
PF_POINTWISE_LAUNCHER(pfi_cu_launch_yuv, pfi_cu_yuv, pfk_yuv_batch)

PF_POINTWISE_KERNEL(pfi_cu_color, pfk_color_batch, pfk_color_at)
PF_POINTWISE_LAUNCHER(pfi_cu_launch_color, pfi_cu_color, pfk_color_batch)

PF_POINTWISE_KERNEL(pfi_cu_flip, pfk_flip_batch, pfk_flip_at)
PF_POINTWISE_LAUNCHER(pfi_cu_launch_flip, pfi_cu_flip, pfk_flip_batch)

PF_POINTWISE_KERNEL(pfi_cu_cvt, pfk_cvt_batch, pfk_cvt_at)
PF_POINTWISE_LAUNCHER(pfi_cu_launch_cvt, pfi_cu_cvt, pfk_cvt_batch)

/* Min/max: each warp (one row of 32 threads) reduces its keys with
 * shuffles, then lane 0 updates the sample's keys atomically. min/max are
 * exact, so the result is the same in any order. */
__global__ void pfi_cu_minmax(const pfk_minmax_batch *b, int32_t n0, int32_t by0) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    int32_t n = n0 + (int32_t)blockIdx.z, lo, hi;
    if (!pfk_minmax_at(b, n, x, y, &lo, &hi)) {
        lo = INT32_MAX;
        hi = INT32_MIN;
    }
    for (int off = 16; off > 0; off >>= 1) {
        lo = min(lo, __shfl_down_sync(0xffffffffu, lo, off));
        hi = max(hi, __shfl_down_sync(0xffffffffu, hi, off));
    }
    if ((threadIdx.x & 31u) == 0 && lo <= hi) {
        atomicMin(&b->jobs[n].keys[0], lo);
        atomicMax(&b->jobs[n].keys[1], hi);
    }
}

__global__ void pfi_cu_minmax_finish(const pfk_minmax_batch *b) {
    int32_t n = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (n < b->count) pfk_minmax_finish(b, n);
}

PF_POINTWISE_LAUNCHER(pfi_cu_launch_minmax, pfi_cu_minmax, pfk_minmax_batch)

extern "C" int pfi_cu_launch_minmax_finish(void *stream, const void *dev_batch, int count) {
    if (count <= 0) return (int)cudaSuccess;
    pfi_cu_minmax_finish<<<(unsigned)((count + 63) / 64), 64, 0, (cudaStream_t)stream>>>(
        (const pfk_minmax_batch *)dev_batch);
    return (int)cudaGetLastError();
}
