/* cv::flip / cv::rotate / cv::transpose / cv::copyMakeBorder behind a C
 * interface, for `pixflow bench geom`. u8 HWC images with byte strides. */
#ifndef PIXFLOW_BENCH_OPENCV_GEOM_H
#define PIXFLOW_BENCH_OPENCV_GEOM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* op: 0 flip (arg = flipCode), 1 rotate (arg = RotateFlags),
 * 2 transpose, 3 copyMakeBorder (arg = border type, `pad` pixels on every
 * side, value 0). dst must have the result's size. Returns 0 on success. */
int pfb_cv_geom(int op, int arg, int pad, const uint8_t *src, int w, int h, ptrdiff_t sstride,
                uint8_t *dst, int dw, int dh, ptrdiff_t dstride, int cn);

#ifdef __cplusplus
}
#endif

#endif
