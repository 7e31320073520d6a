/* One table per (matrix, range), indexed matrix * 2 + range. */
#include "plan/yuv_coeffs.h"

static const pfk_yuv_coeffs k_tables[4] = {PFK_YUV_BT601_LIMITED, PFK_YUV_BT601_FULL,
                                           PFK_YUV_BT709_LIMITED, PFK_YUV_BT709_FULL};

const pfk_yuv_coeffs *pfi_yuv_coeffs(int matrix, int range) {
    return &k_tables[matrix * 2 + range];
}
