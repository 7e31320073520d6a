/* cv::cvtColor for the 4:2:0 codes behind a C interface, for
 * `pixflow bench yuv`. */
#ifndef PIXFLOW_BENCH_OPENCV_YUV_H
#define PIXFLOW_BENCH_OPENCV_YUV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cv::cvtColor(src, dst, code) with src a (sh x sw x scn) u8 Mat and dst a
 * preallocated (dh x dw x dcn) u8 Mat, both wrapping caller memory with the
 * given byte strides (for 4:2:0 codes the frame side is OpenCV's single
 * H*3/2 x W plane). Returns 0 when OpenCV wrote into dst in place. */
int pfb_cv_cvt_color_frame(const uint8_t *src, int sw, int sh, int scn, ptrdiff_t sstride, uint8_t *dst,
                     int dw, int dh, int dcn, ptrdiff_t dstride, int code);

#ifdef __cplusplus
}
#endif

#endif
