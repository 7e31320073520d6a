/* OpenCV conversion shims (see opencv_convert.h). */
#include "opencv_convert.h"
#include "opencv_headers.hpp"

extern "C" int pfb_cv_convert(const void *src, int w, int h, int cn, int sdepth, ptrdiff_t sstride, void *dst,
                              int ddepth, ptrdiff_t dstride, double alpha, double beta) {
    try {
        cv::Mat s(h, w, CV_MAKETYPE(sdepth, cn), const_cast<void *>(src), static_cast<size_t>(sstride));
        cv::Mat d(h, w, CV_MAKETYPE(ddepth, cn), dst, static_cast<size_t>(dstride));
        uchar *before = d.data;
        s.convertTo(d, ddepth, alpha, beta);
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" int pfb_cv_normalize_chain(const unsigned char *src, int w, int h, ptrdiff_t sstride, float scale,
                                      const float mean[3], const float stdv[3], void *dst, size_t plane_bytes,
                                      const int plane_of[3], int half) {
    try {
        static thread_local cv::Mat f, g, k, hf;
        cv::Mat s(h, w, CV_8UC3, const_cast<unsigned char *>(src), static_cast<size_t>(sstride));
        s.convertTo(f, CV_32F, static_cast<double>(scale));
        cv::subtract(f, cv::Scalar(static_cast<double>(mean[0]), static_cast<double>(mean[1]),
                                   static_cast<double>(mean[2])), g);
        cv::divide(g, cv::Scalar(static_cast<double>(stdv[0]), static_cast<double>(stdv[1]),
                                 static_cast<double>(stdv[2])), k);
        if (half) k.convertTo(hf, CV_16F);
        int depth = half ? CV_16F : CV_32F;
        std::vector<cv::Mat> planes(3);
        for (int c = 0; c < 3; c++)
            planes[static_cast<size_t>(c)] =
                cv::Mat(h, w, depth, static_cast<char *>(dst) + plane_bytes * static_cast<size_t>(plane_of[c]));
        cv::split(half ? hf : k, planes);
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int pfb_cv_split_u8(const unsigned char *src, int w, int h, int cn, ptrdiff_t sstride, unsigned char *dst) {
    try {
        cv::Mat s(h, w, CV_8UC(cn), const_cast<unsigned char *>(src), static_cast<size_t>(sstride));
        std::vector<cv::Mat> planes;
        for (int c = 0; c < cn; c++)
            planes.emplace_back(h, w, CV_8U, dst + static_cast<size_t>(c) * static_cast<size_t>(w) * static_cast<size_t>(h));
        cv::split(s, planes);
        return planes[0].data == dst ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" int pfb_cv_merge_u8(const unsigned char *planes, int w, int h, int cn, unsigned char *dst, ptrdiff_t dstride) {
    try {
        std::vector<cv::Mat> mv;
        for (int c = 0; c < cn; c++)
            mv.emplace_back(h, w, CV_8U,
                            const_cast<unsigned char *>(planes) + static_cast<size_t>(c) * static_cast<size_t>(w) * static_cast<size_t>(h));
        cv::Mat d(h, w, CV_8UC(cn), dst, static_cast<size_t>(dstride));
        uchar *before = d.data;
        cv::merge(mv, d);
        return d.data == before ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
