/* Per-pair NMS arithmetic of the three semantics pf_nms reproduces
 * (include/pixflow/post.h), shared by the CPU reference, the SIMD kernels'
 * tails and the CUDA kernel, so the CPU tests exercise the device's
 * arithmetic. Each function is written in the operation order of the
 * implementation it copies; none may be contracted into FMAs
 * (-ffp-contract=off, nvcc -fmad=false). */
#ifndef PF_KERNELS_NMS_MATH_H
#define PF_KERNELS_NMS_MATH_H

#include <stdint.h>

#include "kernels/pf_hd.h"

/* std::max / std::min exactly: the first argument wins unless the second
 * is strictly larger (smaller), so a NaN in the second position loses and
 * a NaN in the first wins, and max(-0, +0) is -0. */
PF_HD float pfk_std_maxf(float a, float b) { return a < b ? b : a; }
PF_HD float pfk_std_minf(float a, float b) { return b < a ? b : a; }
PF_HD double pfk_std_max(double a, double b) { return a < b ? b : a; }
PF_HD double pfk_std_min(double a, double b) { return b < a ? b : a; }

/* ------------------------------------------------------- torchvision */

/* torchvision's areas tensor: (x2 - x1) * (y2 - y1); mmcv's offset adds
 * `off` (0 or 1) to both sides first. */
PF_HD float pfk_nms_tv_area(float x1, float y1, float x2, float y2, float off) {
    float w = x2 - x1, h = y2 - y1;
    if (off != 0.0f) {
        w = w + off;
        h = h + off;
    }
    return w * h;
}

/* torchvision nms_kernel.cpp: IoU of the kept box k (i) and the candidate
 * c (j), ovr = inter / (iarea + areas[j] - inter), in float. */
PF_HD float pfk_nms_tv_iou(float kx1, float ky1, float kx2, float ky2, float ka, float cx1, float cy1, float cx2,
                           float cy2, float ca, float off) {
    float xx1 = pfk_std_maxf(kx1, cx1), yy1 = pfk_std_maxf(ky1, cy1);
    float xx2 = pfk_std_minf(kx2, cx2), yy2 = pfk_std_minf(ky2, cy2);
    float dw = xx2 - xx1, dh = yy2 - yy1;
    if (off != 0.0f) {
        dw = dw + off;
        dh = dh + off;
    }
    float w = pfk_std_maxf(0.0f, dw), h = pfk_std_maxf(0.0f, dh);
    float inter = w * h;
    return inter / ((ka + ca) - inter);
}

/* torchvision compares the float IoU with a double threshold t. For every
 * float x, (double)x > t  <=>  x > pfk_nms_thr_down(t): t itself when it
 * is a float, else the largest float below it. Lets float-only code
 * (SIMD, GPU) make the double comparison exactly. */
PF_HD float pfk_nms_thr_down(double t) {
    float f = (float)t;
    if ((double)f > t) f = nextafterf(f, -INFINITY);
    return f;
}

/* ------------------------------------------------------------ OpenCV */

/* cv::dnn rectOverlap(a, b) on Rect2d: 1.f - (float)jaccardDistance(a, b)
 * with OpenCV 4.x's Rect intersection (operator&=, overflow-safe form). */
PF_HD float pfk_nms_cv_overlap(double ax, double ay, double aw, double ah, double bx, double by, double bw,
                               double bh) {
    double area_a = aw * ah, area_b = bw * bh;
    if (area_a + area_b <= 2.220446049250313080847e-16) return 1.0f; /* DBL_EPSILON: distance 0 */
    double inter = 0.0;
    if (!(aw <= 0 || ah <= 0) && !(bw <= 0 || bh <= 0)) {
        int xa = ax < bx, ya = ay < by; /* which rect is Rx_min / Ry_min */
        double minx = xa ? ax : bx, minw = xa ? aw : bw, maxx = xa ? bx : ax, maxw = xa ? bw : aw;
        double miny = ya ? ay : by, minh = ya ? ah : bh, maxy = ya ? by : ay, maxh = ya ? bh : ah;
        if (!((minx < 0 && minx + minw < maxx) || (miny < 0 && miny + minh < maxy))) {
            double w = pfk_std_min(minw - (maxx - minx), maxw);
            double h = pfk_std_min(minh - (maxy - miny), maxh);
            if (!(w <= 0 || h <= 0)) inter = w * h;
        }
    }
    double dist = 1.0 - inter / (area_a + area_b - inter);
    return 1.0f - (float)dist;
}

/* -------------------------------------------------------------- ONNX */

PF_HD void pfk_onnx_minmax(float lhs, float rhs, float *mn, float *mx) {
    if (lhs >= rhs) {
        *mn = rhs;
        *mx = lhs;
    } else {
        *mn = lhs;
        *mx = rhs;
    }
}

/* onnxruntime's SuppressByIOU(box1 = candidate, box2 = selected): boxes
 * raw as given, [y1, x1, y2, x2] (center = 0) or [cx, cy, w, h] (1). */
PF_HD int pfk_nms_onnx_suppress(const float *b1, const float *b2, int center, float thr) {
    float x1min, x1max, x2min, x2max, y1min, y1max, y2min, y2max, ixmin, ixmax, iymin, iymax;
    if (!center) {
        pfk_onnx_minmax(b1[1], b1[3], &x1min, &x1max);
        pfk_onnx_minmax(b2[1], b2[3], &x2min, &x2max);
        ixmin = pfk_std_maxf(x1min, x2min);
        ixmax = pfk_std_minf(x1max, x2max);
        if (ixmax <= ixmin) return 0;
        pfk_onnx_minmax(b1[0], b1[2], &y1min, &y1max);
        pfk_onnx_minmax(b2[0], b2[2], &y2min, &y2max);
        iymin = pfk_std_maxf(y1min, y2min);
        iymax = pfk_std_minf(y1max, y2max);
        if (iymax <= iymin) return 0;
    } else {
        float w1 = b1[2] / 2, h1 = b1[3] / 2, w2 = b2[2] / 2, h2 = b2[3] / 2;
        x1min = b1[0] - w1;
        x1max = b1[0] + w1;
        x2min = b2[0] - w2;
        x2max = b2[0] + w2;
        ixmin = pfk_std_maxf(x1min, x2min);
        ixmax = pfk_std_minf(x1max, x2max);
        if (ixmax <= ixmin) return 0;
        y1min = b1[1] - h1;
        y1max = b1[1] + h1;
        y2min = b2[1] - h2;
        y2max = b2[1] + h2;
        iymin = pfk_std_maxf(y1min, y2min);
        iymax = pfk_std_minf(y1max, y2max);
        if (iymax <= iymin) return 0;
    }
    float inter = (ixmax - ixmin) * (iymax - iymin);
    if (inter <= 0.0f) return 0;
    float a1 = (x1max - x1min) * (y1max - y1min);
    float a2 = (x2max - x2min) * (y2max - y2min);
    float uni = a1 + a2 - inter;
    if (a1 <= 0.0f || a2 <= 0.0f || uni <= 0.0f) return 0;
    return inter / uni > thr;
}

/* Most boxes NMS can keep of a sample of n candidates (pf_nms_capacity's
 * rule: the pre-NMS top-k and the output cap, 0 = none). */
PF_HD int32_t pfk_nms_bound(int32_t n, int32_t top_k, int32_t max_out) {
    int32_t b = n;
    if (top_k > 0 && b > top_k) b = top_k;
    if (max_out > 0 && b > max_out) b = max_out;
    return b;
}

/* ------------------------------------------------------------ ordering */

/* Sort key for "descending score, NaN first" as an ascending uint32: -0
 * and +0 are one key (equal scores, so the index decides), every NaN maps
 * above +inf. LSD radix sort on it is stable, so equal keys stay in index
 * order. */
PF_HD uint32_t pfk_score_key_desc(float s) {
    union {
        float f;
        uint32_t u;
    } v;
    v.f = s;
    if (s != s) return 0u; /* NaN: first */
    if (s == 0.0f) v.u = 0;
    uint32_t asc = (v.u & 0x80000000u) ? ~v.u : (v.u | 0x80000000u);
    return ~asc; /* larger scores first; +inf -> 0x007fffff > 0 */
}

#endif
