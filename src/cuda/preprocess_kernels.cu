/* CUDA kernels of the fused preprocess: the per-pixel body is
 * pfk_pp_at (src/kernels/gpu_preprocess.h), the same code the CPU tests
 * run; compiled with -fmad=false so every value has the CPU's bits.
 * A batch is one launch, plus one pre-pass launch when some sample has
 * contrast (its mean needs the whole canvas before the main pass). */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "cuda/gpu_arena.h"
#include "kernels/gpu_preprocess.h"
#include "kernels/gpu_yuv_crop.h"
}

#define PP_BX 32
#define PP_BY 8

/* Contrast pre-pass: each block sums its canvas pixels' terms (at most
 * 256 * 255, so 32 bits suffice inside a block) and adds the block's sum
 * to the sample's 64-bit total. Integer adds: the order does not matter,
 * the total is exact. */
__global__ void pfi_cu_pp_sum(const pfk_pp_batch *b) {
    int32_t n = (int32_t)blockIdx.z;
    if (b->jobs[n].contrast_at < 0) return; /* uniform over the block */
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    uint32_t t = pfk_pp_sum_at(b, n, x, y);
    for (int off = 16; off > 0; off >>= 1) t += __shfl_down_sync(0xffffffffu, t, off);
    __shared__ uint32_t warp_sums[PP_BX * PP_BY / 32];
    int lane = (int)(threadIdx.y * blockDim.x + threadIdx.x);
    if ((lane & 31) == 0) warp_sums[lane >> 5] = t;
    __syncthreads();
    if (lane == 0) {
        uint32_t s = 0;
        for (int w = 0; w < PP_BX * PP_BY / 32; w++) s += warp_sums[w];
        if (s) atomicAdd((unsigned long long *)b->jobs[n].con_sum, (unsigned long long)s);
    }
}

__global__ void pfi_cu_pp_main(const pfk_pp_batch *b) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    pfk_pp_at(b, (int32_t)blockIdx.z, x, y);
}

/* 4:2:0 frames: decode each sample's crop rectangle into scratch. */
__global__ void pfi_cu_pp_yuv_crop(const pfk_yuv_crop_batch *b) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    pfk_yuv_crop_at(b, (int32_t)blockIdx.z, x, y);
}

static dim3 grid_of(pfi_grid g) {
    return dim3((unsigned)((g.w + PP_BX - 1) / PP_BX), (unsigned)((g.h + PP_BY - 1) / PP_BY), (unsigned)g.n);
}

/* Queues the pre-pass (sum_grid.n > 0) and the main pass on `stream`;
 * returns cudaGetLastError() as int. */
extern "C" int pfi_cu_launch_preprocess(void *stream, const void *dev_batch, pfi_grid grid, pfi_grid sum_grid) {
    cudaStream_t s = (cudaStream_t)stream;
    const pfk_pp_batch *b = (const pfk_pp_batch *)dev_batch;
    dim3 block(PP_BX, PP_BY, 1);
    if (sum_grid.n > 0 && sum_grid.w > 0 && sum_grid.h > 0) {
        pfi_cu_pp_sum<<<grid_of(sum_grid), block, 0, s>>>(b);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return (int)e;
    }
    if (grid.n > 0) pfi_cu_pp_main<<<grid_of(grid), block, 0, s>>>(b);
    return (int)cudaGetLastError();
}

/* pf_preprocess_run_yuv: the conversion pass, then the fused preprocess
 * of the decoded rectangles (stream-ordered). */
extern "C" int pfi_cu_launch_preprocess_yuv(void *stream, const void *yuv_batch, pfi_grid yuv_grid,
                                            const void *pp_batch, pfi_grid grid, pfi_grid sum_grid) {
    cudaStream_t s = (cudaStream_t)stream;
    if (yuv_grid.n > 0 && yuv_grid.w > 0 && yuv_grid.h > 0) {
        pfi_cu_pp_yuv_crop<<<grid_of(yuv_grid), dim3(PP_BX, PP_BY, 1), 0, s>>>(
            (const pfk_yuv_crop_batch *)yuv_batch);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return (int)e;
    }
    return pfi_cu_launch_preprocess(stream, pp_batch, grid, sum_grid);
}
