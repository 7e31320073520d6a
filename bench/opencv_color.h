/* cv::cvtColor behind a C interface, for `pixflow bench color`. */
#ifndef PIXFLOW_BENCH_OPENCV_COLOR_H
#define PIXFLOW_BENCH_OPENCV_COLOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* u8 HWC w x h, scn -> dcn channels, byte strides, through cv::cvtColor
 * with `code` (OpenCV's value) writing into dst in place. Returns 0 on
 * success. */
int pfb_cv_cvt_color(const uint8_t *src, int w, int h, ptrdiff_t sstride, int scn, uint8_t *dst,
                     ptrdiff_t dstride, int dcn, int code);

#ifdef __cplusplus
}
#endif

#endif
