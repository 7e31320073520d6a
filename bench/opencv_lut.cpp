/* cv::LUT shim (see opencv_lut.h). */
#include "opencv_headers.hpp"
#include "opencv_lut.h"

extern "C" int pfb_cv_lut(const uint8_t *src, int w, int h, ptrdiff_t sstride, uint8_t *dst,
                          ptrdiff_t dstride, int cn, const uint8_t *tables, int table_cn) {
    try {
        cv::Mat s(h, w, CV_8UC(cn), const_cast<uint8_t *>(src), (size_t)sstride);
        cv::Mat d(h, w, CV_8UC(cn), dst, (size_t)dstride);
        cv::Mat lut(1, 256, CV_8UC(table_cn));
        for (int v = 0; v < 256; v++)
            for (int c = 0; c < table_cn; c++) lut.ptr<uint8_t>()[v * table_cn + c] = tables[c * 256 + v];
        uint8_t *before = d.data;
        cv::LUT(s, lut, d);
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
