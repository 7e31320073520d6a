/* Colour kernel family (slot names and ISA fill functions). Every slot is a
 * pfi_color_row_fn for one fixed shape (u8 only); the API picks the slot
 * from the code and falls back to the reference for everything else. */
#ifndef PF_CPU_COLOR_EXEC_H
#define PF_CPU_COLOR_EXEC_H

#include "dispatch/kfamily.h"
#include "ref/color_rows.h"

enum {
    PFI_COLOR_SWAP_U8C3 = 0, /* BGR <-> RGB */
    PFI_COLOR_SWAP_U8C4,     /* BGRA <-> RGBA */
    PFI_COLOR_ADD_ALPHA_U8,  /* 3 -> 4, desc->swap honoured */
    PFI_COLOR_DROP_ALPHA_U8, /* 4 -> 3, desc->swap honoured */
    PFI_COLOR_GRAY_U8C3,     /* BGR/RGB -> GRAY, desc->bidx honoured */
    PFI_COLOR_GRAY_U8C4,     /* BGRA/RGBA -> GRAY */
    PFI_COLOR_GRAY2BGR_U8,   /* GRAY -> BGR */
    PFI_COLOR_GRAY2BGRA_U8,  /* GRAY -> BGRA */
    PFI_COLOR_YCRCB_U8,      /* BGR/RGB(A) -> YCrCb, desc->scn, bidx honoured */
    PFI_COLOR_YCRCB2RGB_U8,  /* YCrCb -> BGR/RGB(A), desc->dcn, bidx honoured */
    PFI_COLOR_HSV_U8,        /* BGR/RGB(A) -> HSV, hrange 180 / 256 */
    PFI_COLOR_HSV2RGB_U8,    /* HSV -> BGR/RGB(A), hrange 180 / 255, hsv_trunc */
    PFI_COLOR_SLOTS
};

/* One kernel per shape (u8 only), indexed by the enum above. */
typedef struct pfi_color_kernels {
    pfi_color_row_fn row[PFI_COLOR_SLOTS];
} pfi_color_kernels;

extern pfi_kfamily pfi_color_family;

/* Slot for a conversion, or -1 when only the reference handles it. */
int pfi_color_slot(const pfi_color_desc *d);

void pfi_color_fill_avx2(pfi_color_kernels *k);
void pfi_color_fill_avx512vbmi(pfi_color_kernels *k);
/* The YCrCb / HSV kernels of the avx512vbmi level (color_avx512vbmi_math.c). */
void pfi_color_fill_avx512vbmi_math(pfi_color_kernels *k);

#endif
