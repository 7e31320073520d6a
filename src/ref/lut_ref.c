/* Reference LUT row kernel (cv::LUT semantics for u8 -> u8). */
#include "ref/lut_rows.h"

void pfi_lut_row_ref(const uint8_t *src, uint8_t *dst, int32_t n, int32_t cn,
                     const uint8_t *tables) {
    if (cn == 1) {
        for (int32_t j = 0; j < n; j++) dst[j] = tables[src[j]];
        return;
    }
    for (int32_t j = 0; j < n; j += cn)
        for (int32_t c = 0; c < cn && j + c < n; c++) dst[j + c] = tables[c * 256 + src[j + c]];
}
