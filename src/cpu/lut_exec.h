/* LUT kernel family (slot names and ISA fill functions). */
#ifndef PF_CPU_LUT_EXEC_H
#define PF_CPU_LUT_EXEC_H

#include "cpu/kfamily.h"
#include "ref/lut_rows.h"

enum { PFI_LUT_U8 = 0, PFI_LUT_SLOTS };

extern pfi_kfamily pfi_lut_family;

void pfi_lut_fill_avx512vbmi(pfi_kfn *slots);

#endif
