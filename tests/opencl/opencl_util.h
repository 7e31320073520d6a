/* Shared start of the tests/opencl programs: open OpenCL device 0 (PoCL in
 * CI), or say why not and skip with 77 (ctest SKIP_RETURN_CODE) where a
 * skip is allowed: under CI=true "no OpenCL device" is a failure
 * (tests/skip_policy.h), since CI installs pocl-opencl-icd. Also: host
 * test images mirrored into device memory, for comparisons with the CPU
 * backend over whole buffers (tests/unit/gpu_emul.h). */
#ifndef PF_TESTS_OPENCL_UTIL_H
#define PF_TESTS_OPENCL_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "../skip_policy.h"
#include "../unit/gpu_emul.h"
#include "pixflow/pixflow.h"

static inline pf_device *pft_opencl_device_or_skip(const char *test) {
    int n = 0;
    pf_device *d = NULL;
    if (pf_device_count(PF_DEVICE_OPENCL, &n) != PF_OK || n == 0 || pf_device_open(PF_DEVICE_OPENCL, 0, &d) != PF_OK) {
        char why[1024];
        snprintf(why, sizeof why, "no usable OpenCL device: %s", pf_last_error());
        exit(pft_skip(test, why));
    }
    pf_device_props p;
    if (pf_device_props_get(d, &p) == PF_OK)
        printf("%s on OpenCL device 0: %s (OpenCL %d.%d, %d compute units)\n", test, p.name, p.compute_major,
               p.compute_minor, p.multiprocessors);
    return d;
}

/* A device copy of host test image t: the whole buffer (padding included)
 * copied to OpenCL memory, the view at the same offset. */
typedef struct pft_dimg {
    uint8_t *buf;
    size_t bytes;
    pf_image im;
} pft_dimg;

static inline int pft_dimg_make(pf_device *d, pft_dimg *out, const pft_img *t) {
    out->bytes = t->bytes + 8;
    if (pf_malloc(d, PF_ALLOC_DEVICE, out->bytes, (void **)&out->buf) != PF_OK) return 0;
    if (pf_memcpy_async(NULL, out->buf, t->buf, out->bytes) != PF_OK) return 0;
    out->im = t->im;
    out->im.data = out->buf + ((uint8_t *)t->im.data - t->buf);
    out->im.mem = PF_MEM_OPENCL;
    out->im.device = 0;
    return 1;
}

/* Copies the device buffer back over host image t's buffer. */
static inline int pft_dimg_fetch(const pft_dimg *dv, pft_img *t) {
    return pf_memcpy_async(NULL, t->buf, dv->buf, dv->bytes) == PF_OK;
}

static inline void pft_dimg_free(pf_device *d, pft_dimg *dv) {
    pf_free(d, PF_ALLOC_DEVICE, dv->buf);
    dv->buf = NULL;
}

#endif
