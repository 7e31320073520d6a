/* The OpenCV equivalents of the fused preprocess, behind a C interface,
 * for `pixflow bench preprocess` and the parity test. */
#ifndef PIXFLOW_BENCH_OPENCV_PREPROCESS_H
#define PIXFLOW_BENCH_OPENCV_PREPROCESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One sample: a packed u8 RGB source, its crop and flip. */
typedef struct pfb_cv_sample {
    const uint8_t *src;
    int w, h;
    int cx, cy, cw, ch;
    int flip_h;
} pfb_cv_sample;

typedef struct pfb_cv_pre_job {
    const pfb_cv_sample *samples;
    int count;
    int out_w, out_h;
    float scale, mean[3], std[3];
    int f16;        /* 1: the tensor holds f16 (a final convertTo(CV_16F) per plane) */
    void *tensor;   /* packed NCHW, count x 3 x out_h x out_w */
    int parallel;   /* 1: images spread over cv::parallel_for_ (OpenCV's own pool) */
} pfb_cv_pre_job;

/* Plain chain per image: crop ROI, cv::resize (LINEAR), cv::flip,
 * convertTo(CV_32F, scale), subtract(mean), divide(std), cv::split into
 * the tensor planes. Returns 0 on success. */
int pfb_cv_pre_plain(const pfb_cv_pre_job *job);
/* Hand-tuned chain: resize, flip, split the u8 image into 3 planes, then
 * one convertTo per plane with alpha = scale/std, beta = -mean/std written
 * straight into the tensor plane. */
int pfb_cv_pre_tuned(const pfb_cv_pre_job *job);
/* YOLO letterbox of one image: cv::resize to (rw, rh), copyMakeBorder
 * (top, bottom, left, right, CONSTANT pad), convertTo(CV_32F, scale),
 * split into the NCHW f32 tensor (3 x out_h x out_w). */
int pfb_cv_letterbox(const uint8_t *src, int w, int h, int rw, int rh, int top, int left, int out_w, int out_h,
                     double pad, float scale, float *tensor);

#ifdef __cplusplus
}
#endif

#endif
