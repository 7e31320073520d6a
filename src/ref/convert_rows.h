/*
 * The pointwise conversion engine behind pf_convert, pf_reformat,
 * pf_normalize, pf_split and pf_merge: one row kernel that, for each dst
 * channel c, gathers src elements from src[c] (element step sstep[c]),
 * transforms them and scatters into dst[c] (element step dstep[c]). HWC,
 * CHW, split planes and merged planes are all just pointers and steps.
 *
 * The reference (pfi_cvt_row_ref) is the specification; optimized kernels
 * (pfi_cvt_fast_fn) handle a multiple of PFI_CVT_BLOCK pixels of rows whose
 * shape they were selected for, and the caller runs the reference on the
 * rest.
 */
#ifndef PF_REF_CONVERT_ROWS_H
#define PF_REF_CONVERT_ROWS_H

#include <stdint.h>

#include "kernels/convert_math.h"
#include "pixflow/core.h"

typedef struct pfi_cvt_xform {
    int kind;
    pf_dtype sdt, ddt;
    /* SCALE: OpenCV's choice of arithmetic for (alpha, beta) */
    int noscale;           /* |alpha-1| < DBL_EPSILON && |beta| < DBL_EPSILON: plain cast */
    int dbl;               /* s32 -> s32 with scale: fma in double */
    float alpha, beta;     /* float path: fmaf((float)x, alpha, beta) */
    double alpha_d, beta_d;
    /* NORM, per dst channel */
    float scale;
    float mean[4], stdv[4];
    /* value of PF_CHANNEL_FILL channels, already in the dst dtype */
    unsigned char fill[4][4];
} pfi_cvt_xform;

typedef struct pfi_cvt_row {
    const void *src[4];   /* dst channel c reads src[c] + j * sstep[c] elements; NULL: fill */
    void *dst[4];         /* and writes dst[c] + j * dstep[c] elements */
    int32_t sstep[4], dstep[4];
    int32_t dcn;          /* dst channels in this row (1..4) */
    int8_t sch[4];        /* src channel of dst channel c (-1: fill); for gather kernels */
} pfi_cvt_row;

/* Pixels [x0, x0 + n) of one row. */
void pfi_cvt_row_ref(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t x0, int32_t n);

/* Pixels [0, n), n a multiple of PFI_CVT_BLOCK. */
typedef void (*pfi_cvt_fast_fn)(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n);
#define PFI_CVT_BLOCK 16

/* Encodes `v` in dtype `dt` (saturating, round half even) into out. */
void pfi_cvt_encode_fill(double v, pf_dtype dt, unsigned char out[4]);

/* The SCALE transform for convertTo(alpha, beta) from sdt to ddt. */
void pfi_cvt_xform_scale(pfi_cvt_xform *x, pf_dtype sdt, pf_dtype ddt, double alpha, double beta);

/* OpenCV cv::normalize(NORM_MINMAX) scale/shift from the image range. */
void pfi_cvt_minmax_coeffs(double smin, double smax, double lo, double hi, pf_dtype ddt,
                           double *scale, double *shift);

/* Element i of a row of dtype dt, as a double (exact for every dtype). */
double pfi_cvt_load(const void *p, pf_dtype dt, int64_t i);

#endif
