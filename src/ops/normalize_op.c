/* pf_normalize: mean/std and OpenCV NORM_MINMAX normalization: defaults,
 * argument checks, routing to the backend (CPU: src/cpu/convert_cpu.c,
 * CUDA: src/cuda/pointwise_cuda.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "ops/convert_args.h"
#include "ops/op_args.h"

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

/* Where the views live is pfi_route's. */
static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const pf_normalize_opts *o) {
    pf_status st;
    if ((st = pfi_check_view(OP, "src", i, s, 0)) != PF_OK) return st;
    if ((st = pfi_check_view(OP, "dst", i, d, 0)) != PF_OK) return st;
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": src[%d].dtype is %s; pf_normalize reads u8, u16 or f32", i,
                        pf_dtype_name(s->dtype));
    if (d->dtype != PF_F32 && d->dtype != PF_F16 && d->dtype != PF_BF16 && d->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        OP ": dst[%d].dtype is %s; pf_normalize writes f32, f16, bf16 or u8", i,
                        pf_dtype_name(d->dtype));
    if ((st = pfi_check_size(OP, "src", i, s, "dst", i, d)) != PF_OK) return st;
    if ((st = pfi_cvt_check_order(OP, "opts->order", o->order, d->channels, s->channels, i, 0)) != PF_OK)
        return st;
    if (o->mode == PF_NORM_MEAN_STD && o->per_sample) {
        char name[48];
        snprintf(name, sizeof name, "opts->per_sample[%d]", i);
        if ((st = check_params(&o->per_sample[i], name, d->channels)) != PF_OK) return st;
    }
    return pfi_cvt_check_overlap(OP, i, s, d, o->order);
}

pf_status pf_normalize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                       const pf_normalize_opts *opts) {
    pfi_clear_error();
    pf_normalize_opts o = opts ? *opts : pf_normalize_opts_defaults();
    pf_status st = pfi_check_batch(OP, count, src, dst);
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
        if ((st = check_pair(i, &src[i], &dst[i], &o)) != PF_OK) return st;
    return PFI_KERNEL(be, OP, normalize, ds, count, src, dst, &o);
}
