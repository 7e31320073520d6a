/* OpenCV compositions for `pixflow bench photo` (see opencv_photo.h). */
#include "opencv_headers.hpp"
#include "opencv_photo.h"

extern "C" int pfb_cv_photo(int op, const uint8_t *src, int w, int h, ptrdiff_t sstride, uint8_t *dst,
                            ptrdiff_t dstride, double p, const float *m) {
    try {
        cv::Mat s(h, w, CV_8UC3, const_cast<uint8_t *>(src), (size_t)sstride);
        cv::Mat d(h, w, CV_8UC3, dst, (size_t)dstride);
        switch (op) {
        case PFB_CV_BRIGHTNESS: s.convertTo(d, -1, p, 0.0); break;
        case PFB_CV_CONTRAST: {
            cv::Mat g;
            cv::cvtColor(s, g, cv::COLOR_RGB2GRAY);
            double mean = cv::mean(g)[0];
            s.convertTo(d, -1, p, (1.0 - p) * mean);
            break;
        }
        case PFB_CV_SATURATION: {
            cv::Mat g, g3;
            cv::cvtColor(s, g, cv::COLOR_RGB2GRAY);
            cv::cvtColor(g, g3, cv::COLOR_GRAY2RGB);
            cv::addWeighted(s, p, g3, 1.0 - p, 0.0, d);
            break;
        }
        case PFB_CV_HUE: {
            cv::Mat hsv;
            cv::cvtColor(s, hsv, cv::COLOR_RGB2HSV_FULL);
            cv::add(hsv, cv::Scalar(p * 256.0, 0, 0), hsv);
            cv::cvtColor(hsv, d, cv::COLOR_HSV2RGB_FULL);
            break;
        }
        case PFB_CV_TWIST: {
            cv::Mat mm(3, 4, CV_32F, const_cast<float *>(m));
            cv::transform(s, d, mm);
            break;
        }
        case PFB_CV_EQUALIZE: {
            cv::Mat ch[3];
            cv::split(s, ch);
            for (int c = 0; c < 3; c++) cv::equalizeHist(ch[c], ch[c]);
            cv::merge(ch, 3, d);
            break;
        }
        case PFB_CV_NOISE: {
            /* Gaussian noise the OpenCV way: normals into a 16-bit image
             * (randn rounds them), then a saturating add. */
            static thread_local cv::Mat noise; /* reused, like a caller would */
            noise.create(h, w, CV_16SC3);
            cv::randn(noise, cv::Scalar::all(0.0), cv::Scalar::all(p * 255.0));
            cv::add(s, noise, d, cv::noArray(), CV_8U);
            break;
        }
        default: cv::bitwise_not(s, d); break;
        }
        return d.data == dst ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
