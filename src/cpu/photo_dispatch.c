/* Photometric kernel family: the references everywhere; AVX2+FMA and
 * AVX-512 (F+BW+VL)+FMA kernels from one source (photo_simd_impl.h). */
#include "cpu/photo_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_CONTRAST_F32], "photo.contrast_f32"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_SAT_U8], "photo.saturation_u8"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_SAT_F32], "photo.saturation_f32"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_HUE_U8], "photo.hue_u8"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_HUE_F32], "photo.hue_f32"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_TWIST_U8], "photo.twist_u8"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_TWIST_F32], "photo.twist_f32"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_GRAY1_U8], "photo.gray1_u8"),
    PFI_KSLOT(pfi_photo_kernels, px[PFI_PHOTO_GRAY3_U8], "photo.gray3_u8"),
    PFI_KSLOT(pfi_photo_kernels, graysum_u8, "photo.graysum_u8"),
    PFI_KSLOT(pfi_photo_kernels, noise_u8, "photo.noise_u8"),
    PFI_KSLOT(pfi_photo_kernels, noise_f32, "photo.noise_f32"),
    PFI_KSLOT(pfi_photo_kernels, invert_u8, "photo.invert_u8"),
};

static void fill_ref(pfi_photo_kernels *k) {
    k->px[PFI_PHOTO_CONTRAST_F32] = pfi_contrast_f32_ref;
    k->px[PFI_PHOTO_SAT_U8] = pfi_saturation_u8_ref;
    k->px[PFI_PHOTO_SAT_F32] = pfi_saturation_f32_ref;
    k->px[PFI_PHOTO_HUE_U8] = pfi_hue_u8_ref;
    k->px[PFI_PHOTO_HUE_F32] = pfi_hue_f32_ref;
    k->px[PFI_PHOTO_TWIST_U8] = pfi_twist_u8_ref;
    k->px[PFI_PHOTO_TWIST_F32] = pfi_twist_f32_ref;
    k->px[PFI_PHOTO_GRAY1_U8] = pfi_gray_u8_ref;
    k->px[PFI_PHOTO_GRAY3_U8] = pfi_gray_u8_ref;
    k->graysum_u8 = pfi_graysum_u8_ref;
    k->noise_u8 = pfi_noise_u8_ref;
    k->noise_f32 = pfi_noise_f32_ref;
    k->invert_u8 = pfi_invert_u8_ref;
}

PFI_KFAMILY_DEFINE(pfi_photo_family, pfi_photo_kernels, slots,
                  fill_ref, NULL, PFI_X86(pfi_photo_fill_avx2), PFI_X86(pfi_photo_fill_avx512),
                  PFI_X86(pfi_photo_fill_avx512vbmi), NULL);
