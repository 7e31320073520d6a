/* Warp helpers shared by the CPU backend (src/cpu/warp_cpu.c) and the GPU job
 * builders (src/gpu/warp_jobs.c), so both use the same inverse matrix
 * and the same saturated border value. */
#ifndef PF_OPS_WARP_MATRIX_H
#define PF_OPS_WARP_MATRIX_H

#include "pixflow/ops.h"

/* Which of the three ops a warp call is: the front-end (ops/warp_op.c)
 * and the CPU backend (cpu/warp_cpu.c) share it. */
typedef enum pfi_warp_kind { PFI_WARP_AFFINE, PFI_WARP_PERSPECTIVE, PFI_WARP_REMAP } pfi_warp_kind;

/* dst -> src matrix of one sample into m[9] (affine: m[6..8] = 0, 0, 1):
 * in copied (flags has PF_WARP_INVERSE_MAP) or inverted as cv::warpAffine /
 * cv::warpPerspective (via cv::invert's 3x3 formula) do. Fails, naming
 * op and matrices[mi], on non-finite entries or a singular matrix. */
pf_status pfi_warp_dst_to_src(const char *op, int perspective, const double *in, int mi, int flags, double m[9]);

/* OpenCV's int16 coordinates: warp sides must be below this. */
#define PFI_WARP_MAX_SIDE 32767

/* PF_ERR_UNSUPPORTED naming op, src[i] and dst[i] when a side of s or d
 * reaches PFI_WARP_MAX_SIDE. The warp front-end checks it for every call;
 * the fused preprocess (cpu/preprocess_canvas.c), which calls the CPU warp
 * executor directly, checks it per sample the same way. */
pf_status pfi_warp_check_sides(const char *op, int i, const pf_image *s, const pf_image *d);

/* OpenCV's saturate_cast<T>(double) of a border value, stored as one
 * element of dtype dt (u8, u16 or f32) at elem. */
void pfi_warp_cval_store(pf_dtype dt, double v, void *elem);

#endif
