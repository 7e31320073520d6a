/* The conversion ops' shared checks (channel orders, in-place rules) and
 * the samples of the element map they all run on: the CPU engine
 * (src/cpu/convert_exec.c) and the GPU job builder (src/gpu/convert_jobs.c)
 * take the same samples. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "ops/convert_args.h"

pf_status pfi_cvt_check_order(const char *op, const char *argname, const int8_t *order, int dcn,
                              int scn, int i, int allow_fill) {
    for (int c = 0; c < dcn; c++) {
        int o = order[c];
        if (o == PF_CHANNEL_FILL && !allow_fill)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: %s[%d] is PF_CHANNEL_FILL, but %s has no fill value; use pf_convert",
                            op, argname, c, op);
        if (o != PF_CHANNEL_FILL && (o < 0 || o >= scn))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: %s[%d] is %d but src[%d] has %d channels; it must be 0..%d%s", op,
                            argname, c, o, i, scn, scn - 1, allow_fill ? " or PF_CHANNEL_FILL" : "");
    }
    return PF_OK;
}

pf_status pfi_cvt_check_overlap(const char *op, int i, const pf_image *s, const pf_image *d,
                                const int8_t *order) {
    if (!pfi_images_overlap(s, d)) return PF_OK;
    int same = s->data == d->data && s->row_stride == d->row_stride && s->channels == d->channels &&
               pf_dtype_size(s->dtype) == pf_dtype_size(d->dtype) &&
               (s->channels == 1 || (s->layout == d->layout &&
                                     (s->layout == PF_HWC || s->plane_stride == d->plane_stride)));
    for (int c = 0; same && c < d->channels; c++)
        same = order == NULL || order[c] == c || order[c] == PF_CHANNEL_FILL;
    if (!same)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: src[%d] and dst[%d] overlap; in place is allowed only on the same view "
                        "(same data, strides, layout, channels and element size) with channel c -> c",
                        op, i, i);
    return PF_OK;
}

void pfi_cvt_sample_init(pfi_cvt_sample *smp, const pf_image *s, const pf_image *d,
                         const int8_t *order) {
    memset(smp, 0, sizeof *smp);
    smp->dcn = d->channels;
    smp->width = d->width;
    smp->height = d->height;
    for (int c = 0; c < d->channels; c++) {
        int o = order ? order[c] : c;
        smp->sim[c] = o == PF_CHANNEL_FILL ? NULL : s;
        smp->sch[c] = (int8_t)(o == PF_CHANNEL_FILL ? -1 : o);
        smp->dim[c] = d;
        smp->dch[c] = (int8_t)c;
    }
}

pf_status pfi_cvt_make_samples(const char *op, int count, const pf_image src[], const pf_image dst[],
                               const int8_t order[4], double fill, int copy, double alpha, double beta,
                               pfi_cvt_sample **out) {
    pfi_cvt_sample *smp = malloc((size_t)(unsigned)count * sizeof *smp);
    if (smp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    for (int i = 0; i < count; i++) {
        pfi_cvt_sample_init(&smp[i], &src[i], &dst[i], order);
        pfi_cvt_xform_scale(&smp[i].xf, src[i].dtype, dst[i].dtype, alpha, beta);
        if (copy) smp[i].xf.kind = PFK_CVT_COPY;
        for (int c = 0; c < dst[i].channels; c++) pfi_cvt_encode_fill(fill, dst[i].dtype, smp[i].xf.fill[c]);
    }
    *out = smp;
    return PF_OK;
}

pf_status pfi_norm_make_samples(int count, const pf_image src[], const pf_image dst[],
                                const pf_normalize_opts *o, pfi_cvt_sample **out) {
    pfi_cvt_sample *smp = malloc((size_t)(unsigned)count * sizeof *smp);
    if (smp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_normalize: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        pfi_cvt_sample_init(&smp[i], &src[i], &dst[i], o->order);
        if (o->mode == PF_NORM_MINMAX) { /* the transform comes from the device's min/max */
            pfi_cvt_xform_scale(&smp[i].xf, src[i].dtype, dst[i].dtype, 1, 0);
            continue;
        }
        const pf_norm_params *p = o->per_sample ? &o->per_sample[i] : &o->params;
        pfi_cvt_xform *x = &smp[i].xf;
        memset(x, 0, sizeof *x);
        x->kind = PFK_CVT_NORM;
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
