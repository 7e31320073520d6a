// pf_decode vs cv::imdecode (OpenCV 4.6 imgcodecs over the same system
// libjpeg-turbo 2.1.5, libpng 1.6 and libwebp): every data/ photo and every
// valid corpus file, bit for bit.
//  - JPEG: OpenCV reads with libjpeg's defaults (JDCT_ISLOW, fancy
//    upsampling on) into JCS_EXT_BGR / JCS_GRAYSCALE; pf_decode sets the
//    same explicitly. CMYK (Adobe) uses the same integer formula.
//  - PNG: the same libpng transforms (strip_16, strip_alpha /
//    tRNS_to_alpha, palette_to_rgb, expand_gray, gray_to_rgb, bgr,
//    rgb_to_gray 0.299/0.587).
//  - WebP: WebPDecodeBGR(A)Into, as OpenCV; gray = OpenCV's cvtColor.
// IMREAD_IGNORE_ORIENTATION for the plain decode; IMREAD_COLOR (which
// applies EXIF orientation) vs pf_decode with apply_orientation.
// Re-run: ./parity_decode (no random cases).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "opencv_headers.hpp"

#include "pixflow/codec.h"

static int g_fail = 0, g_pass = 0;

static std::vector<unsigned char> load(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<unsigned char>(std::istreambuf_iterator<char>(f), {});
}

// pf_decode with pixel format pix (orientation on/off) vs imdecode flags.
static void compare(const std::string &name, const std::vector<unsigned char> &bytes, pf_pixel_format pix,
                    int cv_flags, bool orient) {
    cv::Mat ref = cv::imdecode(bytes, cv_flags);
    pf_decode_opts o = pf_decode_opts_defaults();
    o.pixel_format = pix;
    o.apply_orientation = orient;
    pf_decode_result r;
    if (pf_decode_query(bytes.data(), bytes.size(), &o, &r) != PF_OK) {
        std::printf("FAIL %s: query: %s\n", name.c_str(), pf_last_error());
        g_fail++;
        return;
    }
    cv::Mat got(r.height, r.width, CV_8UC(r.channels));
    pf_image img = pf_image_hwc(got.data, r.width, r.height, r.channels, PF_U8, (ptrdiff_t)got.step);
    if (pf_decode(nullptr, bytes.data(), bytes.size(), &o, &img, &r) != PF_OK) {
        std::printf("FAIL %s: decode: %s\n", name.c_str(), pf_last_error());
        g_fail++;
        return;
    }
    if (ref.empty() || ref.size() != got.size() || ref.type() != got.type()) {
        std::printf("FAIL %s pix=%d: OpenCV gives %dx%d type %d, pixflow %dx%d type %d\n", name.c_str(), (int)pix,
                    ref.cols, ref.rows, ref.type(), got.cols, got.rows, got.type());
        g_fail++;
        return;
    }
    double diff = cv::norm(ref, got, cv::NORM_INF);
    if (diff != 0) {
        std::printf("FAIL %s pix=%d orient=%d: max abs diff %g vs cv::imdecode\n", name.c_str(), (int)pix, (int)orient,
                    diff);
        g_fail++;
        return;
    }
    g_pass++;
}

int main() {
    const char *photos[] = {"astronaut_500x375.jpg", "camera_gray_512x512.jpg", "chelsea_333x251.jpg",
                            "coffee_500x375.jpg", "green_leaf_1920x1080.jpg", "hubble_640x480_progressive.jpg",
                            "ladybird_375x500.jpg", "rocket_500x375.jpg", "storm_road_1920x1080.jpg",
                            "water_drop_1920x1080.jpg", "yellow_flower_500x375.jpg", "chelsea_rgba_320x240.png"};
    const char *corpus[] = {"ok_420.jpg", "ok_444.jpg", "ok_422.jpg", "ok_progressive.jpg", "ok_gray.jpg",
                            "ok_cmyk_adobe.jpg", "ok_restart.jpg", "ok_restart_3.jpg", "ok_restart_rows.jpg",
                            "ok_restart_444.jpg", "ok_restart_422.jpg", "ok_restart_gray.jpg", "ok_exif_orient3.jpg", "ok_exif_orient6.jpg",
                            "ok_exif_orient8.jpg", "ok_rgb8.png", "ok_rgba8.png", "ok_gray8.png", "ok_gray1.png",
                            "ok_gray16.png", "ok_palette.png", "ok_palette_trns.png", "ok_la.png",
                            "ok_interlaced.png", "ok_rgb16.png", "ok_lossy.webp", "ok_lossless.webp",
                            "ok_alpha.webp"};
    std::vector<std::string> files;
    for (const char *p : photos) files.push_back(std::string(PF_DATA_DIR) + "/" + p);
    for (const char *p : corpus) files.push_back(std::string(PF_CORPUS_DIR) + "/" + p);
    const int noorient = cv::IMREAD_IGNORE_ORIENTATION;
    for (const std::string &f : files) {
        std::vector<unsigned char> b = load(f);
        std::string name = f.substr(f.rfind('/') + 1);
        pf_image_info info;
        pf_image_probe(b.data(), b.size(), &info);
        compare(name, b, PF_PIXEL_BGR, cv::IMREAD_COLOR | noorient, false);
        compare(name, b, PF_PIXEL_BGR, cv::IMREAD_COLOR, true);
        // OpenCV's gray of a colour PNG goes through libpng's rgb_to_gray,
        // of a colour WebP through cvtColor: both are what pf_decode does.
        compare(name, b, PF_PIXEL_GRAY, cv::IMREAD_GRAYSCALE | noorient, false);
        // IMREAD_UNCHANGED keeps 4 channels only for files with alpha
        if (info.has_alpha && info.format != PF_FORMAT_JPEG && info.bit_depth <= 8 && info.channels == 4) {
            std::vector<unsigned char> tmp = b;
            pf_decode_opts o = pf_decode_opts_defaults();
            o.pixel_format = PF_PIXEL_RGBA;
            pf_decode_result r;
            pf_decode_query(b.data(), b.size(), &o, &r);
            cv::Mat got(r.height, r.width, CV_8UC4), ref = cv::imdecode(b, cv::IMREAD_UNCHANGED), bgra;
            pf_image img = pf_image_hwc(got.data, r.width, r.height, 4, PF_U8, 0);
            bool ok = pf_decode(nullptr, b.data(), b.size(), &o, &img, &r) == PF_OK && ref.type() == CV_8UC4;
            if (ok) {
                cv::cvtColor(got, bgra, cv::COLOR_RGBA2BGRA);
                ok = cv::norm(ref, bgra, cv::NORM_INF) == 0;
            }
            if (!ok) std::printf("FAIL %s: RGBA vs IMREAD_UNCHANGED\n", name.c_str());
            ok ? g_pass++ : g_fail++;
        }
    }
    std::printf("parity_decode: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
