/* Lost OpenCL devices and contexts (cl_internal.h, include/pixflow/
 * runtime.h): how a loss is detected, what every later call answers, and
 * how a pf_device_open after it gets a fresh context.
 *
 * Why a sticky state: once a driver reports the device gone (or, on
 * NVIDIA, a context error from waiting for work), its queues and memory
 * cannot be trusted, and retrying each call would hang or corrupt. So the
 * first such error marks the device lost; every call that would queue
 * work, wait, allocate or make a stream on it then fails at once with the
 * same PF_ERR_DEVICE message. Frees and destroys still work (they release
 * host records and whatever OpenCL still accepts), so a caller can drop
 * everything without leaks, close the device, and open it again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stream.h"
#include "opencl/cl_internal.h"

static pthread_mutex_t g_lost_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_lost(const pfi_cl_device *d) { return __atomic_load_n(&d->lost, __ATOMIC_ACQUIRE) != 0; }

static void mark(pfi_cl_device *d, const char *why) {
    pthread_mutex_lock(&g_lost_lock);
    if (!is_lost(d)) { /* the first cause is the one reported */
        snprintf(d->lost_why, sizeof d->lost_why, "%s", why);
        __atomic_store_n(&d->lost, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&g_lost_lock);
}

void pfi_cl_mark_lost(int device, const char *call, cl_int e) {
    pfi_cl_device *d = pfi_cl_device_at(device);
    if (d == NULL) return;
    char why[256];
    snprintf(why, sizeof why, "%s failed: %s", call, pfi_cl_error_name(e));
    mark(d, why);
}

pf_status pfi_cl_lost_check(int device) {
    pfi_cl_device *d = pfi_cl_device_at(device);
    if (d == NULL || !is_lost(d)) return PF_OK;
    char why[448];
    pthread_mutex_lock(&g_lost_lock);
    if (d->ctx_error[0] != '\0')
        snprintf(why, sizeof why, "%s; the context reported: %s", d->lost_why, d->ctx_error);
    else
        snprintf(why, sizeof why, "%s", d->lost_why);
    pthread_mutex_unlock(&g_lost_lock);
    return pfi_fail(PF_ERR_DEVICE,
                    "OpenCL device %d (%s) is lost (%s); its streams, events and memory are unusable: destroy and "
                    "free them, close the device and pf_device_open it again for a fresh context",
                    device, d->name, why);
}

/* An implicit (NULL-stream) stream of an earlier context: pixflow made it
 * and the caller cannot destroy it, so it gets a queue on the fresh
 * context (its parameter arena, SVM of the old one, is dropped). */
static pf_status remake_implicit(pf_stream *s, pfi_cl_device *d) {
    pfi_cl_stream *cs = s->impl;
    cl_int e = CL_SUCCESS;
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(d->ctx, d->id, qp, &e);
    if (q == NULL || e != CL_SUCCESS) return pfi_cl_fail("clCreateCommandQueueWithProperties", e);
    (void)clFinish(cs->q);
    pfi_cl_stream_state_free(s->device, s->backend_state);
    s->backend_state = NULL;
    pthread_mutex_lock(&cs->lock);
    cl_event last = cs->last;
    cs->last = NULL;
    cl_command_queue old = cs->q;
    cs->q = q;
    cs->generation = d->generation;
    bool owned = cs->owned;
    cs->owned = true;
    pthread_mutex_unlock(&cs->lock);
    if (last) (void)clReleaseEvent(last);
    if (owned) (void)clReleaseCommandQueue(old);
    return PF_OK;
}

pf_status pfi_cl_enqueue_gate_impl(int device, const pfi_cl_stream *cs) {
    pfi_cl_device *d;
    pf_status st = pfi_cl_device_ready(device, &d); /* the lost check, and a fresh context after a renew */
    if (st != PF_OK) return st;
    if (cs != NULL && cs->generation != d->generation)
        return pfi_fail(PF_ERR_DEVICE,
                        "this stream was made on an earlier context of OpenCL device %d (%s), lost since: destroy it "
                        "and create a new one",
                        device, d->name);
    long long n = __atomic_add_fetch(&d->enqueues, 1, __ATOMIC_RELAXED);
    if (d->lose_after > 0 && n > d->lose_after) {
        char why[128];
        snprintf(why, sizeof why, "simulated by PIXFLOW_OPENCL_TEST_LOSE_AFTER=%lld", d->lose_after);
        mark(d, why);
        return pfi_cl_lost_check(device);
    }
    return PF_OK;
}

pf_status pfi_cl_stream_fresh(pf_stream *s) {
    pfi_cl_device *d;
    pf_status st = pfi_cl_device_ready(s->device, &d);
    if (st != PF_OK) return st;
    pfi_cl_stream *cs = s->impl;
    if (cs != NULL && s->implicit && cs->generation != d->generation) return remake_implicit(s, d);
    return PF_OK;
}

pf_status pfi_cl_enqueue_gate(int device, pf_stream *s) {
    pf_status st = s != NULL ? pfi_cl_stream_fresh(s) : PF_OK;
    return st != PF_OK ? st : pfi_cl_enqueue_gate_impl(device, s != NULL ? s->impl : NULL);
}

pf_status pfi_cl_fail_wait(int device, const char *call, cl_int e) {
    if (e == CL_DEVICE_NOT_AVAILABLE || e == CL_OUT_OF_RESOURCES || e == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        pfi_cl_mark_lost(device, call, e);
        return pfi_cl_lost_check(device);
    }
    return pfi_cl_fail(call, e);
}

bool pfi_cl_device_renew(int device) {
    pfi_cl_device *d = pfi_cl_device_at(device);
    if (d == NULL || !is_lost(d)) return false;
    /* the built programs belong to the old context */
    pfi_cl_program_forget(device);
    pfi_cl_lock();
    if (d->queue != NULL) (void)clReleaseCommandQueue(d->queue);
    /* allocations still alive hold their own reference (cl_alloc) and
     * free into it; streams hold their queue, which holds the context */
    if (d->ctx != NULL) (void)clReleaseContext(d->ctx);
    d->queue = NULL;
    d->ctx = NULL;
    pthread_mutex_lock(&g_lost_lock);
    d->lost_why[0] = '\0';
    d->ctx_error[0] = '\0';
    __atomic_store_n(&d->lost, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_lost_lock);
    pfi_cl_unlock();
    return true;
}

/* OpenCL reports context errors here, in words; they do not say whether
 * the context survives (NVIDIA reports out-of-memory launches here too),
 * so a loss is decided by the error codes above and the text is kept for
 * the message of the loss that follows it. user: the device index. */
void CL_CALLBACK pfi_cl_context_notify(const char *errinfo, const void *info, size_t cb, void *user) {
    (void)info;
    (void)cb;
    pfi_cl_device *d = pfi_cl_device_at((int)(intptr_t)user);
    if (d == NULL || errinfo == NULL) return;
    pthread_mutex_lock(&g_lost_lock);
    snprintf(d->ctx_error, sizeof d->ctx_error, "%s", errinfo);
    pthread_mutex_unlock(&g_lost_lock);
}
