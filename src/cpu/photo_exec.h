/* Photometric kernel family: the float-heavy row kernels (blends, HSV
 * round trip, colour matrix, grayscale, gray sum, Philox noise) and the u8
 * invert (a plain XOR). The other LUT shaped ops (u8 brightness, gamma,
 * solarize, posterize, autocontrast, equalize, contrast's final pass) go
 * through the pf_lut executor (pfi_photo_lut, photo_rows.c). */
#ifndef PF_CPU_PHOTO_EXEC_H
#define PF_CPU_PHOTO_EXEC_H

#include "dispatch/kfamily.h"
#include "ref/photo_rows.h"

enum {
    PFI_PHOTO_CONTRAST_F32 = 0,
    PFI_PHOTO_SAT_U8, PFI_PHOTO_SAT_F32,
    PFI_PHOTO_HUE_U8, PFI_PHOTO_HUE_F32,
    PFI_PHOTO_TWIST_U8, PFI_PHOTO_TWIST_F32,
    PFI_PHOTO_GRAY1_U8, PFI_PHOTO_GRAY3_U8,
    PFI_PHOTO_PX_SLOTS
};

/* px[]: the pixel kernels (pfi_photo_row_fn), indexed by the enum above;
 * then the kernels of other shapes. */
typedef struct pfi_photo_kernels {
    pfi_photo_row_fn px[PFI_PHOTO_PX_SLOTS];
    pfi_graysum_u8_fn graysum_u8;
    pfi_noise_row_fn noise_u8, noise_f32;
    pfi_bytes_fn invert_u8;
} pfi_photo_kernels;

extern pfi_kfamily pfi_photo_family;

void pfi_photo_fill_avx2(pfi_photo_kernels *k);
/* The avx512 level is fill_avx512; the avx512vbmi level adds
 * fill_avx512vbmi (RGB u8 slots with byte-permute loads/stores). */
void pfi_photo_fill_avx512(pfi_photo_kernels *k);
void pfi_photo_fill_avx512vbmi(pfi_photo_kernels *k);

#endif
