/* pf_convert and pf_reformat: argument checks, then the conversion engine. */
#include <math.h>
#include <stdlib.h>

#include "core/backend.h"
#include "core/error.h"
#include "cpu/convert_check.h"
#include "pixflow/ops.h"

pf_convert_opts pf_convert_opts_defaults(void) {
    pf_convert_opts o;
    o.alpha = 1;
    o.beta = 0;
    for (int c = 0; c < 4; c++) o.order[c] = (int8_t)c;
    o.fill = 0;
    return o;
}

static int is_int(pf_dtype dt) { return dt == PF_U8 || dt == PF_U16 || dt == PF_S16 || dt == PF_S32; }

static pf_status check_pair(const char *op, int i, const pf_image *s, const pf_image *d,
                            const int8_t *order, double fill, int same_dtype, int host) {
    pf_status st;
    if ((st = pfi_cvt_check_view_in(op, "src", i, s, host)) != PF_OK) return st;
    if ((st = pfi_cvt_check_view_in(op, "dst", i, d, host)) != PF_OK) return st;
    if ((st = pfi_cvt_check_size(op, "src", i, s, "dst", i, d)) != PF_OK) return st;
    if (same_dtype && s->dtype != d->dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: src[%d].dtype is %s but dst[%d].dtype is %s; %s does not change values "
                        "(use pf_convert)",
                        op, i, pf_dtype_name(s->dtype), i, pf_dtype_name(d->dtype), op);
    if ((st = pfi_cvt_check_order(op, same_dtype ? "order" : "opts->order", order, d->channels,
                                  s->channels, i, 1)) != PF_OK)
        return st;
    for (int c = 0; c < d->channels; c++)
        if (order[c] == PF_CHANNEL_FILL && is_int(d->dtype) && isnan(fill))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: fill is NaN but dst[%d].dtype is %s (an integer type)", op, i,
                            pf_dtype_name(d->dtype));
    return pfi_cvt_check_overlap(op, i, s, d, order);
}

pf_status pfi_cvt_make_samples(const char *op, int count, const pf_image src[], const pf_image dst[],
                               const int8_t order[4], double fill, int copy, double alpha, double beta,
                               pfi_cvt_sample **out) {
    pfi_cvt_sample *smp = malloc((size_t)(unsigned)count * sizeof *smp);
    if (smp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    for (int i = 0; i < count; i++) {
        pfi_cvt_sample_init(&smp[i], &src[i], &dst[i], order);
        pfi_cvt_xform_scale(&smp[i].xf, src[i].dtype, dst[i].dtype, alpha, beta);
        if (copy) smp[i].xf.kind = PFI_CVT_COPY;
        for (int c = 0; c < dst[i].channels; c++) pfi_cvt_encode_fill(fill, dst[i].dtype, smp[i].xf.fill[c]);
    }
    *out = smp;
    return PF_OK;
}

/* Shared by both entry points: copy (reformat) or convertTo(alpha, beta),
 * on the host or on the views' device. */
static pf_status run(const char *op, pf_stream *stream, int count, const pf_image src[],
                     pf_image dst[], const int8_t order[4], double fill, int copy, double alpha,
                     double beta, const pf_convert_opts *opts) {
    pf_status st = pfi_cvt_check_batch(op, count, src, dst);
    if (st != PF_OK || count == 0) return st;
    const pfi_backend *be;
    pf_stream *ds;
    if ((st = pfi_route_images(op, stream, count, src, dst, &be, &ds)) != PF_OK) return st;
    for (int i = 0; i < count; i++)
        if ((st = check_pair(op, i, &src[i], &dst[i], order, fill, copy, be == NULL)) != PF_OK) return st;
    if (be != NULL) {
        if (copy)
            return be->kernels->reformat ? be->kernels->reformat(ds, count, src, dst, order, fill)
                                         : pfi_unsupported_on(op, be);
        return be->kernels->convert ? be->kernels->convert(ds, count, src, dst, opts) : pfi_unsupported_on(op, be);
    }
    pfi_cvt_sample *smp;
    if ((st = pfi_cvt_make_samples(op, count, src, dst, order, fill, copy, alpha, beta, &smp)) != PF_OK)
        return st;
    st = pfi_cvt_run(stream, op, count, smp);
    free(smp);
    return st;
}

pf_status pf_convert(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                     const pf_convert_opts *opts) {
    pfi_clear_error();
    pf_convert_opts o = opts ? *opts : pf_convert_opts_defaults();
    if (!isfinite(o.alpha) || !isfinite(o.beta))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_convert: opts->%s is %g; it must be finite",
                        isfinite(o.alpha) ? "beta" : "alpha", isfinite(o.alpha) ? o.beta : o.alpha);
    return run("pf_convert", stream, count, src, dst, o.order, o.fill, 0, o.alpha, o.beta, opts);
}

pf_status pf_reformat(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                      const int8_t order[4], double fill) {
    pfi_clear_error();
    static const int8_t identity[4] = {0, 1, 2, 3};
    return run("pf_reformat", stream, count, src, dst, order ? order : identity, fill, 1, 1, 0, NULL);
}
