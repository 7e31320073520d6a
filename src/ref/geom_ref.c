/* Reference geometry row kernels: byte copies of whole pixels, so every
 * dtype and channel count is exact by construction. Fixed-size memcpy for
 * the common pixel sizes lets the compiler emit single moves. */
#include <string.h>

#include "ref/geom_rows.h"

#define PFI_PX_CASES(X) X(1) X(2) X(3) X(4) X(6) X(8) X(12) X(16)

void pfi_flip_row_ref(const uint8_t *src, uint8_t *dst, int32_t n, int32_t px) {
    const uint8_t *s = src + (ptrdiff_t)(n - 1) * px;
    switch (px) {
#define FLIP_CASE(P)                                                         \
    case P:                                                                  \
        for (int32_t x = 0; x < n; x++) memcpy(dst + (ptrdiff_t)x * P, s - (ptrdiff_t)x * P, P); \
        return;
        PFI_PX_CASES(FLIP_CASE)
#undef FLIP_CASE
    default:
        for (int32_t x = 0; x < n; x++)
            memcpy(dst + (ptrdiff_t)x * px, s - (ptrdiff_t)x * px, (size_t)px);
    }
}

void pfi_gather_row_ref(const uint8_t *src, ptrdiff_t step, uint8_t *dst, int32_t n, int32_t px) {
    switch (px) {
#define GATHER_CASE(P)                                                       \
    case P:                                                                  \
        for (int32_t x = 0; x < n; x++) memcpy(dst + (ptrdiff_t)x * P, src + (ptrdiff_t)x * step, P); \
        return;
        PFI_PX_CASES(GATHER_CASE)
#undef GATHER_CASE
    default:
        for (int32_t x = 0; x < n; x++)
            memcpy(dst + (ptrdiff_t)x * px, src + (ptrdiff_t)x * step, (size_t)px);
    }
}
