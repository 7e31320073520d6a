/* CUDA side of resize: device kernels built from the same per-pixel math
 * as the CPU reference (src/kernels/resize_math.h), compiled with
 * -fmad=false so each output has the reference's bits. This unit carries
 * the vertical passes; the CUDA backend issue wires them to streams and
 * device plans (tables come from the host plan builder, unchanged). */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "kernels/resize_math.h"
}

/* One output element per thread: row y of the destination from the
 * ksize horizontally-resized rows listed for it. */
__global__ void pfi_cuda_v_u8_linear(const int32_t *const *rows, uint8_t *dst, const int16_t *beta,
                                     int width) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width) dst[x] = pfk_v_u8_linear(rows[0][x], rows[1][x], beta[0], beta[1]);
}

__global__ void pfi_cuda_v_u8_cubic(const int32_t *const *rows, uint8_t *dst, const int16_t *ibeta,
                                    const float *fbeta, int width, int vsplit) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;
    if (x < vsplit) {
        dst[x] = pfk_v_u8_cubic_float(rows[0][x], rows[1][x], rows[2][x], rows[3][x], fbeta[0], fbeta[1],
                                      fbeta[2], fbeta[3]);
    } else {
        int32_t s = 0;
        for (int k = 0; k < 4; k++) s += rows[k][x] * ibeta[k];
        dst[x] = pfk_v_u8_fix22(s);
    }
}

__global__ void pfi_cuda_v_aa_u8(const uint8_t *const *rows, uint8_t *dst, const int32_t *coef,
                                 int ksize, int width) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;
    int32_t ss = 1 << (PFK_AA_BITS - 1);
    for (int k = 0; k < ksize; k++) ss += rows[k][x] * coef[k];
    dst[x] = pfk_aa_clip8(ss);
}

/* Host launcher used by the CUDA backend and by tests/cuda; returns the
 * cudaError_t as int (0 = success). */
extern "C" int pfi_cuda_launch_v_u8_linear(const int32_t *const *rows, uint8_t *dst, const int16_t *beta,
                                           int width, cudaStream_t stream) {
    int threads = 256, blocks = (width + threads - 1) / threads;
    pfi_cuda_v_u8_linear<<<blocks, threads, 0, stream>>>(rows, dst, beta, width);
    return (int)cudaGetLastError();
}
