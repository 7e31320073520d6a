/* cv::cvtColor shim for the 4:2:0 codes (see opencv_yuv.h). */
#include "opencv_headers.hpp"
#include "opencv_yuv.h"

extern "C" int pfb_cv_cvt_color_frame(const uint8_t *src, int sw, int sh, int scn, ptrdiff_t sstride,
                                uint8_t *dst, int dw, int dh, int dcn, ptrdiff_t dstride, int code) {
    try {
        cv::Mat s(sh, sw, CV_8UC(scn), const_cast<uint8_t *>(src), (size_t)sstride);
        cv::Mat d(dh, dw, CV_8UC(dcn), dst, (size_t)dstride);
        uint8_t *before = d.data;
        cv::cvtColor(s, d, code);
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
