/* GPU-path argument checks (see gpu_check.h). */
#include "gpu/gpu_check.h"

#include <stdint.h>

#include "core/error.h"
#include "gpu/gpu_jobs.h"

int pfi_gpu_view_aligned(const pf_image *im) {
    uint64_t es = (uint64_t)pf_dtype_size(im->dtype);
    if (es <= 1) return 1;
    uint64_t bits = (uint64_t)(uintptr_t)im->data | (uint64_t)im->row_stride | (uint64_t)pfi_gpu_plane_stride(im);
    return bits % es == 0;
}

pf_status pfi_gpu_check_aligned(const char *op, const char *side, int i, const pf_image *im) {
    if (pfi_gpu_view_aligned(im)) return PF_OK;
    size_t es = pf_dtype_size(im->dtype);
    return pfi_fail(PF_ERR_UNSUPPORTED,
                    "%s: %s[%d] (%s) has an address or stride that is not a multiple of %d bytes; the CUDA "
                    "path needs element-aligned device views",
                    op, side, i, pf_dtype_name(im->dtype), (int)es);
}
