/* cv::cvtColor shim (see opencv_color.h). */
#include "opencv_headers.hpp"
#include "opencv_color.h"

extern "C" int pfb_cv_cvt_color(const uint8_t *src, int w, int h, ptrdiff_t sstride, int scn,
                                uint8_t *dst, ptrdiff_t dstride, int dcn, int code) {
    try {
        cv::Mat s(h, w, CV_8UC(scn), const_cast<uint8_t *>(src), (size_t)sstride);
        cv::Mat d(h, w, CV_8UC(dcn), dst, (size_t)dstride);
        uint8_t *before = d.data;
        cv::cvtColor(s, d, code, dcn);
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
