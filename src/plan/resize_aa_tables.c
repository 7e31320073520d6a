/* Antialiased resize tables with Pillow's Image.resize semantics
 * (libImaging/Resample.c: precompute_coeffs + normalize_coeffs_8bpc):
 * the filter support is widened by the downscale factor, weights are
 * computed in double at pixel centres, normalized to sum 1, and for 8-bit
 * images rounded to 22-bit fixed point. Written from Pillow's documented
 * algorithm; verified by tests/parity/test_antialias_pil.py. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernels/resize_math.h"
#include "plan/resize_plan.h"

#define PFI_PI_D 3.1415926535897932384626433832795

static double f_box(double x) { return (x > -0.5 && x <= 0.5) ? 1.0 : 0.0; }
static double f_triangle(double x) {
    if (x < 0.0) x = -x;
    return x < 1.0 ? 1.0 - x : 0.0;
}
static double f_bicubic(double x) { /* Keys, a = -0.5 (Pillow) */
    const double a = -0.5;
    if (x < 0.0) x = -x;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
    if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
    return 0.0;
}
static double sinc(double x) {
    if (x == 0.0) return 1.0;
    x = x * PFI_PI_D;
    return sin(x) / x;
}
static double f_lanczos3(double x) {
    return (-3.0 <= x && x < 3.0) ? sinc(x) * sinc(x / 3) : 0.0;
}

pf_status pfi_aa_axis_build(pfi_axis *a, int32_t in_size, int32_t out_size, pf_interp interp,
                            bool fixed_point, void **mem) {
    double (*filter)(double);
    double support0;
    switch (interp) {
    case PF_INTERP_AREA: filter = f_box; support0 = 0.5; break;
    case PF_INTERP_CUBIC: filter = f_bicubic; support0 = 2.0; break;
    case PF_INTERP_LANCZOS4: filter = f_lanczos3; support0 = 3.0; break;
    default: filter = f_triangle; support0 = 1.0; break;
    }
    /* Pillow's box: in0 = 0, in1 = in_size (as float) */
    double scale = (double)((float)in_size - 0.0f) / out_size;
    double filterscale = scale < 1.0 ? 1.0 : scale;
    double support = support0 * filterscale;
    double ksz = ceil(support) * 2 + 1;
    if (ksz > (double)in_size + 2) ksz = (double)in_size + 2; /* never more taps than pixels */
    int ksize = (int)ksz;

    char *m = pfi_axis_alloc(a, out_size, ksize);
    double *w = malloc(sizeof(double) * (size_t)ksize);
    if (m == NULL || w == NULL) {
        free(m);
        free(w);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for antialias tables");
    }

    for (int xx = 0; xx < out_size; xx++) {
        double center = 0.0 + (xx + 0.5) * scale;
        double ww = 0.0, ss = 1.0 / filterscale;
        int xmin = (int)(center - support + 0.5);
        if (xmin < 0) xmin = 0;
        int xmax = (int)(center + support + 0.5);
        if (xmax > in_size) xmax = in_size;
        xmax -= xmin;
        if (xmax > ksize) xmax = ksize; /* unreachable with Pillow's ksize; keeps us in bounds */
        for (int x = 0; x < xmax; x++) {
            double v = filter((x + xmin - center + 0.5) * ss);
            w[x] = v;
            ww += v;
        }
        for (int x = 0; x < xmax; x++)
            if (ww != 0.0) w[x] /= ww;
        a->count[xx] = xmax;
        for (int x = 0; x < ksize; x++) {
            size_t t = (size_t)xx * (size_t)ksize + (size_t)x;
            if (x < xmax) {
                a->idx[t] = xmin + x;
                double k = w[x];
                a->acoef[t] = k < 0 ? (int32_t)(-0.5 + k * (1 << PFK_AA_BITS))
                                    : (int32_t)(0.5 + k * (1 << PFK_AA_BITS));
                a->fcoef[t] = (float)k;
            } else { /* zero-weight pad on the last real tap */
                a->idx[t] = xmax > 0 ? xmin + xmax - 1 : (xmin < in_size ? xmin : in_size - 1);
                a->acoef[t] = 0;
                a->fcoef[t] = 0.f;
            }
        }
    }
    (void)fixed_point;
    free(w);
    *mem = m;
    return PF_OK;
}
