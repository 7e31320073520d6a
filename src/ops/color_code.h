/* What a pf_cvt_color code means: the kind, its channel rules and dtypes
 * (color_code.c; shared by the front-end, the CPU run and the GPU job
 * builder). */
#ifndef PF_OPS_COLOR_CODE_H
#define PF_OPS_COLOR_CODE_H

#include "pixflow/ops.h"
#include "ref/color_rows.h"

typedef struct pfi_color_code_info {
    pfk_color_kind kind;
    int scn_min, scn_max; /* accepted src channels */
    int dcn_min, dcn_max; /* accepted dst channels */
    int bidx, swap, hrange_u8;
    int no_u16;           /* HSV: u8 and f32 only (as OpenCV) */
} pfi_color_code_info;

/* 0 when the code is not one pf_cvt_color handles. */
int pfi_color_decode(int code, pfi_color_code_info *ci);

#endif
