/* The conversion ops on the CPU: each builds its samples (ops/convert_args.h)
 * and runs them on the element-map engine (convert_exec.c). */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/convert_exec.h"
#include "cpu/cpu_kernels.h"

#define OP "pf_normalize"

static pf_status run_samples(pf_stream *s, const char *op, int count, pfi_cvt_sample *smp, pf_status st) {
    if (st != PF_OK) return st;
    st = pfi_cvt_run(s, op, count, smp);
    free(smp);
    return st;
}

pf_status pfi_cpu_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_convert_opts *opts) {
    pfi_cvt_sample *smp = NULL;
    pf_status st = pfi_cvt_make_samples("pf_convert", count, src, dst, opts->order, opts->fill, 0, opts->alpha,
                                        opts->beta, &smp);
    return run_samples(s, "pf_convert", count, smp, st);
}

pf_status pfi_cpu_reformat(pf_stream *s, int count, const pf_image src[], pf_image dst[], const int8_t order[4],
                           double fill) {
    pfi_cvt_sample *smp = NULL;
    pf_status st = pfi_cvt_make_samples("pf_reformat", count, src, dst, order, fill, 1, 1, 0, &smp);
    return run_samples(s, "pf_reformat", count, smp, st);
}

/* Smallest and largest element over all channels (cv::minMaxIdx). */
static void image_minmax(const pf_image *im, double *mn, double *mx) {
    double lo = (double)INFINITY, hi = -(double)INFINITY;
    int planes = im->layout == PF_CHW ? im->channels : 1;
    int64_t n = im->layout == PF_CHW ? im->width : (int64_t)im->width * im->channels;
    for (int p = 0; p < planes; p++)
        for (int32_t y = 0; y < im->height; y++) {
            const void *row = pfi_row_ptr(im, p, y);
            if (im->dtype == PF_U8) {
                const uint8_t *r = row;
                uint8_t a = 255, b = 0;
                for (int64_t j = 0; j < n; j++) {
                    a = r[j] < a ? r[j] : a;
                    b = r[j] > b ? r[j] : b;
                }
                lo = a < lo ? a : lo;
                hi = b > hi ? b : hi;
            } else if (im->dtype == PF_U16) {
                const uint16_t *r = row;
                uint16_t a = 65535, b = 0;
                for (int64_t j = 0; j < n; j++) {
                    a = r[j] < a ? r[j] : a;
                    b = r[j] > b ? r[j] : b;
                }
                lo = a < lo ? a : lo;
                hi = b > hi ? b : hi;
            } else {
                const float *r = row;
                float a = INFINITY, b = -INFINITY;
                for (int64_t j = 0; j < n; j++) {
                    a = r[j] < a ? r[j] : a; /* NaN never compares: skipped */
                    b = r[j] > b ? r[j] : b;
                }
                lo = (double)a < lo ? (double)a : lo;
                hi = (double)b > hi ? (double)b : hi;
            }
        }
    if (lo > hi) lo = hi = 0; /* all NaN */
    *mn = lo;
    *mx = hi;
}

pf_status pfi_cpu_normalize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                            const pf_normalize_opts *opts) {
    pf_normalize_opts o = *opts;
    pf_status st;
    pfi_cvt_sample *smp;
    if (o.mode == PF_NORM_MEAN_STD) {
        if ((st = pfi_norm_make_samples(count, src, dst, &o, &smp)) != PF_OK) return st;
    } else {
        smp = malloc((size_t)(unsigned)count * sizeof *smp);
        if (smp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d samples", count);
        for (int i = 0; i < count; i++) {
            double mn, mx, scale, shift;
            pfi_cvt_sample_init(&smp[i], &src[i], &dst[i], o.order);
            image_minmax(&src[i], &mn, &mx);
            pfi_cvt_minmax_coeffs(mn, mx, o.lo, o.hi, dst[i].dtype, &scale, &shift);
            pfi_cvt_xform_scale(&smp[i].xf, src[i].dtype, dst[i].dtype, scale, shift);
        }
    }
    st = pfi_cvt_run(s, OP, count, smp);
    free(smp);
    return st;
}


static pf_status run(const char *op, int split, pf_stream *stream, int count, int cn_merge,
                     const pf_image src[], pf_image dst[]) {
    pfi_cvt_sample *smp = malloc((size_t)(unsigned)count * sizeof *smp);
    if (smp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    int base = 0;
    for (int i = 0; i < count; i++) {
        const pf_image *multi = split ? &src[i] : &dst[i];
        int cn = split ? multi->channels : cn_merge;
        pfi_cvt_xform_scale(&smp[i].xf, multi->dtype, multi->dtype, 1, 0);
        smp[i].xf.kind = PFK_CVT_COPY;
        smp[i].dcn = cn;
        smp[i].width = multi->width;
        smp[i].height = multi->height;
        for (int c = 0; c < cn; c++) {
            smp[i].sim[c] = split ? multi : &src[base + c];
            smp[i].sch[c] = (int8_t)(split ? c : 0);
            smp[i].dim[c] = split ? &dst[base + c] : multi;
            smp[i].dch[c] = (int8_t)(split ? 0 : c);
        }
        base += cn;
    }
    pf_status st = pfi_cvt_run(stream, op, count, smp);
    free(smp);
    return st;
}

pf_status pfi_cpu_split(pf_stream *s, int count, const pf_image src[], pf_image dst[]) {
    return run("pf_split", 1, s, count, 0, src, dst);
}

pf_status pfi_cpu_merge(pf_stream *s, int count, int channels, const pf_image src[], pf_image dst[]) {
    return run("pf_merge", 0, s, count, channels, src, dst);
}
