/* Launch grids of the CUDA kernels (included by src/cuda/*.cu only: CUDA
 * C++). gridDim.y and gridDim.z stop at 65535 blocks (gridDim.x at
 * 2^31 - 1), so a batch of more than 65535 samples (one grid layer each)
 * or an image taller than 65535 blocks of rows would fail to launch with
 * cudaErrorInvalidConfiguration. pfi_cu_chunks splits such a grid into
 * launches of at most 65535 x 65535 (y, z) blocks; the kernel adds the
 * chunk's origin: sample n = n0 + blockIdx.z, row block by0 + blockIdx.y. */
#ifndef PF_CUDA_CU_GRID_CUH
#define PF_CUDA_CU_GRID_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#define PFI_CU_GRID_YZ_MAX 65535

/* Queues launch(grid, n0, by0) for every chunk of a grid of bx x by x n
 * blocks (any of them <= 0: nothing) and returns the first launch error
 * (cudaGetLastError after each launch), or cudaSuccess. */
template <class Launch> static cudaError_t pfi_cu_chunks(int64_t bx, int64_t by, int64_t n, Launch launch) {
    if (bx <= 0 || by <= 0 || n <= 0) return cudaSuccess;
    for (int64_t n0 = 0; n0 < n; n0 += PFI_CU_GRID_YZ_MAX)
        for (int64_t by0 = 0; by0 < by; by0 += PFI_CU_GRID_YZ_MAX) {
            int64_t cy = by - by0 < PFI_CU_GRID_YZ_MAX ? by - by0 : PFI_CU_GRID_YZ_MAX;
            int64_t cz = n - n0 < PFI_CU_GRID_YZ_MAX ? n - n0 : PFI_CU_GRID_YZ_MAX;
            launch(dim3((unsigned)bx, (unsigned)cy, (unsigned)cz), (int32_t)n0, (int32_t)by0);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess) return e;
        }
    return cudaSuccess;
}

/* Blocks of `per` along a dimension of `len` (len >= 0), in 64 bits. */
static inline int64_t pfi_cu_blocks(int64_t len, int64_t per) { return (len + per - 1) / per; }

#endif
