/* CUDA side of the pointwise ops: device kernels built from the same
 * per-pixel math as the CPU reference (src/kernels/yuv_math.h,
 * convert_math.h, color_math.h, border_math.h), compiled with -fmad=false
 * so every output has the reference's bits. The CUDA backend issue wires
 * these launchers to device streams and pf_image views; until then they
 * are compiled and linked in every CUDA-enabled build, which keeps the
 * shared headers device-clean. */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "kernels/border_math.h"
#include "kernels/color_math.h"
#include "kernels/convert_math.h"
#include "kernels/yuv_math.h"
}

/* NV12 -> packed RGB (bidx 2) or BGR (bidx 0): one thread per 2x2 block,
 * sharing one chroma pair as the CPU reference does. */
__global__ void pfi_cuda_nv12_to_rgb(const uint8_t *y, ptrdiff_t ys, const uint8_t *uv, ptrdiff_t uvs,
                                     uint8_t *dst, ptrdiff_t ds, int w2, int h2, pfk_yuv_coeffs k,
                                     int bidx) {
    int bx = blockIdx.x * blockDim.x + threadIdx.x, by = blockIdx.y * blockDim.y + threadIdx.y;
    if (bx >= w2 || by >= h2) return;
    const uint8_t *c = uv + by * uvs + 2 * bx;
    pfk_yuv_chroma ch = pfk_yuv_chroma_terms(&k, c[0], c[1]);
    for (int dy = 0; dy < 2; dy++)
        for (int dx = 0; dx < 2; dx++) {
            int x = 2 * bx + dx, yy = 2 * by + dy;
            uint8_t rgb[3];
            pfk_yuv_decode(&k, &ch, y[yy * ys + x], rgb);
            uint8_t *o = dst + yy * ds + 3 * x;
            o[0] = rgb[bidx == 0 ? 2 : 0];
            o[1] = rgb[1];
            o[2] = rgb[bidx == 0 ? 0 : 2];
        }
}

/* u8 HWC (3 channels, order[c] picks the source channel) -> f32 CHW,
 * (x * scale - mean[c]) / std[c]: the fused preprocessing's tail. */
__global__ void pfi_cuda_normalize_u8c3_chw(const uint8_t *src, ptrdiff_t ss, float *dst, ptrdiff_t drs,
                                            ptrdiff_t dps, int w, int h, float scale, float3 mean,
                                            float3 stdv, int3 order) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const uint8_t *p = src + y * ss + 3 * x;
    float *o = (float *)((char *)dst + y * drs) + x;
    const float m[3] = {mean.x, mean.y, mean.z}, s[3] = {stdv.x, stdv.y, stdv.z};
    const int ord[3] = {order.x, order.y, order.z};
    for (int c = 0; c < 3; c++)
        *(float *)((char *)o + c * dps) = pfk_norm_mean_std((float)p[ord[c]], scale, m[c], s[c]);
}

/* BGR/RGB u8 -> GRAY u8 with OpenCV's 15-bit weights. */
__global__ void pfi_cuda_gray_u8(const uint8_t *src, ptrdiff_t ss, uint8_t *dst, ptrdiff_t ds, int w, int h,
                                 int bidx) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int32_t wt[3];
    pfk_gray_weights_i(bidx, wt);
    const uint8_t *p = src + y * ss + 3 * x;
    dst[y * ds + x] = pfk_gray_u8(p[0], p[1], p[2], wt);
}

/* copy_make_border for u8 pixels of px bytes (1..4), any border mode. */
__global__ void pfi_cuda_border_u8(const uint8_t *src, ptrdiff_t ss, int sw, int sh, uint8_t *dst, ptrdiff_t ds,
                                   int dw, int dh, int top, int left, int mode, uchar4 value, int px) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    int32_t sx = pfk_border_index(x - left, sw, mode), sy = pfk_border_index(y - top, sh, mode);
    const uint8_t v[4] = {value.x, value.y, value.z, value.w};
    for (int k = 0; k < px; k++)
        dst[y * ds + x * px + k] = (sx < 0 || sy < 0) ? v[k] : src[sy * ss + sx * px + k];
}

/* f32 -> f16 with the reference's round-to-nearest-even. */
__global__ void pfi_cuda_f32_to_f16(const float *src, uint16_t *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = pfk_f32_to_f16(src[i]);
}

static dim3 grid2d(int w, int h, dim3 block) {
    return dim3((unsigned)((w + (int)block.x - 1) / (int)block.x), (unsigned)((h + (int)block.y - 1) / (int)block.y));
}

/* Host launchers for the CUDA backend and tests/cuda; each returns the
 * cudaError_t of the launch as int (0 = success). */
extern "C" int pfi_cuda_launch_nv12_to_rgb(const uint8_t *y, ptrdiff_t ys, const uint8_t *uv, ptrdiff_t uvs,
                                           uint8_t *dst, ptrdiff_t ds, int w, int h, int matrix_range,
                                           int bidx, cudaStream_t stream) {
    static const pfk_yuv_coeffs tables[4] = {PFK_YUV_BT601_LIMITED, PFK_YUV_BT601_FULL, PFK_YUV_BT709_LIMITED,
                                             PFK_YUV_BT709_FULL};
    if (matrix_range < 0 || matrix_range > 3) return (int)cudaErrorInvalidValue;
    dim3 block(32, 8);
    pfi_cuda_nv12_to_rgb<<<grid2d(w / 2, h / 2, block), block, 0, stream>>>(y, ys, uv, uvs, dst, ds, w / 2, h / 2,
                                                                            tables[matrix_range], bidx);
    return (int)cudaGetLastError();
}

extern "C" int pfi_cuda_launch_normalize_u8c3_chw(const uint8_t *src, ptrdiff_t ss, float *dst, ptrdiff_t drs,
                                                  ptrdiff_t dps, int w, int h, float scale, const float mean[3],
                                                  const float stdv[3], const int order[3], cudaStream_t stream) {
    dim3 block(32, 8);
    pfi_cuda_normalize_u8c3_chw<<<grid2d(w, h, block), block, 0, stream>>>(
        src, ss, dst, drs, dps, w, h, scale, make_float3(mean[0], mean[1], mean[2]),
        make_float3(stdv[0], stdv[1], stdv[2]), make_int3(order[0], order[1], order[2]));
    return (int)cudaGetLastError();
}

extern "C" int pfi_cuda_launch_gray_u8(const uint8_t *src, ptrdiff_t ss, uint8_t *dst, ptrdiff_t ds, int w, int h,
                                       int bidx, cudaStream_t stream) {
    dim3 block(32, 8);
    pfi_cuda_gray_u8<<<grid2d(w, h, block), block, 0, stream>>>(src, ss, dst, ds, w, h, bidx);
    return (int)cudaGetLastError();
}

extern "C" int pfi_cuda_launch_border_u8(const uint8_t *src, ptrdiff_t ss, int sw, int sh, uint8_t *dst,
                                         ptrdiff_t ds, int dw, int dh, int top, int left, int mode,
                                         const uint8_t value[4], int px, cudaStream_t stream) {
    dim3 block(32, 8);
    pfi_cuda_border_u8<<<grid2d(dw, dh, block), block, 0, stream>>>(
        src, ss, sw, sh, dst, ds, dw, dh, top, left, mode, make_uchar4(value[0], value[1], value[2], value[3]), px);
    return (int)cudaGetLastError();
}

extern "C" int pfi_cuda_launch_f32_to_f16(const float *src, uint16_t *dst, int n, cudaStream_t stream) {
    pfi_cuda_f32_to_f16<<<(n + 255) / 256, 256, 0, stream>>>(src, dst, n);
    return (int)cudaGetLastError();
}
