/* Internal view of a stream. A stream belongs to one backend: CPU streams
 * own a thread pool and run work inside each call; device streams hold the
 * backend's handle (cudaStream_t) and queue work asynchronously. */
#ifndef PF_CORE_STREAM_H
#define PF_CORE_STREAM_H

#include <stdbool.h>

#include "core/thread_pool.h"
#include "pixflow/runtime.h"

struct pfi_backend;

struct pf_stream {
    pfi_pool *pool;      /* CPU: worker threads; NULL for device streams */
    pf_isa isa;          /* dispatch level resolved at creation (host ops) */
    pf_device_kind kind;
    const struct pfi_backend *be; /* NULL for CPU streams made by pf_stream_create_cpu */
    pf_device *dev;      /* holds a device reference for device streams */
    int device;          /* device index, -1 on CPU */
    void *impl;          /* backend stream handle */
    bool owned;          /* pixflow created impl (destroy it with the stream) */
    bool implicit;       /* the per-thread stream a NULL stream stands for */
    uint64_t id;         /* unique for the process lifetime (pool reuse keys) */
    const char *last_op; /* last op queued (async error messages) */
    void *backend_state; /* backend's per-stream data (CUDA: parameter arena) */
};

/* ISA to dispatch for: the stream's, or the current default for NULL. */
pf_isa pfi_stream_dispatch_isa(const pf_stream *s);
/* Runs fn over ntasks on the stream's pool (inline for NULL and for
 * device streams: host-only work given a device stream runs on the caller). */
void pfi_stream_parallel(pf_stream *s, int ntasks, pfi_task_fn fn, void *ctx);
/* Destroys any stream (implicit ones included): synchronizes device work,
 * frees the backend handle and state, drops the device reference. */
void pfi_stream_free(pf_stream *s);
/* Next process-unique stream id. */
uint64_t pfi_stream_next_id(void);

#endif
