/* Geometry row kernels (flip / rotate / transpose): the reference and the
 * contract of the optimized versions. Pixels are opaque `px`-byte units
 * (dtype size x channels for HWC, dtype size for a CHW plane). */
#ifndef PF_REF_GEOM_ROWS_H
#define PF_REF_GEOM_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* dst pixel x = src pixel n-1-x, for x in [0, n). Optimized kernels of a
 * given px handle any n (they finish their own tail through the reference
 * helper pfi_flip_row_ref), so the slot contract is "whole rows". */
typedef void (*pfi_flip_row_fn)(const uint8_t *src, uint8_t *dst, int32_t n);

void pfi_flip_row_ref(const uint8_t *src, uint8_t *dst, int32_t n, int32_t px);

/* dst pixel x = the px bytes at src + x * step (step in bytes, any sign):
 * one output row read down a source column (transpose / quarter turns). */
void pfi_gather_row_ref(const uint8_t *src, ptrdiff_t step, uint8_t *dst, int32_t n, int32_t px);

#endif
