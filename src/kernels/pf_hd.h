/* Host/device portability for per-pixel math shared by src/ref (CPU),
 * src/cuda (GPU, nvcc) and src/opencl (OpenCL C). Everything here must
 * compute identical bits on all three: no FMA contraction
 * (-ffp-contract=off / -fmad=false / #pragma OPENCL FP_CONTRACT OFF),
 * IEEE float ops in the written order, explicit round-half-even
 * conversions.
 *
 * PF_GLOBAL qualifies every pointer of a kernel body that points into
 * device memory (job structs, images): OpenCL C's __global, nothing for C
 * and CUDA. The bodies name the address space because OpenCL C 1.2 (and
 * 3.0 without the optional generic address space, e.g. PoCL 3.1 and
 * NVIDIA's OpenCL) makes an unqualified pointer a private one. */
#ifndef PF_KERNELS_PF_HD_H
#define PF_KERNELS_PF_HD_H

#include <math.h>
#include <stdint.h>

#if defined(__OPENCL_C_VERSION__)
#  define PF_HD static inline
#  define PF_GLOBAL __global
#elif defined(__CUDACC__)
#  define PF_HD static __host__ __device__ __forceinline__
#  define PF_GLOBAL
#else
#  define PF_HD static inline
#  define PF_GLOBAL
#endif

/* float -> int32 with round-half-to-even (OpenCV cvRound on SSE2,
 * CUDA __float2int_rn). Inputs are assumed in int32 range. */
PF_HD int32_t pfk_round_f32(float v) {
#if defined(__OPENCL_C_VERSION__)
    return convert_int_rte(v);
#elif defined(__CUDA_ARCH__)
    return __float2int_rn(v);
#else
    return (int32_t)lrintf(v); /* default rounding mode: to nearest even */
#endif
}

PF_HD uint8_t pfk_sat_u8_i(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
PF_HD uint16_t pfk_sat_u16_i(int32_t v) { return (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v); }

/* OpenCV saturate_cast<uchar>(float): round half even, then clamp. Values
 * beyond int32 saturate first (cvRound returns INT_MIN there on x86). */
PF_HD uint8_t pfk_sat_u8_f(float v) {
    if (!(v > -2147483520.0f)) return 0;       /* also NaN -> 0 like cvtss2si (INT_MIN) */
    if (v > 2147483520.0f) return 0;           /* cvtss2si overflow gives INT_MIN -> 0 */
    return pfk_sat_u8_i(pfk_round_f32(v));
}
PF_HD uint16_t pfk_sat_u16_f(float v) {
    if (!(v > -2147483520.0f)) return 0;
    if (v > 2147483520.0f) return 0;
    return pfk_sat_u16_i(pfk_round_f32(v));
}

#endif
