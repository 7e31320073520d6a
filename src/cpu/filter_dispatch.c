/* Filter kernel family: the references everywhere; AVX2 and AVX-512 take
 * the u8 hot paths (Gaussian / box passes, erode / dilate passes, 3x3 and
 * 5x5 median, filter_2d, sharpen), the u16 erode / dilate passes and the
 * f32 passes (Gaussian, box, erode / dilate, filter_2d, sharpen). */
#include "cpu/filter_exec.h"

static const char *const k_names[PFI_FILTER_SLOTS] = {
    "filter.hsum_u8",   "filter.vgauss_u8", "filter.vbox_u8",     "filter.hmin_u8",     "filter.hmax_u8",
    "filter.vmin_u8",   "filter.vmax_u8",   "filter.hconv_f32",   "filter.vconv_f32",   "filter.conv2d_u8",
    "filter.median3_u8", "filter.median5_u8", "filter.sharpen_u8", "filter.vgauss16_u8",
    "filter.hmin_u16",  "filter.hmax_u16",  "filter.vmin_u16",    "filter.vmax_u16",    "filter.hmin_f32",
    "filter.hmax_f32",
    "filter.vmin_f32",  "filter.vmax_f32",  "filter.hsum_f32_f64", "filter.vbox_f64_f32", "filter.conv2d_f32",
    "filter.sharpen_f32", "filter.hsum_u16", "filter.vgauss_u16"};

static void fill_ref(pfi_kfn *slots) {
    slots[PFI_FILTER_HSUM_U8] = (pfi_kfn)pfi_hsum_u8_ref;
    slots[PFI_FILTER_VGAUSS_U8] = (pfi_kfn)pfi_vgauss_u8_ref;
    slots[PFI_FILTER_VBOX_U8] = (pfi_kfn)pfi_vbox_u8_ref;
    slots[PFI_FILTER_HMIN_U8] = (pfi_kfn)pfi_hmin_u8_ref;
    slots[PFI_FILTER_HMAX_U8] = (pfi_kfn)pfi_hmax_u8_ref;
    slots[PFI_FILTER_VMIN_U8] = (pfi_kfn)pfi_vmin_u8_ref;
    slots[PFI_FILTER_VMAX_U8] = (pfi_kfn)pfi_vmax_u8_ref;
    slots[PFI_FILTER_HCONV_F32] = (pfi_kfn)pfi_hconv_f32_ref;
    slots[PFI_FILTER_VCONV_F32] = (pfi_kfn)pfi_vconv_f32_ref;
    slots[PFI_FILTER_CONV2D_U8] = (pfi_kfn)pfi_conv2d_u8_ref;
    slots[PFI_FILTER_MEDIAN3_U8] = (pfi_kfn)pfi_median3_u8_ref;
    slots[PFI_FILTER_MEDIAN5_U8] = (pfi_kfn)pfi_median5_u8_ref;
    slots[PFI_FILTER_SHARPEN_U8] = (pfi_kfn)pfi_sharpen_u8_ref;
    slots[PFI_FILTER_VGAUSS16_U8] = (pfi_kfn)pfi_vgauss16_u8_ref;
    slots[PFI_FILTER_HMIN_U16] = (pfi_kfn)pfi_hmin_u16_ref;
    slots[PFI_FILTER_HMAX_U16] = (pfi_kfn)pfi_hmax_u16_ref;
    slots[PFI_FILTER_VMIN_U16] = (pfi_kfn)pfi_vmin_u16_ref;
    slots[PFI_FILTER_VMAX_U16] = (pfi_kfn)pfi_vmax_u16_ref;
    slots[PFI_FILTER_HMIN_F32] = (pfi_kfn)pfi_hmin_f32_ref;
    slots[PFI_FILTER_HMAX_F32] = (pfi_kfn)pfi_hmax_f32_ref;
    slots[PFI_FILTER_VMIN_F32] = (pfi_kfn)pfi_vmin_f32_ref;
    slots[PFI_FILTER_VMAX_F32] = (pfi_kfn)pfi_vmax_f32_ref;
    slots[PFI_FILTER_HSUM_F32_F64] = (pfi_kfn)pfi_hsum_f32_f64_ref;
    slots[PFI_FILTER_VBOX_F64_F32] = (pfi_kfn)pfi_vbox_f64_f32_ref;
    slots[PFI_FILTER_CONV2D_F32] = (pfi_kfn)pfi_conv2d_f32_ref;
    slots[PFI_FILTER_SHARPEN_F32] = (pfi_kfn)pfi_sharpen_f32_ref;
    slots[PFI_FILTER_HSUM_U16] = (pfi_kfn)pfi_hsum_u16_ref;
    slots[PFI_FILTER_VGAUSS_U16] = (pfi_kfn)pfi_vgauss_u16_ref;
}

pfi_kfamily pfi_filter_family = PFI_KFAMILY_INIT(k_names, PFI_FILTER_SLOTS, fill_ref, NULL,
                                                 PFI_X86(pfi_filter_fill_avx2),
                                                 PFI_X86(pfi_filter_fill_avx512), NULL, NULL);
