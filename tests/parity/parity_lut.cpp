/*
 * parity_lut: pf_lut against OpenCV's cv::LUT on identical random inputs.
 *
 *   parity_lut [cases [seed]]
 *
 * Each case: 1..4 channels, one shared table or one per channel (OpenCV's
 * multi-channel LUT), random size incl. odd widths, packed / padded /
 * ROI / negative-stride source, 1-thread and 2-thread streams. Contract:
 * bit-identical to cv::LUT; bytes outside the destination untouched.
 * The last line is "parity_lut: N passed, M failed".
 */
#include <pixflow/core.h>
#include <pixflow/ops.h>

#include "opencv_headers.hpp"
#include "parity_rng.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Rng = pft::Rng;

bool run_case(int k, uint64_t seed, pf_stream *s2) {
    Rng r(seed * 1000003u + static_cast<uint64_t>(k));
    int cn = r.range(1, 4), tcn = r.range(0, 1) ? cn : 1;
    int w = r.range(1, k % 10 == 0 ? 1500 : 300), h = r.range(1, 40);
    int pad = r.range(0, 2) * r.range(1, 13);
    int view = r.range(0, 2); /* 0 packed/padded, 1 ROI, 2 negative stride */
    int bx = view == 1 ? r.range(1, 5) : 0, by = view == 1 ? r.range(1, 3) : 0;
    int bw = w + bx + 2, bh = h + by + 1;
    std::vector<uint8_t> big(static_cast<size_t>(bw * cn + pad) * static_cast<size_t>(bh));
    for (auto &v : big) v = static_cast<uint8_t>(r.next());
    std::vector<uint8_t> tables(256 * static_cast<size_t>(tcn));
    for (auto &v : tables) v = static_cast<uint8_t>(r.next());
    ptrdiff_t bstride = bw * cn + pad;
    uint8_t *origin = big.data() + by * bstride + bx * cn;
    /* OpenCV input: the same pixels as a positive-stride Mat */
    cv::Mat full(bh, bw, CV_8UC(cn), big.data(), static_cast<size_t>(bstride));
    cv::Mat roi = full(cv::Rect(bx, by, w, h));
    pf_image src = pf_image_hwc(origin, w, h, cn, PF_U8, bstride);
    cv::Mat cv_in;
    if (view == 2) { /* pixflow reads rows bottom-up; OpenCV gets a flipped copy */
        src = pf_image_hwc(origin + (h - 1) * bstride, w, h, cn, PF_U8, -bstride);
        cv::flip(roi, cv_in, 0);
    } else {
        cv_in = roi;
    }
    cv::Mat lut(1, 256, CV_8UC(tcn));
    for (int v = 0; v < 256; v++)
        for (int c = 0; c < tcn; c++) lut.ptr<uint8_t>()[v * tcn + c] = tables[static_cast<size_t>(c * 256 + v)];
    cv::Mat want;
    cv::LUT(cv_in, lut, want);

    bool ok = true;
    for (int t = 0; t < 2; t++) {
        int dpad = r.range(0, 7);
        ptrdiff_t dstride = w * cn + dpad;
        std::vector<uint8_t> out(static_cast<size_t>(dstride) * static_cast<size_t>(h) + 16, 0xCD);
        pf_image dst = pf_image_hwc(out.data() + 8, w, h, cn, PF_U8, dstride);
        pf_lut_opts o = pf_lut_opts_defaults();
        o.table_channels = tcn;
        if (pf_lut(t ? s2 : nullptr, 1, &src, &dst, tables.data(), &o) != PF_OK) {
            std::fprintf(stderr, "case %d: pf_lut failed: %s\n", k, pf_last_error());
            return false;
        }
        for (int y = 0; y < h && ok; y++) {
            const uint8_t *p = out.data() + 8 + y * dstride;
            if (std::memcmp(p, want.ptr<uint8_t>(y), static_cast<size_t>(w * cn)) != 0) ok = false;
            for (int x = w * cn; x < dstride; x++) ok &= p[x] == 0xCD;
        }
        for (int i = 0; i < 8; i++) ok &= out[static_cast<size_t>(i)] == 0xCD && out[out.size() - 1 - static_cast<size_t>(i)] == 0xCD;
        if (!ok) {
            std::fprintf(stderr, "case %d: cn=%d tables=%d %dx%d view=%d threads=%d differs from cv::LUT\n", k,
                         cn, tcn, w, h, view, t + 1);
            return false;
        }
    }
    return ok;
}

}  // namespace

int main(int argc, char **argv) {
    int cases = argc > 1 ? std::atoi(argv[1]) : 600;
    uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20261130u;
    pf_stream *s2 = nullptr;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) return 1;
    int pass = 0, fail = 0;
    for (int k = 0; k < cases; k++) (run_case(k, seed, s2) ? pass : fail)++;
    pf_stream_destroy(s2);
    std::printf("parity_lut: %d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
