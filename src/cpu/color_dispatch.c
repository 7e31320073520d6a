/* Colour kernel family: the reference everywhere; on x86 the AVX2 level
 * takes the 8-lane kernels of color_avx2.c, and the avx512vbmi level the
 * byte-permute shuffles of color_avx512vbmi.c and the 16-lane arithmetic
 * kernels of color_avx512vbmi_math.c. There is no plain AVX-512 colour
 * kernel: the avx512 level (no VBMI) keeps the AVX2 ones. */
#include "cpu/color_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_SWAP_U8C3], "color.swap_rb_u8c3"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_SWAP_U8C4], "color.swap_rb_u8c4"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_ADD_ALPHA_U8], "color.add_alpha_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_DROP_ALPHA_U8], "color.drop_alpha_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_GRAY_U8C3], "color.gray_u8c3"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_GRAY_U8C4], "color.gray_u8c4"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_GRAY2BGR_U8], "color.gray2bgr_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_GRAY2BGRA_U8], "color.gray2bgra_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_YCRCB_U8], "color.ycrcb_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_YCRCB2RGB_U8], "color.ycrcb2rgb_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_HSV_U8], "color.hsv_u8"),
    PFI_KSLOT(pfi_color_kernels, row[PFI_COLOR_HSV2RGB_U8], "color.hsv2rgb_u8"),
};

static void fill_ref(pfi_color_kernels *k) {
    for (int i = 0; i < PFI_COLOR_SLOTS; i++) k->row[i] = pfi_color_row_ref;
}

PFI_KFAMILY_DEFINE(pfi_color_family, pfi_color_kernels, slots,
                  fill_ref, NULL, PFI_X86(pfi_color_fill_avx2), NULL, PFI_X86(pfi_color_fill_avx512vbmi), NULL);

int pfi_color_slot(const pfi_color_desc *d) {
    if (d->dtype != PF_U8) return -1;
    switch (d->kind) {
    case PFK_COLOR_RGB2RGB:
        if (d->scn == 3 && d->dcn == 3) return d->swap ? PFI_COLOR_SWAP_U8C3 : -1;
        if (d->scn == 4 && d->dcn == 4) return d->swap ? PFI_COLOR_SWAP_U8C4 : -1;
        return d->scn == 3 ? PFI_COLOR_ADD_ALPHA_U8 : PFI_COLOR_DROP_ALPHA_U8;
    case PFK_COLOR_RGB2GRAY: return d->scn == 3 ? PFI_COLOR_GRAY_U8C3 : PFI_COLOR_GRAY_U8C4;
    case PFK_COLOR_GRAY2RGB: return d->dcn == 3 ? PFI_COLOR_GRAY2BGR_U8 : PFI_COLOR_GRAY2BGRA_U8;
    case PFK_COLOR_RGB2YCRCB: return PFI_COLOR_YCRCB_U8;
    case PFK_COLOR_YCRCB2RGB: return PFI_COLOR_YCRCB2RGB_U8;
    case PFK_COLOR_RGB2HSV: return PFI_COLOR_HSV_U8;
    case PFK_COLOR_HSV2RGB: return PFI_COLOR_HSV2RGB_U8;
    }
    return -1;
}
