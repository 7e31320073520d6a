// OpenCV side of `pixflow bench video` (see opencv_video.h).
#include "opencv_video.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

static double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    size_t k = (size_t)std::ceil(p / 100.0 * (double)v.size());
    return v[k == 0 ? 0 : k - 1];
}

extern "C" int pfb_cv_video_available(const char *path) {
    try {
        cv::VideoCapture cap(path, cv::CAP_FFMPEG);
        return cap.isOpened() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int pfb_cv_video_run(const char *path, int out_w, int out_h, int threads, float *first_tensor,
                                pfb_cv_video_result *out) {
    try {
        cv::setNumThreads(threads);
        cv::VideoCapture cap(path, cv::CAP_FFMPEG);
        if (!cap.isOpened()) return -1;
        cv::Mat bgr, rgb, r, b, f;
        std::vector<float> tensor((size_t)3 * out_w * out_h);
        std::vector<double> lat;
        *out = pfb_cv_video_result();
        double t0 = now_s();
        for (;;) {
            double a = now_s();
            if (!cap.read(bgr) || bgr.empty()) break;
            double d = now_s();
            out->decode_s += d - a;
            cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
            double sc = std::min((double)out_w / rgb.cols, (double)out_h / rgb.rows);
            int rw = (int)std::lround(rgb.cols * sc), rh = (int)std::lround(rgb.rows * sc);
            int left = (out_w - rw) / 2, top = (out_h - rh) / 2;
            cv::resize(rgb, r, cv::Size(rw, rh), 0, 0, cv::INTER_LINEAR);
            cv::copyMakeBorder(r, b, top, out_h - rh - top, left, out_w - rw - left, cv::BORDER_CONSTANT,
                               cv::Scalar(114, 114, 114));
            b.convertTo(f, CV_32F, 1.0 / 255.0);
            std::vector<cv::Mat> planes;
            for (int c = 0; c < 3; c++)
                planes.emplace_back(out_h, out_w, CV_32F, tensor.data() + (size_t)c * out_w * out_h);
            cv::split(f, planes);
            double e = now_s();
            out->preprocess_s += e - d;
            lat.push_back((e - d) * 1e3);
            if (out->frames == 0 && first_tensor) std::copy(tensor.begin(), tensor.end(), first_tensor);
            out->frames++;
        }
        out->wall_s = now_s() - t0;
        out->lat_p50_ms = pct(lat, 50);
        out->lat_p99_ms = pct(lat, 99);
        return out->frames > 0 ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
