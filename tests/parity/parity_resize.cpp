/*
 * parity_resize: pf_resize (antialias = false) against OpenCV's cv::resize
 * on identical random inputs.
 *
 *   parity_resize [cases [seed]] [--only K] [--show N] [--verbose]
 *
 * Every case is generated from (seed, case index) alone, so
 * `parity_resize <cases> <seed> --only K` re-runs exactly case K.
 *
 * Contract checked (include/pixflow/ops.h, docs/exactness.md):
 *   - u8 and u16: bit-identical to cv::resize for the same arguments;
 *   - f32: |pf - cv| <= 1e-5 * max(1, |cv|);
 *   - the result does not depend on the thread count: a 2-thread CPU
 *     stream gives the same bits as the NULL stream (all dtypes);
 *   - pf_resize writes nothing outside the destination pixels (row and
 *     plane padding, guard bytes around the buffer) and never writes src.
 * Coverage: u8/u16/f32; 1..4 channels (mostly 1, 3, 4); NEAREST, LINEAR,
 * CUBIC, AREA, LANCZOS4, NEAREST_EXACT; downscale, upscale, non-integer
 * and exact integer factors (OpenCV's AREA fast path and LINEAR's 2x->AREA
 * shortcut), same size, one axis only, mixed up/down, 1-pixel sizes;
 * packed, padded-stride, ROI (offset into a larger buffer) and negative
 * row-stride views; HWC and a share of CHW (planar) cases; a few batches of
 * differently sized images in one call.
 *
 * Exit status 0 only when every case passes. The last line is
 *   parity_resize: N passed, M failed
 */
#include <pixflow/core.h>
#include <pixflow/ops.h>

#include "opencv_headers.hpp"
#include "parity_rng.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/* ------------------------------------------------------------------ rng */

/* The shared generator plus the size helpers this test draws from. */
struct Rng : pft::Rng {
    explicit Rng(uint64_t seed) : pft::Rng(seed) {}
    /* log-uniform integer in [lo, hi] */
    int logu(int lo, int hi) {
        const double a = std::log(static_cast<double>(lo));
        const double b = std::log(static_cast<double>(hi) + 1.0);
        int v = static_cast<int>(std::floor(std::exp(a + (b - a) * uni())));
        return std::min(hi, std::max(lo, v));
    }
    /* an image side in [1, hi]: log-uniform, half of the time from a floor
     * of 48 so that medium sizes (full SIMD rows, many rows) are common */
    int side(int hi) { return chance(0.5) ? logu(1, hi) : logu(std::min(48, hi), hi); }
};

uint64_t mix_seed(uint64_t seed, uint64_t idx, uint64_t salt) {
    Rng r(seed ^ (idx * 0xD1B54A32D192ED03ull) ^ (salt * 0x8CB92BA72F3D8DD7ull));
    r.next();
    return r.next();
}

/* ------------------------------------------------------------ constants */

const int kInterps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC,
                        PF_INTERP_AREA, PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
const int kNumInterps = 6;
const pf_dtype kDtypes[] = {PF_U8, PF_U16, PF_F32};
const int kNumDtypes = 3;

const char *interp_name(int interp) {
    switch (interp) {
    case 0: return "NEAREST";
    case 1: return "LINEAR";
    case 2: return "CUBIC";
    case 3: return "AREA";
    case 4: return "LANCZOS4";
    case 6: return "NEAREST_EXACT";
    default: return "?";
    }
}
int interp_slot(int interp) {
    for (int i = 0; i < kNumInterps; i++)
        if (kInterps[i] == interp) return i;
    return 0;
}
const char *dtype_str(pf_dtype dt) {
    switch (dt) {
    case PF_U8: return "u8";
    case PF_U16: return "u16";
    case PF_F32: return "f32";
    default: return "?";
    }
}
int dtype_slot(pf_dtype dt) { return dt == PF_U8 ? 0 : dt == PF_U16 ? 1 : 2; }
size_t esize(pf_dtype dt) { return dt == PF_U8 ? 1 : dt == PF_U16 ? 2 : 4; }
int cv_depth(pf_dtype dt) { return dt == PF_U8 ? CV_8U : dt == PF_U16 ? CV_16U : CV_32F; }

enum Mode {
    M_DOWN, M_UP, M_INT_DOWN, M_INT_UP, M_SAME, M_ONE_AXIS, M_ONE_PX, M_MIXED, M_COUNT
};
const char *mode_name(int m) {
    switch (m) {
    case M_DOWN: return "down";
    case M_UP: return "up";
    case M_INT_DOWN: return "int-down";
    case M_INT_UP: return "int-up";
    case M_SAME: return "same-size";
    case M_ONE_AXIS: return "one-axis";
    case M_ONE_PX: return "1-pixel";
    case M_MIXED: return "mixed-up/down";
    default: return "?";
    }
}

enum ViewKind { V_PACKED, V_PADDED, V_ROI, V_NEG };
const char *kind_name(int k) {
    switch (k) {
    case V_PACKED: return "packed";
    case V_PADDED: return "padded";
    case V_ROI: return "roi";
    case V_NEG: return "negative-stride";
    default: return "?";
    }
}

const long kMaxArea = 1500000; /* src and dst pixel cap per case */
const size_t kGuard = 64;      /* sentinel bytes around every dst buffer */
const unsigned char kSentinel = 0xA5;

/* ----------------------------------------------------------------- case */

struct Case {
    long idx = 0;       /* case index (or batch element id) */
    uint64_t seed = 0;  /* the per-case seed everything below came from */
    int sw = 1, sh = 1, dw = 1, dh = 1, ch = 1;
    pf_dtype dt = PF_U8;
    int interp = 0;
    int mode = M_DOWN;
    bool chw = false;
    int src_kind = V_PACKED;
    int dst_kind = V_PACKED;
    int spad = 0, dpad = 0;         /* extra elements per row */
    int splane_pad = 0, dplane_pad = 0; /* extra elements per plane (CHW) */
    int roi_x = 0, roi_y = 0, roi_ex = 0, roi_ey = 0; /* ROI offset, extra */
    int misalign = 0;               /* src data offset by this many elements */
    bool f32_wide = false;          /* f32 data in [-1000, 1000) */
    bool use_stream = false;        /* also run on the 2-thread stream */
};

/* Source/destination sizes for a mode; returns false when the draw broke
 * a cap (the caller redraws). */
bool draw_sizes(Rng &r, Case &c) {
    switch (c.mode) {
    case M_DOWN: {
        c.sw = r.side(2000);
        c.sh = r.side(2000);
        /* mostly factors 1..10, sometimes extreme ones (up to 300) */
        const double fmax = r.chance(0.1) ? 300.0 : 10.0;
        double fx = std::exp(r.uni() * std::log(fmax));
        double fy = r.chance(0.4) ? fx : std::exp(r.uni() * std::log(fmax));
        c.dw = std::max(1, static_cast<int>(std::lround(c.sw / fx)));
        c.dh = std::max(1, static_cast<int>(std::lround(c.sh / fy)));
        break;
    }
    case M_UP: {
        c.sw = r.side(600);
        c.sh = r.side(600);
        double fx = std::exp(r.uni() * std::log(8.0));
        double fy = r.chance(0.4) ? fx : std::exp(r.uni() * std::log(8.0));
        c.dw = std::max(1, static_cast<int>(std::lround(c.sw * fx)));
        c.dh = std::max(1, static_cast<int>(std::lround(c.sh * fy)));
        break;
    }
    case M_INT_DOWN: {
        /* exact factors 2/3/4 (same or different per axis) hit OpenCV's
         * AREA fast path and LINEAR 2x2 -> AREA; a remainder makes the
         * factor slightly non-integer (fractional AREA path). */
        int kx = r.range(2, 4);
        int ky = r.chance(0.7) ? kx : r.range(2, 4);
        if (r.chance(0.35)) kx = ky = 2;
        c.dw = r.side(2000 / kx);
        c.dh = r.side(2000 / ky);
        c.sw = c.dw * kx;
        c.sh = c.dh * ky;
        if (r.chance(0.2)) {
            c.sw += r.range(1, kx - 1);
            if (r.chance(0.5)) c.sh += r.range(1, ky - 1);
        }
        break;
    }
    case M_INT_UP: {
        int kx = r.range(2, 4);
        int ky = r.chance(0.7) ? kx : r.range(2, 4);
        c.sw = r.side(500);
        c.sh = r.side(500);
        c.dw = c.sw * kx;
        c.dh = c.sh * ky;
        break;
    }
    case M_SAME:
        c.sw = c.dw = r.side(2000);
        c.sh = c.dh = r.side(2000);
        break;
    case M_ONE_AXIS: {
        c.sw = r.side(2000);
        c.sh = r.side(2000);
        c.dw = c.sw;
        c.dh = c.sh;
        double f = std::exp((r.uni() * 2.0 - 1.0) * std::log(6.0));
        if (r.chance(0.25)) f = r.chance(0.5) ? 0.5 : 2.0;
        if (r.chance(0.5))
            c.dw = std::max(1, static_cast<int>(std::lround(c.sw * f)));
        else
            c.dh = std::max(1, static_cast<int>(std::lround(c.sh * f)));
        break;
    }
    case M_ONE_PX: {
        int v = r.range(0, 6);
        c.sw = r.logu(1, 2000);
        c.sh = r.logu(1, 2000);
        c.dw = r.logu(1, 1000);
        c.dh = r.logu(1, 1000);
        switch (v) {
        case 0: c.dw = c.dh = 1; break;               /* to 1x1 */
        case 1: c.dw = 1; break;                      /* to one column */
        case 2: c.dh = 1; break;                      /* to one row */
        case 3: c.sw = 1; break;                      /* from one column */
        case 4: c.sh = 1; break;                      /* from one row */
        case 5: c.sw = c.sh = 1; break;               /* from 1x1 */
        default: c.sw = 1; c.dh = 1; break;           /* column to row */
        }
        break;
    }
    case M_MIXED: {
        c.sw = r.logu(2, 1500);
        c.sh = r.logu(2, 1500);
        double up = 1.0 + r.uni() * 5.0, down = 1.0 + r.uni() * 7.0;
        if (r.chance(0.5)) {
            c.dw = std::max(1, static_cast<int>(std::lround(c.sw * up)));
            c.dh = std::max(1, static_cast<int>(std::lround(c.sh / down)));
        } else {
            c.dw = std::max(1, static_cast<int>(std::lround(c.sw / down)));
            c.dh = std::max(1, static_cast<int>(std::lround(c.sh * up)));
        }
        break;
    }
    default: break;
    }
    const long sa = static_cast<long>(c.sw) * c.sh, da = static_cast<long>(c.dw) * c.dh;
    return c.sw >= 1 && c.sh >= 1 && c.dw >= 1 && c.dh >= 1 && sa <= kMaxArea &&
           da <= kMaxArea && c.sw <= 4000 && c.sh <= 4000 && c.dw <= 8000 && c.dh <= 8000;
}

void draw_views(Rng &r, Case &c) {
    double p = r.uni();
    c.src_kind = p < 0.5 ? V_PACKED : p < 0.7 ? V_PADDED : p < 0.85 ? V_ROI : V_NEG;
    if (c.chw && c.src_kind == V_ROI) c.src_kind = V_PADDED;
    if (c.src_kind == V_PADDED) c.spad = r.range(1, 40);
    if (c.src_kind == V_NEG && r.chance(0.5)) c.spad = r.range(1, 16);
    if (c.src_kind == V_ROI) {
        c.roi_x = r.range(0, 17);
        c.roi_y = r.range(0, 9);
        c.roi_ex = r.range(0, 13);
        c.roi_ey = r.range(0, 5);
        if (c.roi_x + c.roi_y + c.roi_ex + c.roi_ey == 0) c.roi_x = 1;
    }
    if (c.src_kind != V_ROI && r.chance(0.15)) c.misalign = r.range(1, 3);
    if (c.chw && r.chance(0.5)) c.splane_pad = r.range(1, 100);
    p = r.uni();
    c.dst_kind = p < 0.7 ? V_PACKED : p < 0.9 ? V_PADDED : V_NEG;
    if (c.dst_kind != V_PACKED) c.dpad = r.range(c.dst_kind == V_PADDED ? 1 : 0, 24);
    if (c.chw && r.chance(0.5)) c.dplane_pad = r.range(1, 100);
}

Case make_case(uint64_t seed, long idx, int stream_every) {
    Case c;
    c.idx = idx;
    c.seed = mix_seed(seed, static_cast<uint64_t>(idx), 1);
    Rng r(c.seed);
    c.interp = kInterps[idx % kNumInterps];
    c.dt = kDtypes[(idx / kNumInterps) % kNumDtypes];
    c.chw = (idx % 23) == 7;
    if (c.chw) {
        c.ch = r.range(1, 4);
    } else {
        double p = r.uni();
        c.ch = p < 0.35 ? 1 : p < 0.72 ? 3 : p < 0.95 ? 4 : 2;
    }
    double m = r.uni();
    c.mode = m < 0.22 ? M_DOWN : m < 0.36 ? M_UP : m < 0.56 ? M_INT_DOWN
           : m < 0.61 ? M_INT_UP : m < 0.66 ? M_SAME : m < 0.77 ? M_ONE_AXIS
           : m < 0.89 ? M_ONE_PX : M_MIXED;
    int tries = 0;
    while (!draw_sizes(r, c)) {
        if (++tries > 200) { /* cannot happen with these ranges; stay safe */
            c.sw = 64; c.sh = 48; c.dw = 32; c.dh = 24;
            break;
        }
    }
    draw_views(r, c);
    c.f32_wide = c.dt == PF_F32 && r.chance(0.25);
    c.use_stream = stream_every > 0 && idx % stream_every == 0;
    return c;
}

std::string describe(const Case &c) {
    char b[1024];
    std::snprintf(b, sizeof b,
                  "%s c%d %s %-13s src %dx%d -> dst %dx%d  mode=%s src=%s%s dst=%s "
                  "spad=%d dpad=%d roi=(%d,%d)+(%d,%d) plane_pad=%d/%d misalign=%d%s%s "
                  "seed=0x%016" PRIx64,
                  dtype_str(c.dt), c.ch, c.chw ? "CHW" : "HWC", interp_name(c.interp),
                  c.sw, c.sh, c.dw, c.dh, mode_name(c.mode), kind_name(c.src_kind),
                  c.misalign ? "+misaligned" : "", kind_name(c.dst_kind), c.spad, c.dpad,
                  c.roi_x, c.roi_y, c.roi_ex, c.roi_ey, c.splane_pad, c.dplane_pad,
                  c.misalign, c.f32_wide ? " f32-range=[-1000,1000)" : "",
                  c.use_stream ? " +stream2" : "", c.seed);
    return b;
}

/* ----------------------------------------------------------------- views */

/* An owned buffer plus a pf_image view into it. For dst views, kGuard
 * sentinel bytes sit before and after the pixels. */
struct View {
    std::vector<unsigned char> buf;
    pf_image img{};
    size_t off0 = 0; /* offset of the lowest pixel byte in buf */

    unsigned char *elem(int x, int y, int c) const {
        unsigned char *d = static_cast<unsigned char *>(img.data);
        const ptrdiff_t es = static_cast<ptrdiff_t>(esize(img.dtype));
        if (img.layout == PF_HWC)
            return d + static_cast<ptrdiff_t>(y) * img.row_stride +
                   (static_cast<ptrdiff_t>(x) * img.channels + c) * es;
        return d + static_cast<ptrdiff_t>(c) * img.plane_stride +
               static_cast<ptrdiff_t>(y) * img.row_stride + static_cast<ptrdiff_t>(x) * es;
    }
    /* Pointer to row y of plane c (CHW) or of the image (HWC, c == 0). */
    unsigned char *row(int y, int c) const { return elem(0, y, c); }
    size_t row_bytes() const {
        return static_cast<size_t>(img.width) *
               static_cast<size_t>(img.layout == PF_HWC ? img.channels : 1) *
               esize(img.dtype);
    }
    int planes() const { return img.layout == PF_HWC ? 1 : img.channels; }
};

/* Builds a view of w x h with the given kind; `guard` adds sentinel
 * bytes around it (dst). The buffer is sized exactly, so that ASan sees
 * any read past the last pixel. */
void build_view(View &v, int w, int h, int ch, pf_dtype dt, bool chw, int kind, int pad,
                int plane_pad, int roi_x, int roi_y, int roi_ex, int roi_ey, int misalign,
                bool guard) {
    const size_t es = esize(dt);
    const size_t g = guard ? kGuard : 0;
    const size_t px = chw ? 1 : static_cast<size_t>(ch);
    const size_t rowb = static_cast<size_t>(w) * px * es;
    size_t stride = rowb + static_cast<size_t>(pad) * es;
    size_t lead = static_cast<size_t>(misalign) * es; /* bytes before pixel data */
    size_t total = 0;
    size_t first = 0; /* offset of pixel (0,0) of plane 0 relative to lead */
    size_t plane = 0;
    if (kind == V_ROI) { /* a window into a larger (parent) image */
        const size_t pw = static_cast<size_t>(w + roi_x + roi_ex);
        stride = pw * px * es;
        total = stride * static_cast<size_t>(h + roi_y + roi_ey);
        first = static_cast<size_t>(roi_y) * stride + static_cast<size_t>(roi_x) * px * es;
    } else if (chw) {
        plane = stride * static_cast<size_t>(h) + static_cast<size_t>(plane_pad) * es;
        total = plane * static_cast<size_t>(ch - 1) + stride * static_cast<size_t>(h - 1) + rowb;
        first = kind == V_NEG ? stride * static_cast<size_t>(h - 1) : 0;
    } else {
        total = stride * static_cast<size_t>(h - 1) + rowb;
        first = kind == V_NEG ? stride * static_cast<size_t>(h - 1) : 0;
    }
    v.buf.assign(g + lead + total + g, kSentinel);
    v.off0 = g + lead;
    v.img.data = v.buf.data() + g + lead + first;
    v.img.width = w;
    v.img.height = h;
    v.img.channels = ch;
    v.img.dtype = dt;
    v.img.layout = chw ? PF_CHW : PF_HWC;
    v.img.row_stride = kind == V_NEG ? -static_cast<ptrdiff_t>(stride)
                                     : static_cast<ptrdiff_t>(stride);
    v.img.plane_stride = chw ? static_cast<ptrdiff_t>(plane) : 0;
    v.img.mem = PF_MEM_HOST;
    v.img.device = 0;
}

void fill_random(View &v, uint64_t seed, bool f32_wide) {
    Rng r(seed);
    const pf_dtype dt = v.img.dtype;
    /* Fill the whole buffer (pixels, padding, ROI surroundings) so that a
     * read outside the view changes the result. */
    unsigned char *p = v.buf.data();
    const size_t n = v.buf.size();
    if (dt == PF_F32) {
        /* element-aligned relative to the pixel origin */
        const size_t start = v.off0 % 4;
        for (size_t i = start; i + 4 <= n; i += 4) {
            float f = f32_wide ? static_cast<float>(-1000.0 + 2000.0 * r.uni())
                               : static_cast<float>(r.next() >> 40) * (1.0f / 16777216.0f);
            std::memcpy(p + i, &f, 4);
        }
    } else {
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t x = r.next();
            std::memcpy(p + i, &x, 8);
        }
        uint64_t x = r.next();
        for (; i < n; i++, x >>= 8) p[i] = static_cast<unsigned char>(x);
    }
}

/* OpenCV view of plane c (CHW) or of the whole image (HWC): a header over
 * the same memory when the stride is positive, otherwise a packed copy in
 * top-to-bottom row order. */
cv::Mat cv_view(const View &v, int c) {
    const int cn = v.img.layout == PF_HWC ? v.img.channels : 1;
    const int type = CV_MAKETYPE(cv_depth(v.img.dtype), cn);
    if (v.img.row_stride > 0)
        return cv::Mat(v.img.height, v.img.width, type, v.row(0, c),
                       static_cast<size_t>(v.img.row_stride));
    cv::Mat m(v.img.height, v.img.width, type);
    for (int y = 0; y < v.img.height; y++) std::memcpy(m.ptr(y), v.row(y, c), v.row_bytes());
    return m;
}

uint64_t hash_bytes(const std::vector<unsigned char> &b) {
    uint64_t h = 1469598103934665603ull;
    size_t i = 0;
    for (; i + 8 <= b.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, b.data() + i, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < b.size(); i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* Offset of the first byte outside the pixels that no longer holds the
 * sentinel, or -1. */
long check_outside(const View &v) {
    std::vector<unsigned char> copy = v.buf;
    const ptrdiff_t base = static_cast<unsigned char *>(v.img.data) - v.buf.data();
    for (int c = 0; c < v.planes(); c++)
        for (int y = 0; y < v.img.height; y++) {
            const ptrdiff_t o = v.row(y, c) - static_cast<unsigned char *>(v.img.data) + base;
            std::memset(copy.data() + o, kSentinel, v.row_bytes());
        }
    for (size_t i = 0; i < copy.size(); i++)
        if (copy[i] != kSentinel) return static_cast<long>(i);
    return -1;
}

double read_val(const unsigned char *p, pf_dtype dt) {
    if (dt == PF_U8) return *p;
    if (dt == PF_U16) {
        uint16_t u;
        std::memcpy(&u, p, 2);
        return u;
    }
    float f;
    std::memcpy(&f, p, 4);
    return static_cast<double>(f);
}

/* ------------------------------------------------------------ statistics */

struct Stat {
    long cases = 0, exact = 0, failed = 0;
    double max_diff = 0.0;
};

struct Totals {
    Stat s[kNumDtypes][kNumInterps];
    long passed = 0, failed = 0, shown = 0, show_max = 8;
    double pf_s = 0.0, cv_s = 0.0;
    std::vector<std::string> failures;
};

struct Compare {
    bool ok = true;
    bool exact = true;   /* bit-identical */
    double max_diff = 0.0;
    long nbad = 0;
    int bx = -1, by = -1, bc = -1;
    double bpf = 0.0, bcv = 0.0;
};

/* pf result (dst view) against the OpenCV result(s): one packed Mat for
 * HWC, one per plane for CHW. */
Compare compare(const View &dst, const std::vector<cv::Mat> &ref) {
    Compare r;
    const pf_dtype dt = dst.img.dtype;
    const size_t es = esize(dt);
    const bool hwc = dst.img.layout == PF_HWC;
    const int ch = dst.img.channels;
    for (int y = 0; y < dst.img.height; y++)
        for (int x = 0; x < dst.img.width; x++)
            for (int c = 0; c < ch; c++) {
                const unsigned char *a = dst.elem(x, y, c);
                const unsigned char *b =
                    hwc ? ref[0].ptr(y) + (static_cast<size_t>(x) * ch + c) * es
                        : ref[static_cast<size_t>(c)].ptr(y) + static_cast<size_t>(x) * es;
                if (std::memcmp(a, b, es) == 0) continue;
                r.exact = false;
                const double va = read_val(a, dt), vb = read_val(b, dt);
                const double d = std::fabs(va - vb);
                bool bad;
                if (dt == PF_F32)
                    bad = !(d <= 1e-5 * std::max(1.0, std::fabs(vb)));
                else
                    bad = true;
                if (!(d <= r.max_diff)) r.max_diff = std::isnan(d) ? INFINITY : d;
                if (bad) {
                    if (r.nbad == 0) {
                        r.bx = x; r.by = y; r.bc = c; r.bpf = va; r.bcv = vb;
                    }
                    r.nbad++;
                    r.ok = false;
                }
            }
    return r;
}

/* First differing element between two pf results of the same shape. */
bool same_bits(const View &a, const View &b, int *fx, int *fy, int *fc) {
    const size_t es = esize(a.img.dtype);
    for (int y = 0; y < a.img.height; y++)
        for (int x = 0; x < a.img.width; x++)
            for (int c = 0; c < a.img.channels; c++)
                if (std::memcmp(a.elem(x, y, c), b.elem(x, y, c), es) != 0) {
                    *fx = x; *fy = y; *fc = c;
                    return false;
                }
    return true;
}

/* ------------------------------------------------------------- one case */

struct Prepared {
    Case c;
    View src, dst, dst2;
    std::vector<cv::Mat> ref;
    uint64_t src_hash = 0;
};

void prepare(Prepared &p, const Case &c) {
    p.c = c;
    build_view(p.src, c.sw, c.sh, c.ch, c.dt, c.chw, c.src_kind, c.spad, c.splane_pad,
               c.roi_x, c.roi_y, c.roi_ex, c.roi_ey, c.misalign, false);
    fill_random(p.src, mix_seed(c.seed, 0, 2), c.f32_wide);
    build_view(p.dst, c.dw, c.dh, c.ch, c.dt, c.chw, c.dst_kind, c.dpad, c.dplane_pad, 0, 0,
               0, 0, 0, true);
    if (c.use_stream)
        build_view(p.dst2, c.dw, c.dh, c.ch, c.dt, c.chw, c.dst_kind, c.dpad, c.dplane_pad, 0,
                   0, 0, 0, 0, true);
    p.src_hash = hash_bytes(p.src.buf);
}

/* Runs OpenCV; returns an error text or "". */
std::string run_opencv(Prepared &p) {
    const Case &c = p.c;
    p.ref.clear();
    try {
        const int nplanes = c.chw ? c.ch : 1;
        for (int k = 0; k < nplanes; k++) {
            cv::Mat s = cv_view(p.src, k);
            cv::Mat d;
            cv::resize(s, d, cv::Size(c.dw, c.dh), 0, 0, c.interp);
            if (d.cols != c.dw || d.rows != c.dh || d.type() != s.type())
                return "cv::resize produced an unexpected shape/type";
            p.ref.push_back(d);
        }
    } catch (const cv::Exception &e) {
        return std::string("cv::resize threw: ") + e.what();
    }
    return "";
}

void fail(Totals &t, const Case &c, const std::string &what) {
    char head[64];
    std::snprintf(head, sizeof head, "case %ld: ", c.idx);
    t.failures.push_back(std::string(head) + describe(c) + "\n    " + what);
}

std::string fmt_cmp(const Compare &r) {
    char b[512];
    std::snprintf(b, sizeof b,
                  "%ld element(s) differ beyond tolerance, max |diff| %.9g; first at "
                  "(x=%d, y=%d, c=%d): pixflow %.9g, opencv %.9g",
                  r.nbad, r.max_diff, r.bx, r.by, r.bc, r.bpf, r.bcv);
    return b;
}

/* Checks a finished pixflow run of prepared case p (dst already written).
 * Returns true when everything about the case is right. */
bool check_case(Totals &t, Prepared &p, const std::string &repro) {
    const Case &c = p.c;
    Stat &st = t.s[dtype_slot(c.dt)][interp_slot(c.interp)];
    st.cases++;
    bool ok = true;
    std::vector<std::string> why;

    if (hash_bytes(p.src.buf) != p.src_hash) {
        ok = false;
        why.push_back("pf_resize modified the source buffer");
    }
    long o = check_outside(p.dst);
    if (o >= 0) {
        ok = false;
        char b[160];
        std::snprintf(b, sizeof b,
                      "pf_resize (NULL stream) wrote outside the dst pixels: byte %ld of the "
                      "dst buffer (guard %zu bytes, pixels start at %zu)",
                      o, kGuard, p.dst.off0);
        why.push_back(b);
    }
    Compare r = compare(p.dst, p.ref);
    if (!r.ok) {
        ok = false;
        why.push_back("NULL stream vs OpenCV: " + fmt_cmp(r));
    }
    if (r.exact) st.exact++;
    st.max_diff = std::max(st.max_diff, r.max_diff);

    if (c.use_stream) {
        long o2 = check_outside(p.dst2);
        if (o2 >= 0) {
            ok = false;
            char b[128];
            std::snprintf(b, sizeof b,
                          "pf_resize (2-thread stream) wrote outside the dst pixels: byte %ld", o2);
            why.push_back(b);
        }
        int fx = 0, fy = 0, fc = 0;
        if (!same_bits(p.dst, p.dst2, &fx, &fy, &fc)) {
            ok = false;
            char b[256];
            std::snprintf(b, sizeof b,
                          "2-thread stream result differs from NULL stream (results must not "
                          "depend on thread count): first at (x=%d, y=%d, c=%d): %.9g vs %.9g",
                          fx, fy, fc, read_val(p.dst2.elem(fx, fy, fc), c.dt),
                          read_val(p.dst.elem(fx, fy, fc), c.dt));
            why.push_back(b);
        }
    }

    if (ok) {
        t.passed++;
    } else {
        t.failed++;
        st.failed++;
        std::string all;
        for (const std::string &w : why) all += (all.empty() ? "" : "\n    ") + w;
        fail(t, c, all + "\n    reproduce: " + repro);
    }
    return ok;
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void run_single(Totals &t, const Case &c, pf_stream *stream, const std::string &repro) {
    Prepared p;
    prepare(p, c);
    const std::string cverr = run_opencv(p);
    if (!cverr.empty()) {
        t.failed++;
        t.s[dtype_slot(c.dt)][interp_slot(c.interp)].cases++;
        t.s[dtype_slot(c.dt)][interp_slot(c.interp)].failed++;
        fail(t, c, "OpenCV could not run this case (test generator bug?): " + cverr +
                       "\n    reproduce: " + repro);
        return;
    }
    pf_resize_opts opts = pf_resize_opts_defaults();
    opts.interp = static_cast<pf_interp>(c.interp);
    opts.antialias = false;
    const double t0 = now_s();
    pf_status s = pf_resize(nullptr, 1, &p.src.img, &p.dst.img, &opts);
    t.pf_s += now_s() - t0;
    if (s != PF_OK) {
        t.failed++;
        t.s[dtype_slot(c.dt)][interp_slot(c.interp)].cases++;
        t.s[dtype_slot(c.dt)][interp_slot(c.interp)].failed++;
        fail(t, c, std::string("pf_resize (NULL stream) returned ") + pf_status_str(s) + ": " +
                       pf_last_error() + "\n    reproduce: " + repro);
        return;
    }
    if (c.use_stream && stream) {
        s = pf_resize(stream, 1, &p.src.img, &p.dst2.img, &opts);
        if (s == PF_OK) s = pf_stream_synchronize(stream);
        if (s != PF_OK) {
            t.failed++;
            t.s[dtype_slot(c.dt)][interp_slot(c.interp)].cases++;
            t.s[dtype_slot(c.dt)][interp_slot(c.interp)].failed++;
            fail(t, c, std::string("pf_resize (2-thread stream) returned ") +
                           pf_status_str(s) + ": " + pf_last_error() + "\n    reproduce: " +
                           repro);
            return;
        }
    }
    check_case(t, p, repro);
}

/* A batch: several differently sized images, same dtype/channels/layout
 * and interp, resized by one pf_resize call; each element is checked
 * against OpenCV like a single case. */
void run_batch(Totals &t, uint64_t seed, long b, long nbase, pf_stream *stream,
               const std::string &repro) {
    Rng r(mix_seed(seed, static_cast<uint64_t>(b), 3));
    const int n = r.range(2, 6);
    const int interp = kInterps[b % kNumInterps];
    const pf_dtype dt = kDtypes[(b / kNumInterps) % kNumDtypes];
    const int ch = r.chance(0.5) ? 3 : r.range(1, 4);
    const bool chw = r.chance(0.2);
    std::vector<Prepared> ps(static_cast<size_t>(n));
    std::vector<pf_image> src, dst;
    for (int i = 0; i < n; i++) {
        Case c = make_case(seed ^ 0x5bd1e995u, nbase + b * 8 + i, 0);
        c.interp = interp;
        c.dt = dt;
        c.ch = ch;
        c.chw = chw;
        /* keep batches small */
        while (static_cast<long>(c.sw) * c.sh > 300000 || static_cast<long>(c.dw) * c.dh > 300000) {
            c.sw = std::max(1, c.sw / 2);
            c.sh = std::max(1, c.sh / 2);
            c.dw = std::max(1, c.dw / 2);
            c.dh = std::max(1, c.dh / 2);
        }
        if (chw && c.src_kind == V_ROI) c.src_kind = V_PADDED;
        c.use_stream = false;
        prepare(ps[static_cast<size_t>(i)], c);
        src.push_back(ps[static_cast<size_t>(i)].src.img);
        dst.push_back(ps[static_cast<size_t>(i)].dst.img);
    }
    for (auto &p : ps) {
        const std::string e = run_opencv(p);
        if (!e.empty()) {
            t.failed++;
            fail(t, p.c, "OpenCV could not run this batch element: " + e + "\n    reproduce: " +
                             repro);
            return;
        }
    }
    pf_resize_opts opts = pf_resize_opts_defaults();
    opts.interp = static_cast<pf_interp>(interp);
    pf_stream *st = (b % 2 == 0) ? stream : nullptr;
    const double t0 = now_s();
    pf_status s = pf_resize(st, n, src.data(), dst.data(), &opts);
    if (s == PF_OK && st) s = pf_stream_synchronize(st);
    t.pf_s += now_s() - t0;
    if (s != PF_OK) {
        t.failed += n;
        t.s[dtype_slot(dt)][interp_slot(interp)].cases += n;
        t.s[dtype_slot(dt)][interp_slot(interp)].failed += n;
        fail(t, ps[0].c, std::string("batch pf_resize returned ") + pf_status_str(s) + ": " +
                             pf_last_error() + "\n    reproduce: " + repro);
        return;
    }
    for (int i = 0; i < n; i++) {
        char head[160];
        std::snprintf(head, sizeof head, "[batch %ld, element %d of %d, %s stream] ", b, i, n,
                      st ? "2-thread" : "NULL");
        check_case(t, ps[static_cast<size_t>(i)], std::string(head) + repro);
    }
}

} // namespace

int main(int argc, char **argv) {
    long ncases = 2000;
    uint64_t seed = 20240611;
    long only = -1, only_batch = -1;
    int pos = 0;
    Totals t;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--only" && i + 1 < argc) {
            only = std::strtol(argv[++i], nullptr, 0);
        } else if (a == "--only-batch" && i + 1 < argc) {
            only_batch = std::strtol(argv[++i], nullptr, 0);
        } else if (a == "--show" && i + 1 < argc) {
            t.show_max = std::strtol(argv[++i], nullptr, 0);
        } else if (a == "-h" || a == "--help") {
            std::printf("usage: %s [cases [seed]] [--only K] [--only-batch B] [--show N]\n",
                        argv[0]);
            return 0;
        } else if (pos == 0) {
            ncases = std::strtol(argv[i], nullptr, 0);
            pos++;
        } else if (pos == 1) {
            seed = std::strtoull(argv[i], nullptr, 0);
            pos++;
        } else {
            std::fprintf(stderr, "parity_resize: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (ncases < 0) ncases = 0;
    const long nbatches = ncases / 100 + (ncases > 0 ? 1 : 0);

    std::printf("parity_resize: pixflow %s (%s), isa %s; OpenCV %s (IPP %s, %d threads)\n",
                pf_version(), pf_build_info(), pf_isa_name(pf_cpu_active_isa()), CV_VERSION,
                cv::ipp::useIPP() ? "on" : "off", cv::getNumThreads());
    std::printf("parity_resize: %ld cases + %ld batches, seed %" PRIu64 "\n", ncases, nbatches,
                seed);
    std::fflush(stdout);

    pf_stream *stream = nullptr;
    pf_status ss = pf_stream_create_cpu(2, &stream);
    if (ss != PF_OK) {
        std::printf("parity_resize: pf_stream_create_cpu(2) failed: %s: %s\n",
                    pf_status_str(ss), pf_last_error());
        std::printf("parity_resize: 0 passed, 1 failed\n");
        return 1;
    }

    const double t0 = now_s();
    char repro[256];
    for (long i = 0; i < ncases; i++) {
        if (only_batch >= 0 || (only >= 0 && i != only)) continue;
        Case c = make_case(seed, i, 5);
        std::snprintf(repro, sizeof repro, "parity_resize %ld %" PRIu64 " --only %ld", ncases,
                      seed, i);
        run_single(t, c, stream, repro);
    }
    for (long b = 0; b < nbatches; b++) {
        if (only >= 0 || (only_batch >= 0 && b != only_batch)) continue;
        std::snprintf(repro, sizeof repro, "parity_resize %ld %" PRIu64 " --only-batch %ld",
                      ncases, seed, b);
        run_batch(t, seed, b, ncases, stream, repro);
    }
    pf_stream_destroy(stream);
    const double elapsed = now_s() - t0;

    /* summary */
    std::printf("\n%-5s %-14s %7s %7s %7s %14s\n", "dtype", "interp", "cases", "exact",
                "failed", "max|diff|");
    long u8_cases = 0, u8_exact = 0;
    for (int d = 0; d < kNumDtypes; d++)
        for (int k = 0; k < kNumInterps; k++) {
            const Stat &s = t.s[d][k];
            if (s.cases == 0) continue;
            std::printf("%-5s %-14s %7ld %7ld %7ld %14.6g\n", dtype_str(kDtypes[d]),
                        interp_name(kInterps[k]), s.cases, s.exact, s.failed, s.max_diff);
            if (d == 0) {
                u8_cases += s.cases;
                u8_exact += s.exact;
            }
        }
    if (u8_cases > 0)
        std::printf("u8 exact-match rate: %ld/%ld (%.2f%%)\n", u8_exact, u8_cases,
                    100.0 * static_cast<double>(u8_exact) / static_cast<double>(u8_cases));
    std::printf("time: %.2f s total, %.2f s in pf_resize\n", elapsed, t.pf_s);

    if (!t.failures.empty()) {
        std::printf("\nfailures (first %ld of %zu):\n", t.show_max, t.failures.size());
        for (size_t i = 0; i < t.failures.size() && static_cast<long>(i) < t.show_max; i++)
            std::printf("  %s\n", t.failures[i].c_str());
    }
    std::printf("parity_resize: %ld passed, %ld failed\n", t.passed, t.failed);
    return t.failed == 0 ? 0 : 1;
}
