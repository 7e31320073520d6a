/* Warp kernel family: u8 samplers (a whole row from int16 coordinates,
 * one slot per interpolation), fused affine u8 kernels (coordinates and
 * sampling in one pass), fused remap u8 kernels, and the coordinate rows (affine, perspective,
 * remap) that every other case samples from. */
#ifndef PF_CPU_WARP_EXEC_H
#define PF_CPU_WARP_EXEC_H

#include "dispatch/kfamily.h"
#include "pixflow/ops.h"
#include "ref/warp_rows.h"

/* The u8 samplers, fused affine and fused remap kernels are indexed by
 * interpolation (PF_INTERP_NEAREST, LINEAR, CUBIC: 0..2). */
typedef struct pfi_warp_kernels {
    pfi_warp_u8_row_fn u8_row[3];
    pfi_warp_affine_u8_fn affine_u8[3];
    pfi_warp_remap_u8_fn remap_u8[3];
    pfi_warp_affine_xy_fn affine_xy;
    pfi_warp_persp_xy_fn persp_xy;
    pfi_warp_remap_xy_fn remap_xy;
} pfi_warp_kernels;

extern pfi_kfamily pfi_warp_family;

void pfi_warp_fill_avx2(pfi_warp_kernels *k);
void pfi_warp_fill_u8_avx2(pfi_warp_kernels *k);

#endif
