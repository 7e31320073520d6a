/* Warp kernel family: the reference everywhere; AVX2 (and every level
 * above it) takes the vector coordinate rows (warp_avx2.c) and the u8
 * samplers and fused affine kernels (warp_u8_avx2.c). */
#include "cpu/warp_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_warp_kernels, u8_row[PF_INTERP_NEAREST], "warp.u8_nearest"),
    PFI_KSLOT(pfi_warp_kernels, u8_row[PF_INTERP_LINEAR], "warp.u8_linear"),
    PFI_KSLOT(pfi_warp_kernels, u8_row[PF_INTERP_CUBIC], "warp.u8_cubic"),
    PFI_KSLOT(pfi_warp_kernels, affine_u8[PF_INTERP_NEAREST], "warp.affine_u8_nearest"),
    PFI_KSLOT(pfi_warp_kernels, affine_u8[PF_INTERP_LINEAR], "warp.affine_u8_linear"),
    PFI_KSLOT(pfi_warp_kernels, affine_u8[PF_INTERP_CUBIC], "warp.affine_u8_cubic"),
    PFI_KSLOT(pfi_warp_kernels, remap_u8[PF_INTERP_NEAREST], "warp.remap_u8_nearest"),
    PFI_KSLOT(pfi_warp_kernels, remap_u8[PF_INTERP_LINEAR], "warp.remap_u8_linear"),
    PFI_KSLOT(pfi_warp_kernels, remap_u8[PF_INTERP_CUBIC], "warp.remap_u8_cubic"),
    PFI_KSLOT(pfi_warp_kernels, affine_xy, "warp.affine_xy"),
    PFI_KSLOT(pfi_warp_kernels, persp_xy, "warp.persp_xy"),
    PFI_KSLOT(pfi_warp_kernels, remap_xy, "warp.remap_xy"),
};

static void fill_ref(pfi_warp_kernels *k) {
    for (int i = 0; i < 3; i++) {
        k->u8_row[i] = pfi_warp_u8_row_ref;
        k->affine_u8[i] = pfi_warp_affine_u8_ref;
        k->remap_u8[i] = pfi_warp_remap_u8_ref;
    }
    k->affine_xy = pfi_warp_affine_xy_ref;
    k->persp_xy = pfi_warp_persp_xy_ref;
    k->remap_xy = pfi_warp_remap_xy_ref;
}

#if defined(PF_HAVE_X86)
static void fill_avx2(pfi_warp_kernels *k) {
    pfi_warp_fill_avx2(k);
    pfi_warp_fill_u8_avx2(k);
}
#endif

PFI_KFAMILY_DEFINE(pfi_warp_family, pfi_warp_kernels, slots,
                  fill_ref, NULL, PFI_X86(fill_avx2), NULL, NULL, NULL);
