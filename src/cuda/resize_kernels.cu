/* CUDA side of pf_resize: one thread per output pixel (all its channels
 * and planes), one grid layer per sample, running the shared per-pixel
 * body src/kernels/gpu_resize.h on the CPU plan's tables (built into the
 * launch arena by resize_jobs.c). Compiled with -fmad=false so each
 * output has the CPU reference's bits. */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gpu/resize_jobs.h"
}

/* Rows stride by the grid height (gridDim.y stops at 65535 blocks). */
__global__ void pfi_cu_resize(const pfk_resize_batch *b, int32_t n0, int32_t h) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    for (int32_t y = (int32_t)(blockIdx.y * blockDim.y + threadIdx.y); y < h; y += (int32_t)(gridDim.y * blockDim.y))
        pfk_resize_at(b, n0 + (int32_t)blockIdx.z, x, y);
}

extern "C" int pfi_cu_launch_resize(void *stream, const void *dev_batch, pfi_grid g) {
    if (g.w <= 0 || g.h <= 0 || g.n <= 0) return 0;
    dim3 block(32, 8, 1);
    /* gridDim.y and .z stop at 65535: rows loop in the kernel, samples
     * go in chunks */
    const int32_t zmax = 65535;
    int32_t by = (g.h + 7) / 8 < zmax ? (g.h + 7) / 8 : zmax;
    for (int32_t n0 = 0; n0 < g.n; n0 += zmax) {
        int32_t nz = g.n - n0 < zmax ? g.n - n0 : zmax;
        dim3 grid((unsigned)((g.w + 31) / 32), (unsigned)by, (unsigned)nz);
        pfi_cu_resize<<<grid, block, 0, (cudaStream_t)stream>>>((const pfk_resize_batch *)dev_batch, n0, g.h);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return (int)e;
    }
    return 0;
}
