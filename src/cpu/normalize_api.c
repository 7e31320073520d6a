/* pf_normalize: mean/std and OpenCV NORM_MINMAX normalization. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/convert_check.h"
#include "pixflow/ops.h"

#define OP "pf_normalize"

pf_normalize_opts pf_normalize_opts_defaults(void) {
    pf_normalize_opts o;
    memset(&o, 0, sizeof o);
    o.mode = PF_NORM_MEAN_STD;
    o.scale = 1;
    for (int c = 0; c < 4; c++) {
        o.params.mean[c] = 0;
        o.params.std[c] = 1;
        o.order[c] = (int8_t)c;
    }
    o.per_sample = NULL;
    o.lo = 0;
    o.hi = 1;
    return o;
}

static pf_status check_params(const pf_norm_params *p, const char *name, int dcn) {
    for (int c = 0; c < dcn; c++) {
        if (!isfinite(p->mean[c]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": %s.mean[%d] is %g; it must be finite", name, c,
                            (double)p->mean[c]);
        if (!isfinite(p->std[c]) || p->std[c] == 0)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": %s.std[%d] is %g; it must be finite and != 0",
                            name, c, (double)p->std[c]);
    }
    return PF_OK;
}

static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const pf_normalize_opts *o, int host) {
    pf_status st;
    if ((st = pfi_cvt_check_view_in(OP, "src", i, s, host)) != PF_OK) return st;
    if ((st = pfi_cvt_check_view_in(OP, "dst", i, d, host)) != PF_OK) return st;
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": src[%d].dtype is %s; pf_normalize reads u8, u16 or f32", i,
                        pf_dtype_name(s->dtype));
    if (d->dtype != PF_F32 && d->dtype != PF_F16 && d->dtype != PF_BF16 && d->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        OP ": dst[%d].dtype is %s; pf_normalize writes f32, f16, bf16 or u8", i,
                        pf_dtype_name(d->dtype));
    if ((st = pfi_cvt_check_size(OP, "src", i, s, "dst", i, d)) != PF_OK) return st;
    if ((st = pfi_cvt_check_order(OP, "opts->order", o->order, d->channels, s->channels, i, 0)) != PF_OK)
        return st;
    if (o->mode == PF_NORM_MEAN_STD && o->per_sample) {
        char name[48];
        snprintf(name, sizeof name, "opts->per_sample[%d]", i);
        if ((st = check_params(&o->per_sample[i], name, d->channels)) != PF_OK) return st;
    }
    return pfi_cvt_check_overlap(OP, i, s, d, o->order);
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

pf_status pf_normalize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                       const pf_normalize_opts *opts) {
    pfi_clear_error();
    pf_normalize_opts o = opts ? *opts : pf_normalize_opts_defaults();
    pf_status st = pfi_cvt_check_batch(OP, count, src, dst);
    if (st != PF_OK) return st;
    if (o.mode != PF_NORM_MEAN_STD && o.mode != PF_NORM_MINMAX)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": opts->mode is %d; it must be PF_NORM_MEAN_STD or PF_NORM_MINMAX", (int)o.mode);
    if (o.mode == PF_NORM_MEAN_STD) {
        if (!isfinite(o.scale))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": opts->scale is %g; it must be finite", (double)o.scale);
        if (!o.per_sample && (st = check_params(&o.params, "opts->params", 4)) != PF_OK) return st;
    } else if (!isfinite(o.lo) || !isfinite(o.hi)) {
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": opts->%s is %g; it must be finite",
                        isfinite(o.lo) ? "hi" : "lo", isfinite(o.lo) ? o.hi : o.lo);
    }
    if (count == 0) return PF_OK;
    const pfi_backend *be;
    pf_stream *ds;
    if ((st = pfi_route_images(OP, stream, count, src, dst, &be, &ds)) != PF_OK) return st;
    for (int i = 0; i < count; i++)
        if ((st = check_pair(i, &src[i], &dst[i], &o, be == NULL)) != PF_OK) return st;
    if (be != NULL)
        return be->kernels->normalize ? be->kernels->normalize(ds, count, src, dst, &o)
                                      : pfi_unsupported_on(OP, be);
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
    st = pfi_cvt_run(stream, OP, count, smp);
    free(smp);
    return st;
}

pf_status pfi_norm_make_samples(int count, const pf_image src[], const pf_image dst[],
                                const pf_normalize_opts *o, pfi_cvt_sample **out) {
    pfi_cvt_sample *smp = malloc((size_t)(unsigned)count * sizeof *smp);
    if (smp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        pfi_cvt_sample_init(&smp[i], &src[i], &dst[i], o->order);
        if (o->mode == PF_NORM_MINMAX) { /* the transform comes from the device's min/max */
            pfi_cvt_xform_scale(&smp[i].xf, src[i].dtype, dst[i].dtype, 1, 0);
            continue;
        }
        const pf_norm_params *p = o->per_sample ? &o->per_sample[i] : &o->params;
        pfi_cvt_xform *x = &smp[i].xf;
        memset(x, 0, sizeof *x);
        x->kind = PFI_CVT_NORM;
        x->sdt = src[i].dtype;
        x->ddt = dst[i].dtype;
        x->scale = o->scale;
        /* mean/std are per dst channel (after the order mapping) */
        for (int c = 0; c < dst[i].channels; c++) {
            x->mean[c] = p->mean[c];
            x->stdv[c] = p->std[c];
        }
    }
    *out = smp;
    return PF_OK;
}
