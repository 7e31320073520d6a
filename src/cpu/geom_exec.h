/* Geometry kernel family: horizontal flip of rows and 8x8 tile transposes
 * of 1-, 2-, 3- and 4-byte pixels (u8 with 1..4 channels, u16 with 1-2,
 * f32 gray). */
#ifndef PF_CPU_GEOM_EXEC_H
#define PF_CPU_GEOM_EXEC_H

#include "dispatch/kfamily.h"
#include "ref/geom_rows.h"

/* Transposes an 8x8 tile of px-byte pixels: destination row k (at
 * dst + k * dstep) gets pixel k of each of the 8 source rows (at
 * src + r * rstep), in row order. Steps may be negative. */
typedef void (*pfi_tile8_fn)(const uint8_t *src, ptrdiff_t rstep, uint8_t *dst, ptrdiff_t dstep);

/* flip[px - 1] reverses rows of px-byte pixels; tile8[px - 1] transposes
 * 8x8 tiles of them (every level has both: the reference's at least). */
typedef struct pfi_geom_kernels {
    pfi_flip_row_fn flip[4];
    pfi_tile8_fn tile8[4];
} pfi_geom_kernels;

extern pfi_kfamily pfi_geom_family;

void pfi_geom_fill_sse4(pfi_geom_kernels *k);
void pfi_geom_fill_avx2(pfi_geom_kernels *k);
void pfi_geom_fill_avx512vbmi(pfi_geom_kernels *k);

/* The tile kernel for px, or NULL when this level has none. */
pfi_tile8_fn pfi_tile8(const pfi_geom_kernels *k, int32_t px);

/* Flip one row of n pixels of px bytes with the table's kernel for px
 * (1..4) or the reference. */
void pfi_flip_row(const pfi_geom_kernels *k, const uint8_t *src, uint8_t *dst, int32_t n, int32_t px);

#endif
