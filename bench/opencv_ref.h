/*
 * opencv_ref: a tiny C-callable shim over OpenCV's cv::resize, used by the
 * `pixflow bench` CLI (C code) and by tests, so that C code can time or
 * compare against OpenCV in the same process. OpenCV is an oracle only:
 * the pixflow library itself never links it.
 *
 * Compiles as C11 and as C++.
 */
#ifndef PIXFLOW_BENCH_OPENCV_REF_H
#define PIXFLOW_BENCH_OPENCV_REF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dtype: 0=u8, 1=u16, 6=f32 (pixflow's pf_dtype values); interp: OpenCV
 * INTER_* value (0 NEAREST, 1 LINEAR, 2 CUBIC, 3 AREA, 4 LANCZOS4,
 * 6 NEAREST_EXACT). Images are interleaved (HWC) with byte strides; the
 * caller's memory is wrapped in cv::Mat headers, not copied. A negative
 * stride (data pointing at the last row) is accepted too, at the cost of a
 * row-flipped temporary copy, because cv::Mat cannot describe it.
 * Returns 0 on success, -1 on any failure: bad argument, a cv::Exception
 * (or any other exception), or OpenCV reallocating dst instead of writing
 * into the caller's buffer. Writes nothing to stdout. */
int pfb_cv_resize(const void *src, int sw, int sh, ptrdiff_t sstride,
                  void *dst, int dw, int dh, ptrdiff_t dstride,
                  int channels, int dtype, int interp);

/* cv::setNumThreads(n): n <= 0 lets OpenCV pick (0 = run sequentially in
 * OpenCV's convention; negative = default number of threads). */
void pfb_cv_set_threads(int n);

/* CV_VERSION of the OpenCV this shim was compiled against, e.g. "4.6.0". */
const char *pfb_cv_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_BENCH_OPENCV_REF_H */
