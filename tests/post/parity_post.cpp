// Post-processing against OpenCV itself (the installed 4.x C++ library):
// cv::dnn::NMSBoxes (Rect2d) and softNMSBoxes, connectedComponentsWithStats,
// findContours (RETR_LIST / RETR_EXTERNAL, CHAIN_APPROX_SIMPLE),
// minAreaRect + boxPoints, fillPoly, PaddleOCR's box_score_fast built
// from fillPoly + mean, and the image-view functions: masks_unmap (ROI +
// cv::resize), background_blur (that + cv::GaussianBlur + CV-CUDA's
// AlphaLerp composite, which has no OpenCV form) and draw_detections
// (cv::rectangle / addWeighted). Every comparison is exact (indices,
// labels, integer points, float bits, bytes); random cases from a fixed
// seed.
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "pixflow/post.h"
}

static int g_pass, g_fail;
#define EXPECT(c, ...)                                                  \
    do {                                                                \
        if (c) g_pass++;                                                \
        else {                                                          \
            g_fail++;                                                   \
            if (g_fail < 20 || getenv("PF_TEST_VERBOSE")) { std::fprintf(stderr, __VA_ARGS__); std::fprintf(stderr, "\n"); } \
        }                                                               \
    } while (0)

static bool same_f(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 4) == 0; }
/* ulp distance of two finite floats (large when signs differ) */
static int64_t ulps(float a, float b) {
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    if (ia < 0) ia = INT32_MIN - ia;
    if (ib < 0) ib = INT32_MIN - ib;
    return ia > ib ? (int64_t)ia - ib : (int64_t)ib - ia;
}
static int g_rect_exact, g_rect_ulp, g_rect_tie;
/* minAreaRect: exact, within 4 ulp per field, or a tie (the same
 * rectangle described from another side: corners equal as a set) */
static bool rect_ok(const pf_rotated_rect &p, const cv::RotatedRect &r) {
    const float a[5] = {p.cx, p.cy, p.width, p.height, p.angle}, b[5] = {r.center.x, r.center.y, r.size.width,
                                                                         r.size.height, r.angle};
    bool exact = true, close = true;
    for (int k = 0; k < 5; k++) {
        exact = exact && std::memcmp(&a[k], &b[k], 4) == 0;
        close = close && ulps(a[k], b[k]) <= 4;
    }
    if (exact) return ++g_rect_exact, true;
    if (close) return ++g_rect_ulp, true;
    float pc[8];
    cv::Point2f rc[4];
    pf_box_points(&p, pc);
    r.points(rc);
    for (int i = 0; i < 4; i++) {
        bool found = false;
        for (int j = 0; j < 4 && !found; j++)
            found = std::fabs(pc[2 * i] - rc[j].x) < 1e-3f && std::fabs(pc[2 * i + 1] - rc[j].y) < 1e-3f;
        if (!found) return false;
    }
    return ++g_rect_tie, true;
}
static bool same_d(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 8) == 0; }

static std::mt19937 rng(20240601);
static float uni(float a, float b) { return std::uniform_real_distribution<float>(a, b)(rng); }
static int irand(int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); }

static void nms_boxes() {
    int cases = 0;
    for (int it = 0; it < 600; it++) {
        int n = irand(0, 300);
        std::vector<cv::Rect2d> rects;
        std::vector<float> boxes, scores;
        int clusters = irand(1, 10);
        std::vector<float> cx(clusters), cy(clusters), cw(clusters);
        for (int k = 0; k < clusters; k++) cx[k] = uni(0, 500), cy[k] = uni(0, 500), cw[k] = uni(2, 100);
        for (int i = 0; i < n; i++) {
            int k = irand(0, clusters - 1);
            float x = cx[k] + uni(-0.2f, 0.2f) * cw[k], y = cy[k] + uni(-0.2f, 0.2f) * cw[k];
            float w = cw[k] * uni(0.7f, 1.3f), h = cw[k] * uni(0.7f, 1.3f);
            if (irand(0, 40) == 0) w = 0;
            if (irand(0, 40) == 0) x = (float)(int)x, w = (float)(int)w;
            rects.emplace_back(x, y, w, h);
            boxes.insert(boxes.end(), {x, y, w, h});
            float s = irand(0, 2) ? uni(0, 1) : (float)irand(0, 8) / 8.0f;
            if (irand(0, 60) == 0) s = NAN;
            scores.push_back(s);
        }
        float sthr = irand(0, 2) ? 0.0f : uni(0, 0.6f), nthr = uni(0.1f, 0.9f);
        float eta = irand(0, 3) ? 1.0f : uni(0.5f, 1.0f);
        int top_k = irand(0, 3) ? 0 : irand(1, 50);
        std::vector<int> ref;
        cv::dnn::NMSBoxes(rects, scores, sthr, nthr, ref, eta, top_k);
        pf_nms_opts o = pf_nms_opts_defaults();
        o.semantics = PF_NMS_OPENCV;
        o.box_format = PF_BOX_XYWH;
        o.classes = PF_NMS_AGNOSTIC;
        o.iou_threshold = nthr;
        o.score_threshold = sthr;
        o.eta = eta;
        o.pre_nms_top_k = top_k;
        pf_nms_sample s = {boxes.data(), scores.data(), nullptr, n};
        std::vector<int32_t> keep(n + 1);
        int64_t off[2];
        pf_status st = pf_nms(nullptr, 1, &s, &o, off, keep.data(), n, nullptr);
        bool ok = st == PF_OK && off[1] == (int64_t)ref.size() &&
                  std::equal(ref.begin(), ref.end(), keep.begin());
        EXPECT(ok, "NMSBoxes case %d: %d kept by OpenCV, %lld by pixflow (%s)", it, (int)ref.size(),
               (long long)off[1], pf_last_error());
        cases++;

        // softNMSBoxes takes integer Rects
        std::vector<cv::Rect> irects;
        std::vector<float> ib;
        for (int i = 0; i < n; i++) {
            cv::Rect r((int)rects[i].x, (int)rects[i].y, (int)rects[i].width, (int)rects[i].height);
            irects.push_back(r);
            ib.insert(ib.end(), {(float)r.x, (float)r.y, (float)r.width, (float)r.height});
            if (std::isnan(scores[i])) scores[i] = 0.5f; // OpenCV's max_element is undefined with NaN
        }
        int method = irand(1, 2);
        float sigma = uni(0.2f, 1.0f);
        size_t stop = irand(0, 2) ? 0 : (size_t)irand(1, 30);
        std::vector<float> upd;
        std::vector<int> sref;
        cv::dnn::softNMSBoxes(irects, scores, upd, sthr, nthr, sref, stop, sigma,
                              method == 1 ? cv::dnn::SoftNMSMethod::SOFTNMS_LINEAR
                                          : cv::dnn::SoftNMSMethod::SOFTNMS_GAUSSIAN);
        o = pf_nms_opts_defaults();
        o.semantics = PF_NMS_OPENCV;
        o.box_format = PF_BOX_XYWH;
        o.classes = PF_NMS_AGNOSTIC;
        o.iou_threshold = nthr;
        o.score_threshold = sthr;
        o.max_output = (int32_t)stop;
        o.soft = method == 1 ? PF_SOFT_NMS_LINEAR : PF_SOFT_NMS_GAUSSIAN;
        o.sigma = sigma;
        pf_nms_sample si = {ib.data(), scores.data(), nullptr, n};
        std::vector<float> us(n + 1);
        st = pf_nms(nullptr, 1, &si, &o, off, keep.data(), n, us.data());
        ok = st == PF_OK && off[1] == (int64_t)sref.size() && std::equal(sref.begin(), sref.end(), keep.begin());
        for (size_t q = 0; ok && q < upd.size(); q++) ok = same_f(upd[q], us[q]);
        EXPECT(ok, "softNMSBoxes case %d (method %d): %d vs %lld kept", it, method, (int)sref.size(),
               (long long)off[1]);
    }
    std::printf("parity_post: cv::dnn::NMSBoxes and softNMSBoxes: %d cases each\n", cases);
}

static cv::Mat random_binary(int w, int h) {
    cv::Mat m(h, w, CV_8U, cv::Scalar(0));
    int kind = irand(0, 3);
    if (kind == 0) { // noise
        int p = irand(5, 60);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) m.at<uint8_t>(y, x) = irand(0, 99) < p ? (uint8_t)irand(1, 255) : 0;
    } else { // blobs with holes
        int nb = irand(1, 12);
        for (int b = 0; b < nb; b++) {
            cv::Point c(irand(0, w - 1), irand(0, h - 1));
            cv::ellipse(m, c, cv::Size(irand(1, w / 3 + 1), irand(1, h / 3 + 1)), uni(0, 180), 0, 360,
                        cv::Scalar(255), -1);
            if (irand(0, 1)) cv::circle(m, c, irand(0, 6), cv::Scalar(0), -1);
            if (kind == 2) cv::line(m, cv::Point(irand(0, w), irand(0, h)), cv::Point(irand(0, w), irand(0, h)),
                                    cv::Scalar(255), irand(1, 2));
        }
        if (kind == 3) m.row(irand(0, h - 1)).setTo(200);
    }
    return m;
}

static void regions() {
    int cc = 0, ct = 0, rects = 0, npoly = 0;
    pf_contours *pc = nullptr;
    pf_contours_create(&pc);
    for (int it = 0; it < 500; it++) {
        int w = irand(1, 90), h = irand(1, 70);
        cv::Mat m = random_binary(w, h);
        if (it == 0) m.setTo(255); // no background pixel at all
        pf_image src = pf_image_hwc(m.data, w, h, 1, PF_U8, (ptrdiff_t)m.step);
        for (int conn : {4, 8}) {
            cv::Mat labels, stats, cent;
            int nl = cv::connectedComponentsWithStats(m, labels, stats, cent, conn, CV_32S);
            std::vector<int32_t> lab((size_t)w * h);
            pf_image li = pf_image_hwc(lab.data(), w, h, 1, PF_S32, 0);
            std::vector<pf_cc_stats> ps(w * h + 2);
            int32_t n = -1;
            pf_status st = pf_connected_components(&src, conn, &li, &n, ps.data(), (int32_t)ps.size());
            bool ok = st == PF_OK && n == nl;
            for (int y = 0; ok && y < h; y++) ok = std::memcmp(labels.ptr<int>(y), &lab[(size_t)y * w], w * 4) == 0;
            for (int l = 0; ok && l < nl; l++) {
                const int *r = stats.ptr<int>(l);
                ok = r[0] == ps[l].left && r[1] == ps[l].top && r[2] == ps[l].width && r[3] == ps[l].height &&
                     r[4] == ps[l].area && same_d(cent.at<double>(l, 0), ps[l].cx) &&
                     same_d(cent.at<double>(l, 1), ps[l].cy);
                if (!ok)
                    std::fprintf(stderr, "  label %d: cv (%d %d %d %d %d %g %g) pf (%d %d %d %d %d %g %g)\n", l, r[0],
                                 r[1], r[2], r[3], r[4], cent.at<double>(l, 0), cent.at<double>(l, 1), ps[l].left,
                                 ps[l].top, ps[l].width, ps[l].height, ps[l].area, ps[l].cx, ps[l].cy);
            }
            EXPECT(ok, "connectedComponentsWithStats case %d %dx%d conn %d: %d vs %d labels", it, w, h, conn, nl, n);
            cc++;
        }
        for (int mode : {cv::RETR_LIST, cv::RETR_EXTERNAL}) {
            std::vector<std::vector<cv::Point>> cs;
            cv::findContours(m, cs, mode, cv::CHAIN_APPROX_SIMPLE);
            pf_status st = pf_find_contours(&src, mode == cv::RETR_LIST ? PF_RETR_LIST : PF_RETR_EXTERNAL, pc);
            bool ok = st == PF_OK && pf_contours_count(pc) == (int32_t)cs.size();
            for (size_t k = 0; ok && k < cs.size(); k++) {
                int32_t np;
                const int32_t *p = pf_contours_points(pc, (int32_t)k, &np);
                ok = np == (int32_t)cs[k].size();
                for (int32_t q = 0; ok && q < np; q++) ok = p[2 * q] == cs[k][q].x && p[2 * q + 1] == cs[k][q].y;
                if (!ok) std::fprintf(stderr, "  contour %zu: %d vs %d points\n", k, (int)cs[k].size(), np);
            }
            EXPECT(ok, "findContours case %d %dx%d mode %d: %d vs %d contours", it, w, h, mode, (int)cs.size(),
                   pf_contours_count(pc));
            ct++;
            if (mode != cv::RETR_LIST) continue;
            for (size_t k = 0; k < cs.size(); k++) { // minAreaRect + boxPoints of every contour
                cv::RotatedRect r = cv::minAreaRect(cs[k]);
                cv::Mat bp;
                cv::boxPoints(r, bp);
                int32_t np;
                const int32_t *p = pf_contours_points(pc, (int32_t)k, &np);
                pf_rotated_rect pr;
                float corners[8];
                bool rok = pf_min_area_rect(p, np, &pr) == PF_OK && pf_box_points(&pr, corners) == PF_OK;
                bool exact_before = rok && same_f(pr.cx, r.center.x) && same_f(pr.cy, r.center.y) &&
                                    same_f(pr.width, r.size.width) && same_f(pr.height, r.size.height) &&
                                    same_f(pr.angle, r.angle);
                rok = rok && rect_ok(pr, r);
                /* boxPoints must be exact whenever the rectangle is */
                for (int q = 0; rok && exact_before && q < 8; q++) rok = same_f(corners[q], bp.at<float>(q / 2, q % 2));
                EXPECT(rok, "minAreaRect case %d contour %zu (%d points): cv (%a %a %a %a %a) pf (%a %a %a %a %a)", it,
                       k, np, r.center.x, r.center.y, r.size.width, r.size.height, r.angle, pr.cx, pr.cy, pr.width,
                       pr.height, pr.angle);
                rects++;
            }
        }
    }
    // minAreaRect of random point clouds (duplicates, collinear, 1-2 points)
    for (int it = 0; it < 2000; it++) {
        int n = irand(1, 40), span = irand(1, 50);
        std::vector<cv::Point> pts;
        std::vector<int32_t> flat;
        for (int i = 0; i < n; i++) {
            cv::Point p(irand(0, span), it % 5 == 0 ? 7 : irand(0, span));
            if (i > 0 && irand(0, 5) == 0) p = pts[irand(0, i - 1)];
            pts.push_back(p);
            flat.push_back(p.x);
            flat.push_back(p.y);
        }
        cv::RotatedRect r = cv::minAreaRect(pts);
        pf_rotated_rect pr;
        bool ok = pf_min_area_rect(flat.data(), n, &pr) == PF_OK && rect_ok(pr, r);
        EXPECT(ok, "minAreaRect cloud %d (%d points): cv (%g %g %g %g %g) pf (%g %g %g %g %g)", it, n, r.center.x,
               r.center.y, r.size.width, r.size.height, r.angle, pr.cx, pr.cy, pr.width, pr.height, pr.angle);
        rects++;
    }
    // fillPoly of random polygons, partly outside the image
    for (int it = 0; it < 3000; it++) {
        int w = irand(1, 60), h = irand(1, 60), n = irand(1, 12);
        std::vector<cv::Point> pts;
        std::vector<int32_t> flat;
        for (int i = 0; i < n; i++) {
            cv::Point p(irand(-15, w + 15), irand(-15, h + 15));
            pts.push_back(p);
            flat.push_back(p.x);
            flat.push_back(p.y);
        }
        cv::Mat a(h, w, CV_8U, cv::Scalar(0)), b(h, w, CV_8U, cv::Scalar(0));
        std::vector<std::vector<cv::Point>> polys{pts};
        cv::fillPoly(a, polys, cv::Scalar(1));
        pf_image bi = pf_image_hwc(b.data, w, h, 1, PF_U8, (ptrdiff_t)b.step);
        bool ok = pf_fill_poly(&bi, flat.data(), n, 1) == PF_OK && cv::countNonZero(a != b) == 0;
        EXPECT(ok, "fillPoly case %d (%dx%d, %d points): %d pixels differ", it, w, h, n, cv::countNonZero(a != b));
        npoly++;
    }
    // box_score_fast: mean of a score map over a float quadrilateral
    for (int it = 0; it < 1000; it++) {
        int w = irand(4, 80), h = irand(4, 80);
        cv::Mat score(h, w, CV_32F);
        cv::randu(score, 0.0f, 1.0f);
        cv::RotatedRect rr(cv::Point2f(uni(-5, (float)w + 5), uni(-5, (float)h + 5)),
                           cv::Size2f(uni(1, (float)w), uni(1, (float)h)), uni(-90, 90));
        cv::Mat bp;
        cv::boxPoints(rr, bp); // float 4x2
        float xs[4], ys[4];
        for (int q = 0; q < 4; q++) xs[q] = bp.at<float>(q, 0), ys[q] = bp.at<float>(q, 1);
        auto mn = [](const float *v) { return std::min(std::min(v[0], v[1]), std::min(v[2], v[3])); };
        auto mx = [](const float *v) { return std::max(std::max(v[0], v[1]), std::max(v[2], v[3])); };
        int xmin = std::min(std::max((int)std::floor(mn(xs)), 0), w - 1), xmax = std::min(std::max((int)std::ceil(mx(xs)), 0), w - 1);
        int ymin = std::min(std::max((int)std::floor(mn(ys)), 0), h - 1), ymax = std::min(std::max((int)std::ceil(mx(ys)), 0), h - 1);
        cv::Mat mask(ymax - ymin + 1, xmax - xmin + 1, CV_8U, cv::Scalar(0));
        std::vector<cv::Point> ip;
        for (int q = 0; q < 4; q++) ip.emplace_back((int)(xs[q] - (float)xmin), (int)(ys[q] - (float)ymin));
        std::vector<std::vector<cv::Point>> polys{ip};
        cv::fillPoly(mask, polys, cv::Scalar(1));
        double ref = cv::mean(score(cv::Rect(xmin, ymin, xmax - xmin + 1, ymax - ymin + 1)), mask)[0];
        float flat[8];
        for (int q = 0; q < 4; q++) flat[2 * q] = xs[q], flat[2 * q + 1] = ys[q];
        pf_image si = pf_image_hwc(score.data, w, h, 1, PF_F32, (ptrdiff_t)score.step);
        double got = -1;
        bool ok = pf_poly_mean_score(&si, flat, 4, &got) == PF_OK && same_d(got, ref);
        EXPECT(ok, "box_score_fast case %d: cv %.17g pf %.17g", it, ref, got);
    }
    pf_contours_destroy(pc);
    std::printf("parity_post: minAreaRect %d bit-exact, %d within 4 ulp, %d ties (the same rectangle from another side)\n",
                g_rect_exact, g_rect_ulp, g_rect_tie);
    std::printf("parity_post: connectedComponentsWithStats %d, findContours %d, minAreaRect+boxPoints %d, fillPoly %d, "
                "box_score_fast 1000 cases\n", cc, ct, rects, npoly);
}

/* ------------------------------------------------- image-view functions */

/* A letterbox of a w x h source into a t x t tensor as the fused
 * preprocess makes it (r = min(t/w, t/h), sides rounded, centred). */
static pf_letterbox_info letterbox_of(int w, int h, int t, cv::Rect *rect) {
    double r = std::min((double)t / w, (double)t / h);
    int rw = std::max(1, std::min(t, (int)std::nearbyint(w * r))), rh = std::max(1, std::min(t, (int)std::nearbyint(h * r)));
    pf_letterbox_info li = {(float)rw / w, (float)rh / h, (float)((t - rw) / 2), (float)((t - rh) / 2), 0, 0};
    *rect = cv::Rect((t - rw) / 2, (t - rh) / 2, rw, rh);
    return li;
}

static pf_image view_of(cv::Mat &m) {
    return pf_image_hwc(m.data, m.cols, m.rows, m.channels(), m.depth() == CV_32F ? PF_F32 : PF_U8, (int64_t)m.step);
}

static bool same_mat(const cv::Mat &a, const cv::Mat &b) {
    return a.size() == b.size() && a.type() == b.type() && cv::norm(a, b, cv::NORM_INF) == 0;
}

/* CV-CUDA's AlphaLerp (pf_composite's contract) on whole images, in
 * separate float32 steps (this file is built with -ffp-contract=off). */
static cv::Mat alpha_lerp(const cv::Mat &fg, const cv::Mat &bg, const cv::Mat &m) {
    cv::Mat out(fg.size(), fg.type());
    int cn = fg.channels();
    for (int y = 0; y < fg.rows; y++)
        for (int x = 0; x < fg.cols; x++)
            for (int c = 0; c < cn; c++) {
                int f = fg.ptr<uint8_t>(y)[x * cn + c], b = bg.ptr<uint8_t>(y)[x * cn + c], a = m.at<uint8_t>(y, x);
                float p = (float)((f - b) * a);
                float q = p * 0.00392156862f;
                float r = q + (float)b;
                out.ptr<uint8_t>(y)[x * cn + c] = (uint8_t)(int)(r + 0.5f);
            }
    return out;
}

static void image_views() {
    int unmaps = 0, blurs = 0, draws = 0;
    const int borders[4] = {cv::BORDER_REFLECT_101, cv::BORDER_REPLICATE, cv::BORDER_REFLECT, cv::BORDER_CONSTANT};
    for (int it = 0; it < 120; it++) { /* masks_unmap: u8 / f32, 1..4 channels, NEAREST / LINEAR */
        int w = irand(1, 200), h = irand(1, 200), t = irand(8, 96), cn = irand(1, 4);
        bool f32 = irand(0, 1);
        int interp = irand(0, 1) ? cv::INTER_LINEAR : cv::INTER_NEAREST;
        cv::Rect rect;
        pf_letterbox_info li = letterbox_of(w, h, t, &rect);
        cv::Mat mask(t, t, CV_MAKETYPE(f32 ? CV_32F : CV_8U, cn));
        if (f32) cv::randu(mask, cv::Scalar::all(-4), cv::Scalar::all(4));
        else cv::randu(mask, cv::Scalar::all(0), cv::Scalar::all(256));
        cv::Mat want, got(h, w, mask.type());
        cv::resize(mask(rect), want, cv::Size(w, h), 0, 0, interp);
        pf_image s = view_of(mask), d = view_of(got);
        pf_status st = pf_masks_unmap(nullptr, 1, &s, &li, &d, interp == cv::INTER_LINEAR ? PF_INTERP_LINEAR
                                                                                         : PF_INTERP_NEAREST);
        EXPECT(st == PF_OK && same_mat(got, want), "masks_unmap %d: %dx%d from %d, cn %d f32 %d interp %d: %s", it, w,
               h, t, cn, f32, interp, st == PF_OK ? "bytes differ" : pf_last_error());
        unmaps++;
    }
    for (int it = 0; it < 60; it++) { /* background_blur: batches of 1..3, ksize / sigma / border */
        int count = irand(1, 3);
        std::vector<cv::Mat> frames(count), masks(count), outs(count), wants(count);
        std::vector<pf_image> fv(count), mv(count), dv(count);
        std::vector<pf_letterbox_info> li(count);
        int k = irand(0, 1) ? 2 * irand(0, 7) + 1 : 0;
        double sx = k && irand(0, 1) ? 0.0 : uni(0.3f, 4.0f), sy = irand(0, 1) ? 0.0 : uni(0.3f, 4.0f);
        int border = borders[irand(0, 3)];
        pf_gaussian_params gp;
        pf_gaussian_params_defaults(&gp);
        gp.ksize_x = gp.ksize_y = k;
        gp.sigma_x = sx;
        gp.sigma_y = sy;
        gp.border = (pf_border)border;
        for (int i = 0; i < count; i++) {
            int w = irand(8, 120), h = irand(8, 120), t = irand(16, 64);
            cv::Rect rect;
            li[i] = letterbox_of(w, h, t, &rect);
            frames[i].create(h, w, CV_8UC3);
            cv::randu(frames[i], cv::Scalar::all(0), cv::Scalar::all(256));
            masks[i].create(t, t, CV_8U);
            cv::randu(masks[i], cv::Scalar::all(0), cv::Scalar::all(256));
            cv::Mat mk, blurred;
            cv::resize(masks[i](rect), mk, cv::Size(w, h), 0, 0, cv::INTER_LINEAR);
            cv::GaussianBlur(frames[i], blurred, cv::Size(k, k), sx, sy, border);
            wants[i] = alpha_lerp(frames[i], blurred, mk);
            outs[i].create(h, w, CV_8UC3);
            fv[i] = view_of(frames[i]);
            mv[i] = view_of(masks[i]);
            dv[i] = view_of(outs[i]);
        }
        bool in_place = irand(0, 1);
        pf_status st = pf_background_blur(nullptr, count, fv.data(), mv.data(), li.data(), &gp,
                                          in_place ? fv.data() : dv.data());
        bool ok = st == PF_OK;
        for (int i = 0; i < count && ok; i++) ok = same_mat(in_place ? frames[i] : outs[i], wants[i]);
        EXPECT(ok, "background_blur %d: %d frames, k %d sigma %g/%g border %d in place %d: %s", it, count, k, sx, sy,
               border, in_place, st == PF_OK ? "bytes differ" : pf_last_error());
        blurs++;
    }
    for (int it = 0; it < 200; it++) { /* draw_detections: outlines and fills, 1/3/4 channels */
        int w = irand(1, 90), h = irand(1, 90), cn = irand(0, 2) == 0 ? 1 : irand(3, 4), n = irand(0, 6);
        cv::Mat img(h, w, CV_8UC(cn));
        cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
        cv::Mat want = img.clone();
        pf_draw_opts o = pf_draw_opts_defaults();
        o.palette = false;
        o.label = false;
        o.thickness = irand(1, 6);
        o.fill_alpha = irand(0, 1) ? (uint8_t)irand(1, 255) : 0;
        for (int c = 0; c < 4; c++) o.color[c] = (uint8_t)irand(0, 255);
        if (cn == 1) o.color[1] = o.color[2] = o.color[0]; /* a gray colour is its own luma */
        cv::Scalar color(o.color[0], o.color[1], o.color[2], o.color[3]);
        std::vector<pf_detection> dets(n > 0 ? n : 1);
        for (int i = 0; i < n; i++) {
            pf_detection &d = dets[i];
            d.x1 = uni(-10, (float)w + 10);
            d.y1 = uni(-10, (float)h + 10);
            d.x2 = d.x1 + uni(-3, (float)w);
            d.y2 = d.y1 + uni(-3, (float)h);
            d.class_id = irand(0, 30);
            auto px = [](float v, int hi) { return std::min(std::max((int)std::nearbyint(v), 0), hi); };
            int x0 = px(d.x1, w - 1), y0 = px(d.y1, h - 1), x1 = px(d.x2, w - 1), y1 = px(d.y2, h - 1);
            if (x1 < x0 || y1 < y0) continue;
            if (o.fill_alpha) {
                cv::Mat roi = want(cv::Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1));
                cv::Mat ink(roi.size(), roi.type(), color);
                cv::addWeighted(roi, (255 - o.fill_alpha) / 255.0, ink, o.fill_alpha / 255.0, 0.0, roi);
            }
            /* thickness inwards: nested 1-pixel rectangles */
            for (int k = 0; k < o.thickness && x0 + k <= x1 - k && y0 + k <= y1 - k; k++)
                cv::rectangle(want, cv::Point(x0 + k, y0 + k), cv::Point(x1 - k, y1 - k), color, 1, cv::LINE_8);
        }
        pf_image v = view_of(img);
        int64_t off[2] = {0, n};
        pf_status st = pf_draw_detections(1, &v, off, dets.data(), &o);
        EXPECT(st == PF_OK && same_mat(img, want), "draw_detections %d: %dx%d cn %d, %d boxes, thickness %d fill %d: %s",
               it, w, h, cn, n, o.thickness, o.fill_alpha, st == PF_OK ? "bytes differ" : pf_last_error());
        draws++;
    }
    std::printf("parity_post: image views: %d masks_unmap, %d background_blur, %d draw_detections cases\n", unmaps,
                blurs, draws);
}

int main() {
    std::printf("parity_post: OpenCV %s\n", CV_VERSION);
    nms_boxes();
    regions();
    image_views();
    std::printf("parity_post: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
