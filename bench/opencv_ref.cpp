/*
 * opencv_ref.cpp: C shim over cv::resize (see opencv_ref.h).
 */
#include "opencv_ref.h"

#include <cstdint>
#include <cstring>
#include <exception>

#include "opencv_headers.hpp"

namespace {

int cv_depth_of(int dtype, size_t *elem_size) {
    switch (dtype) {
    case 0: *elem_size = 1; return CV_8U;   /* PF_U8 */
    case 1: *elem_size = 2; return CV_16U;  /* PF_U16 */
    case 6: *elem_size = 4; return CV_32F;  /* PF_F32 */
    default: return -1;
    }
}

bool interp_ok(int interp) {
    return interp == cv::INTER_NEAREST || interp == cv::INTER_LINEAR ||
           interp == cv::INTER_CUBIC || interp == cv::INTER_AREA ||
           interp == cv::INTER_LANCZOS4 || interp == cv::INTER_NEAREST_EXACT;
}

/* |stride| must hold a row and be a multiple of the element size (cv::Mat
 * requires the latter). */
bool stride_ok(ptrdiff_t stride, size_t row_bytes, size_t elem_size) {
    size_t a = stride < 0 ? static_cast<size_t>(-(stride + 1)) + 1u
                          : static_cast<size_t>(stride);
    return a >= row_bytes && a % elem_size == 0;
}

size_t abs_stride(ptrdiff_t stride) {
    return stride < 0 ? static_cast<size_t>(-(stride + 1)) + 1u
                      : static_cast<size_t>(stride);
}

/* Copies rows of a (possibly negative-stride) view into a packed Mat, or
 * back. Row y of the view starts at base + y * stride. */
void copy_rows_in(cv::Mat &packed, const unsigned char *base, ptrdiff_t stride,
                  size_t row_bytes) {
    for (int y = 0; y < packed.rows; y++)
        std::memcpy(packed.ptr(y), base + static_cast<ptrdiff_t>(y) * stride, row_bytes);
}

void copy_rows_out(const cv::Mat &packed, unsigned char *base, ptrdiff_t stride,
                   size_t row_bytes) {
    for (int y = 0; y < packed.rows; y++)
        std::memcpy(base + static_cast<ptrdiff_t>(y) * stride, packed.ptr(y), row_bytes);
}

int resize_impl(const void *src, int sw, int sh, ptrdiff_t sstride, void *dst,
                int dw, int dh, ptrdiff_t dstride, int channels, int dtype,
                int interp) {
    if (!src || !dst || sw < 1 || sh < 1 || dw < 1 || dh < 1 || channels < 1 ||
        channels > 4 || !interp_ok(interp))
        return -1;
    size_t es = 0;
    const int depth = cv_depth_of(dtype, &es);
    if (depth < 0)
        return -1;
    const int type = CV_MAKETYPE(depth, channels);
    const size_t srow = static_cast<size_t>(sw) * static_cast<size_t>(channels) * es;
    const size_t drow = static_cast<size_t>(dw) * static_cast<size_t>(channels) * es;
    if (!stride_ok(sstride, srow, es) || !stride_ok(dstride, drow, es))
        return -1;

    /* Source: a header over the caller's memory; a packed flipped copy when
     * the stride is negative (cv::Mat steps are unsigned). */
    cv::Mat s;
    if (sstride >= 0) {
        s = cv::Mat(sh, sw, type, const_cast<void *>(src), abs_stride(sstride));
    } else {
        s.create(sh, sw, type);
        copy_rows_in(s, static_cast<const unsigned char *>(src), sstride, srow);
    }

    if (dstride >= 0) {
        cv::Mat d(dh, dw, type, dst, abs_stride(dstride));
        const uchar *before = d.data;
        cv::resize(s, d, cv::Size(dw, dh), 0, 0, interp);
        /* resize() calls dst.create(); had the header not matched (size,
         * type), OpenCV would have silently allocated new memory and the
         * caller's buffer would hold stale data. */
        if (d.data != before || d.rows != dh || d.cols != dw || d.type() != type)
            return -1;
    } else {
        cv::Mat d(dh, dw, type);
        const uchar *before = d.data;
        cv::resize(s, d, cv::Size(dw, dh), 0, 0, interp);
        if (d.data != before || d.rows != dh || d.cols != dw || d.type() != type)
            return -1;
        copy_rows_out(d, static_cast<unsigned char *>(dst), dstride, drow);
    }
    return 0;
}

} // namespace

extern "C" int pfb_cv_resize(const void *src, int sw, int sh, ptrdiff_t sstride,
                             void *dst, int dw, int dh, ptrdiff_t dstride,
                             int channels, int dtype, int interp) {
    try {
        return resize_impl(src, sw, sh, sstride, dst, dw, dh, dstride, channels,
                           dtype, interp);
    } catch (const cv::Exception &) {
        return -1;
    } catch (const std::exception &) {
        return -1;
    } catch (...) {
        return -1;
    }
}

extern "C" void pfb_cv_set_threads(int n) {
    try {
        cv::setNumThreads(n);
    } catch (...) {
        /* nothing sensible to report through a void C call */
    }
}

extern "C" const char *pfb_cv_version(void) { return CV_VERSION; }
