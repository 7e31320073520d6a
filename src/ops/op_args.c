/* The shared argument checks of the batch ops (see op_args.h). */
#include <stdio.h>

#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"

pf_status pfi_check_count(const char *op, int count) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", op, count);
    return PF_OK;
}

pf_status pfi_check_batch(const char *op, int count, const void *src, const void *dst) {
    pf_status st = pfi_check_count(op, count);
    if (st != PF_OK) return st;
    if (count > 0 && src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src is NULL with count %d", op, count);
    if (count > 0 && dst == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst is NULL with count %d", op, count);
    return PF_OK;
}

pf_status pfi_check_params(const char *op, const char *name, const void *params, int n, int count) {
    if (params == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, name);
    if (n != 1 && n != count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n%s is %d; it must be 1 or count (%d)", op, name, n, count);
    return PF_OK;
}

pf_status pfi_check_view(const char *op, const char *what, int i, const pf_image *im, int host) {
    if (pf_image_validate(im, "") != PF_OK) {
        char name[64];
        snprintf(name, sizeof name, "%s: %s[%d]", op, what, i);
        return pf_image_validate(im, name);
    }
    if (host && im->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views", op, what,
                        i);
    return PF_OK;
}

pf_status pfi_check_pair(const char *op, int i, const pf_image *s, const pf_image *d, int host) {
    pf_status st = pfi_check_view(op, "src", i, s, host);
    return st != PF_OK ? st : pfi_check_view(op, "dst", i, d, host);
}

pf_status pfi_check_format(const char *op, int i, const pf_image *s, const pf_image *d) {
    if (s->dtype != d->dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] is %s but dst[%d] is %s; the dtype is kept", op, i,
                        pf_dtype_name(s->dtype), i, pf_dtype_name(d->dtype));
    if (s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] has %d channels but dst[%d] has %d", op, i,
                        (int)s->channels, i, (int)d->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: src[%d] and dst[%d] differ in layout; convert with pf_reformat", op, i, i);
    return PF_OK;
}

pf_status pfi_check_size(const char *op, const char *sname, int si, const pf_image *s, const char *dname, int di,
                         const pf_image *d) {
    if (s->width != d->width || s->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %dx%d but %s[%d] is %dx%d; sizes must match", op,
                        dname, di, (int)d->width, (int)d->height, sname, si, (int)s->width, (int)s->height);
    return PF_OK;
}

pf_status pfi_check_no_overlap(const char *op, int i, const pf_image *s, const pf_image *d) {
    if (pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] and dst[%d] overlap; in-place is not supported", op,
                        i, i);
    return PF_OK;
}
