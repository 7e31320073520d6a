/* OpenCV post-processing shim (see opencv_post.h). */
#include "opencv_headers.hpp"
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc11-extensions"
#endif
#include <opencv2/dnn.hpp>
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#include "opencv_post.h"

extern "C" int pfb_cv_nms_boxes(const float *boxes, const float *scores, int n, float score_threshold,
                                float nms_threshold, int *keep) {
    try {
        std::vector<cv::Rect2d> r((size_t)n);
        for (int i = 0; i < n; i++) r[(size_t)i] = cv::Rect2d(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]);
        std::vector<float> s(scores, scores + n);
        std::vector<int> k;
        cv::dnn::NMSBoxes(r, s, score_threshold, nms_threshold, k);
        for (size_t i = 0; i < k.size(); i++) keep[i] = k[i];
        return (int)k.size();
    } catch (...) {
        return -1;
    }
}

extern "C" int pfb_cv_find_contours(const uint8_t *img, int w, int h, ptrdiff_t stride, int mode, long *points) {
    try {
        cv::Mat m(h, w, CV_8U, const_cast<uint8_t *>(img), (size_t)stride);
        std::vector<std::vector<cv::Point>> c;
        cv::findContours(m, c, mode == 1 ? cv::RETR_LIST : cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        long t = 0;
        for (auto &v : c) t += (long)v.size();
        *points = t;
        return (int)c.size();
    } catch (...) {
        return -1;
    }
}

extern "C" int pfb_cv_components(const uint8_t *img, int w, int h, ptrdiff_t stride, int connectivity,
                                 int32_t *labels) {
    try {
        cv::Mat m(h, w, CV_8U, const_cast<uint8_t *>(img), (size_t)stride), l(h, w, CV_32S, labels), s, c;
        uint8_t *before = l.data;
        int n = cv::connectedComponentsWithStats(m, l, s, c, connectivity, CV_32S);
        return l.data == before ? n : -1;
    } catch (...) {
        return -1;
    }
}
