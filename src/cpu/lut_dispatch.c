/* LUT kernel family: the reference everywhere; on x86 the AVX-512 level
 * takes the VBMI byte-permute kernel when the CPU has VBMI. */
#include "cpu/lut_exec.h"

static const char *const k_names[PFI_LUT_SLOTS] = {"lut.u8"};

static void fill_ref(pfi_kfn *slots) { slots[PFI_LUT_U8] = (pfi_kfn)pfi_lut_row_ref; }

pfi_kfamily pfi_lut_family = PFI_KFAMILY_INIT(k_names, PFI_LUT_SLOTS, fill_ref, NULL, NULL, NULL,
                                              PFI_X86(pfi_lut_fill_avx512vbmi), NULL);
