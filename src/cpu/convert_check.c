/* Shared argument checks of the conversion ops. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/convert_check.h"
#include "pixflow/ops.h"

pf_status pfi_cvt_check_batch(const char *op, int count, const void *src, const void *dst) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", op, count);
    if (count > 0 && src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src is NULL with count %d", op, count);
    if (count > 0 && dst == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst is NULL with count %d", op, count);
    return PF_OK;
}

pf_status pfi_cvt_check_view(const char *op, const char *what, int i, const pf_image *im) {
    return pfi_cvt_check_view_in(op, what, i, im, 1);
}

pf_status pfi_cvt_check_view_in(const char *op, const char *what, int i, const pf_image *im, int host) {
    /* The argument's name is formatted only when the view is bad (validate
     * again with it): snprintf on every call costs more than a 224x224
     * merge's per-row work. */
    if (pf_image_validate(im, "") != PF_OK) {
        char name[64];
        snprintf(name, sizeof name, "%s: %s[%d]", op, what, i);
        return pf_image_validate(im, name);
    }
    if (host && im->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views",
                        op, what, i);
    return PF_OK;
}

pf_status pfi_cvt_check_size(const char *op, const char *sname, int si, const pf_image *s,
                             const char *dname, int di, const pf_image *d) {
    if (s->width != d->width || s->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %dx%d but %s[%d] is %dx%d; sizes must match",
                        op, dname, di, (int)d->width, (int)d->height, sname, si, (int)s->width,
                        (int)s->height);
    return PF_OK;
}

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
