/* OpenCV's post-processing behind a C interface, for `pixflow bench post`:
 * cv::dnn::NMSBoxes, cv::findContours, cv::connectedComponentsWithStats.
 * All return -1 on any failure. */
#ifndef PIXFLOW_BENCH_OPENCV_POST_H
#define PIXFLOW_BENCH_OPENCV_POST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* boxes: n x (x, y, w, h) floats (as Rect2d); writes the kept indices to
 * keep (n entries) and returns their count. */
int pfb_cv_nms_boxes(const float *boxes, const float *scores, int n, float score_threshold, float nms_threshold,
                     int *keep);
/* RETR_LIST (mode 1) or RETR_EXTERNAL (0) with CHAIN_APPROX_SIMPLE of a u8
 * image; returns the contour count, *points the total point count. */
int pfb_cv_find_contours(const uint8_t *img, int w, int h, ptrdiff_t stride, int mode, long *points);
/* connectedComponentsWithStats with CV_32S labels into labels (w x h,
 * packed); returns the label count. */
int pfb_cv_components(const uint8_t *img, int w, int h, ptrdiff_t stride, int connectivity, int32_t *labels);

#ifdef __cplusplus
}
#endif

#endif
