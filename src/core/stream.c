/* CPU streams (a thread pool plus the dispatch level chosen at creation)
 * and the kind-independent stream functions, which defer to the stream's
 * backend for device streams (runtime_stream.c creates those). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/backend.h"
#include "core/device.h"
#include "core/error.h"
#include "core/stream.h"

uint64_t pfi_stream_next_id(void) {
    static atomic_uint_fast64_t next = 1;
    return (uint64_t)atomic_fetch_add(&next, 1);
}

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
    s->kind = PF_DEVICE_CPU;
    s->device = -1;
    s->id = pfi_stream_next_id();
    *out = s;
    return PF_OK;
}

void pf_stream_destroy(pf_stream *s) {
    if (s == NULL || s->implicit) return; /* implicit streams die with their thread */
    pfi_stream_free(s);
}

void pfi_stream_free(pf_stream *s) {
    if (s->be != NULL) {
        /* pending work must not outlive the handle it was queued on */
        (void)s->be->stream_synchronize(s->device, s->impl);
        if (s->be->stream_state_free) s->be->stream_state_free(s->device, s->backend_state);
        s->be->stream_destroy(s->device, s->impl, s->owned);
    }
    pfi_pool_destroy(s->pool);
    pf_device_close(s->dev);
    free(s);
}

pf_status pf_stream_synchronize(pf_stream *s) {
    pfi_clear_error();
    /* CPU work runs synchronously inside each call: nothing is pending */
    if (s == NULL || s->be == NULL) return PF_OK;
    pf_status st = s->be->stream_synchronize(s->device, s->impl);
    if (st != PF_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", pf_last_error());
        return pfi_fail(st, "pf_stream_synchronize: %s (last op queued on the stream: %s)", why,
                        s->last_op ? s->last_op : "none");
    }
    return PF_OK;
}

int pf_stream_threads(const pf_stream *s) { return s && s->pool ? pfi_pool_threads(s->pool) : 1; }

pf_isa pf_stream_isa(const pf_stream *s) { return s ? s->isa : pf_cpu_active_isa(); }

pf_isa pfi_stream_dispatch_isa(const pf_stream *s) { return pf_stream_isa(s); }

void pfi_stream_parallel(pf_stream *s, int ntasks, pfi_task_fn fn, void *ctx) {
    pfi_pool_run(s ? s->pool : NULL, ntasks, fn, ctx);
}
