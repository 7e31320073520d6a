/* CUDA side of pf_resize: one thread per output pixel (all its channels
 * and planes), one grid layer per sample, running the shared per-pixel
 * body src/kernels/gpu_resize.h on the CPU plan's tables (built into the
 * launch arena by resize_jobs.c). Compiled with -fmad=false so each
 * output has the CPU reference's bits. */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "cuda/gpu_arena.h"
#include "kernels/gpu_resize.h"
}

__global__ void pfi_cuda_resize(const pfk_resize_batch *b) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y);
    pfk_resize_at(b, (int32_t)blockIdx.z, x, y);
}

/* Queues the kernel on `stream` (a cudaStream_t); returns the
 * cudaError_t of the launch as int (0 = success). */
extern "C" int pfi_cu_launch_resize(void *stream, const void *dev_batch, pfi_grid g) {
    if (g.w <= 0 || g.h <= 0 || g.n <= 0) return 0;
    dim3 block(32, 8, 1);
    dim3 grid((unsigned)((g.w + 31) / 32), (unsigned)((g.h + 7) / 8), (unsigned)g.n);
    pfi_cuda_resize<<<grid, block, 0, (cudaStream_t)stream>>>((const pfk_resize_batch *)dev_batch);
    return (int)cudaGetLastError();
}
