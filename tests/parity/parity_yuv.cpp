/*
 * parity_yuv: pf_cvt_color_from_yuv / pf_cvt_color_to_yuv against OpenCV's
 * cv::cvtColor on identical random inputs (default options: BT.601 limited
 * range, the only matrix OpenCV has).
 *
 *   parity_yuv [cases [seed]] [--only K]
 *
 * Every case is generated from (seed, case index) alone, so
 * `parity_yuv <cases> <seed> --only K` re-runs exactly case K.
 *
 * Contract checked: u8 output bit-identical (max diff 0) for every OpenCV
 * 4:2:0 code (YUV2{RGB,BGR,RGBA,BGRA}_{NV12,NV21,YV12,IYUV}, YUV2GRAY_420,
 * {RGB,BGR,RGBA,BGRA}2YUV_{I420,YV12}); the pixflow-only NV12/NV21 encoders
 * equal OpenCV's I420 encoder with the chroma planes interleaved. OpenCV
 * takes one H*3/2 x W Mat; it is assembled from (or split into) pixflow's
 * separately strided planes. Views use padded strides, ROIs inside larger
 * buffers and negative strides; pixflow must not write outside its planes.
 * The last line is "parity_yuv: N passed, M failed".
 */
#include <pixflow/core.h>
#include <pixflow/ops.h>

#include "opencv_headers.hpp"
#include "parity_rng.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Rng = pft::Rng;

/* A plane inside a larger buffer (ROI at an offset, padded stride, guard
 * bytes around it), optionally with a negative stride. */
struct Plane {
    std::vector<uint8_t> buf;
    pf_image im{};
    size_t lo = 0, len = 0; /* byte range the view covers */
};

void make_plane(Plane &p, int w, int h, int cn, Rng &r, bool negative, bool fill) {
    size_t row = static_cast<size_t>(w) * static_cast<size_t>(cn);
    size_t stride = row + static_cast<size_t>(r.range(0, 2) == 0 ? 0 : r.range(1, 40));
    size_t pre = static_cast<size_t>(r.range(0, 2) == 0 ? 0 : r.range(1, 64));
    size_t span = stride * static_cast<size_t>(h - 1) + row;
    p.buf.assign(pre + span + 64, 0);
    for (auto &b : p.buf) b = static_cast<uint8_t>(r.next());
    if (!fill) std::memset(p.buf.data(), 0xC5, p.buf.size());
    p.lo = pre;
    p.len = span;
    uint8_t *base = p.buf.data() + pre;
    p.im = negative ? pf_image_hwc(base + stride * static_cast<size_t>(h - 1), w, h, cn, PF_U8,
                                   -static_cast<ptrdiff_t>(stride))
                    : pf_image_hwc(base, w, h, cn, PF_U8, static_cast<ptrdiff_t>(stride));
}

const uint8_t *row_of(const pf_image &im, int y) {
    return static_cast<const uint8_t *>(im.data) + static_cast<ptrdiff_t>(y) * im.row_stride;
}

/* Bytes of p outside the view's rows are still the 0xC5 fill (outputs). */
bool untouched_outside(const Plane &p) {
    std::vector<char> inside(p.buf.size(), 0);
    size_t row = static_cast<size_t>(p.im.width) * static_cast<size_t>(p.im.channels);
    for (int y = 0; y < p.im.height; y++) {
        size_t off = static_cast<size_t>(row_of(p.im, y) - p.buf.data());
        std::memset(&inside[off], 1, row);
    }
    for (size_t i = 0; i < p.buf.size(); i++)
        if (!inside[i] && p.buf[i] != 0xC5) return false;
    return true;
}

const int k_dec_codes[] = {
    cv::COLOR_YUV2RGB_NV12, cv::COLOR_YUV2BGR_NV12, cv::COLOR_YUV2RGB_NV21, cv::COLOR_YUV2BGR_NV21,
    cv::COLOR_YUV2RGBA_NV12, cv::COLOR_YUV2BGRA_NV12, cv::COLOR_YUV2RGBA_NV21, cv::COLOR_YUV2BGRA_NV21,
    cv::COLOR_YUV2RGB_YV12, cv::COLOR_YUV2BGR_YV12, cv::COLOR_YUV2RGB_IYUV, cv::COLOR_YUV2BGR_IYUV,
    cv::COLOR_YUV2RGBA_YV12, cv::COLOR_YUV2BGRA_YV12, cv::COLOR_YUV2RGBA_IYUV, cv::COLOR_YUV2BGRA_IYUV,
    cv::COLOR_YUV2GRAY_420};
const int k_enc_codes[] = {cv::COLOR_RGB2YUV_I420, cv::COLOR_BGR2YUV_I420, cv::COLOR_RGBA2YUV_I420,
                           cv::COLOR_BGRA2YUV_I420, cv::COLOR_RGB2YUV_YV12, cv::COLOR_BGR2YUV_YV12,
                           cv::COLOR_RGBA2YUV_YV12, cv::COLOR_BGRA2YUV_YV12,
                           1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007};

/* Pixels of the OpenCV single-Mat layout, from planes (decode input). */
cv::Mat to_single_mat(int code, const pf_image &y, const pf_image &c0, const pf_image &c1, int w, int h) {
    cv::Mat m(h * 3 / 2, w, CV_8UC1);
    uint8_t *d = m.data;
    for (int r = 0; r < h; r++, d += w) std::memcpy(d, row_of(y, r), static_cast<size_t>(w));
    if (code <= cv::COLOR_YUV2BGRA_NV21) {
        for (int r = 0; r < h / 2; r++, d += w) std::memcpy(d, row_of(c0, r), static_cast<size_t>(w));
    } else if (code != cv::COLOR_YUV2GRAY_420) {
        bool yv12 = code == cv::COLOR_YUV2RGB_YV12 || code == cv::COLOR_YUV2BGR_YV12 ||
                    code == cv::COLOR_YUV2RGBA_YV12 || code == cv::COLOR_YUV2BGRA_YV12;
        const pf_image &first = yv12 ? c1 : c0, &second = yv12 ? c0 : c1; /* c0 = u, c1 = v */
        for (const pf_image *p : {&first, &second})
            for (int r = 0; r < h / 2; r++, d += w / 2) std::memcpy(d, row_of(*p, r), static_cast<size_t>(w / 2));
    } else {
        std::memset(d, 128, static_cast<size_t>(w) * static_cast<size_t>(h / 2));
    }
    return m;
}

std::string run_decode(int code, Rng &r) {
    int w = 2 * r.range(1, r.range(0, 3) == 0 ? 8 : 160), h = 2 * r.range(1, r.range(0, 3) == 0 ? 4 : 100);
    bool sp = code <= cv::COLOR_YUV2BGRA_NV21, gray = code == cv::COLOR_YUV2GRAY_420;
    int cn = gray ? 1 : (code == cv::COLOR_YUV2RGBA_NV12 || code == cv::COLOR_YUV2BGRA_NV12 ||
                         code == cv::COLOR_YUV2RGBA_NV21 || code == cv::COLOR_YUV2BGRA_NV21 ||
                         code >= cv::COLOR_YUV2RGBA_YV12)
                            ? 4
                            : 3;
    Plane y, c0, c1, d;
    make_plane(y, w, h, 1, r, r.range(0, 4) == 0, true);
    make_plane(c0, w / 2, h / 2, sp ? 2 : 1, r, r.range(0, 4) == 0, true);
    make_plane(c1, w / 2, h / 2, 1, r, r.range(0, 4) == 0, true);
    make_plane(d, w, h, cn, r, r.range(0, 4) == 0, false);
    pf_yuv f;
    std::memset(&f, 0, sizeof f);
    f.y = y.im;
    if (sp) f.uv = c0.im;
    else if (!gray) f.u = c0.im, f.v = c1.im;
    if (pf_cvt_color_from_yuv(nullptr, 1, &f, &d.im, static_cast<pf_color_code>(code), nullptr) != PF_OK)
        return std::string("pf error: ") + pf_last_error();
    cv::Mat want;
    cv::cvtColor(to_single_mat(code, y.im, c0.im, c1.im, w, h), want, code);
    if (want.cols != w || want.rows != h || want.channels() != cn) return "opencv shape differs";
    for (int row = 0; row < h; row++)
        for (int x = 0; x < w * cn; x++)
            if (row_of(d.im, row)[x] != want.ptr<uint8_t>(row)[x])
                return "diff at row " + std::to_string(row) + " byte " + std::to_string(x) + ": pf " +
                       std::to_string(row_of(d.im, row)[x]) + " cv " + std::to_string(want.ptr<uint8_t>(row)[x]) +
                       " (" + std::to_string(w) + "x" + std::to_string(h) + ")";
    if (!untouched_outside(d)) return "wrote outside dst";
    return "";
}

std::string run_encode(int code, Rng &r) {
    int w = 2 * r.range(1, r.range(0, 3) == 0 ? 8 : 160), h = 2 * r.range(1, r.range(0, 3) == 0 ? 4 : 100);
    bool nv = code >= 1000, nv21 = code >= 1004;
    int o = nv ? (code - 1000) & 3 : (code - cv::COLOR_RGB2YUV_I420) & 3; /* RGB, BGR, RGBA, BGRA */
    bool yv12 = !nv && code >= cv::COLOR_RGB2YUV_YV12;
    int cn = o >= 2 ? 4 : 3;
    Plane s, y, c0, c1;
    make_plane(s, w, h, cn, r, r.range(0, 4) == 0, true);
    make_plane(y, w, h, 1, r, r.range(0, 4) == 0, false);
    make_plane(c0, w / 2, h / 2, nv ? 2 : 1, r, r.range(0, 4) == 0, false);
    make_plane(c1, w / 2, h / 2, 1, r, r.range(0, 4) == 0, false);
    pf_yuv f;
    std::memset(&f, 0, sizeof f);
    f.y = y.im;
    if (nv) f.uv = c0.im;
    else f.u = c0.im, f.v = c1.im;
    if (pf_cvt_color_to_yuv(nullptr, 1, &s.im, &f, static_cast<pf_color_code>(code), nullptr) != PF_OK)
        return std::string("pf error: ") + pf_last_error();
    /* OpenCV: the I420 (or YV12) encoder on a packed copy of the source */
    cv::Mat src(h, w, cn == 3 ? CV_8UC3 : CV_8UC4);
    for (int row = 0; row < h; row++)
        std::memcpy(src.ptr<uint8_t>(row), row_of(s.im, row), static_cast<size_t>(w * cn));
    cv::Mat want;
    cv::cvtColor(src, want, nv ? cv::COLOR_RGB2YUV_I420 + o : code);
    if (want.rows != h * 3 / 2 || want.cols != w || !want.isContinuous()) return "opencv shape differs";
    const uint8_t *ycv = want.data, *p0 = ycv + w * h, *p1 = p0 + w * h / 4;
    const uint8_t *ucv = yv12 ? p1 : p0, *vcv = yv12 ? p0 : p1;
    for (int row = 0; row < h; row++)
        for (int x = 0; x < w; x++)
            if (row_of(y.im, row)[x] != ycv[row * w + x])
                return "Y diff at (" + std::to_string(x) + "," + std::to_string(row) + ")";
    for (int row = 0; row < h / 2; row++)
        for (int x = 0; x < w / 2; x++) {
            int k = row * (w / 2) + x;
            uint8_t u = nv ? row_of(c0.im, row)[2 * x + (nv21 ? 1 : 0)] : row_of(c0.im, row)[x];
            uint8_t v = nv ? row_of(c0.im, row)[2 * x + (nv21 ? 0 : 1)] : row_of(c1.im, row)[x];
            if (u != ucv[k] || v != vcv[k])
                return "chroma diff at (" + std::to_string(x) + "," + std::to_string(row) + "): pf " +
                       std::to_string(u) + "," + std::to_string(v) + " cv " + std::to_string(ucv[k]) + "," +
                       std::to_string(vcv[k]);
        }
    if (!untouched_outside(y) || !untouched_outside(c0) || (!nv && !untouched_outside(c1)))
        return "wrote outside a dst plane";
    return "";
}

} // namespace

int main(int argc, char **argv) {
    int cases = 1200;
    uint64_t seed = 20240601;
    long only = -1;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = std::atol(argv[++i]);
        else if (pos == 0) cases = std::atoi(argv[i]), pos++;
        else seed = std::strtoull(argv[i], nullptr, 10), pos++;
    }
    const int ndec = static_cast<int>(sizeof k_dec_codes / sizeof k_dec_codes[0]);
    const int nenc = static_cast<int>(sizeof k_enc_codes / sizeof k_enc_codes[0]);
    int passed = 0, failed = 0;
    for (int k = 0; k < cases; k++) {
        if (only >= 0 && k != only) continue;
        Rng r(seed * 1000003ull + static_cast<uint64_t>(k));
        /* every code is visited in turn so each gets cases/33 samples */
        int slot = k % (ndec + nenc);
        int code = slot < ndec ? k_dec_codes[slot] : k_enc_codes[slot - ndec];
        std::string err = slot < ndec ? run_decode(code, r) : run_encode(code, r);
        if (err.empty()) {
            passed++;
        } else {
            failed++;
            std::printf("case %d (code %d) FAILED: %s\n  re-run: parity_yuv %d %llu --only %d\n", k, code,
                        err.c_str(), cases, static_cast<unsigned long long>(seed), k);
        }
    }
    std::printf("parity_yuv: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
