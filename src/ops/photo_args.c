/* Photometric ops: batch validation with precise messages and the
 * per-sample parameter checks (see photo_args.h). */
#include <math.h>

#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"
#include "ops/photo_args.h"

int pfi_photo_same_view(const pf_image *s, const pf_image *d) {
    return s->data == d->data && s->row_stride == d->row_stride && s->layout == d->layout &&
           (s->channels == 1 || s->layout == PF_HWC || s->plane_stride == d->plane_stride);
}

static pf_status check_pair(const char *op, int i, const pf_image *s, const pf_image *d,
                            unsigned flags) {
    pf_status st = pfi_check_pair(op, i, s, d, 1); /* no device versions yet */
    if (st != PF_OK) return st;
    int dt_ok = s->dtype == PF_U8 || s->dtype == PF_F32 ||
                ((flags & PFI_PH_ANY_DTYPE) && s->dtype == PF_U16);
    if (!dt_ok)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d].dtype is %s; supported: u8, %sf32", op, i,
                        pf_dtype_name(s->dtype), (flags & PFI_PH_ANY_DTYPE) ? "u16, " : "");
    if (d->dtype != s->dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d].dtype is %s but src[%d].dtype is %s", op, i,
                        pf_dtype_name(d->dtype), i, pf_dtype_name(s->dtype));
    if (s->width != d->width || s->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] is %dx%d but src[%d] is %dx%d", op, i,
                        (int)d->width, (int)d->height, i, (int)s->width, (int)s->height);
    if (flags & PFI_PH_GRAY_DST) {
        if (s->channels != 1 && s->channels != 3)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] has %d channels; it must have 1 or 3",
                            op, i, (int)s->channels);
        if (d->channels != 1 && d->channels != 3)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] has %d channels; it must have 1 or 3",
                            op, i, (int)d->channels);
        if ((s->channels > 1 && s->layout != PF_HWC) || (d->channels > 1 && d->layout != PF_HWC))
            return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is CHW; 3-channel images must be HWC", op,
                            s->channels > 1 && s->layout != PF_HWC ? "src" : "dst", i);
    } else {
        if (d->channels != s->channels)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] has %d channels but src[%d] has %d", op,
                            i, (int)d->channels, i, (int)s->channels);
        if (s->channels > 1 && s->layout != d->layout)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: src[%d] and dst[%d] differ in layout; convert with pf_reformat", op, i, i);
        if ((flags & (PFI_PH_COLOR | PFI_PH_RGB_ONLY)) && s->channels != 3 &&
            !((flags & PFI_PH_COLOR) && s->channels == 1))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] has %d channels; it must have %s", op, i,
                            (int)s->channels, (flags & PFI_PH_COLOR) ? "3 (RGB) or 1" : "3 (RGB)");
        if ((flags & (PFI_PH_COLOR | PFI_PH_RGB_ONLY)) && s->channels == 3 && s->layout != PF_HWC)
            return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d] is CHW; RGB images must be HWC", op, i);
    }
    int same = pfi_photo_same_view(s, d) && s->channels == d->channels;
    if (!same && pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] and dst[%d] overlap without being the same view",
                        op, i, i);
    return PF_OK;
}

pf_status pfi_photo_check(const char *op, int count, const pf_image src[], const pf_image dst[],
                          unsigned flags) {
    pf_status bst = pfi_check_batch(op, count, src, dst);
    if (bst != PF_OK || count == 0) return bst;
    for (int i = 0; i < count; i++) {
        pf_status st = check_pair(op, i, &src[i], &dst[i], flags);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

pf_status pfi_photo_check_n(const char *op, const char *what, const void *arr, int n, int count) {
    if (count > 0 && arr == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, what);
    if (count > 0 && n != 1 && n != count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %d; it must be 1 or count (%d)", op, n, count);
    return PF_OK;
}

pf_status pfi_photo_check_range(const char *op, const char *what, const double *v, int n, double lo,
                                double hi) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]) || v[i] < lo || v[i] > hi)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %g; it must be a finite number in [%g, %g]",
                            op, what, i, v[i], lo, hi);
    return PF_OK;
}
