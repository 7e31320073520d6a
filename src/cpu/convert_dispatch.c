/* Kernel family "convert": pf_convert / pf_normalize / pf_reformat /
 * pf_split / pf_merge row kernels. The reference everywhere; AVX2 (with
 * FMA and F16C) and AVX-512 (F/BW/VL, VBMI for byte gathers) override the
 * hot shapes. */
#include "cpu/convert_exec.h"

static const char *const k_names[PFI_CVT_SLOTS] = {
    "convert.u8_f32",
    "convert.f32_u8",
    "convert.f32_f16",
    "convert.f16_f32",
    "normalize.u8c3_hwc_f32_chw",
    "normalize.u8c3_hwc_f16_chw",
    "reformat.u8c3_hwc_chw",
    "reformat.u8c3_chw_hwc",
    "reformat.u8c4_hwc_chw",
    "reformat.u8c4_chw_hwc",
    "normalize.u8c3_hwc_f32_hwc",
    "normalize.u8c3_hwc_f16_hwc",
    "normalize.f32c3_hwc_f32_chw",
    "normalize.f32c3_hwc_f16_chw",
};

void pfi_cvt_fast_ref(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    pfi_cvt_row_ref(r, x, 0, n);
}

static void fill_ref(pfi_kfn *slots) {
    for (int i = 0; i < PFI_CVT_SLOTS; i++) slots[i] = (pfi_kfn)pfi_cvt_fast_ref;
}

pfi_kfamily pfi_convert_family = PFI_KFAMILY_INIT(k_names, PFI_CVT_SLOTS, fill_ref, NULL,
                                                  PFI_X86(pfi_convert_fill_avx2),
                                                  PFI_X86(pfi_convert_fill_avx512),
                                                  PFI_X86(pfi_convert_fill_avx512vbmi), NULL);
