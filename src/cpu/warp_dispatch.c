/* Warp kernel family: the reference everywhere; AVX2 (and every level
 * above it) takes the vector coordinate rows (warp_avx2.c) and the u8
 * samplers and fused affine kernels (warp_u8_avx2.c). */
#include "cpu/warp_exec.h"

static const char *const k_names[PFI_WARP_SLOTS] = {
    "warp.u8_nearest",        "warp.u8_linear",        "warp.u8_cubic",
    "warp.affine_u8_nearest", "warp.affine_u8_linear", "warp.affine_u8_cubic",
    "warp.remap_u8_nearest",  "warp.remap_u8_linear",  "warp.remap_u8_cubic",
    "warp.affine_xy",         "warp.persp_xy",         "warp.remap_xy"};

static void fill_ref(pfi_kfn *slots) {
    for (int i = 0; i < 3; i++) {
        slots[PFI_WARP_U8_NEAREST + i] = (pfi_kfn)pfi_warp_u8_row_ref;
        slots[PFI_WARP_AFFINE_U8_NEAREST + i] = (pfi_kfn)pfi_warp_affine_u8_ref;
        slots[PFI_WARP_REMAP_U8_NEAREST + i] = (pfi_kfn)pfi_warp_remap_u8_ref;
    }
    slots[PFI_WARP_AFFINE_XY] = (pfi_kfn)pfi_warp_affine_xy_ref;
    slots[PFI_WARP_PERSP_XY] = (pfi_kfn)pfi_warp_persp_xy_ref;
    slots[PFI_WARP_REMAP_XY] = (pfi_kfn)pfi_warp_remap_xy_ref;
}

#if defined(PF_HAVE_X86)
static void fill_avx2(pfi_kfn *slots) {
    pfi_warp_fill_avx2(slots);
    pfi_warp_fill_u8_avx2(slots);
}
#endif

pfi_kfamily pfi_warp_family = PFI_KFAMILY_INIT(k_names, PFI_WARP_SLOTS, fill_ref, NULL, PFI_X86(fill_avx2), NULL,
                                               NULL, NULL);
