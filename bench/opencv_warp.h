/* cv::warpAffine / cv::warpPerspective / cv::remap behind a C interface,
 * for `pixflow bench warp`. u8 HWC images with byte strides. */
#ifndef PIXFLOW_BENCH_OPENCV_WARP_H
#define PIXFLOW_BENCH_OPENCV_WARP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* op: 0 warpAffine (m: 6 doubles), 1 warpPerspective (m: 9 doubles),
 * 2 remap (mx, my: dw x dh float maps, packed). flags = interpolation |
 * WARP_INVERSE_MAP, border constant 0. Returns 0 on success. */
int pfb_cv_warp(int op, const double *m, const float *mx, const float *my, int flags, const uint8_t *src, int w,
                int h, ptrdiff_t sstride, uint8_t *dst, int dw, int dh, ptrdiff_t dstride, int cn);

#ifdef __cplusplus
}
#endif

#endif
