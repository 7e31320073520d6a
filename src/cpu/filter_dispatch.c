/* Filter kernel family: the references everywhere; AVX2 and AVX-512 take
 * the u8 hot paths (Gaussian / box passes, erode / dilate passes, 3x3 and
 * 5x5 median, filter_2d, sharpen), the u16 erode / dilate passes and the
 * f32 passes (Gaussian, box, erode / dilate, filter_2d, sharpen). */
#include "cpu/filter_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_filter_kernels, hsum_u8, "filter.hsum_u8"),
    PFI_KSLOT(pfi_filter_kernels, vgauss_u8, "filter.vgauss_u8"),
    PFI_KSLOT(pfi_filter_kernels, vbox_u8, "filter.vbox_u8"),
    PFI_KSLOT(pfi_filter_kernels, hmin_u8, "filter.hmin_u8"),
    PFI_KSLOT(pfi_filter_kernels, hmax_u8, "filter.hmax_u8"),
    PFI_KSLOT(pfi_filter_kernels, vmin_u8, "filter.vmin_u8"),
    PFI_KSLOT(pfi_filter_kernels, vmax_u8, "filter.vmax_u8"),
    PFI_KSLOT(pfi_filter_kernels, hconv_f32, "filter.hconv_f32"),
    PFI_KSLOT(pfi_filter_kernels, vconv_f32, "filter.vconv_f32"),
    PFI_KSLOT(pfi_filter_kernels, conv2d_u8, "filter.conv2d_u8"),
    PFI_KSLOT(pfi_filter_kernels, median3_u8, "filter.median3_u8"),
    PFI_KSLOT(pfi_filter_kernels, median5_u8, "filter.median5_u8"),
    PFI_KSLOT(pfi_filter_kernels, sharpen_u8, "filter.sharpen_u8"),
    PFI_KSLOT(pfi_filter_kernels, vgauss16_u8, "filter.vgauss16_u8"),
    PFI_KSLOT(pfi_filter_kernels, hmin_u16, "filter.hmin_u16"),
    PFI_KSLOT(pfi_filter_kernels, hmax_u16, "filter.hmax_u16"),
    PFI_KSLOT(pfi_filter_kernels, vmin_u16, "filter.vmin_u16"),
    PFI_KSLOT(pfi_filter_kernels, vmax_u16, "filter.vmax_u16"),
    PFI_KSLOT(pfi_filter_kernels, hmin_f32, "filter.hmin_f32"),
    PFI_KSLOT(pfi_filter_kernels, hmax_f32, "filter.hmax_f32"),
    PFI_KSLOT(pfi_filter_kernels, vmin_f32, "filter.vmin_f32"),
    PFI_KSLOT(pfi_filter_kernels, vmax_f32, "filter.vmax_f32"),
    PFI_KSLOT(pfi_filter_kernels, hsum_f32_f64, "filter.hsum_f32_f64"),
    PFI_KSLOT(pfi_filter_kernels, vbox_f64_f32, "filter.vbox_f64_f32"),
    PFI_KSLOT(pfi_filter_kernels, conv2d_f32, "filter.conv2d_f32"),
    PFI_KSLOT(pfi_filter_kernels, sharpen_f32, "filter.sharpen_f32"),
    PFI_KSLOT(pfi_filter_kernels, hsum_u16, "filter.hsum_u16"),
    PFI_KSLOT(pfi_filter_kernels, vgauss_u16, "filter.vgauss_u16"),
};

static void fill_ref(pfi_filter_kernels *k) {
    k->hsum_u8 = pfi_hsum_u8_ref;
    k->vgauss_u8 = pfi_vgauss_u8_ref;
    k->vbox_u8 = pfi_vbox_u8_ref;
    k->hmin_u8 = pfi_hmin_u8_ref;
    k->hmax_u8 = pfi_hmax_u8_ref;
    k->vmin_u8 = pfi_vmin_u8_ref;
    k->vmax_u8 = pfi_vmax_u8_ref;
    k->hconv_f32 = pfi_hconv_f32_ref;
    k->vconv_f32 = pfi_vconv_f32_ref;
    k->conv2d_u8 = pfi_conv2d_u8_ref;
    k->median3_u8 = pfi_median3_u8_ref;
    k->median5_u8 = pfi_median5_u8_ref;
    k->sharpen_u8 = pfi_sharpen_u8_ref;
    k->vgauss16_u8 = pfi_vgauss16_u8_ref;
    k->hmin_u16 = pfi_hmin_u16_ref;
    k->hmax_u16 = pfi_hmax_u16_ref;
    k->vmin_u16 = pfi_vmin_u16_ref;
    k->vmax_u16 = pfi_vmax_u16_ref;
    k->hmin_f32 = pfi_hmin_f32_ref;
    k->hmax_f32 = pfi_hmax_f32_ref;
    k->vmin_f32 = pfi_vmin_f32_ref;
    k->vmax_f32 = pfi_vmax_f32_ref;
    k->hsum_f32_f64 = pfi_hsum_f32_f64_ref;
    k->vbox_f64_f32 = pfi_vbox_f64_f32_ref;
    k->conv2d_f32 = pfi_conv2d_f32_ref;
    k->sharpen_f32 = pfi_sharpen_f32_ref;
    k->hsum_u16 = pfi_hsum_u16_ref;
    k->vgauss_u16 = pfi_vgauss_u16_ref;
}

PFI_KFAMILY_DEFINE(pfi_filter_family, pfi_filter_kernels, slots,
                  fill_ref, NULL, PFI_X86(pfi_filter_fill_avx2), PFI_X86(pfi_filter_fill_avx512), NULL, NULL);
