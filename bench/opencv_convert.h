/* OpenCV conversion chains behind a C interface, for `pixflow bench convert`. */
#ifndef PIXFLOW_BENCH_OPENCV_CONVERT_H
#define PIXFLOW_BENCH_OPENCV_CONVERT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Depth codes of the shim (OpenCV's values): 0 u8, 2 u16, 3 s16, 4 s32,
 * 5 f32, 7 f16. src.convertTo(dst, ddepth, alpha, beta) for w x h x cn
 * interleaved images with byte strides. Returns 0 on success. */
int pfb_cv_convert(const void *src, int w, int h, int cn, int sdepth, ptrdiff_t sstride, void *dst,
                   int ddepth, ptrdiff_t dstride, double alpha, double beta);

/* The usual OpenCV normalize chain for a u8 HWC 3-channel image:
 * convertTo(CV_32F, scale), subtract(Scalar(mean)), divide(Scalar(std)),
 * (convertTo(CV_16F) when half), split into the planes dst + plane_bytes *
 * k, where src channel s goes to plane plane_of[s] (the channel swap).
 * mean/std are per src channel. Temporaries are reused between calls. */
int pfb_cv_normalize_chain(const unsigned char *src, int w, int h, ptrdiff_t sstride, float scale,
                           const float mean[3], const float stdv[3], void *dst, size_t plane_bytes,
                           const int plane_of[3], int half);

/* cv::split of a u8 HWC image into cn packed planes dst + k * w * h, and
 * cv::merge of such planes back. */
int pfb_cv_split_u8(const unsigned char *src, int w, int h, int cn, ptrdiff_t sstride, unsigned char *dst);
int pfb_cv_merge_u8(const unsigned char *planes, int w, int h, int cn, unsigned char *dst, ptrdiff_t dstride);

#ifdef __cplusplus
}
#endif

#endif
