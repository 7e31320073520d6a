/* CPU streams: a thread pool plus the dispatch level chosen at creation. */
#include <stdlib.h>
#include <unistd.h>

#include "core/error.h"
#include "core/stream.h"

pf_status pf_stream_create_cpu(int threads, pf_stream **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_create_cpu: out is NULL");
    *out = NULL;
    if (threads < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_stream_create_cpu: threads is %d; use 0 (all CPUs) or a positive count",
                        threads);
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > 256) threads = 256;
    pf_stream *s = calloc(1, sizeof *s);
    if (s == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_stream_create_cpu: out of memory");
    pf_status st = pfi_pool_create(threads, &s->pool);
    if (st != PF_OK) { free(s); return st; }
    s->isa = pf_cpu_active_isa();
    *out = s;
    return PF_OK;
}

void pf_stream_destroy(pf_stream *s) {
    if (s == NULL) return;
    pfi_pool_destroy(s->pool);
    free(s);
}

/* CPU work runs synchronously inside each call, so there is never pending
 * work or a deferred error to report. */
pf_status pf_stream_synchronize(pf_stream *s) { (void)s; return PF_OK; }

int pf_stream_threads(const pf_stream *s) { return s ? pfi_pool_threads(s->pool) : 1; }

pf_isa pf_stream_isa(const pf_stream *s) { return s ? s->isa : pf_cpu_active_isa(); }

pf_isa pfi_stream_dispatch_isa(const pf_stream *s) { return pf_stream_isa(s); }

void pfi_stream_parallel(pf_stream *s, int ntasks, pfi_task_fn fn, void *ctx) {
    pfi_pool_run(s ? s->pool : NULL, ntasks, fn, ctx);
}
