/* The 4:2:0 conversion coefficients per (matrix, range): a plan input
 * shared by the reference rows, the CPU kernels and the CUDA jobs (the
 * values themselves are kernels/yuv_math.h's). */
#ifndef PF_PLAN_YUV_COEFFS_H
#define PF_PLAN_YUV_COEFFS_H

#include "kernels/yuv_math.h"

/* The coefficient table for (pf_yuv_matrix, pf_yuv_range); both in 0..1. */
const pfk_yuv_coeffs *pfi_yuv_coeffs(int matrix, int range);

#endif
