/* 4:2:0 YUV kernel family (slot names and ISA fill functions). */
#ifndef PF_CPU_YUV_EXEC_H
#define PF_CPU_YUV_EXEC_H

#include "cpu/kfamily.h"
#include "pixflow/ops.h"
#include "ref/yuv_rows.h"

enum pfi_frame_kind { PFI_FRAME_SP, PFI_FRAME_P, PFI_FRAME_GRAY };

/* What a 4:2:0 code means: frame layout and the RGB side's channels. */
typedef struct pfi_yuv_code {
    enum pfi_frame_kind kind;
    int swap_uv;    /* NV21: chroma stored V,U */
    int cn;         /* RGB-side channels (1 for GRAY) */
    int blue_first; /* BGR(A) */
} pfi_yuv_code;

/* 1 and *c filled for a decode (YUV -> RGB/BGR(A)/GRAY) code, else 0. */
int pfi_yuv_decode_code(pf_color_code code, pfi_yuv_code *c);

enum {
    PFI_YUV_NV12_TO_RGB = 0, /* pfi_yuv_sp_to_rgb_fn (NV12 and NV21) */
    PFI_YUV_I420_TO_RGB,     /* pfi_yuv_p_to_rgb_fn (I420 and YV12) */
    PFI_YUV_RGB_TO_I420,     /* pfi_rgb_to_yuv_p_fn */
    PFI_YUV_RGB_TO_NV12,     /* pfi_rgb_to_yuv_sp_fn */
    PFI_YUV_SLOTS
};

extern pfi_kfamily pfi_yuv_family;

/* The coefficient table opts selects (NULL: BT.601 limited); fails naming
 * fn and the field when opts holds an unknown matrix or range. */
pf_status pfi_yuv_check_opts(const char *fn, const pf_color_opts *opts, pfk_yuv_coeffs *k);

void pfi_yuv_fill_sse4(pfi_kfn *slots);
void pfi_yuv_fill_avx2(pfi_kfn *slots);
void pfi_yuv_fill_avx512vbmi(pfi_kfn *slots);

#endif
