/* What a 4:2:0 code means: frame layout and the RGB side's channels
 * (yuv_code.c; shared by the front-end, the CPU run, the fused preprocess
 * and the GPU job builders). */
#ifndef PF_OPS_YUV_CODE_H
#define PF_OPS_YUV_CODE_H

#include "pixflow/ops.h"
#include "ref/yuv_rows.h"

typedef struct pfi_yuv_code {
    pfk_yuv_frame kind;
    int swap_uv;    /* NV21: chroma stored V,U */
    int cn;         /* RGB-side channels (1 for GRAY) */
    int blue_first; /* BGR(A) */
} pfi_yuv_code;

/* 1 and *c filled for a decode (YUV -> RGB/BGR(A)/GRAY) code, else 0. */
int pfi_yuv_decode_code(pf_color_code code, pfi_yuv_code *c);
/* 1 and *c filled for an encode (RGB/BGR(A) -> YUV) code, else 0. */
int pfi_yuv_encode_code(pf_color_code code, pfi_yuv_code *c);

/* The coefficient table opts selects (NULL: BT.601 limited); fails naming
 * fn and the field when opts holds an unknown matrix or range. */
pf_status pfi_yuv_check_opts(const char *fn, const pf_color_opts *opts, pfk_yuv_coeffs *k);

#endif
