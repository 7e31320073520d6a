/* Filter shims over OpenCV (see opencv_filter.h). */
#include "opencv_filter.h"
#include "opencv_headers.hpp"

extern "C" int pfb_cv_filter(int op, int ksize, const float *kernel, double factor, int depth, const void *src,
                             int w, int h, ptrdiff_t sstride, void *dst, ptrdiff_t dstride, int cn) {
    try {
        int type = CV_MAKETYPE(depth == 2 ? CV_32F : depth == 1 ? CV_16U : CV_8U, cn);
        cv::Mat s(h, w, type, const_cast<void *>(src), static_cast<size_t>(sstride));
        cv::Mat d(h, w, type, dst, static_cast<size_t>(dstride));
        uint8_t *before = d.data;
        cv::Size k(ksize, ksize);
        switch (op) {
        case 0: cv::GaussianBlur(s, d, k, 0, 0); break;
        case 1: cv::blur(s, d, k); break;
        case 2: cv::medianBlur(s, d, ksize); break;
        case 3: cv::erode(s, d, cv::getStructuringElement(cv::MORPH_RECT, k)); break;
        case 4: cv::filter2D(s, d, -1, cv::Mat(ksize, ksize, CV_32F, const_cast<float *>(kernel))); break;
        default: {
            static thread_local cv::Mat blurred;
            cv::Mat kern = (cv::Mat_<float>(3, 3) << 1, 1, 1, 1, 5, 1, 1, 1, 1) / 13.0f;
            cv::filter2D(s, blurred, -1, kern);
            cv::addWeighted(s, factor, blurred, 1.0 - factor, 0.0, d);
            break;
        }
        }
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
