/* Element loads and stores at byte addresses of any alignment, for the
 * GPU kernel bodies (src/kernels/gpu_*.h). pf_image allows views whose
 * data or row stride is not a multiple of the element size; a u16 or f32
 * access through such an address must go byte by byte (memcpy), on the
 * CPU (emulation tests, -Wcast-align) and on the GPU (misaligned accesses
 * fault there).
 *
 * pfk_ldu_* / pfk_stu_*: always the byte-wise access; for callers that
 * decide alignment once per sample (gpu_resize.h: job->src_aligned).
 * pfk_ld_* / pfk_st_*: on the device, one word access when this address is
 * aligned, else the byte-wise one; on the host, always memcpy (which the
 * compiler turns into one unaligned move). */
#ifndef PF_KERNELS_GPU_MEM_H
#define PF_KERNELS_GPU_MEM_H

#include <stdint.h>
#include <string.h>

#include "kernels/pf_hd.h"

#if defined(__OPENCL_C_VERSION__)
/* OpenCL C has no memcpy: the bytes assembled little-endian (the OpenCL
 * backend accepts little-endian devices only). */
PF_HD uint16_t pfk_ldu_u16(const PF_GLOBAL uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

PF_HD float pfk_ldu_f32(const PF_GLOBAL uint8_t *p) {
    return as_float((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24));
}

PF_HD void pfk_stu_u16(PF_GLOBAL uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

PF_HD void pfk_stu_f32(PF_GLOBAL uint8_t *p, float v) {
    uint32_t u = as_uint(v);
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(u >> (8 * k));
}
#else
PF_HD uint16_t pfk_ldu_u16(const uint8_t *p) {
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

PF_HD float pfk_ldu_f32(const uint8_t *p) {
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}

PF_HD void pfk_stu_u16(uint8_t *p, uint16_t v) { memcpy(p, &v, sizeof v); }

PF_HD void pfk_stu_f32(uint8_t *p, float v) { memcpy(p, &v, sizeof v); }
#endif

PF_HD uint16_t pfk_ld_u16(const PF_GLOBAL uint8_t *p) {
#if defined(__CUDA_ARCH__) || defined(__OPENCL_C_VERSION__)
    if (((uintptr_t)p & 1u) == 0) return *(const PF_GLOBAL uint16_t *)p;
#endif
    return pfk_ldu_u16(p);
}

PF_HD float pfk_ld_f32(const PF_GLOBAL uint8_t *p) {
#if defined(__CUDA_ARCH__) || defined(__OPENCL_C_VERSION__)
    if (((uintptr_t)p & 3u) == 0) return *(const PF_GLOBAL float *)p;
#endif
    return pfk_ldu_f32(p);
}

PF_HD void pfk_st_u16(PF_GLOBAL uint8_t *p, uint16_t v) {
#if defined(__CUDA_ARCH__) || defined(__OPENCL_C_VERSION__)
    if (((uintptr_t)p & 1u) == 0) {
        *(PF_GLOBAL uint16_t *)p = v;
        return;
    }
#endif
    pfk_stu_u16(p, v);
}

PF_HD void pfk_st_f32(PF_GLOBAL uint8_t *p, float v) {
#if defined(__CUDA_ARCH__) || defined(__OPENCL_C_VERSION__)
    if (((uintptr_t)p & 3u) == 0) {
        *(PF_GLOBAL float *)p = v;
        return;
    }
#endif
    pfk_stu_f32(p, v);
}

#endif
