/* 4:2:0 YUV kernel family (slot names and ISA fill functions). */
#ifndef PF_CPU_YUV_EXEC_H
#define PF_CPU_YUV_EXEC_H

#include "dispatch/kfamily.h"
#include "ref/yuv_rows.h"

typedef struct pfi_yuv_kernels {
    pfi_yuv_sp_to_rgb_fn sp_to_rgb; /* NV12 and NV21 */
    pfi_yuv_p_to_rgb_fn p_to_rgb;   /* I420 and YV12 */
    pfi_rgb_to_yuv_p_fn rgb_to_p;
    pfi_rgb_to_yuv_sp_fn rgb_to_sp;
} pfi_yuv_kernels;

extern pfi_kfamily pfi_yuv_family;

void pfi_yuv_fill_sse4(pfi_yuv_kernels *k);
void pfi_yuv_fill_avx2(pfi_yuv_kernels *k);
void pfi_yuv_fill_avx512vbmi(pfi_yuv_kernels *k);

#endif
