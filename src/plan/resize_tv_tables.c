/* Resize tables with torch's CPU `interpolate` semantics, as torchvision
 * 0.29's F.resize calls it (mode bilinear / bicubic, align_corners=False,
 * antialias on or off; lanczos, antialias only; output size given, no
 * scale factor).
 *
 * This file is the specification of which source pixels and which weights
 * each output uses; the arithmetic is the u8 fixed-point pass
 * (ref/resize_tv_rows_ref.c) or the float passes of ref/resize_rows_ref.c.
 * Written from torch's documented algorithm (aten UpSampleKernel.cpp:
 * separable passes, horizontal first, weights computed in double and
 * rounded to int16 with one precision per axis) and verified against
 * torch 2.15 / torchvision 0.29 by tests/python.
 *
 * Two ways of choosing taps, both from torch:
 *  - antialias: Pillow's support-widened filter. Centre c = scale*(i+0.5),
 *    taps [trunc(c - support + 0.5), trunc(c + support + 0.5)) clipped to
 *    the image, weights filter((j + xmin - c + 0.5) / max(scale, 1))
 *    normalised to sum 1.
 *  - no antialias: 2 (bilinear) or 4 (bicubic) taps around the source
 *    coordinate scale*(i+0.5)-0.5; taps that fall outside the image add
 *    their weight to the first / last valid tap (= border replication).
 * u8 weights are double, then int16 `round(w * 2^p)` where p is the largest
 * precision (<= 22) with round(wmax * 2^(p+1)) < 2^15 over the whole axis.
 * f32 weights follow torch's float kernels: the antialias weights are
 * computed in float (torch instantiates them with scalar_t = float), the
 * plain ones are torch's compute_indices_weights lambdas in float. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "plan/resize_plan.h"
#include "plan/resize_tv_plan.h"

/* Keys cubic convolution pieces (torch cubic_convolution1/2), in the
 * operation order torch writes them. */
static double cc1_d(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
static double cc2_d(double x, double a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }
static float cc1_f(float x, float a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
static float cc2_f(float x, float a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

/* Filters: torch's triangle, Keys cubic and Lanczos-3 (sinc(x) sinc(x/3),
 * Pillow's), double for the u8 tables and float for f32. */
enum { TV_LINEAR = 0, TV_CUBIC = 1, TV_LANCZOS = 2 };
#define TV_PI 3.14159265358979323846

static double sinc_d(double x) {
    if (x == 0.0) return 1.0;
    x *= TV_PI;
    return sin(x) / x;
}
static float sinc_f(float x) {
    if (x == 0.0f) return 1.0f;
    x *= (float)TV_PI;
    return sinf(x) / x;
}
static double filt_d(double x, int mode, double a) {
    x = fabs(x);
    if (mode == TV_LINEAR) return x < 1.0 ? 1.0 - x : 0.0;
    if (mode == TV_LANCZOS) return x < 3.0 ? sinc_d(x) * sinc_d(x / 3.0) : 0.0;
    if (x < 1.0) return cc1_d(x, a);
    if (x < 2.0) return cc2_d(x, a);
    return 0.0;
}
static float filt_f(float x, int mode, float a) {
    x = fabsf(x);
    if (mode == TV_LINEAR) return (double)x < 1.0 ? (float)(1.0 - (double)x) : 0.0f;
    if (mode == TV_LANCZOS) return (double)x < 3.0 ? sinc_f(x) * sinc_f((float)((double)x / 3.0)) : 0.0f;
    if ((double)x < 1.0) return cc1_f(x, a);
    if ((double)x < 2.0) return cc2_f(x, a);
    return 0.0f;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Taps stored per output: `n` real taps from xmin (weights w), padded to
 * the axis ksize with zero weights on the last real tap. */
static void put_taps(pfi_axis *a, int32_t o, int32_t in, int64_t xmin, int64_t n) {
    a->count[o] = (int32_t)n;
    for (int32_t k = 0; k < a->ksize; k++) {
        size_t t = (size_t)o * (size_t)a->ksize + (size_t)k;
        int64_t s = k < n ? xmin + k : (n > 0 ? xmin + n - 1 : min64(xmin, in - 1));
        a->idx[t] = (int32_t)s;
    }
}

/* The weights of output i in double: torch's antialias or plain rule.
 * Writes up to `maxk` weights, returns the running maximum torch uses to
 * choose the precision, and the taps' first index and count. */
static double weights_aa_d(int64_t i, int64_t in, double scale, double support, int64_t maxk,
                           int mode, double *w, int64_t *xmin, int64_t *xsize) {
    double center = scale * ((double)i + 0.5);
    double total = 0.0, invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
    *xmin = max64((int64_t)(center - support + 0.5), 0);
    *xsize = clamp64(min64((int64_t)(center + support + 0.5), in) - *xmin, 0, maxk);
    for (int64_t j = 0; j < *xsize; j++) {
        w[j] = filt_d(((double)(j + *xmin) - center + 0.5) * invscale, mode, -0.5);
        total += w[j];
    }
    double wmax = 0.0;
    if (total != 0.0)
        for (int64_t j = 0; j < *xsize; j++) {
            w[j] /= total;
            if (w[j] > wmax) wmax = w[j];
        }
    return wmax;
}

static double weights_plain_d(int64_t i, int64_t in, double scale, int64_t maxk, bool cubic,
                              double *w, int64_t *xmin, int64_t *xsize) {
    double real = scale * ((double)i + 0.5) - 0.5;
    if (!cubic && real < 0) real = 0;
    /* torch floors through floorf: the double is rounded to float first */
    int64_t idx = min64((int64_t)floorf((float)real), in - 1);
    double lambda = real - (double)idx;
    lambda = lambda < 0 ? 0 : lambda > 1 ? 1 : lambda;
    int64_t support = maxk / 2;
    int64_t lo = idx - support + 1, hi = idx + support + 1;
    *xmin = max64(lo, 0);
    *xsize = clamp64(min64(hi, in) - *xmin, 0, maxk);
    /* out-of-image taps fold into the first / last valid one */
    int64_t wi = 0;
    double wmax = 0.0;
    for (int64_t j = 0; j < maxk; j++) {
        w[j] = 0.0;
        double v = filt_d((double)(j + 1 - support) - lambda, cubic ? TV_CUBIC : TV_LINEAR, -0.75);
        if (lo + j <= 0) wi = 0;
        else if (lo + j >= in - 1) wi = *xsize - 1;
        w[wi] += v;
        if (w[wi] > wmax) wmax = w[wi];
        wi++;
    }
    return wmax;
}

/* The antialias weights as torch's float kernels compute them. */
static void weights_aa_f(int64_t i, int64_t in, float scale, float support, int64_t maxk, int mode,
                         float *w, int64_t *xmin, int64_t *xsize) {
    float center = (float)((double)scale * ((double)i + 0.5));
    float total = 0.0f, invscale = (double)scale >= 1.0 ? (float)(1.0 / (double)scale) : 1.0f;
    *xmin = max64((int64_t)((double)(center - support) + 0.5), 0);
    *xsize = clamp64(min64((int64_t)((double)(center + support) + 0.5), in) - *xmin, 0, maxk);
    for (int64_t j = 0; j < *xsize; j++) {
        float d = (float)(j + *xmin) - center;
        w[j] = filt_f((float)(((double)d + 0.5) * (double)invscale), mode, -0.5f);
        total += w[j];
    }
    if (total != 0.0f)
        for (int64_t j = 0; j < *xsize; j++) w[j] /= total;
}

/* torch's plain float weights (compute_indices_weights, float opmath):
 * bilinear has two taps (the second clamped to the last pixel), bicubic
 * four clamped taps with Keys a = -0.75. Writes taps into idx. */
static int64_t weights_plain_f(int64_t i, int64_t in, float scale, bool cubic, float *w, int64_t *idx) {
    /* torch's float kernels are built with FMA contraction: for bicubic the
     * source coordinate is one fused multiply-add (measured: its rounding
     * moves lambda by up to an ulp of the coordinate, which would dominate
     * the difference), for bilinear it is not */
    float real = cubic ? fmaf(scale, (float)i + 0.5f, -0.5f) : scale * ((float)i + 0.5f) - 0.5f;
    if (!cubic) {
        if (real < 0) real = 0;
        int64_t i0 = min64((int64_t)floorf(real), in - 1);
        float l1 = real - (float)i0;
        l1 = l1 < 0 ? 0 : l1 > 1 ? 1 : l1;
        idx[0] = i0;
        idx[1] = i0 + (i0 < in - 1 ? 1 : 0);
        w[0] = 1.0f - l1;
        w[1] = l1;
        return 2;
    }
    int64_t i0 = min64((int64_t)floorf(real), in - 1);
    float t = real - (float)i0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const float A = -0.75f;
    w[0] = cc2_f(t + 1.0f, A);
    w[1] = cc1_f(t, A);
    w[2] = cc1_f(1.0f - t, A);
    w[3] = cc2_f((1.0f - t) + 1.0f, A);
    for (int j = 0; j < 4; j++) idx[j] = clamp64(i0 + j - 1, 0, in - 1);
    return 4;
}

pf_status pfi_tv_axis_build(pfi_axis *a, int32_t in, int32_t out, pf_interp interp, bool antialias,
                            bool fixed_point, void **mem) {
    bool cubic = interp == PF_INTERP_CUBIC;
    int mode = cubic ? TV_CUBIC : interp == PF_INTERP_LANCZOS4 ? TV_LANCZOS : TV_LINEAR;
    int interp_size = mode == TV_LANCZOS ? 6 : cubic ? 4 : 2;
    if (mode == TV_LANCZOS && !antialias)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_resize: torchvision LANCZOS needs antialias (as torchvision requires)");
    double scale = (double)in / (double)out;
    float scale_f = (float)in / (float)out;
    double support = antialias ? (scale >= 1.0 ? interp_size * 0.5 * scale : interp_size * 0.5)
                               : interp_size * 0.5;
    float support_f = antialias ? (float)((double)scale_f >= 1.0 ? interp_size * 0.5 * (double)scale_f : interp_size * 0.5)
                                : (float)(interp_size * 0.5);
    /* torch's weight slots per output; never more real taps than pixels */
    int64_t maxk = antialias ? (int64_t)ceil(support) * 2 + 1 : interp_size;
    int64_t maxk_f = antialias ? (int64_t)ceilf(support_f) * 2 + 1 : interp_size;
    int64_t ksz = fixed_point ? maxk : maxk_f;
    if (ksz > in && antialias) ksz = in;
    if (ksz < interp_size) ksz = interp_size;
    int32_t ksize = (int32_t)(ksz + (ksz & 1)); /* even: the u8 kernels take tap pairs */

    char *m = pfi_axis_alloc(a, out, ksize);
    size_t wn = (size_t)(maxk > maxk_f ? maxk : maxk_f) + 4;
    double *wd = malloc(sizeof(double) * wn * (size_t)out);
    float *wf = malloc(sizeof(float) * wn);
    if (m == NULL || wd == NULL || wf == NULL) {
        free(m);
        free(wd);
        free(wf);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for torchvision tables");
    }

    if (fixed_point) {
        /* pass 1: double weights of every output and the axis maximum */
        double wmax = 0.0;
        int64_t *xs = malloc(sizeof(int64_t) * 2 * (size_t)out);
        if (xs == NULL) {
            free(m);
            free(wd);
            free(wf);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for torchvision tables");
        }
        for (int32_t o = 0; o < out; o++) {
            double *w = wd + (size_t)o * wn;
            double mi = antialias ? weights_aa_d(o, in, scale, support, maxk, mode, w, &xs[2 * o], &xs[2 * o + 1])
                                  : weights_plain_d(o, in, scale, maxk, cubic, w, &xs[2 * o], &xs[2 * o + 1]);
            if (mi > wmax) wmax = mi;
        }
        int32_t prec = 0;
        for (prec = 0; prec < 22; prec++)
            if ((int)(0.5 + wmax * (double)(1 << (prec + 1))) >= (1 << 15)) break;
        a->shift = prec;
        /* pass 2: int16 weights, rounded half away from zero (the pads'
         * stay zero: pfi_axis_alloc zeroes the tables) */
        double one = (double)(1 << prec);
        for (int32_t o = 0; o < out; o++) {
            const double *w = wd + (size_t)o * wn;
            int64_t n = xs[2 * o + 1];
            put_taps(a, o, in, xs[2 * o], n);
            int32_t *ac = a->acoef + (size_t)o * (size_t)ksize;
            int16_t *ic = a->icoef + (size_t)o * (size_t)ksize;
            for (int32_t k = 0; k < n && k < ksize; k++) {
                double v = w[k] * one;
                int32_t q = (int16_t)(v < 0 ? (int)(-0.5 + v) : (int)(0.5 + v));
                ac[k] = q;
                ic[k] = (int16_t)q; /* fcoef stays zero: no u8 kind reads it */
            }
        }
        free(xs);
    } else {
        a->shift = 0;
        for (int32_t o = 0; o < out; o++) {
            int64_t xmin = 0, n = 0, ix[4];
            if (antialias) {
                weights_aa_f(o, in, scale_f, support_f, maxk_f, mode, wf, &xmin, &n);
                put_taps(a, o, in, xmin, n);
            } else {
                n = weights_plain_f(o, in, scale_f, cubic, wf, ix);
                a->count[o] = (int32_t)n;
                for (int32_t k = 0; k < ksize; k++)
                    a->idx[(size_t)o * (size_t)ksize + (size_t)k] = (int32_t)ix[k < n ? k : n - 1];
            }
            for (int32_t k = 0; k < ksize; k++)
                a->fcoef[(size_t)o * (size_t)ksize + (size_t)k] = k < n ? wf[k] : 0.0f;
        }
    }
    free(wd);
    free(wf);
    *mem = m;
    return PF_OK;
}

/* torch's nearest indices (float scale in/out; uint8 uses the float
 * index code too): NEAREST floor(i * scale), NEAREST_EXACT
 * floor(max(scale * (i + 0.5) - 0.5, 0) + 0.5) with the multiply-add
 * fused as torch's build fuses it (measured: the unfused form differs in
 * rare cases), both clamped to the last pixel. */
void pfi_tv_nn_build(int32_t *map, int32_t in, int32_t out, bool exact) {
    float scale = (float)in / (float)out;
    for (int32_t i = 0; i < out; i++) {
        float v;
        if (exact) {
            float real = fmaf(scale, (float)i + 0.5f, -0.5f);
            if (real < 0) real = 0;
            v = floorf(real + 0.5f);
        } else {
            v = floorf(scale * (float)i);
        }
        int64_t s = (int64_t)v;
        map[i] = (int32_t)(s < in - 1 ? s : in - 1);
    }
}
