/* Warp shims over OpenCV (see opencv_warp.h). */
#include "opencv_warp.h"
#include "opencv_headers.hpp"

extern "C" int pfb_cv_warp(int op, const double *m, const float *mx, const float *my, int flags, const uint8_t *src,
                           int w, int h, ptrdiff_t sstride, uint8_t *dst, int dw, int dh, ptrdiff_t dstride, int cn) {
    try {
        cv::Mat s(h, w, CV_8UC(cn), const_cast<uint8_t *>(src), static_cast<size_t>(sstride));
        cv::Mat d(dh, dw, CV_8UC(cn), dst, static_cast<size_t>(dstride));
        uint8_t *before = d.data;
        if (op == 0)
            cv::warpAffine(s, d, cv::Mat(2, 3, CV_64F, const_cast<double *>(m)), d.size(), flags, cv::BORDER_CONSTANT);
        else if (op == 1)
            cv::warpPerspective(s, d, cv::Mat(3, 3, CV_64F, const_cast<double *>(m)), d.size(), flags,
                                cv::BORDER_CONSTANT);
        else
            cv::remap(s, d, cv::Mat(dh, dw, CV_32F, const_cast<float *>(mx)),
                      cv::Mat(dh, dw, CV_32F, const_cast<float *>(my)), flags & 7, cv::BORDER_CONSTANT);
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
