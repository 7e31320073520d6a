/* Warp kernel family: the reference everywhere; AVX2 (and every level
 * above it) takes the gather-and-multiply-add u8 LINEAR kernels and the
 * vector coordinate rows. */
#include "cpu/warp_exec.h"

static const char *const k_names[PFI_WARP_SLOTS] = {"warp.linear_u8_c1", "warp.linear_u8_c3",
                                                    "warp.linear_u8_c4", "warp.affine_xy",
                                                    "warp.persp_xy", "warp.remap_xy"};

static void fill_ref(pfi_kfn *slots) {
    slots[PFI_WARP_LINEAR_U8_C1] = (pfi_kfn)pfi_warp_linear_u8_ref;
    slots[PFI_WARP_LINEAR_U8_C3] = (pfi_kfn)pfi_warp_linear_u8_ref;
    slots[PFI_WARP_LINEAR_U8_C4] = (pfi_kfn)pfi_warp_linear_u8_ref;
    slots[PFI_WARP_AFFINE_XY] = (pfi_kfn)pfi_warp_affine_xy_ref;
    slots[PFI_WARP_PERSP_XY] = (pfi_kfn)pfi_warp_persp_xy_ref;
    slots[PFI_WARP_REMAP_XY] = (pfi_kfn)pfi_warp_remap_xy_ref;
}

pfi_kfamily pfi_warp_family = PFI_KFAMILY_INIT(k_names, PFI_WARP_SLOTS, fill_ref, NULL,
                                               PFI_X86(pfi_warp_fill_avx2), NULL, NULL);

pfi_warp_linear_u8_fn pfi_warp_linear_u8(const pfi_ktable *k, int32_t cn) {
    switch (cn) {
    case 1: return (pfi_warp_linear_u8_fn)k->fn[PFI_WARP_LINEAR_U8_C1];
    case 3: return (pfi_warp_linear_u8_fn)k->fn[PFI_WARP_LINEAR_U8_C3];
    case 4: return (pfi_warp_linear_u8_fn)k->fn[PFI_WARP_LINEAR_U8_C4];
    default: return NULL;
    }
}
