/*
 * Reference conversion row kernel: the specification of pf_convert,
 * pf_normalize, pf_reformat, pf_split and pf_merge.
 *
 * pf_convert follows OpenCV 4.6 Mat::convertTo as the x86 build computes it:
 *  - alpha == 1 && beta == 0 (within DBL_EPSILON): a plain cast; integer to
 *    integer saturates exactly, float to integer is cvRound + saturate,
 *    anything to f16/bf16 goes through f32;
 *  - otherwise the value is widened to f32 (s32 rounds to nearest even) and
 *    dst = saturate(fmaf(x, (float)alpha, (float)beta)); OpenCV's SIMD loops
 *    (and its scalar tails, contracted by the compiler) use a fused
 *    multiply-add on AVX2 machines, so fmaf is what matches it;
 *  - s32 -> s32 with a scale computes fma(x, alpha, beta) in double.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/convert_math.h"
#include "ref/convert_rows.h"

double pfi_cvt_load(const void *p, pf_dtype dt, int64_t i) {
    switch (dt) {
    case PF_U8: return ((const uint8_t *)p)[i];
    case PF_U16: return ((const uint16_t *)p)[i];
    case PF_S16: return ((const int16_t *)p)[i];
    case PF_S32: return ((const int32_t *)p)[i];
    case PF_F16: return (double)pfk_f16_to_f32(((const uint16_t *)p)[i]);
    case PF_BF16: return (double)pfk_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return (double)pfk_f32_quiet(((const float *)p)[i]);
    }
}

/* The stores are shared with the GPU element map (src/kernels/convert_math.h). */

static void copy_elem(void *d, int64_t di, const void *s, int64_t si, size_t esz) {
    switch (esz) { /* fixed sizes so the copy is one load and one store */
    case 1: ((uint8_t *)d)[di] = ((const uint8_t *)s)[si]; break;
    case 2: ((uint16_t *)d)[di] = ((const uint16_t *)s)[si]; break;
    default: ((uint32_t *)d)[di] = ((const uint32_t *)s)[si]; break;
    }
}

void pfi_cvt_row_ref(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t x0, int32_t n) {
    size_t desz = pf_dtype_size(x->ddt);
    for (int c = 0; c < r->dcn; c++) {
        const void *s = r->src[c];
        void *d = r->dst[c];
        int64_t ss = r->sstep[c], ds = r->dstep[c];
        if (s == NULL) {
            for (int64_t j = x0; j < (int64_t)x0 + n; j++) memcpy((char *)d + j * ds * (int64_t)desz, x->fill[c], desz);
            continue;
        }
        for (int64_t j = x0; j < (int64_t)x0 + n; j++) {
            if (x->kind == PFK_CVT_COPY) {
                copy_elem(d, j * ds, s, j * ss, desz);
                continue;
            }
            double v = pfi_cvt_load(s, x->sdt, j * ss);
            if (x->kind == PFK_CVT_NORM) {
                pfk_cvt_store_f32(d, x->ddt, j * ds, pfk_norm_mean_std((float)v, x->scale, x->mean[c], x->stdv[c]));
            } else if (x->noscale) {
                if (pfk_dtype_is_int(x->sdt) && pfk_dtype_is_int(x->ddt))
                    pfk_cvt_store_int(d, x->ddt, j * ds, (int64_t)v);
                else
                    pfk_cvt_store_f32(d, x->ddt, j * ds, (float)v);
            } else if (x->dbl) {
                ((int32_t *)d)[j * ds] = pfk_cvround_d(fma(v, x->alpha_d, x->beta_d));
            } else {
                pfk_cvt_store_f32(d, x->ddt, j * ds, fmaf((float)v, x->alpha, x->beta));
            }
        }
    }
}

void pfi_cvt_encode_fill(double v, pf_dtype dt, unsigned char out[4]) {
    memset(out, 0, 4);
    if (pfk_dtype_is_int(dt)) {
        /* saturate first, then round half even: the value is in range */
        double lo = dt == PF_U8 || dt == PF_U16 ? 0 : dt == PF_S16 ? -32768 : -2147483648.0;
        double hi = dt == PF_U8 ? 255 : dt == PF_U16 ? 65535 : dt == PF_S16 ? 32767 : 2147483647.0;
        double c = v != v ? 0 : v < lo ? lo : v > hi ? hi : rint(v);
        pfk_cvt_store_int(out, dt, 0, (int64_t)c);
    } else {
        pfk_cvt_store_f32(out, dt, 0, (float)v);
    }
}

void pfi_cvt_xform_scale(pfi_cvt_xform *x, pf_dtype sdt, pf_dtype ddt, double alpha, double beta) {
    memset(x, 0, sizeof *x);
    x->kind = PFK_CVT_SCALE;
    x->sdt = sdt;
    x->ddt = ddt;
    x->noscale = pfk_cvt_noscale(alpha, beta);
    x->dbl = !x->noscale && sdt == PF_S32 && ddt == PF_S32;
    x->alpha = (float)alpha;
    x->beta = (float)beta;
    x->alpha_d = alpha;
    x->beta_d = beta;
}

void pfi_cvt_minmax_coeffs(double smin, double smax, double lo, double hi, pf_dtype ddt,
                           double *scale, double *shift) {
    pfk_minmax_coeffs(smin, smax, lo, hi, ddt == PF_F32, scale, shift);
}
