/* Internal view of a CPU stream. */
#ifndef PF_CORE_STREAM_H
#define PF_CORE_STREAM_H

#include "core/thread_pool.h"

struct pf_stream {
    pfi_pool *pool;
    pf_isa isa;          /* dispatch level resolved at creation */
};

/* ISA to dispatch for: the stream's, or the current default for NULL. */
pf_isa pfi_stream_dispatch_isa(const pf_stream *s);
/* Runs fn over ntasks on the stream's pool (inline for NULL). */
void pfi_stream_parallel(pf_stream *s, int ntasks, pfi_task_fn fn, void *ctx);

#endif
