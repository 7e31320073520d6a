/* The OpenCL backend table: devices, SVM memory, copies, in-order command
 * queues as streams, marker events, and host callbacks on clSetEventCallback,
 * plus the device-op kernels table (src/opencl/<op>_opencl.c). Every
 * OpenCL error becomes PF_ERR_DEVICE (PF_ERR_OUT_OF_MEMORY for the
 * allocation failures) naming the OpenCL call and error; callers prefix
 * the pixflow function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "opencl/cl_internal.h"

#define CL(call)                                             \
    do {                                                     \
        cl_int e_ = (call);                                  \
        if (e_ != CL_SUCCESS) return pfi_cl_fail(#call, e_); \
    } while (0)

static pf_status ready(int index, pfi_cl_device **d) { return pfi_cl_device_ready(index, d); }

static pf_status cl_count(int *count) {
    *count = pfi_cl_device_count();
    return PF_OK;
}

/* A lost device: a fresh context now (failing the open when the device
 * is still gone); else nothing. */
static pf_status cl_reopen(int index) {
    if (!pfi_cl_device_renew(index)) return PF_OK;
    pfi_cl_device *d;
    return ready(index, &d);
}

static pf_status cl_probe(int index, pf_device_props *p) {
    pfi_cl_device *d;
    pf_status st = ready(index, &d);
    if (st != PF_OK) return st;
    memset(p, 0, sizeof *p);
    p->kind = PF_DEVICE_OPENCL;
    p->index = index;
    snprintf(p->name, sizeof p->name, "%s", d->name);
    p->total_memory = (size_t)d->global_mem;
    /* the OpenCL version of the device ("OpenCL 3.0 ..."): major.minor */
    int maj = 0, mnr = 0;
    if (sscanf(d->version, "OpenCL %d.%d", &maj, &mnr) == 2) {
        p->compute_major = maj;
        p->compute_minor = mnr;
    }
    p->multiprocessors = (int32_t)d->compute_units;
    snprintf(p->version, sizeof p->version, "%s", d->version);
    snprintf(p->driver, sizeof p->driver, "%.60s %.60s", d->platform_name, d->driver);
    return PF_OK;
}

static void stream_wait_callbacks(pfi_cl_stream *cs) {
    pthread_mutex_lock(&cs->lock);
    while (cs->inflight > 0) pthread_cond_wait(&cs->idle, &cs->lock);
    pthread_mutex_unlock(&cs->lock);
}

static pf_status cl_sync_device(int index) {
    pfi_cl_device *d;
    pf_status st = ready(index, &d);
    if (st != PF_OK) return st;
    cl_int e = clFinish(d->queue);
    if (e != CL_SUCCESS) return pfi_cl_fail_wait(index, "clFinish", e);
    pfi_cl_lock();
    pf_status out = PF_OK;
    for (pfi_cl_stream *s = d->streams; s != NULL && out == PF_OK; s = s->next_live) {
        e = clFinish(s->q);
        if (e != CL_SUCCESS) out = pfi_cl_fail_wait(index, "clFinish", e);
    }
    pfi_cl_unlock();
    return out;
}

/* ---- memory ----------------------------------------------------------- */

static pf_status cl_alloc(int device, pf_alloc_kind kind, size_t bytes, void **out) {
    pfi_cl_device *d;
    pf_status st = ready(device, &d);
    if (st != PF_OK) return st;
    if ((cl_ulong)bytes > d->max_alloc)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY,
                        "%zu bytes is more than OpenCL device %d (%s) can allocate at once "
                        "(CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu)",
                        bytes, device, d->name, (unsigned long long)d->max_alloc);
    void *p = NULL, *raw = NULL;
    cl_mem buf = NULL;
    if (kind == PF_ALLOC_PINNED) {
        cl_int e = CL_SUCCESS;
        buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
        if (buf == NULL || e != CL_SUCCESS) return pfi_cl_fail("clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", e);
        /* mapped once for its lifetime: the host pointer is the pinned memory */
        p = clEnqueueMapBuffer(d->queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &e);
        if (p == NULL || e != CL_SUCCESS) {
            (void)clReleaseMemObject(buf);
            return pfi_cl_fail("clEnqueueMapBuffer (pinned memory)", e);
        }
    } else {
        cl_svm_mem_flags f = CL_MEM_READ_WRITE;
        if (kind == PF_ALLOC_MANAGED) {
            if ((d->svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0)
                return pfi_fail(PF_ERR_UNSUPPORTED,
                                "PF_ALLOC_MANAGED needs fine-grained SVM (CL_DEVICE_SVM_FINE_GRAIN_BUFFER), which "
                                "OpenCL device %d (%s) lacks",
                                device, d->name);
            f |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
        }
        /* pf_malloc promises 256-byte alignment; some drivers refuse an SVM
         * alignment above their largest type (PoCL: 128), so round up */
        raw = clSVMAlloc(d->ctx, f, bytes + 255, 0);
        p = raw != NULL ? (void *)(((uintptr_t)raw + 255u) & ~(uintptr_t)255u) : NULL;
        if (p == NULL)
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "clSVMAlloc of %zu bytes failed on OpenCL device %d (%s)", bytes,
                            device, d->name);
    }
    /* each allocation holds its context: after a loss the device gets a
     * fresh one, and memory still alive frees into the old */
    (void)clRetainContext(d->ctx);
    st = pfi_cl_registry_add(p, raw != NULL ? raw : p, bytes, device, kind, buf, d->ctx);
    if (st != PF_OK) {
        (void)clReleaseContext(d->ctx);
        if (buf) {
            (void)clEnqueueUnmapMemObject(d->queue, buf, p, 0, NULL, NULL);
            (void)clFinish(d->queue);
            (void)clReleaseMemObject(buf);
        } else {
            clSVMFree(d->ctx, raw);
        }
        return st;
    }
    *out = p;
    return PF_OK;
}

static void cl_free(int device, pf_alloc_kind kind, void *ptr) {
    (void)kind;
    pfi_cl_device *d = pfi_cl_device_at(device);
    int dev;
    pf_alloc_kind k;
    cl_mem buf;
    void *raw;
    cl_context ctx;
    if (d == NULL || !pfi_cl_registry_remove(ptr, &raw, &dev, &k, &buf, &ctx)) return;
    if (buf != NULL) {
        /* unmapped through the device queue while it is of the buffer's
         * context and not lost; releasing the buffer frees it either way */
        if (ctx == d->ctx && d->queue != NULL && pfi_cl_lost_check(device) == PF_OK) {
            (void)clEnqueueUnmapMemObject(d->queue, buf, ptr, 0, NULL, NULL);
            (void)clFinish(d->queue);
        }
        (void)clReleaseMemObject(buf);
    } else {
        clSVMFree(ctx, raw);
    }
    (void)clReleaseContext(ctx);
}

static int cl_ptr_device(const void *ptr) {
    void *base;
    int dev;
    pf_alloc_kind k;
    if (!pfi_cl_registry_find(ptr, &base, &dev, &k) || k == PF_ALLOC_PINNED) return -1;
    return dev;
}

/* ---- streams ------------------------------------------------------------ */

static pf_status cl_stream_create(int device, void *wrap, bool wrap_given, void **impl) {
    pfi_cl_device *d;
    pf_status st = ready(device, &d);
    if (st != PF_OK) return st;
    cl_command_queue q;
    if (wrap_given) {
        q = (cl_command_queue)wrap;
        cl_context qc = NULL;
        cl_device_id qd = NULL;
        cl_command_queue_properties qp = 0;
        CL(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
        CL(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
        CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
        if (qd != d->id || qc != d->ctx)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "queue belongs to another device or context; create it on pf_opencl_context(device) "
                            "for OpenCL device %d",
                            device);
        if (qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "queue is out of order; a pixflow stream needs an in-order queue");
    } else {
        cl_int e = CL_SUCCESS;
        cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        q = clCreateCommandQueueWithProperties(d->ctx, d->id, qp, &e);
        if (q == NULL || e != CL_SUCCESS) return pfi_cl_fail("clCreateCommandQueueWithProperties", e);
    }
    pfi_cl_stream *cs = calloc(1, sizeof *cs);
    if (cs == NULL) {
        if (!wrap_given) (void)clReleaseCommandQueue(q);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
    }
    cs->q = q;
    cs->owned = !wrap_given;
    cs->device = device;
    cs->generation = d->generation;
    pthread_mutex_init(&cs->lock, NULL);
    pthread_cond_init(&cs->idle, NULL);
    pfi_cl_lock();
    cs->next_live = d->streams;
    d->streams = cs;
    pfi_cl_unlock();
    *impl = cs;
    return PF_OK;
}

static void cl_stream_destroy(int device, void *impl, bool owned) {
    (void)owned; /* the record is pixflow's either way; the queue only when cs->owned */
    pfi_cl_stream *cs = impl;
    pfi_cl_device *d = pfi_cl_device_at(device);
    (void)clFinish(cs->q);
    stream_wait_callbacks(cs);
    pfi_cl_lock();
    for (pfi_cl_stream **pp = &d->streams; *pp != NULL; pp = &(*pp)->next_live)
        if (*pp == cs) {
            *pp = cs->next_live;
            break;
        }
    pfi_cl_unlock();
    if (cs->last) (void)clReleaseEvent(cs->last);
    if (cs->owned) (void)clReleaseCommandQueue(cs->q);
    pthread_mutex_destroy(&cs->lock);
    pthread_cond_destroy(&cs->idle);
    free(cs);
}

void pfi_cl_stream_note(pfi_cl_stream *cs, cl_event ev) {
    if (cs == NULL) {
        if (ev) (void)clReleaseEvent(ev);
        return;
    }
    pthread_mutex_lock(&cs->lock);
    cl_event old = cs->last;
    cs->last = ev;
    pthread_mutex_unlock(&cs->lock);
    if (old) (void)clReleaseEvent(old);
}

static cl_command_queue queue_of(int device, void *impl) {
    if (impl != NULL) return ((pfi_cl_stream *)impl)->q;
    pfi_cl_device *d = pfi_cl_device_at(device);
    return d != NULL ? d->queue : NULL;
}

static pf_status cl_stream_sync(int device, void *impl) {
    pfi_cl_device *d;
    pf_status st = ready(device, &d);
    if (st != PF_OK) {
        /* lost: still drain what OpenCL accepted (a lost device answers at
         * once), since pf_stream_destroy frees the stream's parameter
         * arena after this call, and a queued copy may still read it */
        cl_command_queue q = queue_of(device, impl);
        if (q != NULL) (void)clFinish(q);
        return st;
    }
    cl_int e = clFinish(queue_of(device, impl));
    if (e != CL_SUCCESS) return pfi_cl_fail_wait(device, "clFinish", e);
    /* like cudaStreamSynchronize, the stream's host callbacks have run too */
    if (impl != NULL) stream_wait_callbacks(impl);
    return PF_OK;
}

static pf_status event_status(int device, cl_event ev, int *done) {
    cl_int status = CL_COMPLETE;
    CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    if (status == CL_DEVICE_NOT_AVAILABLE || status == CL_OUT_OF_RESOURCES)
        return pfi_cl_fail_wait(device, "queued OpenCL work", status);
    if (status < 0) return pfi_fail(PF_ERR_DEVICE, "queued OpenCL work failed: %s", pfi_cl_error_name(status));
    *done = status == CL_COMPLETE;
    return PF_OK;
}

/* Asks the last command pixflow queued (a marker queued here would not
 * have run yet even on an idle queue): on a wrapped queue, the caller's
 * own later commands are not counted. */
static pf_status cl_stream_query(int device, void *impl, int *done) {
    pfi_cl_stream *cs = impl;
    pf_status lst = pfi_cl_lost_check(device);
    if (lst != PF_OK) return lst;
    pthread_mutex_lock(&cs->lock);
    cl_event ev = cs->last;
    if (ev) (void)clRetainEvent(ev);
    pthread_mutex_unlock(&cs->lock);
    *done = 1;
    pf_status st = PF_OK;
    if (ev != NULL) {
        cl_int e = clFlush(cs->q);
        st = e == CL_SUCCESS ? event_status(device, ev, done) : pfi_cl_fail("clFlush", e);
        (void)clReleaseEvent(ev);
    }
    if (st == PF_OK && *done) {
        pthread_mutex_lock(&cs->lock);
        *done = cs->inflight == 0;
        pthread_mutex_unlock(&cs->lock);
    }
    return st;
}

/* ---- host callbacks, in order ----------------------------------------------
 * OpenCL does not order the callbacks of different events, nor promise
 * one callback thread. Each callback takes a ticket; when its marker
 * completes it joins the ready list; one thread at a time (`draining`)
 * runs the ready callbacks in ticket order for as long as the next one is
 * there, so no callback thread ever waits for another. */
typedef struct pfi_cl_cb {
    pf_host_fn fn;
    void *user;
    uint64_t ticket;
    pf_status status;
    pfi_cl_stream *cs;
    struct pfi_cl_cb *next;
} pfi_cl_cb;

static void CL_CALLBACK cb_tramp(cl_event ev, cl_int status, void *p) {
    pfi_cl_cb *c = p;
    pfi_cl_stream *cs = c->cs;
    c->status = status == CL_COMPLETE ? PF_OK : PF_ERR_DEVICE;
    (void)clReleaseEvent(ev);
    pthread_mutex_lock(&cs->lock);
    c->next = cs->ready;
    cs->ready = c;
    if (cs->draining) { /* the thread draining runs it, in its turn */
        pthread_mutex_unlock(&cs->lock);
        return;
    }
    cs->draining = true;
    for (;;) {
        pfi_cl_cb **pp = &cs->ready;
        while (*pp != NULL && (*pp)->ticket != cs->next_run) pp = &(*pp)->next;
        pfi_cl_cb *run = *pp;
        if (run == NULL) break;
        *pp = run->next;
        cs->next_run++;
        pthread_mutex_unlock(&cs->lock);
        run->fn(run->user, run->status);
        free(run);
        pthread_mutex_lock(&cs->lock);
        cs->inflight--;
    }
    cs->draining = false;
    if (cs->inflight == 0) pthread_cond_broadcast(&cs->idle);
    pthread_mutex_unlock(&cs->lock);
}

static pf_status cl_stream_callback(int device, void *impl, pf_host_fn fn, void *user) {
    pfi_cl_stream *cs = impl;
    pf_status st = pfi_cl_enqueue_gate_impl(device, cs);
    if (st != PF_OK) return st;
    pfi_cl_cb *c = calloc(1, sizeof *c);
    if (c == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
    c->fn = fn;
    c->user = user;
    c->cs = cs;
    cl_event ev = NULL;
    cl_int e = clEnqueueMarkerWithWaitList(cs->q, 0, NULL, &ev);
    if (e != CL_SUCCESS) {
        free(c);
        return pfi_cl_fail("clEnqueueMarkerWithWaitList", e);
    }
    pthread_mutex_lock(&cs->lock);
    c->ticket = cs->next_ticket++;
    cs->inflight++;
    pthread_mutex_unlock(&cs->lock);
    (void)clRetainEvent(ev);
    pfi_cl_stream_note(cs, ev);
    e = clSetEventCallback(ev, CL_COMPLETE, cb_tramp, c);
    if (e != CL_SUCCESS) {
        /* the ticket is taken: run it as failed so later callbacks are not held back */
        cb_tramp(ev, CL_INVALID_EVENT, c);
        return pfi_cl_fail("clSetEventCallback", e);
    }
    CL(clFlush(cs->q));
    return PF_OK;
}

static void *cl_stream_native(void *impl) { return impl != NULL ? ((pfi_cl_stream *)impl)->q : NULL; }

/* ---- events --------------------------------------------------------------- */

typedef struct cl_event_rec {
    cl_event ev; /* NULL until recorded */
} cl_event_rec;

static pf_status cl_event_create(int device, void **impl) {
    pfi_cl_device *d;
    pf_status st = ready(device, &d);
    if (st != PF_OK) return st;
    cl_event_rec *r = calloc(1, sizeof *r);
    if (r == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
    *impl = r;
    return PF_OK;
}
static void cl_event_destroy(int device, void *impl) {
    (void)device;
    cl_event_rec *r = impl;
    if (r->ev) (void)clReleaseEvent(r->ev);
    free(r);
}
static pf_status cl_event_record(int device, void *event, void *stream) {
    cl_event_rec *r = event;
    pf_status st = pfi_cl_enqueue_gate_impl(device, stream);
    if (st != PF_OK) return st;
    cl_command_queue q = queue_of(device, stream);
    cl_event ev = NULL;
    CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev));
    if (r->ev) (void)clReleaseEvent(r->ev);
    r->ev = ev;
    (void)clRetainEvent(ev);
    pfi_cl_stream_note(stream, ev);
    CL(clFlush(q));
    return PF_OK;
}
static pf_status cl_event_wait(int device, void *stream, void *event) {
    cl_event_rec *r = event;
    if (r->ev == NULL) return PF_OK;
    pf_status st = pfi_cl_enqueue_gate_impl(device, stream);
    if (st != PF_OK) return st;
    cl_event ev = NULL;
    CL(clEnqueueBarrierWithWaitList(queue_of(device, stream), 1, &r->ev, &ev));
    pfi_cl_stream_note(stream, ev);
    return PF_OK;
}
static pf_status cl_event_query(int device, void *event, int *done) {
    cl_event_rec *r = event;
    pf_status st = pfi_cl_lost_check(device);
    if (st != PF_OK) return st;
    if (r->ev == NULL) {
        *done = 1;
        return PF_OK;
    }
    return event_status(device, r->ev, done);
}
static pf_status cl_event_sync(int device, void *event) {
    cl_event_rec *r = event;
    pf_status st = pfi_cl_lost_check(device);
    if (st != PF_OK) return st;
    if (r->ev == NULL) return PF_OK;
    cl_int e = clWaitForEvents(1, &r->ev);
    if (e != CL_SUCCESS) return pfi_cl_fail_wait(device, "clWaitForEvents", e);
    int done = 0;
    return event_status(device, r->ev, &done);
}
static pf_status cl_event_elapsed(int device, void *start, void *end, float *ms) {
    (void)device;
    cl_event_rec *a = start, *b = end;
    if (a->ev == NULL || b->ev == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s was never recorded", a->ev == NULL ? "start" : "end");
    cl_ulong t0 = 0, t1 = 0;
    cl_int e = clGetEventProfilingInfo(a->ev, CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL);
    if (e == CL_SUCCESS) e = clGetEventProfilingInfo(b->ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    if (e == CL_PROFILING_INFO_NOT_AVAILABLE)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "clGetEventProfilingInfo: %s (a wrapped queue needs CL_QUEUE_PROFILING_ENABLE)",
                        pfi_cl_error_name(e));
    if (e != CL_SUCCESS) return pfi_cl_fail("clGetEventProfilingInfo", e);
    *ms = (float)((double)((int64_t)(t1 - t0)) / 1e6);
    return PF_OK;
}

/* ---- copies ------------------------------------------------------------------ */

static bool pageable(const void *p) {
    void *base;
    int dev;
    pf_alloc_kind k;
    return !pfi_cl_registry_find(p, &base, &dev, &k);
}

static pf_status cl_copy_2d(int device, void *stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                            size_t width_bytes, size_t height) {
    pfi_cl_device *d;
    pf_status st = pfi_cl_enqueue_gate_impl(device, stream);
    if (st == PF_OK) st = ready(device, &d);
    if (st != PF_OK) return st;
    /* memory of an earlier (lost) context would be taken for host memory */
    cl_context dc = pfi_cl_registry_context(dst), sc = pfi_cl_registry_context(src);
    if ((dc != NULL && dc != d->ctx) || (sc != NULL && sc != d->ctx))
        return pfi_fail(PF_ERR_DEVICE,
                        "%s is memory of an earlier context of OpenCL device %d (%s), lost since: free it and "
                        "allocate again",
                        dc != NULL && dc != d->ctx ? "dst" : "src", device, d->name);
    cl_command_queue q = queue_of(device, stream);
    /* pageable host memory may be reused as soon as the call returns (the
     * CUDA contract): the last row's copy then blocks, and the queue is
     * in order, so every row has been copied */
    cl_bool block = pageable(dst) || pageable(src) ? CL_TRUE : CL_FALSE;
    cl_event ev = NULL;
    if (height == 1 || (dpitch == width_bytes && spitch == width_bytes)) {
        CL(clEnqueueSVMMemcpy(q, block, dst, src, width_bytes * height, 0, NULL, stream ? &ev : NULL));
    } else {
        for (size_t y = 0; y + 1 < height; y++)
            CL(clEnqueueSVMMemcpy(q, CL_FALSE, (char *)dst + y * dpitch, (const char *)src + y * spitch,
                                  width_bytes, 0, NULL, NULL));
        CL(clEnqueueSVMMemcpy(q, block, (char *)dst + (height - 1) * dpitch,
                              (const char *)src + (height - 1) * spitch, width_bytes, 0, NULL, stream ? &ev : NULL));
    }
    if (stream != NULL) pfi_cl_stream_note(stream, ev);
    return PF_OK;
}

static void *cl_device_native(int index) {
    pfi_cl_device *d = pfi_cl_device_at(index);
    return d != NULL ? d->ctx : NULL;
}

static const pfi_kernels opencl_kernels = {
    .resize = pfi_cl_resize,
    .flip = pfi_cl_flip,
    .convert = pfi_cl_convert,
    .reformat = pfi_cl_reformat,
    .normalize = pfi_cl_normalize,
    .cvt_color = pfi_cl_cvt_color,
    .cvt_color_from_yuv = pfi_cl_cvt_color_from_yuv,
    .warp_affine = pfi_cl_warp_affine,
    .warp_perspective = pfi_cl_warp_perspective,
    .preprocess = pfi_cl_preprocess,
    .preprocess_yuv = pfi_cl_preprocess_yuv,
    .nms = pfi_cl_nms,
    .masks_from_logits = pfi_cl_masks_from_logits,
    .composite = pfi_cl_composite,
};

static const pfi_backend opencl_backend = {
    .name = "opencl",
    .kind = PF_DEVICE_OPENCL,
    .device_count = cl_count,
    .device_probe = cl_probe,
    .device_synchronize = cl_sync_device,
    .device_native = cl_device_native,
    .device_reopen = cl_reopen,
    .mem_alloc = cl_alloc,
    .mem_free = cl_free,
    .stream_create = cl_stream_create,
    .stream_destroy = cl_stream_destroy,
    .stream_synchronize = cl_stream_sync,
    .stream_query = cl_stream_query,
    .stream_add_callback = cl_stream_callback,
    .stream_native = cl_stream_native,
    .stream_state_free = pfi_cl_stream_state_free,
    .event_create = cl_event_create,
    .event_destroy = cl_event_destroy,
    .event_record = cl_event_record,
    .event_wait = cl_event_wait,
    .event_query = cl_event_query,
    .event_synchronize = cl_event_sync,
    .event_elapsed_ms = cl_event_elapsed,
    .ptr_device = cl_ptr_device,
    .copy_2d = cl_copy_2d,
    .kernels = &opencl_kernels,
};

const pfi_backend *pfi_backend_opencl(void) { return &opencl_backend; }
