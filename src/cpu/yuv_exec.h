/* 4:2:0 YUV kernel family (slot names and ISA fill functions). */
#ifndef PF_CPU_YUV_EXEC_H
#define PF_CPU_YUV_EXEC_H

#include "cpu/kfamily.h"
#include "ref/yuv_rows.h"

enum {
    PFI_YUV_NV12_TO_RGB = 0, /* pfi_yuv_sp_to_rgb_fn (NV12 and NV21) */
    PFI_YUV_I420_TO_RGB,     /* pfi_yuv_p_to_rgb_fn (I420 and YV12) */
    PFI_YUV_RGB_TO_I420,     /* pfi_rgb_to_yuv_p_fn */
    PFI_YUV_RGB_TO_NV12,     /* pfi_rgb_to_yuv_sp_fn */
    PFI_YUV_SLOTS
};

extern pfi_kfamily pfi_yuv_family;

void pfi_yuv_fill_sse4(pfi_kfn *slots);
void pfi_yuv_fill_avx2(pfi_kfn *slots);
void pfi_yuv_fill_avx512vbmi(pfi_kfn *slots);

#endif
