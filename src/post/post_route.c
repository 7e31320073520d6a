/* Routing of the post-processing front-ends (post_route.h). */
#include "post/post_route.h"

#include <stdlib.h>

#include "core/device.h"
#include "core/error.h"
#include "core/stream.h"

/* Memory of one pointer: the CUDA device index owning it, or -1. */
static int ptr_device(const pfi_backend *cuda, const pf_stream *stream, const void *p) {
    if (p == NULL || cuda == NULL || cuda->ptr_device == NULL) return -1;
    if (!pfi_cuda_in_use() && pfi_stream_kind(stream) == PF_DEVICE_CPU) return -1;
    return cuda->ptr_device(p);
}

pf_status pfi_post_route_ptrs(const char *op, pf_stream *stream, const pfi_post_ptr ptrs[], int n,
                              const pfi_backend **be, pf_stream **stream_out) {
    pfi_view_ref *v = malloc((n > 0 ? (size_t)n : 1) * sizeof *v);
    if (v == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    const pfi_backend *cuda = pfi_backend_get(PF_DEVICE_CUDA);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (ptrs[i].p == NULL) continue;
        int d = ptr_device(cuda, stream, ptrs[i].p);
        v[m++] = (pfi_view_ref){d >= 0 ? PF_MEM_CUDA : PF_MEM_HOST, d >= 0 ? d : 0, ptrs[i].name, ptrs[i].index};
    }
    pf_status st = pfi_route(op, stream, v, m, be, stream_out);
    free(v);
    return st;
}

pf_status pfi_post_host_stream(const char *op, const pf_stream *stream) {
    if (stream != NULL && stream->kind != PF_DEVICE_CPU)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: a device stream was given; this function reads host memory and runs on a CPU stream "
                        "(or NULL)", op);
    return PF_OK;
}
