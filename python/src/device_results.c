/* Device memory for op calls inside `with stream:` on a device stream:
 * results are new device pixflow.Tensors, and host sources are uploaded
 * first. The memory comes from the stream's own caching pool
 * (pfpy_stream.results, pf_pool_create): queued work may still read or
 * write it when the last Python reference goes, and pf_pool_free is
 * stream ordered (the block is reused at once by later work on the same
 * stream, by other streams only after that work finished), so freeing a
 * result never waits for the device. A plain pf_free would need a
 * pf_stream_synchronize first: one wait per freed tensor, which made a
 * loop of `y = op(x)` under `with stream:` synchronous. */
#include <string.h>

#include "pfpy.h"

typedef struct {
    PyObject_HEAD
    void *ptr;
    pfpy_stream *stream; /* owns the pool the memory came from */
} devmem;

static void devmem_dealloc(devmem *m) {
    if (m->ptr) (void)pf_pool_free(m->stream->results, m->ptr, m->stream->stream); /* records an event, no wait */
    Py_XDECREF((PyObject *)m->stream);
    PyObject_Free(m);
}

static PyTypeObject DevmemType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow._DeviceMemory",
    .tp_basicsize = sizeof(devmem),
    .tp_dealloc = (destructor)devmem_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The keeper of a device allocation made for an op on a stream.",
};

int pfpy_device_results_init(void) { return PyType_Ready(&DevmemType); }

int pfpy_on_device_stream(void) {
    pfpy_stream *s = pfpy_active_stream();
    return s != NULL && ((pfpy_device *)s->device)->kind != PF_DEVICE_CPU;
}

/* A packed device tensor of memory dims mem[0..nd) viewed through the
 * axis permutation perm (perm[i]: the memory axis of view axis i). */
static PyObject *device_tensor(int nd, const Py_ssize_t *mem, const int *perm, pf_dtype dt) {
    pfpy_stream *s = pfpy_active_stream();
    pfpy_device *d = (pfpy_device *)s->device;
    Py_ssize_t mstr[3], shape[3], strides[3];
    size_t bytes = pf_dtype_size(dt);
    for (int i = nd - 1; i >= 0; i--) {
        mstr[i] = (Py_ssize_t)bytes;
        bytes *= (size_t)mem[i];
    }
    for (int i = 0; i < nd; i++) shape[i] = mem[perm[i]], strides[i] = mstr[perm[i]];
    if (s->results == NULL) {
        /* capped at the device's memory: the cap only bounds what the cache may keep */
        pf_device_props props;
        size_t cap = pf_device_props_get(d->dev, &props) == PF_OK && props.total_memory ? props.total_memory
                                                                                         : (size_t)1 << 40;
        pf_status st;
        PFPY_CALL(st, pf_pool_create(d->dev, PF_ALLOC_DEVICE, cap, &s->results));
        if (st != PF_OK) {
            s->results = NULL;
            return pfpy_raise(st);
        }
    }
    devmem *m = PyObject_New(devmem, &DevmemType);
    if (m == NULL) return NULL;
    m->ptr = NULL;
    m->stream = (pfpy_stream *)Py_NewRef((PyObject *)s);
    pf_status st;
    PFPY_CALL(st, pf_pool_alloc(s->results, bytes ? bytes : 1, s->stream, &m->ptr));
    if (st != PF_OK) {
        m->ptr = NULL;
        Py_DECREF(m);
        return pfpy_raise(st);
    }
    pf_pool_stats ps;
    if (pf_pool_stats_get(s->results, &ps) == PF_OK && ps.in_use > s->results_peak) s->results_peak = ps.in_use;
    pf_mem kind = d->kind == PF_DEVICE_CUDA ? PF_MEM_CUDA : PF_MEM_OPENCL;
    PyObject *t = (PyObject *)pfpy_tensor_view(m->ptr, nd, shape, strides, dt, kind, d->index, 0, (PyObject *)m);
    Py_DECREF(m);
    return t;
}

/* As pfpy_numpy_empty, in device memory of the active stream's device. */
PyObject *pfpy_device_result(const pfpy_shape *s) {
    static const int id[3] = {0, 1, 2};
    if (s->channels == 1 && s->ndim == 2) {
        Py_ssize_t shape[2] = {s->height, s->width};
        return device_tensor(2, shape, id, s->dtype);
    }
    int planar = s->layout == PF_CHW && s->channels > 1;
    if (planar == s->torch) {
        Py_ssize_t hwc[3] = {s->height, s->width, s->channels}, chw[3] = {s->channels, s->height, s->width};
        return device_tensor(3, s->torch ? chw : hwc, id, s->dtype);
    }
    if (planar) { /* CHW memory named (H, W, C) */
        Py_ssize_t mem[3] = {s->channels, s->height, s->width};
        static const int p[3] = {1, 2, 0};
        return device_tensor(3, mem, p, s->dtype);
    }
    Py_ssize_t mem[3] = {s->height, s->width, s->channels}; /* HWC memory named (C, H, W) */
    static const int p[3] = {2, 0, 1};
    return device_tensor(3, mem, p, s->dtype);
}

/* Uploads each host source of `in` into a new device tensor on the active
 * stream and points its view there (the tensor is kept in keep[i]). The
 * copies are waited for before returning: the host memory may be a
 * temporary (a strided copy) that is freed when the call returns. */
int pfpy_upload_sources(pfpy_images *in, PyObject **keep) {
    pfpy_stream *s = pfpy_active_stream();
    int uploaded = 0;
    for (int i = 0; i < in->n; i++) {
        pf_image *v = &in->views[i];
        if (v->mem != PF_MEM_HOST) continue;
        pfpy_shape sh = {.width = v->width, .height = v->height, .channels = v->channels, .dtype = v->dtype,
                         .ndim = v->channels == 1 ? 2 : 3, .layout = v->layout, .torch = v->layout == PF_CHW};
        PyObject *t = pfpy_device_result(&sh);
        if (t == NULL) return -1;
        keep[i] = t;
        pfpy_tensor *dt = (pfpy_tensor *)t;
        pf_image dv = *v;
        ptrdiff_t es = (ptrdiff_t)pf_dtype_size(v->dtype);
        dv.data = dt->data;
        dv.mem = dt->mem;
        dv.device = dt->device;
        dv.row_stride = v->layout == PF_CHW ? es * v->width : es * v->width * v->channels;
        dv.plane_stride = v->layout == PF_CHW ? es * v->width * v->height : 0;
        pf_status st;
        PFPY_CALL(st, pf_image_copy_async(s->stream, v, &dv));
        if (st != PF_OK) {
            pfpy_raise(st);
            return -1;
        }
        *v = dv;
        uploaded = 1;
    }
    if (uploaded) {
        pf_status st;
        PFPY_CALL(st, pf_stream_synchronize(s->stream));
        if (st != PF_OK) {
            pfpy_raise(st);
            return -1;
        }
    }
    return 0;
}
