/* The backends by device kind: the one place that names each backend's
 * table, so the runtime (devices, streams, memory, routing) and the op
 * front-ends reach a backend only through pfi_backend_get. */
#include "core/backend.h"

#ifndef PF_HAVE_CUDA
/* Built without CUDA: there is no CUDA backend (src/cuda/backend_cuda.c). */
const pfi_backend *pfi_backend_cuda(void) { return NULL; }
#endif
#ifndef PF_HAVE_OPENCL
/* Built without OpenCL: there is no OpenCL backend (src/opencl/backend_opencl.c). */
const pfi_backend *pfi_backend_opencl(void) { return NULL; }
#endif

const pfi_backend *pfi_backend_get(pf_device_kind kind) {
    switch (kind) {
    case PF_DEVICE_CPU: return pfi_backend_cpu();
    case PF_DEVICE_CUDA: return pfi_backend_cuda();
    case PF_DEVICE_OPENCL: return pfi_backend_opencl();
    }
    return NULL;
}
