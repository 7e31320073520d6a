// See opencv_io.h.
#include "opencv_io.h"

#include <cstdlib>
#include <cstring>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

extern "C" int pfb_cv_load_u8(const char *path, int channels, uint8_t **pixels, int *width,
                              int *height) {
    try {
        cv::Mat img = cv::imread(path, channels == 1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
        if (img.empty()) return -1;
        if (channels == 3) cv::cvtColor(img, img, cv::COLOR_BGR2RGB);
        size_t row = (size_t)img.cols * (size_t)channels;
        uint8_t *p = static_cast<uint8_t *>(std::malloc(row * (size_t)img.rows));
        if (p == nullptr) return -1;
        for (int y = 0; y < img.rows; y++) std::memcpy(p + row * (size_t)y, img.ptr(y), row);
        *pixels = p;
        *width = img.cols;
        *height = img.rows;
        return 0;
    } catch (...) {
        return -1;
    }
}
