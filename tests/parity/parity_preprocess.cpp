/*
 * parity_preprocess: the fused preprocess's plain path (crop + resize +
 * flip + normalize, no colour ops) against OpenCV's chain on identical
 * random inputs.
 *
 *   parity_preprocess [cases [seed]]
 *
 * Each case: a random u8 RGB image (odd sizes), a batch of 1..4 samples
 * with random crops and flips, LINEAR / CUBIC / AREA / NEAREST, optional
 * swap_rb, NCHW f32 output, 1- and 2-thread streams. OpenCV side per
 * sample: ROI -> cv::resize -> cv::flip -> (BGR<->RGB cvtColor) ->
 * convertTo(CV_32F, scale) -> subtract(mean) -> divide(std) -> cv::split.
 * Contract: the u8 stage (out_dtype u8, no normalization) is bit-exact;
 * the f32 tensor is within 1e-6 (measured: identical).
 * A failing case prints its index k and seed; `parity_preprocess <k+1> <seed>`
 * reproduces it (case k depends only on k and the seed).
 * The last line is "parity_preprocess: N passed, M failed".
 */
#include <pixflow/pixflow.h>

#include "opencv_headers.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1)); }
    float unit() { return static_cast<float>(next() % 1000001u) / 1000000.0f; }
};

int g_pass = 0, g_fail = 0;

/* OpenCV's u8 stage of one sample: crop, resize, flip, swap. */
cv::Mat cv_u8(const cv::Mat &img, const pf_aug_params &p, const pf_preprocess_desc &d) {
    cv::Mat r, f;
    cv::resize(img(cv::Rect(p.crop_x, p.crop_y, p.crop_w, p.crop_h)), r, cv::Size(d.out_width, d.out_height), 0, 0,
               static_cast<int>(d.interp));
    int code = p.flip_h && p.flip_v ? -1 : p.flip_h ? 1 : 0;
    if (p.flip_h || p.flip_v) cv::flip(r, f, code);
    else f = r;
    if (d.swap_rb) {
        cv::Mat s;
        cv::cvtColor(f, s, cv::COLOR_BGR2RGB);
        return s;
    }
    return f;
}

bool run_case(int k, uint64_t seed, pf_stream *s2) {
    Rng r(seed * 1000003u + static_cast<uint64_t>(k));
    int w = r.range(2, 400), h = r.range(2, 300);
    cv::Mat img(h, w, CV_8UC3);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w * 3; x++) img.ptr<uint8_t>(y)[x] = static_cast<uint8_t>(r.next());
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = r.range(1, 260);
    d.out_height = r.range(1, 260);
    static const pf_interp modes[] = {PF_INTERP_LINEAR, PF_INTERP_CUBIC, PF_INTERP_AREA, PF_INTERP_NEAREST};
    d.interp = modes[r.range(0, 3)];
    d.swap_rb = r.range(0, 1) != 0;
    d.scale = 1.0f / 255.0f;
    for (int c = 0; c < 3; c++) {
        d.mean[c] = r.unit();
        d.std[c] = 0.1f + r.unit();
    }
    int n = r.range(1, 4);
    std::vector<pf_aug_params> params(static_cast<size_t>(n));
    std::vector<pf_image> src(static_cast<size_t>(n), pf_image_hwc(img.data, w, h, 3, PF_U8, static_cast<ptrdiff_t>(img.step)));
    for (auto &p : params) {
        p = pf_aug_params_identity();
        p.crop_w = r.range(1, w);
        p.crop_h = r.range(1, h);
        p.crop_x = r.range(0, w - p.crop_w);
        p.crop_y = r.range(0, h - p.crop_h);
        p.flip_h = r.range(0, 1) != 0;
        p.flip_v = r.range(0, 3) == 0;
    }
    bool ok = true;
    for (int stage = 0; stage < 2 && ok; stage++) { /* 0: u8 stage, 1: f32 normalized */
        d.out_dtype = stage == 0 ? PF_U8 : PF_F32;
        size_t es = stage == 0 ? 1 : 4;
        size_t plane = static_cast<size_t>(d.out_width) * static_cast<size_t>(d.out_height);
        std::vector<unsigned char> out(static_cast<size_t>(n) * 3 * plane * es);
        pf_preprocess_plan *plan = nullptr;
        if (pf_preprocess_plan_create(&d, &plan) != PF_OK) return false;
        for (int t = 1; t <= 2 && ok; t++) {
            std::fill(out.begin(), out.end(), 0xCD);
            pf_tensor tt = pf_tensor_nchw(out.data(), n, 3, d.out_height, d.out_width, d.out_dtype);
            if (pf_preprocess_run(plan, t == 1 ? nullptr : s2, n, src.data(), params.data(), &tt, nullptr) != PF_OK) {
                std::fprintf(stderr, "case %d: %s\n", k, pf_last_error());
                ok = false;
                break;
            }
            for (int i = 0; i < n && ok; i++) {
                cv::Mat u = cv_u8(img, params[static_cast<size_t>(i)], d);
                std::vector<cv::Mat> planes;
                if (stage == 0) {
                    cv::split(u, planes);
                } else {
                    cv::Mat f;
                    u.convertTo(f, CV_32F, d.scale);
                    cv::subtract(f, cv::Scalar(d.mean[0], d.mean[1], d.mean[2]), f);
                    cv::divide(f, cv::Scalar(d.std[0], d.std[1], d.std[2]), f);
                    cv::split(f, planes);
                }
                for (int c = 0; c < 3 && ok; c++) {
                    const unsigned char *pf = out.data() + (static_cast<size_t>(i) * 3 + static_cast<size_t>(c)) * plane * es;
                    const cv::Mat &pl = planes[static_cast<size_t>(c)];
                    if (stage == 0) {
                        ok = std::memcmp(pf, pl.data, plane) == 0;
                    } else {
                        double worst = 0;
                        for (size_t e = 0; e < plane; e++) {
                            float a;
                            std::memcpy(&a, pf + e * 4, 4);
                            double dd = std::fabs(static_cast<double>(a) - static_cast<double>(reinterpret_cast<const float *>(pl.data)[e]));
                            if (dd > worst || dd != dd) worst = dd;
                        }
                        ok = worst <= 1e-6;
                    }
                    if (!ok)
                        std::fprintf(stderr, "case %d (seed %llu) sample %d channel %d: %s stage differs (threads %d, %dx%d -> %dx%d, interp %d)\n",
                                     k, static_cast<unsigned long long>(seed), i, c, stage == 0 ? "u8" : "f32", t, w,
                                     h, d.out_width, d.out_height, static_cast<int>(d.interp));
                }
            }
        }
        pf_preprocess_plan_destroy(plan);
    }
    return ok;
}

}  // namespace

int main(int argc, char **argv) {
    int cases = argc > 1 ? std::atoi(argv[1]) : 400;
    uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20240605u;
    pf_stream *s2 = nullptr;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) return 1;
    for (int k = 0; k < cases; k++) {
        if (run_case(k, seed, s2)) g_pass++;
        else g_fail++;
    }
    pf_stream_destroy(s2);
    std::printf("parity_preprocess: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
