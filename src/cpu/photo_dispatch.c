/* Photometric kernel family: the references everywhere; AVX2+FMA and
 * AVX-512 (F+BW+VL)+FMA kernels from one source (photo_simd_impl.h). */
#include "cpu/photo_exec.h"

static const char *const k_names[PFI_PHOTO_SLOTS] = {
    "photo.contrast_f32", "photo.saturation_u8", "photo.saturation_f32", "photo.hue_u8",
    "photo.hue_f32", "photo.twist_u8", "photo.twist_f32", "photo.gray1_u8", "photo.gray3_u8",
    "photo.graysum_u8", "photo.noise_u8", "photo.noise_f32", "photo.invert_u8"};

static void fill_ref(pfi_kfn *slots) {
    slots[PFI_PHOTO_CONTRAST_F32] = (pfi_kfn)pfi_contrast_f32_ref;
    slots[PFI_PHOTO_SAT_U8] = (pfi_kfn)pfi_saturation_u8_ref;
    slots[PFI_PHOTO_SAT_F32] = (pfi_kfn)pfi_saturation_f32_ref;
    slots[PFI_PHOTO_HUE_U8] = (pfi_kfn)pfi_hue_u8_ref;
    slots[PFI_PHOTO_HUE_F32] = (pfi_kfn)pfi_hue_f32_ref;
    slots[PFI_PHOTO_TWIST_U8] = (pfi_kfn)pfi_twist_u8_ref;
    slots[PFI_PHOTO_TWIST_F32] = (pfi_kfn)pfi_twist_f32_ref;
    slots[PFI_PHOTO_GRAY1_U8] = (pfi_kfn)pfi_gray_u8_ref;
    slots[PFI_PHOTO_GRAY3_U8] = (pfi_kfn)pfi_gray_u8_ref;
    slots[PFI_PHOTO_GRAYSUM_U8] = (pfi_kfn)pfi_graysum_u8_ref;
    slots[PFI_PHOTO_NOISE_U8] = (pfi_kfn)pfi_noise_u8_ref;
    slots[PFI_PHOTO_NOISE_F32] = (pfi_kfn)pfi_noise_f32_ref;
    slots[PFI_PHOTO_INVERT_U8] = (pfi_kfn)pfi_invert_u8_ref;
}

pfi_kfamily pfi_photo_family = PFI_KFAMILY_INIT(k_names, PFI_PHOTO_SLOTS, fill_ref, NULL,
                                                PFI_X86(pfi_photo_fill_avx2),
                                                PFI_X86(pfi_photo_fill_avx512),
                                                PFI_X86(pfi_photo_fill_avx512vbmi), NULL);
