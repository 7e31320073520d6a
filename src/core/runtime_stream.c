/* Device streams (created or wrapping a caller's handle), the per-thread
 * implicit streams that a NULL stream stands for with device views, host
 * callbacks, and pfi_route: the one place that decides where an op runs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/device.h"
#include "core/error.h"
#include "core/stream.h"

static pf_status make_stream(const char *fn, pf_device *dev, void *wrap, bool wrap_given, pf_stream **out) {
    pf_stream *s = calloc(1, sizeof *s);
    if (s == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    pf_status st = dev->be->stream_create(dev->index, wrap, wrap_given, &s->impl);
    if (st != PF_OK) {
        free(s);
        return pfi_fail_in(fn, st);
    }
    s->kind = dev->kind;
    s->be = dev->be;
    s->dev = pfi_device_ref(dev);
    s->device = dev->index;
    s->owned = !wrap_given;
    s->isa = pf_cpu_active_isa();
    s->id = pfi_stream_next_id();
    *out = s;
    return PF_OK;
}

pf_status pf_stream_create(pf_device *device, pf_stream **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_create: out is NULL");
    *out = NULL;
    if (device == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_create: device is NULL");
    if (device->kind == PF_DEVICE_CPU) {
        pf_status st = pf_stream_create_cpu(0, out);
        if (st == PF_OK) {
            (*out)->be = device->be;
            (*out)->dev = pfi_device_ref(device);
        }
        return st;
    }
    return make_stream("pf_stream_create", device, NULL, false, out);
}

pf_status pf_stream_wrap_cuda(pf_device *device, void *cuda_stream, pf_stream **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_cuda: out is NULL");
    *out = NULL;
    if (device == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_cuda: device is NULL");
    if (device->kind != PF_DEVICE_CUDA)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_cuda: device is not a CUDA device");
    return make_stream("pf_stream_wrap_cuda", device, cuda_stream, true, out);
}

pf_status pf_stream_wrap_opencl(pf_device *device, void *cl_queue, pf_stream **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_opencl: out is NULL");
    *out = NULL;
    if (device == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_opencl: device is NULL");
    if (device->kind != PF_DEVICE_OPENCL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_opencl: device is not an OpenCL device");
    if (cl_queue == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wrap_opencl: queue is NULL");
    return make_stream("pf_stream_wrap_opencl", device, cl_queue, true, out);
}

pf_device *pf_stream_device(const pf_stream *s) {
    if (s == NULL || s->dev == NULL) return pfi_device_cpu();
    return s->dev;
}

void *pf_stream_cuda_handle(const pf_stream *s) {
    return s != NULL && s->kind == PF_DEVICE_CUDA ? s->impl : NULL;
}

void *pf_stream_opencl_queue(const pf_stream *s) {
    if (s == NULL || s->kind != PF_DEVICE_OPENCL || s->be == NULL) return NULL;
    return s->be->stream_native != NULL ? s->be->stream_native(s->impl) : s->impl;
}

pf_status pf_stream_query(pf_stream *s, int *done) {
    pfi_clear_error();
    if (done == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_query: done is NULL");
    *done = 1;
    if (s == NULL || s->be == NULL) return PF_OK;
    return pfi_fail_in("pf_stream_query", s->be->stream_query(s->device, s->impl, done));
}

pf_status pf_stream_add_callback(pf_stream *s, pf_host_fn fn, void *user) {
    pfi_clear_error();
    if (fn == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_add_callback: fn is NULL");
    if (s == NULL || s->be == NULL) {
        fn(user, PF_OK);
        return PF_OK;
    }
    return pfi_fail_in("pf_stream_add_callback", s->be->stream_add_callback(s->device, s->impl, fn, user));
}

/* ------------------------------------------------------ internal access */

int pfi_stream_device_index(const pf_stream *s) { return s != NULL && s->kind != PF_DEVICE_CPU ? s->device : -1; }
pf_device_kind pfi_stream_kind(const pf_stream *s) { return s != NULL ? s->kind : PF_DEVICE_CPU; }
void *pfi_stream_impl(const pf_stream *s) { return s != NULL ? s->impl : NULL; }
void pfi_stream_note_op(pf_stream *s, const char *op) {
    if (s != NULL) s->last_op = op;
}
const char *pfi_stream_last_op(const pf_stream *s) { return s != NULL ? s->last_op : NULL; }
bool pfi_stream_is_implicit(const pf_stream *s) { return s != NULL && s->implicit; }

/* ------------------------------------------------------ implicit streams */

/* A NULL stream with device views means "this thread, synchronously": each
 * thread gets its own stream per device (so threads never serialize on one
 * handle), created on first use and freed when the thread exits. */
#define PFI_IMPLICIT_SLOTS 16

typedef struct implicit_set {
    pf_stream *s[PFI_DEVICE_KINDS][PFI_IMPLICIT_SLOTS];
} implicit_set;

static pthread_key_t g_implicit_key;
static pthread_once_t g_implicit_once = PTHREAD_ONCE_INIT;

static void implicit_free(void *p) {
    implicit_set *set = p;
    for (int k = 0; k < PFI_DEVICE_KINDS; k++)
        for (int i = 0; i < PFI_IMPLICIT_SLOTS; i++)
            if (set->s[k][i]) pfi_stream_free(set->s[k][i]);
    free(set);
}
static void implicit_init(void) { (void)pthread_key_create(&g_implicit_key, implicit_free); }

static pf_status implicit_stream(const char *op, pf_device_kind kind, int device, pf_stream **out) {
    if (device < 0 || device >= PFI_IMPLICIT_SLOTS)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: a NULL stream serves devices 0..%d; pass a stream for device %d",
                        op, PFI_IMPLICIT_SLOTS - 1, device);
    pthread_once(&g_implicit_once, implicit_init);
    implicit_set *set = pthread_getspecific(g_implicit_key);
    if (set == NULL) {
        set = calloc(1, sizeof *set);
        if (set == NULL || pthread_setspecific(g_implicit_key, set) != 0) {
            free(set);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
        }
    }
    pf_stream **slot = &set->s[kind][device];
    if (*slot == NULL) {
        pf_device *dev;
        pf_status st = pf_device_open(kind, device, &dev);
        if (st != PF_OK) return pfi_fail_in(op, st);
        st = make_stream(op, dev, NULL, false, slot);
        pf_device_close(dev); /* the stream holds its own reference */
        if (st != PF_OK) return st;
        (*slot)->implicit = true;
    }
    *out = *slot;
    return PF_OK;
}

/* ---------------------------------------------------------------- route */

static const char *mem_name(pf_mem m) {
    return m == PF_MEM_HOST ? "host memory" : m == PF_MEM_CUDA ? "CUDA device memory" : "OpenCL device memory";
}

static void view_name(const pfi_view_ref *v, char *out, size_t cap) {
    if (v->index >= 0)
        snprintf(out, cap, "%s[%d]", v->name, v->index);
    else
        snprintf(out, cap, "%s", v->name);
}

/* Is view v consistent with the first view of the call? */
static pf_status check_view(const char *op, const pfi_view_ref *first, const pfi_view_ref *v) {
    char a[64], b[64];
    if (v->mem != PF_MEM_HOST && v->mem != PF_MEM_CUDA && v->mem != PF_MEM_OPENCL) {
        view_name(v, a, sizeof a);
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.mem is %d; use PF_MEM_HOST, PF_MEM_CUDA or PF_MEM_OPENCL",
                        op, a, (int)v->mem);
    }
    if (v->mem == first->mem && (v->mem == PF_MEM_HOST || v->device == first->device)) return PF_OK;
    view_name(first, a, sizeof a);
    view_name(v, b, sizeof b);
    if (v->mem != first->mem)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: %s is %s but %s is %s; copy with pf_image_copy_async so one call sees one memory",
                        op, a, mem_name(first->mem), b, mem_name(v->mem));
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is on %s device %d but %s on device %d", op, a,
                    pfi_kind_label(pfi_kind_of_mem(v->mem)), (int)first->device, b, (int)v->device);
}

/* With consistent views of memory `first`: picks backend and stream. */
static pf_status route_stream(const char *op, pf_stream *stream, const pfi_view_ref *first,
                              const pfi_backend **be, pf_stream **stream_out) {
    char a[64];
    pf_device_kind skind = pfi_stream_kind(stream);
    if (first->mem == PF_MEM_HOST) {
        if (skind != PF_DEVICE_CPU)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: stream is a %s stream but the views are host memory; pass a CPU stream or "
                            "NULL, or copy the images to the device",
                            op, pfi_kind_label(skind));
        return PF_OK; /* *be stays NULL: the CPU backend */
    }
    pf_device_kind kind = pfi_kind_of_mem(first->mem);
    const char *label = pfi_kind_label(kind);
    const pfi_backend *dbe = pfi_backend_get(kind);
    if (dbe == NULL)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: the views are %s device memory but this pixflow was built without the %s backend", op,
                        label, label);
    view_name(first, a, sizeof a);
    if (stream == NULL || stream->implicit) {
        pf_status st = implicit_stream(op, kind, first->device, stream_out);
        if (st != PF_OK) return st;
    } else if (skind != kind) {
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: stream is a %s stream but %s is %s device memory; pass a stream of %s device "
                        "%d (pf_stream_create) or NULL",
                        op, pfi_kind_label(skind), a, label, label, (int)first->device);
    } else if (stream->device != first->device) {
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: stream belongs to %s device %d but %s is on device %d", op,
                        label, stream->device, a, (int)first->device);
    }
    *be = dbe;
    return PF_OK;
}

pf_status pfi_route(const char *op, pf_stream *stream, const pfi_view_ref views[], int nviews,
                    const pfi_backend **be, pf_stream **stream_out) {
    *be = NULL;
    *stream_out = stream;
    pfi_view_ref host = {PF_MEM_HOST, 0, "src", -1};
    const pfi_view_ref *first = nviews > 0 ? &views[0] : &host;
    for (int i = 0; i < nviews; i++) {
        pf_status st = check_view(op, first, &views[i]);
        if (st != PF_OK) return st;
    }
    return route_stream(op, stream, first, be, stream_out);
}

pf_status pfi_route_images(const char *op, pf_stream *stream, int count, const pf_image src[],
                           const pf_image dst[], const pfi_backend **be, pf_stream **stream_out) {
    *be = NULL;
    *stream_out = stream;
    pfi_view_ref first = {PF_MEM_HOST, 0, "src", -1};
    if (count > 0 && src != NULL && dst != NULL) {
        first = (pfi_view_ref){src[0].mem, src[0].device, "src", 0};
        /* in the order src[0], dst[0], src[1], ... so the first offender is named */
        for (int i = 0; i < count; i++) {
            pfi_view_ref v = {src[i].mem, src[i].device, "src", i};
            pf_status st = check_view(op, &first, &v);
            if (st != PF_OK) return st;
            v = (pfi_view_ref){dst[i].mem, dst[i].device, "dst", i};
            st = check_view(op, &first, &v);
            if (st != PF_OK) return st;
        }
    }
    return route_stream(op, stream, &first, be, stream_out);
}

/* The view of one pointer: host memory unless a device backend owns it. */
static pfi_view_ref ptr_view(const pf_stream *stream, const pfi_ptr_ref *p) {
    for (int k = 0; k < PFI_DEVICE_KINDS; k++) {
        const pfi_backend *b = pfi_backend_get((pf_device_kind)k);
        if (b == NULL || b->kind == PF_DEVICE_CPU || b->ptr_device == NULL) continue;
        if (!pfi_kind_in_use(b->kind) && pfi_stream_kind(stream) != b->kind) continue;
        int d = b->ptr_device(p->p);
        if (d >= 0) return (pfi_view_ref){pfi_mem_of_kind(b->kind), d, p->name, p->index};
    }
    return (pfi_view_ref){PF_MEM_HOST, 0, p->name, p->index};
}

pf_status pfi_route_ptrs(const char *op, pf_stream *stream, const pfi_ptr_ref ptrs[], int n,
                         const pfi_backend **be, pf_stream **stream_out) {
    pfi_view_ref *v = malloc((n > 0 ? (size_t)n : 1) * sizeof *v);
    if (v == NULL) {
        *be = NULL;
        *stream_out = stream;
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (ptrs[i].p != NULL) v[m++] = ptr_view(stream, &ptrs[i]);
    pf_status st = pfi_route(op, stream, v, m, be, stream_out);
    free(v);
    return st;
}

pf_status pfi_route_host_only(const char *op, const pf_stream *stream) {
    if (stream != NULL && stream->kind != PF_DEVICE_CPU)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: a device stream was given; this function reads host memory and runs on a CPU stream "
                        "(or NULL)", op);
    return PF_OK;
}

pf_status pfi_unsupported_on(const char *op, const pfi_backend *be) {
    return pfi_fail(PF_ERR_UNSUPPORTED, "%s is not available on the %s backend", op, be ? be->name : "?");
}
