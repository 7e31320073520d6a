/*
 * parity_geom: pf_flip / pf_rotate / pf_transpose / pf_copy_make_border
 * against cv::flip / cv::rotate / cv::transpose / cv::copyMakeBorder.
 *
 *   parity_geom [cases-per-op [seed]]
 *
 * Each case: dtype u8/u16/s16/s32/f32 (f16 too except CONSTANT borders),
 * 1..4 channels, random size incl. 1-pixel and odd sizes, source as a
 * packed, padded or ROI view, HWC (and CHW for a share: each plane is
 * compared with OpenCV on that plane), NULL stream or 2 threads. Contract:
 * bit-identical output; destination padding untouched. The last line is
 * "parity_geom: N passed, M failed".
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

const pf_dtype k_dtypes[] = {PF_U8, PF_U8, PF_U8, PF_U16, PF_S16, PF_S32, PF_F32, PF_F16};

int cv_depth(pf_dtype d) {
    switch (d) {
    case PF_U8: return CV_8U;
    case PF_U16: return CV_16U;
    case PF_S16: return CV_16S;
    case PF_S32: return CV_32S;
    case PF_F16: return CV_16F;
    default: return CV_32F;
    }
}

enum Op { FLIP, ROTATE, TRANSPOSE, BORDER };
const char *const k_op_names[] = {"flip", "rotate", "transpose", "border"};

bool run_case(Op op, int k, uint64_t seed, pf_stream *s2) {
    Rng r(seed * 7919u + static_cast<uint64_t>(op) * 1000003u + static_cast<uint64_t>(k));
    pf_dtype dt = k_dtypes[r.range(0, 7)];
    int cn = r.range(1, 4);
    int chw = cn > 1 && r.range(0, 4) == 0;
    int w = r.range(1, k % 8 == 0 ? 700 : 90), h = r.range(1, 60);
    int es = static_cast<int>(pf_dtype_size(dt));
    int pxb = es * (chw ? 1 : cn);
    int bx = r.range(0, 3), by = r.range(0, 2);
    int bw = w + bx + r.range(0, 3), bh = h + by + r.range(0, 2);
    size_t sstride = static_cast<size_t>(bw * pxb + r.range(0, 1) * 8);
    size_t splane = sstride * static_cast<size_t>(bh);
    int planes = chw ? cn : 1;
    std::vector<uint8_t> sbuf(splane * static_cast<size_t>(planes));
    for (auto &v : sbuf) v = static_cast<uint8_t>(r.next());
    if (dt == PF_F16 || dt == PF_F32) /* keep NaN payloads out: OpenCV copies them anyway, but be plain */
        for (size_t i = 0; i + 1 < sbuf.size(); i += 2) sbuf[i + 1] &= 0x3F;
    uint8_t *origin = sbuf.data() + static_cast<size_t>(by) * sstride + static_cast<size_t>(bx * pxb);
    pf_image src = chw ? pf_image_chw(origin, w, h, cn, dt, static_cast<ptrdiff_t>(sstride), static_cast<ptrdiff_t>(splane))
                       : pf_image_hwc(origin, w, h, cn, dt, static_cast<ptrdiff_t>(sstride));
    int code = 0;
    pf_border_params bp{};
    int dw = w, dh = h;
    if (op == FLIP) code = r.range(-1, 1);
    if (op == ROTATE) code = r.range(0, 2);
    if ((op == ROTATE && code != 1) || op == TRANSPOSE) { dw = h; dh = w; }
    if (op == BORDER) {
        bp.top = r.range(0, 9);
        bp.left = r.range(0, 9);
        bp.mode = static_cast<pf_border>(r.range(0, 4));
        if (dt == PF_F16 && bp.mode == PF_BORDER_CONSTANT) bp.mode = PF_BORDER_REFLECT_101;
        if (r.range(0, 5) == 0) { bp.top += 2 * h + 3; bp.left += 2 * w + 1; } /* wider than the image */
        for (double &v : bp.value) v = (r.range(0, 1) ? -1.0 : 1.0) * r.range(0, 70000) / (r.range(0, 1) ? 1.0 : 7.0);
        dw = w + bp.left + r.range(0, 9);
        dh = h + bp.top + r.range(0, 9);
    }
    size_t dstride = static_cast<size_t>(dw * pxb + r.range(0, 2) * 4);
    size_t dplane = dstride * static_cast<size_t>(dh);
    std::vector<uint8_t> dbuf(dplane * static_cast<size_t>(planes) + 32, 0xEE);
    pf_image dst = chw ? pf_image_chw(dbuf.data() + 16, dw, dh, cn, dt, static_cast<ptrdiff_t>(dstride),
                                      static_cast<ptrdiff_t>(dplane))
                       : pf_image_hwc(dbuf.data() + 16, dw, dh, cn, dt, static_cast<ptrdiff_t>(dstride));
    pf_stream *st = r.range(0, 1) ? s2 : nullptr;
    pf_status rc = PF_OK;
    switch (op) {
    case FLIP: { pf_flip_code c = static_cast<pf_flip_code>(code); rc = pf_flip(st, 1, &src, &dst, &c, 1); break; }
    case ROTATE: { pf_rotate_code c = static_cast<pf_rotate_code>(code); rc = pf_rotate(st, 1, &src, &dst, &c, 1); break; }
    case TRANSPOSE: rc = pf_transpose(st, 1, &src, &dst); break;
    case BORDER: rc = pf_copy_make_border(st, 1, &src, &dst, &bp, 1); break;
    }
    if (rc != PF_OK) {
        std::fprintf(stderr, "%s case %d: failed: %s\n", k_op_names[op], k, pf_last_error());
        return false;
    }
    int ccn = chw ? 1 : cn;
    for (int p = 0; p < planes; p++) {
        cv::Mat in(h, w, CV_MAKETYPE(cv_depth(dt), ccn), origin + static_cast<size_t>(p) * splane, sstride);
        cv::Mat want;
        switch (op) {
        case FLIP: cv::flip(in, want, code); break;
        case ROTATE: cv::rotate(in, want, code); break;
        case TRANSPOSE: cv::transpose(in, want); break;
        case BORDER: {
            cv::Scalar v(bp.value[0], bp.value[1], bp.value[2], bp.value[3]);
            if (chw) v = cv::Scalar::all(bp.value[p]);
            cv::copyMakeBorder(in, want, bp.top, dh - h - bp.top, bp.left, dw - w - bp.left,
                               static_cast<int>(bp.mode), v);
            break;
        }
        }
        if (want.cols != dw || want.rows != dh) {
            std::fprintf(stderr, "%s case %d: OpenCV gave %dx%d, pixflow %dx%d\n", k_op_names[op], k, want.cols,
                         want.rows, dw, dh);
            return false;
        }
        const uint8_t *base = dbuf.data() + 16 + static_cast<size_t>(p) * dplane;
        for (int y = 0; y < dh; y++) {
            const uint8_t *row = base + static_cast<size_t>(y) * dstride;
            if (std::memcmp(row, want.ptr(y), static_cast<size_t>(dw * pxb)) != 0) {
                std::fprintf(stderr, "%s case %d: %s cn=%d %dx%d chw=%d code=%d mode=%d differs at row %d\n",
                             k_op_names[op], k, pf_dtype_name(dt), cn, w, h, chw, code, static_cast<int>(bp.mode), y);
                return false;
            }
            for (size_t x = static_cast<size_t>(dw * pxb); x < dstride; x++)
                if (row[x] != 0xEE) {
                    std::fprintf(stderr, "%s case %d: wrote into row padding\n", k_op_names[op], k);
                    return false;
                }
        }
    }
    for (int i = 0; i < 16; i++)
        if (dbuf[static_cast<size_t>(i)] != 0xEE || dbuf[dbuf.size() - 1 - static_cast<size_t>(i)] != 0xEE) {
            std::fprintf(stderr, "%s case %d: wrote outside dst\n", k_op_names[op], k);
            return false;
        }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    int cases = argc > 1 ? std::atoi(argv[1]) : 600;
    uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20261130u;
    pf_stream *s2 = nullptr;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) return 1;
    int pass = 0, fail = 0;
    for (int op = FLIP; op <= BORDER; op++)
        for (int k = 0; k < cases; k++) (run_case(static_cast<Op>(op), k, seed, s2) ? pass : fail)++;
    pf_stream_destroy(s2);
    std::printf("parity_geom: %d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
