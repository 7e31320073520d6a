// OpenCV headers for the comparison code (bench shim and parity tests).
// OpenCV's headers use C11 _Atomic in C++ (CV_XADD), which clang reports
// under -Wpedantic; they are not our code, so that one warning is silenced
// around them here, once.
#ifndef PIXFLOW_BENCH_OPENCV_HEADERS_HPP
#define PIXFLOW_BENCH_OPENCV_HEADERS_HPP

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc11-extensions"
#endif
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif
