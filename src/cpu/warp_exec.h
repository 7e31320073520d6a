/* Warp kernel family: u8 samplers (a whole row from int16 coordinates,
 * one slot per interpolation), fused affine u8 kernels (coordinates and
 * sampling in one pass), fused remap u8 kernels, and the coordinate rows (affine, perspective,
 * remap) that every other case samples from. */
#ifndef PF_CPU_WARP_EXEC_H
#define PF_CPU_WARP_EXEC_H

#include "cpu/kfamily.h"
#include "ref/warp_rows.h"

enum {
    PFI_WARP_U8_NEAREST = 0, PFI_WARP_U8_LINEAR, PFI_WARP_U8_CUBIC, /* + interp */
    PFI_WARP_AFFINE_U8_NEAREST, PFI_WARP_AFFINE_U8_LINEAR, PFI_WARP_AFFINE_U8_CUBIC, /* + interp */
    PFI_WARP_REMAP_U8_NEAREST, PFI_WARP_REMAP_U8_LINEAR, PFI_WARP_REMAP_U8_CUBIC,    /* + interp */
    PFI_WARP_AFFINE_XY, PFI_WARP_PERSP_XY, PFI_WARP_REMAP_XY, PFI_WARP_SLOTS
};

extern pfi_kfamily pfi_warp_family;

void pfi_warp_fill_avx2(pfi_kfn *slots);
void pfi_warp_fill_u8_avx2(pfi_kfn *slots);

/* The u8 row sampler / fused affine kernel for interp (0..2). */
static inline pfi_warp_u8_row_fn pfi_warp_u8_row(const pfi_ktable *k, int interp) {
    return (pfi_warp_u8_row_fn)k->fn[PFI_WARP_U8_NEAREST + interp];
}
static inline pfi_warp_affine_u8_fn pfi_warp_affine_u8(const pfi_ktable *k, int interp) {
    return (pfi_warp_affine_u8_fn)k->fn[PFI_WARP_AFFINE_U8_NEAREST + interp];
}

static inline pfi_warp_remap_u8_fn pfi_warp_remap_u8(const pfi_ktable *k, int interp) {
    return (pfi_warp_remap_u8_fn)k->fn[PFI_WARP_REMAP_U8_NEAREST + interp];
}

#endif
