/* pf_copy_make_border: argument checks; the CPU backend runs it
 * (src/cpu/border_cpu.c). */
#include "core/backend.h"
#include "core/error.h"
#include "ops/op_args.h"
#include "pixflow/ops.h"

static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const pf_border_params *p,
                            int pi) {
    pf_status st = pfi_check_pair("pf_copy_make_border", i, s, d, 1);
    if (st != PF_OK) return st;
    if (s->dtype != d->dtype || s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_copy_make_border: src[%d] is %s x%d but dst[%d] is %s x%d; dtype and channels are kept",
                        i, pf_dtype_name(s->dtype), (int)s->channels, i, pf_dtype_name(d->dtype), (int)d->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_copy_make_border: src[%d] and dst[%d] differ in layout; convert with pf_reformat", i, i);
    if ((unsigned)p->mode > (unsigned)PF_BORDER_REFLECT_101)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_copy_make_border: params[%d].mode is %d; use CONSTANT(0), REPLICATE(1), REFLECT(2), "
                        "WRAP(3) or REFLECT_101(4)",
                        pi, (int)p->mode);
    if (p->top < 0 || p->left < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_copy_make_border: params[%d] has top %d, left %d; borders must be >= 0",
                        pi, (int)p->top, (int)p->left);
    if ((int64_t)d->width - s->width - p->left < 0 || (int64_t)d->height - s->height - p->top < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_copy_make_border: dst[%d] is %dx%d, too small for src[%d] (%dx%d) at left %d, top %d", i,
                        (int)d->width, (int)d->height, i, (int)s->width, (int)s->height, (int)p->left, (int)p->top);
    if (p->mode == PF_BORDER_CONSTANT && (s->dtype == PF_F16 || s->dtype == PF_BF16))
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_copy_make_border: src[%d] is %s; CONSTANT borders support u8/u16/s16/s32/f32", i,
                        pf_dtype_name(s->dtype));
    return pfi_check_no_overlap("pf_copy_make_border", i, s, d);
}

pf_status pf_copy_make_border(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                              const pf_border_params params[], int nparams) {
    pfi_clear_error();
    pf_status cst = pfi_check_batch("pf_copy_make_border", count, src, dst);
    if (cst != PF_OK || count <= 0) return cst;
    if ((cst = pfi_check_params("pf_copy_make_border", "params", params, nparams, count)) != PF_OK) return cst;
    for (int i = 0; i < count; i++) {
        int pi = nparams == 1 ? 0 : i;
        if ((cst = check_pair(i, &src[i], &dst[i], &params[pi], pi)) != PF_OK) return cst;
    }
    /* no device version: the views were checked to be host memory */
    return PFI_KERNEL(pfi_host_backend(), "pf_copy_make_border", copy_make_border, stream, count, src, dst, params,
                      nparams);
}
