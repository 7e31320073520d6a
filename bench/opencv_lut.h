/* cv::LUT behind a C interface, for `pixflow bench lut` and tests. */
#ifndef PIXFLOW_BENCH_OPENCV_LUT_H
#define PIXFLOW_BENCH_OPENCV_LUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* u8 HWC image (w x h x cn, byte stride) through cv::LUT. table_cn is 1
 * (one 256-byte table) or cn (tables[c * 256 + v], converted to OpenCV's
 * interleaved cn-channel LUT once per call). Returns 0 on success. */
int pfb_cv_lut(const uint8_t *src, int w, int h, ptrdiff_t sstride, uint8_t *dst, ptrdiff_t dstride,
               int cn, const uint8_t *tables, int table_cn);

#ifdef __cplusplus
}
#endif

#endif
