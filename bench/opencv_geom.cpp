/* Geometry shims over OpenCV (see opencv_geom.h). */
#include "opencv_geom.h"
#include "opencv_headers.hpp"

extern "C" int pfb_cv_geom(int op, int arg, int pad, const uint8_t *src, int w, int h, ptrdiff_t sstride,
                           uint8_t *dst, int dw, int dh, ptrdiff_t dstride, int cn) {
    try {
        cv::Mat s(h, w, CV_8UC(cn), const_cast<uint8_t *>(src), static_cast<size_t>(sstride));
        cv::Mat d(dh, dw, CV_8UC(cn), dst, static_cast<size_t>(dstride));
        uint8_t *before = d.data;
        switch (op) {
        case 0: cv::flip(s, d, arg); break;
        case 1: cv::rotate(s, d, arg); break;
        case 2: cv::transpose(s, d); break;
        default: cv::copyMakeBorder(s, d, pad, pad, pad, pad, arg, cv::Scalar::all(0)); break;
        }
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
