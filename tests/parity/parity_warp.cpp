/*
 * parity_warp: pf_warp_affine / pf_warp_perspective / pf_remap against
 * cv::warpAffine / cv::warpPerspective / cv::remap (float maps), and the
 * matrix helpers against cv::getRotationMatrix2D / getAffineTransform /
 * getPerspectiveTransform / invertAffineTransform.
 *
 *   parity_warp [cases-per-op [seed [--only OP K]]]
 *
 * Each case: dtype u8 (mostly), u16 or f32; 1..4 channels; HWC or (a
 * share) CHW, each plane compared with OpenCV on that plane; random source
 * and destination sizes incl. 1-pixel and odd ones; padded / ROI views;
 * random matrices (rotation, scale, shear, translation; strong perspective)
 * with and without WARP_INVERSE_MAP; all interps and borders incl.
 * TRANSPARENT (dst pre-filled, the same bytes given to OpenCV); NULL
 * stream or 2 threads. Contract: u8/u16 bit-identical, f32 within 1e-4
 * relative; dst padding untouched; helpers bit-identical doubles.
 * The last line is "parity_warp: N passed, M failed".
 */
#include <pixflow/core.h>
#include <pixflow/ops.h>

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
    double uni(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

enum Op { AFFINE, PERSP, REMAP, HELPERS };
const char *const k_op_names[] = {"affine", "perspective", "remap", "helpers"};

int cv_depth(pf_dtype d) { return d == PF_U8 ? CV_8U : d == PF_U16 ? CV_16U : CV_32F; }

/* A random dst -> src-ish affine map around the image centres. */
void random_affine(Rng &r, int w, int h, int dw, int dh, double m[6]) {
    double ang = r.uni(-3.2, 3.2), sc = std::exp(r.uni(-1.2, 1.2)), sh = r.range(0, 2) ? 0.0 : r.uni(-0.6, 0.6);
    if (r.range(0, 5) == 0) ang = r.range(0, 3) * 1.5707963267948966; /* quarter turns */
    double c = std::cos(ang) * sc, s = std::sin(ang) * sc;
    m[0] = c; m[1] = s + sh; m[3] = -s; m[4] = c * (r.range(0, 3) ? 1.0 : r.uni(0.5, 2.0));
    double tx = r.uni(-0.3, 0.3) * w, ty = r.uni(-0.3, 0.3) * h;
    m[2] = w * 0.5 + tx - (m[0] * dw * 0.5 + m[1] * dh * 0.5);
    m[5] = h * 0.5 + ty - (m[3] * dw * 0.5 + m[4] * dh * 0.5);
    if (r.range(0, 9) == 0) { m[0] = 1; m[1] = 0; m[3] = 0; m[4] = 1; m[2] = r.range(-3, 3); m[5] = r.range(-3, 3); }
}

bool compare_plane(const char *op, int k, pf_dtype dt, int ccn, int dw, int dh, const uint8_t *base, size_t dstride,
                   const cv::Mat &want, double *maxdiff) {
    int es = static_cast<int>(pf_dtype_size(dt));
    for (int y = 0; y < dh; y++) {
        const uint8_t *row = base + static_cast<size_t>(y) * dstride;
        if (dt != PF_F32) {
            if (std::memcmp(row, want.ptr(y), static_cast<size_t>(dw * ccn * es)) != 0) {
                for (int x = 0; x < dw * ccn; x++) {
                    int a = dt == PF_U8 ? row[x] : reinterpret_cast<const uint16_t *>(row)[x];
                    int b = dt == PF_U8 ? want.ptr<uint8_t>(y)[x] : want.ptr<uint16_t>(y)[x];
                    if (a != b) {
                        std::fprintf(stderr, "%s case %d: differs at (%d, %d) ch %d: pixflow %d, OpenCV %d\n", op, k,
                                     x / ccn, y, x % ccn, a, b);
                        break;
                    }
                }
                return false;
            }
        } else {
            const float *a = reinterpret_cast<const float *>(row);
            const float *b = want.ptr<float>(y);
            for (int x = 0; x < dw * ccn; x++) {
                double d = std::fabs(static_cast<double>(a[x]) - b[x]);
                if (!(d <= 1e-4 * std::max(1.0, std::fabs(static_cast<double>(b[x]))))) {
                    std::fprintf(stderr, "%s case %d: f32 differs at (%d, %d): %.9g vs %.9g\n", op, k, x / ccn, y,
                                 static_cast<double>(a[x]), static_cast<double>(b[x]));
                    return false;
                }
                if (d > *maxdiff) *maxdiff = d;
            }
        }
    }
    return true;
}

double g_f32_max = 0;

bool run_case(Op op, int k, uint64_t seed, pf_stream *s2) {
    Rng r(seed * 7919u + static_cast<uint64_t>(op) * 1000003u + static_cast<uint64_t>(k));
    const pf_dtype dts[] = {PF_U8, PF_U8, PF_U8, PF_U8, PF_U16, PF_F32};
    pf_dtype dt = dts[r.range(0, 5)];
    int cn = r.range(1, 4);
    int chw = cn > 1 && r.range(0, 5) == 0;
    int big = k % 10 == 0;
    int w = r.range(1, big ? 400 : 70), h = r.range(1, big ? 300 : 50);
    int dw = r.range(1, big ? 400 : 80), dh = r.range(1, big ? 300 : 50);
    if (r.range(0, 4) == 0) { dw = w; dh = h; }
    int es = static_cast<int>(pf_dtype_size(dt));
    int pxb = es * (chw ? 1 : cn);
    int planes = chw ? cn : 1;
    int ccn = chw ? 1 : cn;
    /* source: a view inside a larger buffer (ROI), padded rows */
    int bx = r.range(0, 3), by = r.range(0, 2);
    size_t sstride = static_cast<size_t>((w + bx + r.range(0, 3)) * pxb + r.range(0, 1) * 8);
    size_t splane = sstride * static_cast<size_t>(h + by + r.range(0, 2));
    std::vector<uint8_t> sbuf(splane * static_cast<size_t>(planes));
    for (auto &v : sbuf) v = static_cast<uint8_t>(r.next());
    if (dt == PF_F32)
        for (size_t i = 0; i + 4 <= sbuf.size(); i += 4) {
            float f = static_cast<float>(r.uni(-100, 300));
            std::memcpy(&sbuf[i], &f, 4);
        }
    uint8_t *origin = sbuf.data() + static_cast<size_t>(by) * sstride + static_cast<size_t>(bx * pxb);
    pf_image src = chw ? pf_image_chw(origin, w, h, cn, dt, static_cast<ptrdiff_t>(sstride), static_cast<ptrdiff_t>(splane))
                       : pf_image_hwc(origin, w, h, cn, dt, static_cast<ptrdiff_t>(sstride));

    pf_warp_opts o = pf_warp_opts_defaults();
    o.interp = static_cast<pf_interp>(r.range(0, 2));
    o.border = static_cast<pf_border>(r.range(0, 5));
    for (double &v : o.border_value) v = r.range(0, 3) ? r.range(0, 255) : r.uni(-50, 70000);
    if (op != REMAP && r.range(0, 1)) o.flags = PF_WARP_INVERSE_MAP;

    double m[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
    random_affine(r, w, h, dw, dh, m);
    if (op == PERSP) {
        double p6 = r.uni(-1.5, 1.5) / std::max(dw, 8), p7 = r.uni(-1.5, 1.5) / std::max(dh, 8);
        if (r.range(0, 3) == 0) p6 = p7 = 0;
        m[6] = p6 * 0.5; m[7] = p7 * 0.5;
        m[8] = 1 - m[6] * dw * 0.5 - m[7] * dh * 0.5;
        if (std::fabs(m[8]) < 0.2) m[8] = 1;
        for (int i = 0; i < 6; i++) m[i] *= m[8] > 0 ? 1 : -1;
    }
    if (!(o.flags & PF_WARP_INVERSE_MAP)) { /* give the forward (src -> dst) matrix */
        if (op == AFFINE) {
            cv::Mat fm(2, 3, CV_64F, m), inv;
            cv::invertAffineTransform(fm, inv);
            std::memcpy(m, inv.ptr<double>(), 6 * sizeof(double));
        } else if (op == PERSP) {
            cv::Mat fm(3, 3, CV_64F, m);
            cv::Mat inv = fm.inv();
            std::memcpy(m, inv.ptr<double>(), 9 * sizeof(double));
        }
    }
    /* remap maps: a warp with noise, sub-pixel ties and far-out values */
    std::vector<float> mxv(static_cast<size_t>(dw * dh)), myv(mxv.size());
    if (op == REMAP) {
        int mode = r.range(0, 3);
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw; x++) {
                size_t i = static_cast<size_t>(y * dw + x);
                double fx = m[0] * x + m[1] * y + m[2], fy = m[3] * x + m[4] * y + m[5];
                if (mode == 1) { fx = r.uni(-5, w + 5); fy = r.uni(-5, h + 5); }
                if (mode == 2) { fx = r.range(-64 * 3, 64 * (w + 3)) / 64.0; fy = r.range(-64 * 3, 64 * (h + 3)) / 64.0; }
                if (mode == 3 && r.range(0, 20) == 0) { fx = r.uni(-1e6, 1e6); fy = r.uni(-1e5, 1e5); }
                mxv[i] = static_cast<float>(fx);
                myv[i] = static_cast<float>(fy);
            }
    }
    pf_image mapx = pf_image_hwc(mxv.data(), dw, dh, 1, PF_F32, static_cast<ptrdiff_t>(dw * 4));
    pf_image mapy = pf_image_hwc(myv.data(), dw, dh, 1, PF_F32, static_cast<ptrdiff_t>(dw * 4));

    size_t dstride = static_cast<size_t>(dw * pxb + r.range(0, 2) * 4);
    size_t dplane = dstride * static_cast<size_t>(dh);
    std::vector<uint8_t> dbuf(dplane * static_cast<size_t>(planes) + 32, 0xEE);
    for (size_t p = 0; p < static_cast<size_t>(planes); p++) /* initial content (TRANSPARENT keeps it) */
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw * pxb; x += es) {
                uint8_t *q = dbuf.data() + 16 + p * dplane + static_cast<size_t>(y) * dstride + static_cast<size_t>(x);
                if (dt == PF_F32) { float f = static_cast<float>(r.range(0, 99)); std::memcpy(q, &f, 4); }
                else for (int b = 0; b < es; b++) q[b] = static_cast<uint8_t>(r.next());
            }
    std::vector<uint8_t> initial(dbuf);
    pf_image dst = chw ? pf_image_chw(dbuf.data() + 16, dw, dh, cn, dt, static_cast<ptrdiff_t>(dstride),
                                      static_cast<ptrdiff_t>(dplane))
                       : pf_image_hwc(dbuf.data() + 16, dw, dh, cn, dt, static_cast<ptrdiff_t>(dstride));
    pf_stream *st = r.range(0, 1) ? s2 : nullptr;
    pf_status rc = op == AFFINE ? pf_warp_affine(st, 1, &src, &dst, m, 1, &o)
                 : op == PERSP  ? pf_warp_perspective(st, 1, &src, &dst, m, 1, &o)
                                : pf_remap(st, 1, &src, &dst, &mapx, &mapy, &o);
    if (rc != PF_OK) {
        std::fprintf(stderr, "%s case %d: failed: %s\n", k_op_names[op], k, pf_last_error());
        return false;
    }
    for (int p = 0; p < planes; p++) {
        cv::Mat in(h, w, CV_MAKETYPE(cv_depth(dt), ccn), origin + static_cast<size_t>(p) * splane, sstride);
        cv::Mat want = cv::Mat(dh, dw, CV_MAKETYPE(cv_depth(dt), ccn), initial.data() + 16 + static_cast<size_t>(p) * dplane,
                               dstride).clone();
        cv::Scalar bv(o.border_value[0], o.border_value[1], o.border_value[2], o.border_value[3]);
        if (chw) bv = cv::Scalar::all(o.border_value[p]);
        int flags = static_cast<int>(o.interp) | o.flags;
        if (op == AFFINE) cv::warpAffine(in, want, cv::Mat(2, 3, CV_64F, m), cv::Size(dw, dh), flags, o.border, bv);
        else if (op == PERSP)
            cv::warpPerspective(in, want, cv::Mat(3, 3, CV_64F, m), cv::Size(dw, dh), flags, o.border, bv);
        else
            cv::remap(in, want, cv::Mat(dh, dw, CV_32F, mxv.data()), cv::Mat(dh, dw, CV_32F, myv.data()),
                      static_cast<int>(o.interp), o.border, bv);
        const uint8_t *base = dbuf.data() + 16 + static_cast<size_t>(p) * dplane;
        if (!compare_plane(k_op_names[op], k, dt, ccn, dw, dh, base, dstride, want, &g_f32_max)) {
            std::fprintf(stderr, "  %s cn=%d chw=%d src %dx%d dst %dx%d interp=%d border=%d flags=%d "
                                 "(re-run: parity_warp 0 %llu --only %d %d)\n",
                         pf_dtype_name(dt), cn, chw, w, h, dw, dh, static_cast<int>(o.interp), static_cast<int>(o.border),
                         o.flags, static_cast<unsigned long long>(seed), static_cast<int>(op), k);
            return false;
        }
        for (int y = 0; y < dh; y++)
            for (size_t x = static_cast<size_t>(dw * pxb); x < dstride; x++)
                if (base[static_cast<size_t>(y) * dstride + x] != 0xEE) {
                    std::fprintf(stderr, "%s case %d: wrote into row padding\n", k_op_names[op], k);
                    return false;
                }
    }
    for (int i = 0; i < 16; i++)
        if (dbuf[static_cast<size_t>(i)] != 0xEE || dbuf[dbuf.size() - 1 - static_cast<size_t>(i)] != 0xEE) {
            std::fprintf(stderr, "%s case %d: wrote outside dst\n", k_op_names[op], k);
            return false;
        }
    return true;
}

bool same(const char *what, int k, const double *a, const cv::Mat &b, int n) {
    if (std::memcmp(a, b.ptr<double>(), static_cast<size_t>(n) * sizeof(double)) == 0) return true;
    std::fprintf(stderr, "helpers case %d: %s differs:", k, what);
    for (int i = 0; i < n; i++) std::fprintf(stderr, " %.17g/%.17g", a[i], b.ptr<double>()[i]);
    std::fprintf(stderr, "\n");
    return false;
}

bool run_helpers(int k, uint64_t seed) {
    Rng r(seed * 31u + static_cast<uint64_t>(k));
    float cx = static_cast<float>(r.uni(-50, 500)), cy = static_cast<float>(r.uni(-50, 500));
    double ang = r.range(0, 3) ? r.uni(-720, 720) : r.range(-8, 8) * 45.0, sc = r.uni(0.1, 4);
    double m[9];
    if (pf_rotation_matrix_2d(cx, cy, ang, sc, m) != PF_OK) return false;
    if (!same("rotation", k, m, cv::Mat(cv::getRotationMatrix2D(cv::Point2f(cx, cy), ang, sc)), 6)) return false;
    double inv[6];
    if (pf_invert_affine(m, inv) != PF_OK) return false;
    cv::Mat cinv;
    cv::invertAffineTransform(cv::Mat(2, 3, CV_64F, m), cinv);
    if (!same("invert_affine", k, inv, cinv, 6)) return false;
    float s[8], d[8];
    cv::Point2f ps[4], pd[4];
    for (int i = 0; i < 4; i++) {
        s[2 * i] = static_cast<float>(r.uni(0, 640)); s[2 * i + 1] = static_cast<float>(r.uni(0, 480));
        d[2 * i] = s[2 * i] + static_cast<float>(r.uni(-80, 80));
        d[2 * i + 1] = s[2 * i + 1] + static_cast<float>(r.uni(-80, 80));
        if (r.range(0, 4) == 0) { s[2 * i] = static_cast<float>(r.range(0, 9) * 10); d[2 * i] = static_cast<float>(r.range(0, 9) * 7); }
        ps[i] = cv::Point2f(s[2 * i], s[2 * i + 1]);
        pd[i] = cv::Point2f(d[2 * i], d[2 * i + 1]);
    }
    cv::Mat ca = cv::getAffineTransform(ps, pd);
    pf_status st = pf_affine_from_points(s, d, m);
    if (st == PF_OK ? !same("affine_from_points", k, m, ca, 6) : cv::countNonZero(ca) != 0) return false;
    cv::Mat cp = cv::getPerspectiveTransform(ps, pd);
    st = pf_perspective_from_points(s, d, m);
    if (st == PF_OK ? !same("perspective_from_points", k, m, cp, 9) : cv::countNonZero(cp(cv::Rect(0, 0, 3, 2))) != 0) {
        if (st != PF_OK) std::fprintf(stderr, "helpers case %d: pixflow says singular, OpenCV solved\n", k);
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    int cases = argc > 1 ? std::atoi(argv[1]) : 600;
    uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20261201u;
    int only_op = -1, only_k = -1;
    if (argc > 5 && std::strcmp(argv[3], "--only") == 0) { only_op = std::atoi(argv[4]); only_k = std::atoi(argv[5]); }
    pf_stream *s2 = nullptr;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) return 1;
    int pass = 0, fail = 0;
    if (only_op >= 0) {
        bool ok = only_op == HELPERS ? run_helpers(only_k, seed) : run_case(static_cast<Op>(only_op), only_k, seed, s2);
        (ok ? pass : fail)++;
    } else {
        for (int op = AFFINE; op <= REMAP; op++)
            for (int k = 0; k < cases; k++) (run_case(static_cast<Op>(op), k, seed, s2) ? pass : fail)++;
        for (int k = 0; k < cases; k++) (run_helpers(k, seed) ? pass : fail)++;
    }
    pf_stream_destroy(s2);
    std::printf("parity_warp: f32 max abs diff %.3g\n", g_f32_max);
    std::printf("parity_warp: %d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
