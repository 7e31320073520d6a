/* LUT kernel family: the reference everywhere; on x86 the avx512vbmi
 * level takes the VBMI byte-permute kernel (below it: the reference). */
#include "cpu/lut_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_lut_kernels, u8, "lut.u8"),
};

static void fill_ref(pfi_lut_kernels *k) { k->u8 = pfi_lut_row_ref; }

PFI_KFAMILY_DEFINE(pfi_lut_family, pfi_lut_kernels, slots,
                  fill_ref, NULL, NULL, NULL, PFI_X86(pfi_lut_fill_avx512vbmi), NULL);
