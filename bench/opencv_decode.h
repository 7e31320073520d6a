/* The OpenCV side of `pixflow bench decode`: JPEG bytes -> 224x224 CHW
 * f32 imagenet-train sample with cv::imdecode and the plain OpenCV chain. */
#ifndef PIXFLOW_BENCH_OPENCV_DECODE_H
#define PIXFLOW_BENCH_OPENCV_DECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pfb_cv_dec_sample {
    const uint8_t *bytes;
    size_t size;
    int cx, cy, cw, ch;   /* crop in the decoded image */
    int flip_h;
} pfb_cv_dec_sample;

typedef struct pfb_cv_dec_job {
    const pfb_cv_dec_sample *samples;
    int count;
    int out_w, out_h;
    float scale, mean[3], std[3];  /* RGB order, as the recipe */
    float *tensor;                 /* count x 3 x out_h x out_w, RGB planes */
    int parallel;                  /* 1: samples spread over cv::parallel_for_ */
} pfb_cv_dec_job;

/* Per sample: cv::imdecode(IMREAD_COLOR | IMREAD_IGNORE_ORIENTATION) (BGR),
 * crop ROI + cv::resize (LINEAR), cv::flip, convertTo(CV_32F, scale),
 * subtract(mean), divide(std) (BGR-ordered scalars), cv::split with the
 * planes reversed (B -> plane 2), so the tensor is RGB. Returns 0 on success. */
int pfb_cv_decode_pre(const pfb_cv_dec_job *job);

#ifdef __cplusplus
}
#endif

#endif
