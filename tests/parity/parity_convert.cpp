/*
 * parity_convert: pf_convert / pf_normalize / pf_split / pf_merge /
 * pf_reformat against OpenCV 4.6 on identical random inputs.
 *
 *   parity_convert [cases [seed]] [--only K]
 *
 * Case K depends on (seed, K) only; `--only K` re-runs it. Ops rotate with
 * K % 5: convertTo (all dtype pairs OpenCV has: u8 u16 s16 s32 f16 f32,
 * random alpha/beta incl. the identity), MEAN_STD vs convertTo(CV_32F,
 * scale) + subtract(Scalar) + divide(Scalar) + split (then convertTo for
 * u8/f16 outputs; bf16 vs round-to-nearest-even of that f32), NORM_MINMAX
 * vs cv::normalize (u8 and f32 out), split/merge vs cv::split/cv::merge,
 * HWC -> CHW reformat vs cv::split. Random sizes (odd widths), ROIs with
 * padded strides, negative row strides, 1 and 2 threads.
 * Contract: every output bit-identical (NaN == NaN); prints the largest
 * relative error of f32 outputs, which must be <= 1e-6. Exception: where
 * OpenCV's dispatch does not use AVX2 (g_cv_fma), its convertTo does not
 * fuse, and scaled convertTo / NORM_MINMAX are compared within a stated
 * tolerance instead (try OPENCV_CPU_DISABLE=AVX2 to run that mode).
 */
#include <pixflow/core.h>
#include <pixflow/ops.h>

#include "opencv_headers.hpp"
#include "parity_rng.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Rng = pft::Rng;

const pf_dtype kDt[] = {PF_U8, PF_U16, PF_S16, PF_S32, PF_F16, PF_F32};
const int kDepth[] = {CV_8U, CV_16U, CV_16S, CV_32S, CV_16F, CV_32F};

int depth_of(pf_dtype d) {
    for (int i = 0; i < 6; i++)
        if (kDt[i] == d) return kDepth[i];
    return CV_16U; /* bf16: raw bits (split/merge only) */
}

uint16_t f32_to_bf16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
}

/* Random contents for a Mat of any depth (finite values, a few extremes). */
void fill_random(cv::Mat &m, Rng &r) {
    for (int y = 0; y < m.rows; y++) {
        uint8_t *row = m.ptr<uint8_t>(y);
        size_t n = static_cast<size_t>(m.cols) * static_cast<size_t>(m.channels());
        for (size_t j = 0; j < n; j++) {
            switch (m.depth()) {
            case CV_8U: row[j] = static_cast<uint8_t>(r.next()); break;
            case CV_16U: reinterpret_cast<uint16_t *>(row)[j] = static_cast<uint16_t>(r.next()); break;
            case CV_16S: reinterpret_cast<int16_t *>(row)[j] = static_cast<int16_t>(r.next()); break;
            case CV_32S: {
                int64_t v = r.range(0, 3) == 0 ? static_cast<int32_t>(r.next()) : r.range(-70000, 70000);
                reinterpret_cast<int32_t *>(row)[j] = static_cast<int32_t>(v);
                break;
            }
            case CV_16F: {
                float f = static_cast<float>((r.uni() - 0.5) * (r.range(0, 4) == 0 ? 1.4e5 : 600.0));
                reinterpret_cast<cv::float16_t *>(row)[j] = cv::float16_t(f);
                break;
            }
            default: {
                double sc = r.range(0, 5) == 0 ? 1e10 : r.range(0, 1) ? 300.0 : 2.0;
                float f = static_cast<float>((r.uni() - 0.3) * sc);
                if (r.range(0, 40) == 0) f = std::nearbyint(f) + 0.5f; /* ties */
                reinterpret_cast<float *>(row)[j] = f;
            }
            }
        }
    }
}

/* A view of m; optionally through a row-reversed copy with a negative
 * stride (the buffer is kept in `hold`). */
pf_image view_of(const cv::Mat &m, pf_dtype dt, bool negative, std::vector<uint8_t> &hold) {
    pf_image v = pf_image_hwc(m.data, m.cols, m.rows, m.channels(), dt, static_cast<ptrdiff_t>(m.step));
    if (!negative) return v;
    size_t rb = m.step;
    hold.assign(rb * static_cast<size_t>(m.rows), 0);
    for (int y = 0; y < m.rows; y++) std::memcpy(&hold[rb * static_cast<size_t>(m.rows - 1 - y)], m.ptr(y), m.cols * m.elemSize());
    v.data = &hold[rb * static_cast<size_t>(m.rows - 1)];
    v.row_stride = -static_cast<ptrdiff_t>(rb);
    return v;
}

/* An ROI of a random padded buffer. */
cv::Mat make_roi(int w, int h, int type, Rng &r, std::vector<cv::Mat> &keep) {
    int px = r.range(0, 1) ? r.range(0, 5) : 0, py = r.range(0, 3);
    cv::Mat big(h + py + r.range(0, 2), w + px + r.range(0, 7), type);
    fill_random(big, r);
    keep.push_back(big);
    return big(cv::Rect(px, py, w, h));
}

bool same_bits(const void *a, const void *b, int depth, size_t n, double *maxrel) {
    if (depth == CV_32F) {
        const float *x = static_cast<const float *>(a), *y = static_cast<const float *>(b);
        for (size_t i = 0; i < n; i++) {
            if (std::isnan(x[i]) && std::isnan(y[i])) continue;
            double d = std::fabs(static_cast<double>(x[i]) - static_cast<double>(y[i]));
            double rel = d / std::max(1e-30, std::fabs(static_cast<double>(y[i])));
            if (d != 0 && rel > *maxrel) *maxrel = rel;
            if (std::memcmp(&x[i], &y[i], 4) != 0) return false;
        }
        return true;
    }
    size_t esz = CV_ELEM_SIZE1(depth);
    if (depth == CV_16F) {
        const uint16_t *x = static_cast<const uint16_t *>(a), *y = static_cast<const uint16_t *>(b);
        for (size_t i = 0; i < n; i++) {
            bool nx = (x[i] & 0x7fff) > 0x7c00, ny = (y[i] & 0x7fff) > 0x7c00;
            if ((nx && ny) || x[i] == y[i]) continue;
            return false;
        }
        return true;
    }
    return std::memcmp(a, b, n * esz) == 0;
}

/* Compares plane c of a pf CHW/HWC output buffer with a 1-channel Mat. */
bool cmp_plane(const pf_image &d, int c, const cv::Mat &want, double *maxrel) {
    size_t esz = pf_dtype_size(d.dtype);
    std::vector<uint8_t> row(static_cast<size_t>(d.width) * esz);
    for (int y = 0; y < d.height; y++) {
        const uint8_t *base = static_cast<const uint8_t *>(d.data) + y * d.row_stride;
        if (d.layout == PF_CHW || d.channels == 1) {
            std::memcpy(row.data(), base + c * d.plane_stride, row.size());
        } else {
            for (int x = 0; x < d.width; x++)
                std::memcpy(&row[static_cast<size_t>(x) * esz], base + (static_cast<size_t>(x) * static_cast<size_t>(d.channels) + static_cast<size_t>(c)) * esz, esz);
        }
        if (!same_bits(row.data(), want.ptr(y), want.depth(), static_cast<size_t>(d.width), maxrel)) {
            std::fprintf(stderr, "  mismatch at plane %d row %d\n", c, y);
            return false;
        }
    }
    return true;
}

/* Whether OpenCV's convertTo fuses x * alpha + beta on this machine. Its
 * scale loops (and the scalar tails compiled in the same unit) come from
 * the AVX2 dispatch variant, built with FMA, only when the runtime picks
 * AVX2: cv::checkHardwareSupport(CV_CPU_AVX2), which is false on CPUs
 * without AVX2 and under OPENCV_CPU_DISABLE=AVX2. pixflow always computes
 * fmaf (the same bits on every machine), so without AVX2 OpenCV differs
 * by the one rounding of the product, and scaled convertTo and NORM_MINMAX
 * are compared within that (see near_plane). */
bool g_cv_fma = true;

/* The same non-AVX2 build also converts an f16 inf or NaN to u16 as 65535
 * (its int32 -> u16 pack emulation turns INT_MIN into 65535), where the
 * AVX2 variant and pixflow give 0 (cvRound's INT_MIN, saturated). */
const char *const kSse2F16U16 = "f16 inf/NaN -> u16 is 65535 in OpenCV's non-AVX2 code, 0 in pixflow";

double elem_as_double(const void *row, int depth, size_t i) {
    switch (depth) {
    case CV_8U: return static_cast<const uint8_t *>(row)[i];
    case CV_16U: return static_cast<const uint16_t *>(row)[i];
    case CV_16S: return static_cast<const int16_t *>(row)[i];
    case CV_32S: return static_cast<const int32_t *>(row)[i];
    case CV_16F: return static_cast<double>(static_cast<float>(static_cast<const cv::float16_t *>(row)[i]));
    case CV_64F: return static_cast<const double *>(row)[i];
    default: return static_cast<double>(static_cast<const float *>(row)[i]);
    }
}

/* Plane c of d against want when OpenCV did not fuse: fused and unfused
 * x * a + b differ by at most the product's rounding (2^-24 |x a|) plus one
 * rounding of the result, so |got - want| <= 2^-22 (|x a| + |b|) for f32,
 * plus one f16 ulp of the result for f16, and at least 1 for integers
 * (more only where an f32 ulp of the value exceeds 1). inf next to the
 * largest finite f16 counts as one ulp. src64 is the src plane in f64. */
int g_tolerated = 0;
bool near_plane(const pf_image &d, int c, const cv::Mat &want, const cv::Mat &src64, double alpha, double beta) {
    int depth = want.depth();
    bool is_int = depth == CV_8U || depth == CV_16U || depth == CV_16S || depth == CV_32S;
    size_t esz = pf_dtype_size(d.dtype);
    for (int y = 0; y < d.height; y++) {
        const uint8_t *base = static_cast<const uint8_t *>(d.data) + y * d.row_stride;
        for (int x = 0; x < d.width; x++) {
            size_t off = d.layout == PF_CHW || d.channels == 1
                             ? static_cast<size_t>(c) * static_cast<size_t>(d.plane_stride) + static_cast<size_t>(x) * esz
                             : (static_cast<size_t>(x) * static_cast<size_t>(d.channels) + static_cast<size_t>(c)) * esz;
            double got = elem_as_double(base + off, depth, 0), w = elem_as_double(want.ptr(y), depth, static_cast<size_t>(x));
            if ((std::isnan(got) && std::isnan(w)) || got == w) continue;
            double sx = static_cast<double>(static_cast<float>(src64.at<double>(y, x)));
            if (!std::isfinite(sx) && depth == CV_16U && got == 0 && w == 65535) { /* see kSse2F16U16 */
                g_tolerated++;
                continue;
            }
            double tol = std::ldexp(std::fabs(sx * alpha) + std::fabs(beta), -22);
            if (depth == CV_16F) tol += std::max(std::fabs(w) * std::ldexp(1.0, -10), std::ldexp(1.0, -24));
            if (is_int) tol = std::max(1.0, tol);
            bool f16_edge = depth == CV_16F && (std::isinf(got) || std::isinf(w)) &&
                            std::fabs(std::isinf(got) ? w : got) == 65504.0 && (got > 0) == (w > 0);
            if (!(std::fabs(got - w) <= tol) && !f16_edge) {
                std::fprintf(stderr, "  plane %d (%d, %d): %.9g vs OpenCV %.9g, beyond the unfused tolerance %.3g\n", c, x, y,
                             got, w, tol);
                return false;
            }
            g_tolerated++;
        }
    }
    return true;
}

struct Out {
    std::vector<uint8_t> buf;
    pf_image img;
};

/* A dst of w x h x cn in `layout` with padded strides. */
Out make_out(int w, int h, int cn, pf_dtype dt, pf_layout layout, Rng &r) {
    Out o;
    size_t esz = pf_dtype_size(dt);
    ptrdiff_t rs = static_cast<ptrdiff_t>((static_cast<size_t>(w) * (layout == PF_HWC ? static_cast<size_t>(cn) : 1u) + static_cast<size_t>(r.range(0, 3))) * esz);
    ptrdiff_t ps = rs * h + static_cast<ptrdiff_t>(esz) * r.range(0, 5);
    size_t total = layout == PF_HWC ? static_cast<size_t>(rs * h) : static_cast<size_t>(ps * cn);
    o.buf.assign(total, 0xA5);
    o.img = layout == PF_HWC ? pf_image_hwc(o.buf.data(), w, h, cn, dt, rs)
                             : pf_image_chw(o.buf.data(), w, h, cn, dt, rs, ps);
    return o;
}

double g_maxrel = 0;

bool run_case(uint64_t seed, int k, pf_stream *st2) {
    Rng r(seed * 1000003u + static_cast<uint64_t>(k));
    pf_stream *stream = r.range(0, 1) ? st2 : nullptr;
    int op = k % 5;
    int w = r.range(0, 3) == 0 ? r.range(1, 8) : r.range(1, 150), h = r.range(1, 24);
    bool neg = r.range(0, 3) == 0;
    std::vector<cv::Mat> keep;
    std::vector<uint8_t> hold;
    char what[160];
    if (op == 0) { /* convertTo */
        int si = r.range(0, 5), di = r.range(0, 5), cn = r.range(1, 4);
        double alpha = 1, beta = 0;
        int mode = r.range(0, 4);
        if (mode == 1) alpha = 1.0 / 255;
        if (mode >= 2) {
            alpha = (r.uni() - 0.5) * 6;
            beta = (r.uni() - 0.5) * 200;
        }
        cv::Mat src = make_roi(w, h, CV_MAKETYPE(kDepth[si], cn), r, keep);
        cv::Mat want;
        src.convertTo(want, kDepth[di], alpha, beta);
        pf_layout lay = r.range(0, 2) == 0 ? PF_CHW : PF_HWC;
        Out o = make_out(w, h, cn, kDt[di], lay, r);
        pf_convert_opts opt = pf_convert_opts_defaults();
        opt.alpha = alpha;
        opt.beta = beta;
        pf_image sv = view_of(src, kDt[si], neg, hold);
        std::snprintf(what, sizeof what, "convert %s->%s cn%d %dx%d a=%.17g b=%.17g %s%s", pf_dtype_name(kDt[si]),
                      pf_dtype_name(kDt[di]), cn, w, h, alpha, beta, lay == PF_CHW ? "CHW" : "HWC", neg ? " neg" : "");
        if (pf_convert(stream, 1, &sv, &o.img, &opt) != PF_OK) { std::printf("%s: %s\n", what, pf_last_error()); return false; }
        std::vector<cv::Mat> planes, splanes;
        cv::split(want, planes);
        bool fused = g_cv_fma || (std::fabs(alpha - 1) < DBL_EPSILON && std::fabs(beta) < DBL_EPSILON &&
                                  !(kDt[si] == PF_F16 && kDt[di] == PF_U16));
        if (!fused) {
            cv::Mat s64;
            src.convertTo(s64, CV_64F);
            cv::split(s64, splanes);
        }
        for (int c = 0; c < cn; c++) {
            const cv::Mat &p = planes[static_cast<size_t>(c)];
            if (fused ? !cmp_plane(o.img, c, p, &g_maxrel) : !near_plane(o.img, c, p, splanes[static_cast<size_t>(c)], alpha, beta)) {
                std::printf("FAIL case %d: %s\n", k, what);
                return false;
            }
        }
        return true;
    }
    if (op == 1) { /* MEAN_STD */
        const pf_dtype sd[] = {PF_U8, PF_U16, PF_F32};
        const pf_dtype dd[] = {PF_F32, PF_F16, PF_BF16, PF_U8};
        pf_dtype sdt = sd[r.range(0, 2)], ddt = dd[r.range(0, 5) < 3 ? 0 : r.range(1, 3)];
        int cn = r.range(0, 2) ? 3 : r.range(1, 4);
        cv::Mat src = make_roi(w, h, CV_MAKETYPE(depth_of(sdt), cn), r, keep);
        pf_normalize_opts o = pf_normalize_opts_defaults();
        int8_t perm[4] = {0, 1, 2, 3};
        for (int i = cn - 1; i > 0; i--) std::swap(perm[i], perm[r.range(0, i)]);
        std::memcpy(o.order, perm, 4);
        o.scale = r.range(0, 2) == 0 ? 1.0f : r.range(0, 1) ? 1.0f / 255 : static_cast<float>(r.uni() * 4 - 1);
        for (int c = 0; c < 4; c++) {
            o.params.mean[c] = static_cast<float>(r.uni() * (sdt == PF_U8 && o.scale != 1.0f ? 1 : 300));
            o.params.std[c] = static_cast<float>(0.05 + r.uni() * (r.range(0, 1) ? 1 : 90));
        }
        /* the OpenCV chain works on src channels: channel perm[c] gets dst c's params */
        cv::Scalar mean, stdv;
        for (int c = 0; c < cn; c++) {
            mean[perm[c]] = static_cast<double>(o.params.mean[c]);
            stdv[perm[c]] = static_cast<double>(o.params.std[c]);
        }
        cv::Mat f, f2, f3;
        src.convertTo(f, CV_32F, static_cast<double>(o.scale));
        cv::subtract(f, mean, f2);
        cv::divide(f2, stdv, f3);
        std::vector<cv::Mat> planes;
        cv::split(f3, planes);
        pf_layout lay = r.range(0, 3) == 0 ? PF_HWC : PF_CHW;
        Out out = make_out(w, h, cn, ddt, lay, r);
        pf_image sv = view_of(src, sdt, neg, hold);
        std::snprintf(what, sizeof what, "normalize %s->%s cn%d %dx%d scale=%.9g order=%d%d%d%d %s", pf_dtype_name(sdt),
                      pf_dtype_name(ddt), cn, w, h, static_cast<double>(o.scale), perm[0], perm[1], perm[2], perm[3], neg ? "neg" : "");
        if (pf_normalize(stream, 1, &sv, &out.img, &o) != PF_OK) { std::printf("%s: %s\n", what, pf_last_error()); return false; }
        for (int c = 0; c < cn; c++) {
            cv::Mat p = planes[static_cast<size_t>(perm[c])], want;
            if (ddt == PF_F32) want = p;
            else if (ddt == PF_U8) p.convertTo(want, CV_8U);
            else if (ddt == PF_F16) p.convertTo(want, CV_16F);
            else {
                want.create(p.size(), CV_16U);
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) want.at<uint16_t>(y, x) = f32_to_bf16(p.at<float>(y, x));
            }
            if (!cmp_plane(out.img, c, want, &g_maxrel)) { std::printf("FAIL case %d: %s\n", k, what); return false; }
        }
        return true;
    }
    if (op == 2) { /* NORM_MINMAX */
        const pf_dtype sd[] = {PF_U8, PF_U16, PF_F32};
        pf_dtype sdt = sd[r.range(0, 2)], ddt = r.range(0, 1) ? PF_U8 : PF_F32;
        int cn = r.range(1, 4);
        cv::Mat src = make_roi(w, h, CV_MAKETYPE(depth_of(sdt), cn), r, keep);
        if (sdt == PF_F32) src.forEach<float>([](float &v, const int *) { v = std::fmod(v, 1000.0f); });
        pf_normalize_opts o = pf_normalize_opts_defaults();
        o.mode = PF_NORM_MINMAX;
        o.lo = r.range(0, 1) ? 0 : (r.uni() - 0.5) * 100;
        o.hi = r.range(0, 1) ? (ddt == PF_U8 ? 255 : 1) : (r.uni() - 0.5) * 400;
        cv::Mat want;
        cv::normalize(src, want, o.lo, o.hi, cv::NORM_MINMAX, depth_of(ddt));
        Out out = make_out(w, h, cn, ddt, r.range(0, 1) ? PF_HWC : PF_CHW, r);
        pf_image sv = view_of(src, sdt, neg, hold);
        std::snprintf(what, sizeof what, "minmax %s->%s cn%d %dx%d lo=%.17g hi=%.17g", pf_dtype_name(sdt), pf_dtype_name(ddt),
                      cn, w, h, o.lo, o.hi);
        if (pf_normalize(stream, 1, &sv, &out.img, &o) != PF_OK) { std::printf("%s: %s\n", what, pf_last_error()); return false; }
        std::vector<cv::Mat> planes, splanes;
        cv::split(want, planes);
        double scale = 1, shift = 0; /* cv::normalize's, for the tolerance only */
        if (!g_cv_fma) {
            double smin, smax;
            cv::minMaxIdx(src, &smin, &smax);
            double dmin = std::min(o.lo, o.hi), dmax = std::max(o.lo, o.hi);
            scale = (dmax - dmin) * (smax - smin > DBL_EPSILON ? 1. / (smax - smin) : 0);
            shift = dmin - smin * scale;
            cv::Mat s64;
            src.convertTo(s64, CV_64F);
            cv::split(s64, splanes);
        }
        for (int c = 0; c < cn; c++) {
            const cv::Mat &p = planes[static_cast<size_t>(c)];
            if (g_cv_fma ? !cmp_plane(out.img, c, p, &g_maxrel) : !near_plane(out.img, c, p, splanes[static_cast<size_t>(c)], scale, shift)) {
                std::printf("FAIL case %d: %s\n", k, what);
                return false;
            }
        }
        return true;
    }
    /* split / merge / reformat */
    const pf_dtype all[] = {PF_U8, PF_U16, PF_S16, PF_S32, PF_F16, PF_BF16, PF_F32};
    pf_dtype dt = all[r.range(0, 6)];
    int cn = r.range(0, 1) ? 3 : r.range(1, 4);
    cv::Mat src = make_roi(w, h, CV_MAKETYPE(depth_of(dt), cn), r, keep);
    std::vector<cv::Mat> planes;
    cv::split(src, planes);
    if (op == 4 && r.range(0, 1)) { /* merge */
        cv::Mat want;
        cv::merge(planes, want);
        std::vector<pf_image> pv;
        std::vector<std::vector<uint8_t>> holds(static_cast<size_t>(cn));
        for (int c = 0; c < cn; c++) pv.push_back(view_of(planes[static_cast<size_t>(c)], dt, neg, holds[static_cast<size_t>(c)]));
        Out out = make_out(w, h, cn, dt, r.range(0, 2) ? PF_HWC : PF_CHW, r);
        std::snprintf(what, sizeof what, "merge %s cn%d %dx%d", pf_dtype_name(dt), cn, w, h);
        if (pf_merge(stream, 1, cn, pv.data(), &out.img) != PF_OK) { std::printf("%s: %s\n", what, pf_last_error()); return false; }
        for (int c = 0; c < cn; c++)
            if (!cmp_plane(out.img, c, planes[static_cast<size_t>(c)], &g_maxrel)) { std::printf("FAIL case %d: %s\n", k, what); return false; }
        return true;
    }
    pf_image sv = view_of(src, dt, neg, hold);
    if (op == 3) { /* split */
        std::vector<Out> outs;
        std::vector<pf_image> dv;
        for (int c = 0; c < cn; c++) outs.push_back(make_out(w, h, 1, dt, PF_HWC, r));
        for (int c = 0; c < cn; c++) dv.push_back(outs[static_cast<size_t>(c)].img);
        std::snprintf(what, sizeof what, "split %s cn%d %dx%d", pf_dtype_name(dt), cn, w, h);
        if (pf_split(stream, 1, &sv, dv.data()) != PF_OK) { std::printf("%s: %s\n", what, pf_last_error()); return false; }
        for (int c = 0; c < cn; c++)
            if (!cmp_plane(dv[static_cast<size_t>(c)], 0, planes[static_cast<size_t>(c)], &g_maxrel)) { std::printf("FAIL case %d: %s\n", k, what); return false; }
        return true;
    }
    Out out = make_out(w, h, cn, dt, PF_CHW, r); /* reformat HWC -> CHW */
    std::snprintf(what, sizeof what, "reformat %s cn%d %dx%d", pf_dtype_name(dt), cn, w, h);
    if (pf_reformat(stream, 1, &sv, &out.img, nullptr, 0) != PF_OK) { std::printf("%s: %s\n", what, pf_last_error()); return false; }
    for (int c = 0; c < cn; c++)
        if (!cmp_plane(out.img, c, planes[static_cast<size_t>(c)], &g_maxrel)) { std::printf("FAIL case %d: %s\n", k, what); return false; }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    int cases = argc > 1 && argv[1][0] != '-' ? std::atoi(argv[1]) : 3000;
    uint64_t seed = argc > 2 && argv[2][0] != '-' ? std::strtoull(argv[2], nullptr, 10) : 20261130u;
    int only = -1;
    for (int i = 1; i + 1 < argc; i++)
        if (std::string(argv[i]) == "--only") only = std::atoi(argv[i + 1]);
    pf_stream *st2 = nullptr;
    if (pf_stream_create_cpu(2, &st2) != PF_OK) return 2;
    g_cv_fma = cv::checkHardwareSupport(CV_CPU_AVX2);
    if (g_cv_fma)
        std::printf("OpenCV dispatches AVX2 here (fused multiply-add in convertTo): every output must be bit-exact\n");
    else
        std::printf("OpenCV's runtime dispatch does not use AVX2 on this machine (no AVX2, or OPENCV_CPU_DISABLE), so its\n"
                    "convertTo rounds x*alpha before adding beta while pixflow fuses (fmaf, the same on every machine):\n"
                    "scaled convertTo and NORM_MINMAX are compared within 1 (integers) / 2^-22 (|x*alpha|+|beta|) (floats);\n"
                    "everything else must still be bit-exact, except that %s\n", kSse2F16U16);
    int pass = 0, fail = 0;
    for (int k = 0; k < cases; k++) {
        if (only >= 0 && k != only) continue;
        if (run_case(seed, k, st2)) pass++;
        else {
            fail++;
            std::printf("  re-run: parity_convert %d %llu --only %d\n", cases, static_cast<unsigned long long>(seed), k);
        }
    }
    pf_stream_destroy(st2);
    std::printf("max relative error of f32 outputs: %.3g\n", g_maxrel);
    if (!g_cv_fma) std::printf("elements that differed from OpenCV within the unfused tolerance: %d\n", g_tolerated);
    std::printf("parity_convert: %d passed, %d failed\n", pass, fail);
    return fail || g_maxrel > 1e-6 ? 1 : 0;
}
