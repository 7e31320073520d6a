/* Kernel family "convert": pf_convert / pf_normalize / pf_reformat /
 * pf_split / pf_merge row kernels. The reference everywhere; AVX2 (with
 * FMA and F16C), AVX-512 (F/BW/DQ/VL) and avx512vbmi (byte gathers)
 * override the hot shapes. */
#include "cpu/convert_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_convert_kernels, row[PFI_CVT_U8_F32], "convert.u8_f32"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_CVT_F32_U8], "convert.f32_u8"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_CVT_F32_F16], "convert.f32_f16"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_CVT_F16_F32], "convert.f16_f32"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_NORM_U8C3_F32_CHW], "normalize.u8c3_hwc_f32_chw"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_NORM_U8C3_F16_CHW], "normalize.u8c3_hwc_f16_chw"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_FMT_U8C3_HWC_CHW], "reformat.u8c3_hwc_chw"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_FMT_U8C3_CHW_HWC], "reformat.u8c3_chw_hwc"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_FMT_U8C4_HWC_CHW], "reformat.u8c4_hwc_chw"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_FMT_U8C4_CHW_HWC], "reformat.u8c4_chw_hwc"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_NORM_U8C3_F32_HWC], "normalize.u8c3_hwc_f32_hwc"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_NORM_U8C3_F16_HWC], "normalize.u8c3_hwc_f16_hwc"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_NORM_F32C3_F32_CHW], "normalize.f32c3_hwc_f32_chw"),
    PFI_KSLOT(pfi_convert_kernels, row[PFI_NORM_F32C3_F16_CHW], "normalize.f32c3_hwc_f16_chw"),
};

void pfi_cvt_fast_ref(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    pfi_cvt_row_ref(r, x, 0, n);
}

static void fill_ref(pfi_convert_kernels *k) {
    for (int i = 0; i < PFI_CVT_SLOTS; i++) k->row[i] = pfi_cvt_fast_ref;
}

PFI_KFAMILY_DEFINE(pfi_convert_family, pfi_convert_kernels, slots,
                  fill_ref, NULL, PFI_X86(pfi_convert_fill_avx2), PFI_X86(pfi_convert_fill_avx512),
                  PFI_X86(pfi_convert_fill_avx512vbmi), NULL);
