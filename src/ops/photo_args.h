/* The photometric ops' argument checks (photo_args.c): batch validation
 * with precise messages and the per-sample parameter checks. */
#ifndef PF_OPS_PHOTO_ARGS_H
#define PF_OPS_PHOTO_ARGS_H

#include "pixflow/ops.h"

/* What an op accepts (pfi_photo_check flags). */
enum {
    PFI_PH_CHANNELWISE = 1 << 0, /* 1..4 channels, HWC or CHW */
    PFI_PH_COLOR = 1 << 1,       /* 3 channels HWC, or 1 channel (HWC/CHW alike) */
    PFI_PH_RGB_ONLY = 1 << 2,    /* 3 channels HWC only */
    PFI_PH_GRAY_DST = 1 << 3,    /* dst has 1 or 3 channels (grayscale) */
    PFI_PH_ANY_DTYPE = 1 << 4    /* u8, u16, f32 (erase) instead of u8, f32 */
};

/* Validates count, the arrays and every (src[i], dst[i]) pair. */
pf_status pfi_photo_check(const char *op, int count, const pf_image src[], const pf_image dst[],
                          unsigned flags);
/* n must be 1 or count; `what` names the array ("factors"). */
pf_status pfi_photo_check_n(const char *op, const char *what, const void *arr, int n, int count);
/* Every entry finite and within [lo, hi]. */
pf_status pfi_photo_check_range(const char *op, const char *what, const double *v, int n,
                                double lo, double hi);
/* dst is the same view as src (in place). */
int pfi_photo_same_view(const pf_image *s, const pf_image *d);

#endif
