/* The closest OpenCV compositions to pixflow's photometric ops, behind a C
 * interface, for `pixflow bench photo` (cost comparison; most are not the
 * same formula as torchvision's). */
#ifndef PIXFLOW_BENCH_OPENCV_PHOTO_H
#define PIXFLOW_BENCH_OPENCV_PHOTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PFB_CV_BRIGHTNESS = 0, /* convertTo(alpha = f) */
    PFB_CV_CONTRAST,       /* cvtColor gray + mean + convertTo(f, (1-f) mean) */
    PFB_CV_SATURATION,     /* cvtColor gray -> RGB + addWeighted */
    PFB_CV_HUE,            /* cvtColor RGB2HSV_FULL + add to H + HSV2RGB_FULL */
    PFB_CV_TWIST,          /* cv::transform with a 3x4 matrix */
    PFB_CV_EQUALIZE,       /* split + equalizeHist per channel + merge */
    PFB_CV_INVERT,         /* bitwise_not */
    PFB_CV_NOISE           /* randn into a 16-bit image (sigma p*255) + saturating add */
};

/* u8 RGB HWC w x h (byte strides) through op with parameter p (matrix m
 * for TWIST, 12 floats; NOISE: sigma p, mean 0, in [0, 1] units). Returns 0
 * on success. */
int pfb_cv_photo(int op, const uint8_t *src, int w, int h, ptrdiff_t sstride, uint8_t *dst, ptrdiff_t dstride,
                 double p, const float *m);

#ifdef __cplusplus
}
#endif

#endif
