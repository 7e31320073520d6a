/* Warp kernel family: u8 LINEAR sampling of inlier runs for 1, 3 and 4
 * interleaved channels, and the coordinate rows (affine, perspective,
 * remap). */
#ifndef PF_CPU_WARP_EXEC_H
#define PF_CPU_WARP_EXEC_H

#include "cpu/kfamily.h"
#include "ref/warp_rows.h"

enum {
    PFI_WARP_LINEAR_U8_C1 = 0, PFI_WARP_LINEAR_U8_C3, PFI_WARP_LINEAR_U8_C4, PFI_WARP_AFFINE_XY,
    PFI_WARP_PERSP_XY, PFI_WARP_REMAP_XY, PFI_WARP_SLOTS
};

extern pfi_kfamily pfi_warp_family;

void pfi_warp_fill_avx2(pfi_kfn *slots);

/* The u8 LINEAR inlier kernel for cn channels (1, 3 or 4), else NULL. */
pfi_warp_linear_u8_fn pfi_warp_linear_u8(const pfi_ktable *k, int32_t cn);

#endif
