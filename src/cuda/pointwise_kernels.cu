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
#include "cuda/gpu_arena.h"
#include "kernels/gpu_color.h"
#include "kernels/gpu_convert.h"
#include "kernels/gpu_flip.h"
#include "kernels/gpu_minmax.h"
#include "kernels/gpu_yuv.h"
}

/* 32 x 8 threads per block, one grid layer (z) per sample. Returns
 * false when there is nothing to launch. */
static bool grid_of(pfi_grid g, dim3 *blocks, dim3 *threads) {
    if (g.w <= 0 || g.h <= 0 || g.n <= 0) return false;
    *threads = dim3(32, 8, 1);
    *blocks = dim3((unsigned)((g.w + 31) / 32), (unsigned)((g.h + 7) / 8), (unsigned)g.n);
    return true;
}

#define PF_POINTWISE_KERNEL(NAME, BATCH, BODY)                                            \
    __global__ void NAME(const BATCH *b) {                                                \
        int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);                     \
        int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);                     \
        BODY(b, (int32_t)blockIdx.z, x, y);                                               \
    }

#define PF_POINTWISE_LAUNCHER(FN, KERNEL, BATCH)                                          \
    extern "C" int FN(void *stream, const void *dev_batch, pfi_grid g) {                  \
        dim3 blocks, threads;                                                             \
        if (!grid_of(g, &blocks, &threads)) return (int)cudaSuccess;                      \
        KERNEL<<<blocks, threads, 0, (cudaStream_t)stream>>>((const BATCH *)dev_batch);   \
        return (int)cudaGetLastError();                                                   \
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
__global__ void pfi_cu_minmax(const pfk_minmax_batch *b) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    int32_t n = (int32_t)blockIdx.z, lo, hi;
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
