/* pf_resize: argument checks, per-sample plans, CPU execution. */
#include <stdio.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/resize_exec.h"

pf_resize_opts pf_resize_opts_defaults(void) {
    pf_resize_opts o;
    o.interp = PF_INTERP_LINEAR;
    o.antialias = false;
    return o;
}

static int interp_valid(pf_interp i) {
    return i == PF_INTERP_NEAREST || i == PF_INTERP_LINEAR || i == PF_INTERP_CUBIC ||
           i == PF_INTERP_AREA || i == PF_INTERP_LANCZOS4 || i == PF_INTERP_NEAREST_EXACT;
}

/* Shape / dtype / layout checks shared by the host and device paths;
 * `host` adds the host-memory requirement of the CPU path. */
static pf_status check_pair(int i, const pf_image *s, const pf_image *d, bool host) {
    char name[48];
    snprintf(name, sizeof name, "pf_resize: src[%d]", i);
    pf_status st = pf_image_validate(s, name);
    if (st != PF_OK) return st;
    snprintf(name, sizeof name, "pf_resize: dst[%d]", i);
    st = pf_image_validate(d, name);
    if (st != PF_OK) return st;
    if (host && (s->mem != PF_MEM_HOST || d->mem != PF_MEM_HOST))
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_resize: %s[%d] is device memory; the CPU path needs host views "
                        "(use a CUDA stream for device memory)",
                        s->mem != PF_MEM_HOST ? "src" : "dst", i);
    if (s->dtype != d->dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_resize: src[%d] is %s but dst[%d] is %s; resize keeps the dtype",
                        i, pf_dtype_name(s->dtype), i, pf_dtype_name(d->dtype));
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_resize: src[%d].dtype %s is not supported (u8, u16, f32)",
                        i, pf_dtype_name(s->dtype));
    if (s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_resize: src[%d] has %d channels but dst[%d] has %d", i,
                        (int)s->channels, i, (int)d->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_resize: src[%d] and dst[%d] differ in layout; convert with pf_reformat", i, i);
    if (pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_resize: src[%d] and dst[%d] overlap in memory; resize cannot run in place", i, i);
    return PF_OK;
}

pf_status pf_resize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                    const pf_resize_opts *opts) {
    pfi_clear_error();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_resize: count is %d; it must be >= 0", count);
    if (count == 0) return PF_OK;
    if (src == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_resize: src is NULL with count %d", count);
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_resize: dst is NULL with count %d", count);
    pf_resize_opts o = opts ? *opts : pf_resize_opts_defaults();
    if (!interp_valid(o.interp))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_resize: opts->interp is %d; use NEAREST(0), LINEAR(1), CUBIC(2), AREA(3), "
                        "LANCZOS4(4) or NEAREST_EXACT(6)",
                        (int)o.interp);
    /* Device views run on their backend (same checks, no host-memory one). */
    const pfi_backend *be = NULL;
    pf_stream *ds = NULL;
    pf_status rs = pfi_route_images("pf_resize", stream, count, src, dst, &be, &ds);
    if (rs != PF_OK) return rs;
    /* Validate the whole batch before touching any output. */
    for (int i = 0; i < count; i++) {
        pf_status st = check_pair(i, &src[i], &dst[i], be == NULL);
        if (st != PF_OK) return st;
    }
    if (be != NULL)
        return be->kernels->resize ? be->kernels->resize(ds, count, src, dst, &o) : pfi_unsupported_on("pf_resize", be);
    const pfi_resize_kernels *K = pfi_resize_kernels_for(pf_stream_isa(stream));
    for (int i = 0; i < count; i++) {
        pf_status st = pfi_resize_image(stream, K, &src[i], &dst[i], o.interp, o.antialias);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}
