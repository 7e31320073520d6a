/* pf_convert and pf_reformat: defaults, argument checks, routing to the
 * backend (CPU: src/cpu/convert_cpu.c, CUDA: src/cuda/pointwise_cuda.c). */
#include <math.h>

#include "core/backend.h"
#include "core/error.h"
#include "ops/convert_args.h"
#include "ops/op_args.h"

pf_convert_opts pf_convert_opts_defaults(void) {
    pf_convert_opts o;
    o.alpha = 1;
    o.beta = 0;
    for (int c = 0; c < 4; c++) o.order[c] = (int8_t)c;
    o.fill = 0;
    return o;
}

static int is_int(pf_dtype dt) { return dt == PF_U8 || dt == PF_U16 || dt == PF_S16 || dt == PF_S32; }

/* Where the views live is pfi_route's. */
static pf_status check_pair(const char *op, int i, const pf_image *s, const pf_image *d,
                            const int8_t *order, double fill, int same_dtype) {
    pf_status st;
    if ((st = pfi_check_view(op, "src", i, s, 0)) != PF_OK) return st;
    if ((st = pfi_check_view(op, "dst", i, d, 0)) != PF_OK) return st;
    if ((st = pfi_check_size(op, "src", i, s, "dst", i, d)) != PF_OK) return st;
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

/* Shared by both entry points: copy (reformat) or convertTo(alpha, beta)
 * (the CPU builds its samples from alpha, beta, order and fill). */
static pf_status run(const char *op, pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                     const int8_t order[4], double fill, int copy, const pf_convert_opts *opts) {
    pf_status st = pfi_check_batch(op, count, src, dst);
    if (st != PF_OK || count == 0) return st;
    const pfi_backend *be;
    pf_stream *ds;
    if ((st = pfi_route_images(op, stream, count, src, dst, &be, &ds)) != PF_OK) return st;
    for (int i = 0; i < count; i++)
        if ((st = check_pair(op, i, &src[i], &dst[i], order, fill, copy)) != PF_OK) return st;
    if (copy) return PFI_KERNEL(be, op, reformat, ds, count, src, dst, order, fill);
    return PFI_KERNEL(be, op, convert, ds, count, src, dst, opts);
}

pf_status pf_convert(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                     const pf_convert_opts *opts) {
    pfi_clear_error();
    pf_convert_opts o = opts ? *opts : pf_convert_opts_defaults();
    if (!isfinite(o.alpha) || !isfinite(o.beta))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_convert: opts->%s is %g; it must be finite",
                        isfinite(o.alpha) ? "beta" : "alpha", isfinite(o.alpha) ? o.beta : o.alpha);
    return run("pf_convert", stream, count, src, dst, o.order, o.fill, 0, &o);
}

pf_status pf_reformat(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                      const int8_t order[4], double fill) {
    pfi_clear_error();
    static const int8_t identity[4] = {0, 1, 2, 3};
    return run("pf_reformat", stream, count, src, dst, order ? order : identity, fill, 1, NULL);
}
