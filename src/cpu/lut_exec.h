/* LUT kernel family (slot names and ISA fill functions). */
#ifndef PF_CPU_LUT_EXEC_H
#define PF_CPU_LUT_EXEC_H

#include "dispatch/kfamily.h"
#include "ref/lut_rows.h"

typedef struct pfi_lut_kernels {
    pfi_lut_row_fn u8;
} pfi_lut_kernels;

extern pfi_kfamily pfi_lut_family;

void pfi_lut_fill_avx512vbmi(pfi_lut_kernels *k);

#endif
