// OpenCV side of `pixflow bench preprocess` (see opencv_preprocess.h).
#include "opencv_preprocess.h"

#include <vector>

#include "opencv_headers.hpp"

namespace {

cv::Mat resized_flipped(const pfb_cv_sample &s, int ow, int oh) {
    cv::Mat src(s.h, s.w, CV_8UC3, const_cast<uint8_t *>(s.src));
    cv::Mat r;
    cv::resize(src(cv::Rect(s.cx, s.cy, s.cw, s.ch)), r, cv::Size(ow, oh), 0, 0, cv::INTER_LINEAR);
    if (!s.flip_h) return r;
    cv::Mat f;
    cv::flip(r, f, 1);
    return f;
}

std::vector<cv::Mat> planes_of(const pfb_cv_pre_job *j, int i, int depth) {
    size_t es = j->f16 && depth != CV_32F ? 2 : 4;
    size_t plane = (size_t)j->out_w * (size_t)j->out_h * es;
    char *base = static_cast<char *>(j->tensor) + (size_t)i * 3 * plane;
    std::vector<cv::Mat> p;
    for (int c = 0; c < 3; c++) p.emplace_back(j->out_h, j->out_w, depth, base + (size_t)c * plane);
    return p;
}

void plain_one(const pfb_cv_pre_job *j, int i) {
    cv::Mat r = resized_flipped(j->samples[i], j->out_w, j->out_h), f;
    r.convertTo(f, CV_32F, j->scale);
    cv::subtract(f, cv::Scalar(j->mean[0], j->mean[1], j->mean[2]), f);
    cv::divide(f, cv::Scalar(j->std[0], j->std[1], j->std[2]), f);
    if (!j->f16) {
        std::vector<cv::Mat> planes = planes_of(j, i, CV_32F);
        cv::split(f, planes);
        return;
    }
    std::vector<cv::Mat> tmp;
    cv::split(f, tmp);
    std::vector<cv::Mat> planes = planes_of(j, i, CV_16F);
    for (int c = 0; c < 3; c++) tmp[c].convertTo(planes[c], CV_16F);
}

void tuned_one(const pfb_cv_pre_job *j, int i) {
    cv::Mat r = resized_flipped(j->samples[i], j->out_w, j->out_h);
    std::vector<cv::Mat> u8;
    cv::split(r, u8);
    std::vector<cv::Mat> planes = planes_of(j, i, CV_32F);
    for (int c = 0; c < 3; c++)
        u8[c].convertTo(planes[c], CV_32F, (double)j->scale / j->std[c], -(double)j->mean[c] / j->std[c]);
}

int run(const pfb_cv_pre_job *j, void (*one)(const pfb_cv_pre_job *, int)) {
    try {
        if (j->parallel) {
            cv::parallel_for_(cv::Range(0, j->count), [&](const cv::Range &r) {
                for (int i = r.start; i < r.end; i++) one(j, i);
            });
        } else {
            for (int i = 0; i < j->count; i++) one(j, i);
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

}  // namespace

extern "C" int pfb_cv_pre_plain(const pfb_cv_pre_job *job) { return run(job, plain_one); }
extern "C" int pfb_cv_pre_tuned(const pfb_cv_pre_job *job) { return run(job, tuned_one); }

extern "C" int pfb_cv_letterbox(const uint8_t *src, int w, int h, int rw, int rh, int top, int left, int out_w,
                                int out_h, double pad, float scale, float *tensor) {
    try {
        cv::Mat s(h, w, CV_8UC3, const_cast<uint8_t *>(src)), r, b, f;
        cv::resize(s, r, cv::Size(rw, rh), 0, 0, cv::INTER_LINEAR);
        cv::copyMakeBorder(r, b, top, out_h - rh - top, left, out_w - rw - left, cv::BORDER_CONSTANT,
                           cv::Scalar(pad, pad, pad));
        b.convertTo(f, CV_32F, scale);
        std::vector<cv::Mat> planes;
        for (int c = 0; c < 3; c++) planes.emplace_back(out_h, out_w, CV_32F, tensor + (size_t)c * out_w * out_h);
        cv::split(f, planes);
        return 0;
    } catch (...) {
        return -1;
    }
}
