/* OpenCV filters behind a C interface, for `pixflow bench filter`. HWC
 * images (depth 0 u8, 1 u16, 2 f32) with byte strides, default borders (REFLECT_101, erode:
 * CONSTANT with morphologyDefaultBorderValue). */
#ifndef PIXFLOW_BENCH_OPENCV_FILTER_H
#define PIXFLOW_BENCH_OPENCV_FILTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* op: 0 GaussianBlur (ksize x ksize, sigma 0), 1 blur, 2 medianBlur,
 * 3 erode (rectangle), 4 filter2D with the ksize x ksize f32 `kernel`,
 * 5 the OpenCV way to write torchvision's sharpen: filter2D with the 3x3
 * [1 1 1; 1 5 1; 1 1 1] / 13 kernel, then addWeighted(src, factor,
 * blurred, 1 - factor). Returns 0 on success. */
int pfb_cv_filter(int op, int ksize, const float *kernel, double factor, int depth, const void *src, int w, int h,
                  ptrdiff_t sstride, void *dst, ptrdiff_t dstride, int cn);

#ifdef __cplusplus
}
#endif

#endif
