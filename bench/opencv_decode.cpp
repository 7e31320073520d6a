// OpenCV side of `pixflow bench decode` (see opencv_decode.h).
#include "opencv_decode.h"

#include <vector>

#include "opencv_headers.hpp"
#include <opencv2/imgcodecs.hpp>

namespace {

bool one(const pfb_cv_dec_job *j, int i) {
    const pfb_cv_dec_sample &s = j->samples[i];
    cv::Mat buf(1, (int)s.size, CV_8UC1, const_cast<uint8_t *>(s.bytes));
    cv::Mat img = cv::imdecode(buf, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
    if (img.empty()) return false;
    cv::Mat r, f;
    cv::resize(img(cv::Rect(s.cx, s.cy, s.cw, s.ch)), r, cv::Size(j->out_w, j->out_h), 0, 0, cv::INTER_LINEAR);
    if (s.flip_h) cv::flip(r, r, 1);
    r.convertTo(f, CV_32F, j->scale);
    cv::subtract(f, cv::Scalar(j->mean[2], j->mean[1], j->mean[0]), f);
    cv::divide(f, cv::Scalar(j->std[2], j->std[1], j->std[0]), f);
    size_t plane = (size_t)j->out_w * (size_t)j->out_h;
    float *base = j->tensor + (size_t)i * 3 * plane;
    std::vector<cv::Mat> planes;
    for (int c = 0; c < 3; c++) planes.emplace_back(j->out_h, j->out_w, CV_32F, base + (size_t)(2 - c) * plane);
    cv::split(f, planes);
    return true;
}

}  // namespace

extern "C" int pfb_cv_decode_pre(const pfb_cv_dec_job *job) {
    try {
        bool ok = true;
        if (job->parallel) {
            cv::parallel_for_(cv::Range(0, job->count), [&](const cv::Range &rg) {
                for (int i = rg.start; i < rg.end; i++)
                    if (!one(job, i)) ok = false;
            });
        } else {
            for (int i = 0; i < job->count; i++) ok = ok && one(job, i);
        }
        return ok ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
