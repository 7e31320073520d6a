/* Checks the GPU paths add to an op's validation. */
#ifndef PF_GPU_GPU_CHECK_H
#define PF_GPU_GPU_CHECK_H

#include "pixflow/core.h"

/* 1 when the view's address, row stride and plane stride (CHW) are
 * multiples of its element size (always for 1-byte elements). */
int pfi_gpu_view_aligned(const pf_image *im);

/* The view's address, row stride and plane stride (CHW) are multiples of
 * its element size: GPU kernels load u16/s16/s32/f16/bf16/f32 elements
 * as whole words, which a misaligned address would fault on (the CPU
 * path accepts any alignment). PF_ERR_UNSUPPORTED naming op, side[i]. */
pf_status pfi_gpu_check_aligned(const char *op, const char *side, int i, const pf_image *im);

#endif
