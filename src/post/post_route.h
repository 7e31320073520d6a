/* Where a post-processing call runs. The front-ends (src/post) decide:
 * the host side is this room's own executors, a device side is the
 * backend table's entry (nms, masks_from_logits, composite of pfi_kernels,
 * core/backend.h), so this room never names a backend. */
#ifndef PF_POST_ROUTE_H
#define PF_POST_ROUTE_H

#include "core/backend.h"

/* One array a call reads or writes: its pointer and its name in
 * messages ("samples[%d].boxes" style: name and index; index -1: name). */
typedef struct pfi_post_ptr {
    const void *p;
    const char *name;
    int index;
} pfi_post_ptr;

/* For functions on plain pointers with a device path: each non-NULL
 * pointer's memory (host, or the CUDA device that owns it) is a view of
 * the call, and pfi_route decides from them and the stream (*be NULL:
 * the host; else the device backend and *stream_out, a stream of that
 * device). Pointers are asked about only once CUDA is in use or the
 * stream is a device stream (before that no pixflow device memory
 * exists), as the copies do (core/memory.c). Mixed memory fails naming
 * the first offender. */
pf_status pfi_post_route_ptrs(const char *op, pf_stream *stream, const pfi_post_ptr ptrs[], int n,
                              const pfi_backend **be, pf_stream **stream_out);

/* For functions with no device path: PF_ERR_UNSUPPORTED naming op when
 * stream is a device stream (they read host memory only). */
pf_status pfi_post_host_stream(const char *op, const pf_stream *stream);

#endif
