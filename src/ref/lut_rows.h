/* LUT row kernels: the reference (the specification) and the contract the
 * optimized kernels follow. */
#ifndef PF_REF_LUT_ROWS_H
#define PF_REF_LUT_ROWS_H

#include <stdint.h>

/* dst[j] = tables[(j % cn) * 256 + src[j]] for j in [0, n): n elements of
 * an interleaved row with cn channels (cn = 1 for a plane, or for one table
 * shared by all channels). Optimized kernels handle only n that is a
 * multiple of PFI_LUT_BLOCK(cn); the caller runs the reference on the rest,
 * which starts at a multiple of cn so the channel phase is preserved. */
typedef void (*pfi_lut_row_fn)(const uint8_t *src, uint8_t *dst, int32_t n, int32_t cn,
                               const uint8_t *tables);

#define PFI_LUT_BLOCK(cn) ((cn) == 3 ? 192 : 64)

void pfi_lut_row_ref(const uint8_t *src, uint8_t *dst, int32_t n, int32_t cn,
                     const uint8_t *tables);

#endif
