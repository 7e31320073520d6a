/* pf_resize: defaults, argument checks, routing to the backend (CPU:
 * src/cpu/resize_cpu.c, CUDA: src/cuda/resize_cuda.c). */
#include "core/backend.h"
#include "core/error.h"
#include "ops/op_args.h"

#define OP "pf_resize"

pf_resize_opts pf_resize_opts_defaults(void) {
    pf_resize_opts o;
    o.interp = PF_INTERP_LINEAR;
    o.antialias = false;
    o.flavor = PF_RESIZE_OPENCV;
    return o;
}

static int interp_valid(pf_interp i) {
    return i == PF_INTERP_NEAREST || i == PF_INTERP_LINEAR || i == PF_INTERP_CUBIC ||
           i == PF_INTERP_AREA || i == PF_INTERP_LANCZOS4 || i == PF_INTERP_NEAREST_EXACT;
}

/* Shape / dtype / layout checks (where the views live is pfi_route's). */
static pf_status check_pair(int i, const pf_image *s, const pf_image *d) {
    pf_status st = pfi_check_pair(OP, i, s, d, 0);
    if (st != PF_OK) return st;
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": src[%d].dtype %s is not supported (u8, u16, f32)", i,
                        pf_dtype_name(s->dtype));
    if ((st = pfi_check_format(OP, i, s, d)) != PF_OK) return st;
    return pfi_check_no_overlap(OP, i, s, d);
}

pf_status pf_resize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                    const pf_resize_opts *opts) {
    pfi_clear_error();
    pf_status st = pfi_check_batch(OP, count, src, dst);
    if (st != PF_OK || count == 0) return st;
    pf_resize_opts o = opts ? *opts : pf_resize_opts_defaults();
    if (!interp_valid(o.interp))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": opts->interp is %d; use NEAREST(0), LINEAR(1), CUBIC(2), AREA(3), "
                           "LANCZOS4(4) or NEAREST_EXACT(6)",
                        (int)o.interp);
    if (o.flavor != PF_RESIZE_OPENCV && o.flavor != PF_RESIZE_PILLOW && o.flavor != PF_RESIZE_TORCHVISION)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": opts->flavor is %d; use PF_RESIZE_OPENCV(0), PF_RESIZE_PILLOW(1) or "
                           "PF_RESIZE_TORCHVISION(2)",
                        (int)o.flavor);
    if (o.flavor == PF_RESIZE_TORCHVISION && o.interp == PF_INTERP_AREA)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        OP ": opts->interp AREA with PF_RESIZE_TORCHVISION: torchvision's F.resize has no "
                           "area mode (use PF_RESIZE_OPENCV)");
    if (o.flavor == PF_RESIZE_TORCHVISION && o.interp == PF_INTERP_LANCZOS4 && !o.antialias)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        OP ": opts->interp LANCZOS4 with PF_RESIZE_TORCHVISION needs opts->antialias "
                           "(torchvision's LANCZOS requires antialias=True)");
    const pfi_backend *be;
    pf_stream *s;
    if ((st = pfi_route_images(OP, stream, count, src, dst, &be, &s)) != PF_OK) return st;
    /* Validate the whole batch before touching any output. */
    for (int i = 0; i < count; i++)
        if ((st = check_pair(i, &src[i], &dst[i])) != PF_OK) return st;
    return PFI_KERNEL(be, OP, resize, s, count, src, dst, &o);
}
