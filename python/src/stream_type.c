/* pixflow.Stream and pixflow.Event. `with stream:` pushes the stream on a
 * per-thread stack; op calls made meanwhile run on the top stream
 * (pfpy_stream_acquire), and on a device stream their host sources are
 * uploaded and their results are device tensors (pfpy_device_result). The
 * work is queued: stream.synchronize() (or an Event) waits for it. */
#include <string.h>

#include "pfpy.h"

#define STACK_MAX 64

/* the stack of entered streams of this thread (borrowed: each entry holds
 * a reference taken at __enter__ and dropped at __exit__) */
static _Thread_local pfpy_stream *stack[STACK_MAX];
static _Thread_local int depth;

pfpy_stream *pfpy_active_stream(void) { return depth > 0 ? stack[depth - 1] : NULL; }

static int stream_init(pfpy_stream *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"device", NULL};
    PyObject *dobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Stream", kwlist, &dobj)) return -1;
    if (self->stream) return pfpy_invalid("Stream is already initialised"), -1;
    PyObject *d = pfpy_device_get(dobj, "device");
    if (d == NULL) return -1;
    pf_stream *s = NULL;
    pf_status st;
    PFPY_CALL(st, pf_stream_create(((pfpy_device *)d)->dev, &s));
    if (st != PF_OK) {
        Py_DECREF(d);
        return pfpy_raise(st), -1;
    }
    self->device = d;
    self->stream = s;
    return 0;
}

/* Stream.from_torch(torch_stream): wraps torch's cudaStream_t (its
 * cuda_stream attribute); the pf_stream holds a reference to the torch
 * stream so that it outlives the wrapper (pf_stream_wrap_cuda's rule). */
static PyObject *stream_from_torch(PyObject *cls, PyObject *ts) {
    PyObject *handle = PyObject_GetAttrString(ts, "cuda_stream");
    if (handle == NULL) {
        PyErr_Clear();
        return pfpy_invalid("Stream.from_torch: torch_stream has no cuda_stream (pass a torch.cuda.Stream)");
    }
    void *raw = PyLong_AsVoidPtr(handle);
    Py_DECREF(handle);
    if (raw == NULL && PyErr_Occurred()) return NULL;
    PyObject *tdev = PyObject_GetAttrString(ts, "device");
    if (tdev == NULL) return NULL;
    PyObject *idx = PyObject_GetAttrString(tdev, "index");
    Py_DECREF(tdev);
    if (idx == NULL) return NULL;
    long index = idx == Py_None ? 0 : PyLong_AsLong(idx);
    Py_DECREF(idx);
    if (index == -1 && PyErr_Occurred()) return NULL;
    PyObject *name = PyUnicode_FromFormat("cuda:%ld", index);
    if (name == NULL) return NULL;
    PyObject *d = pfpy_device_get(name, "torch_stream.device");
    Py_DECREF(name);
    if (d == NULL) return NULL;
    pf_stream *s = NULL;
    pf_status st = pf_stream_wrap_cuda(((pfpy_device *)d)->dev, raw, &s);
    if (st != PF_OK) {
        Py_DECREF(d);
        return pfpy_raise(st);
    }
    pfpy_stream *self = (pfpy_stream *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (self == NULL) {
        pf_stream_destroy(s);
        Py_DECREF(d);
        return NULL;
    }
    self->device = d;
    self->stream = s;
    self->external = Py_NewRef(ts);
    return (PyObject *)self;
}

static void stream_dealloc(pfpy_stream *self) {
    /* every device result holds a reference to its stream, so all of the
     * pool's blocks are free here; the pool waits for their events */
    if (self->results || self->stream) {
        Py_BEGIN_ALLOW_THREADS
        if (self->results) pf_pool_destroy(self->results);
        if (self->stream) pf_stream_destroy(self->stream); /* synchronizes first */
        Py_END_ALLOW_THREADS
    }
    Py_XDECREF(self->external);
    Py_XDECREF(self->device);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *stream_enter(pfpy_stream *self, PyObject *noarg) {
    (void)noarg;
    if (self->stream == NULL) return pfpy_invalid("Stream was not initialised");
    if (depth >= STACK_MAX) return pfpy_invalid("Stream: more than %d nested `with stream:` blocks", STACK_MAX);
    stack[depth++] = (pfpy_stream *)Py_NewRef((PyObject *)self);
    return Py_NewRef((PyObject *)self);
}

static PyObject *stream_exit(pfpy_stream *self, PyObject *args) {
    (void)args;
    if (depth == 0 || stack[depth - 1] != self)
        return pfpy_invalid("Stream.__exit__: this stream is not the innermost active one on this thread");
    depth--;
    Py_DECREF((PyObject *)self);
    Py_RETURN_FALSE;
}

static PyObject *stream_synchronize(pfpy_stream *self, PyObject *noarg) {
    (void)noarg;
    pf_status st;
    PFPY_CALL(st, pf_stream_synchronize(self->stream));
    if (st != PF_OK) return pfpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *stream_query(pfpy_stream *self, PyObject *noarg) {
    (void)noarg;
    int done = 0;
    pf_status st = pf_stream_query(self->stream, &done);
    if (st != PF_OK) return pfpy_raise(st);
    return PyBool_FromLong(done);
}

/* The cache of the device results of ops inside `with stream:`
 * (device_results.c): its stats, and giving its idle blocks back. */
static PyObject *stream_memory_stats(pfpy_stream *self, PyObject *noarg) {
    (void)noarg;
    if (self->stream == NULL) return pfpy_invalid("Stream was not initialised");
    if (self->results == NULL)
        return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:d,s:K,s:K,s:K}", "in_use", (Py_ssize_t)0, "peak_in_use",
                             (Py_ssize_t)0, "reserved", (Py_ssize_t)0, "peak_reserved", (Py_ssize_t)0, "cap",
                             (Py_ssize_t)0, "fragmentation", 0.0, "allocs", 0ull, "reuses", 0ull, "backend_allocs",
                             0ull);
    return pfpy_pool_stats_dict(self->results, self->results_peak);
}

static PyObject *stream_empty_cache(pfpy_stream *self, PyObject *noarg) {
    (void)noarg;
    if (self->stream == NULL) return pfpy_invalid("Stream was not initialised");
    if (self->results == NULL) Py_RETURN_NONE;
    pf_status st;
    PFPY_CALL(st, pf_pool_trim(self->results));
    if (st != PF_OK) return pfpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *event_make(PyObject *device);

static PyObject *stream_record_event(pfpy_stream *self, PyObject *args) {
    PyObject *ev = Py_None;
    if (!PyArg_ParseTuple(args, "|O:record_event", &ev)) return NULL;
    if (self->device == NULL) return pfpy_invalid("Stream was not initialised");
    if (ev == Py_None) {
        if ((ev = event_make(self->device)) == NULL) return NULL;
    } else if (!PyObject_TypeCheck(ev, &pfpy_EventType)) {
        return pfpy_invalid("record_event: event must be a pixflow.Event or None");
    } else {
        Py_INCREF(ev);
    }
    pf_status st = pf_event_record(((pfpy_event *)ev)->event, self->stream);
    if (st != PF_OK) {
        Py_DECREF(ev);
        return pfpy_raise(st);
    }
    return ev;
}

static PyObject *stream_wait_event(pfpy_stream *self, PyObject *ev) {
    if (!PyObject_TypeCheck(ev, &pfpy_EventType)) return pfpy_invalid("wait_event: event must be a pixflow.Event");
    pf_status st = pf_stream_wait_event(self->stream, ((pfpy_event *)ev)->event);
    if (st != PF_OK) return pfpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *stream_get_device(pfpy_stream *self, void *c) {
    (void)c;
    if (self->device == NULL) return pfpy_invalid("Stream was not initialised");
    return Py_NewRef(self->device);
}

static PyObject *stream_cuda_handle(pfpy_stream *self, void *c) {
    (void)c;
    return PyLong_FromVoidPtr(pf_stream_cuda_handle(self->stream));
}

static PyObject *stream_repr(pfpy_stream *self) {
    if (self->device == NULL) return PyUnicode_FromString("pixflow.Stream(<not initialised>)");
    return PyUnicode_FromFormat("pixflow.Stream(%S%s)", self->device, self->external ? ", external" : "");
}

static PyMethodDef stream_methods[] = {
    {"__enter__", (PyCFunction)stream_enter, METH_NOARGS, "__enter__()\n--\n\nEnters the block (see the type)."},
    {"__exit__", (PyCFunction)stream_exit, METH_VARARGS, "__exit__(*exc)\n--\n\nLeaves the block."},
    {"synchronize", (PyCFunction)stream_synchronize, METH_NOARGS,
     "synchronize()\n--\n\nWaits for the work queued on the stream; raises its error, if any."},
    {"query", (PyCFunction)stream_query, METH_NOARGS, "query()\n--\n\nTrue when all queued work has finished."},
    {"record_event", (PyCFunction)stream_record_event, METH_VARARGS,
     "record_event(event=None, /)\n--\n\nRecords event (a new one when None) on the stream; returns it."},
    {"wait_event", (PyCFunction)stream_wait_event, METH_O,
     "wait_event(event, /)\n--\n\nMakes later work on this stream wait for the event (no host wait)."},
    {"memory_stats", (PyCFunction)stream_memory_stats, METH_NOARGS,
     "memory_stats()\n--\n\nThe cache of this stream's device results (as MemoryPool.stats()): in_use,\n"
     "peak_in_use, reserved, peak_reserved, cap, fragmentation, allocs, reuses, backend_allocs."},
    {"empty_cache", (PyCFunction)stream_empty_cache, METH_NOARGS,
     "empty_cache()\n--\n\nGives the cached (freed) device-result blocks back to the device."},
    {"from_torch", (PyCFunction)stream_from_torch, METH_O | METH_CLASS,
     "from_torch(torch_stream, /)\n--\n\nWraps a torch.cuda.Stream (its cudaStream_t); pixflow never destroys it."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef stream_getset[] = {
    {"device", (getter)stream_get_device, NULL, "The stream's pixflow.Device.", NULL},
    {"cuda_stream", (getter)stream_cuda_handle, NULL, "The cudaStream_t as an int (0 for other streams).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pfpy_StreamType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Stream",
    .tp_basicsize = sizeof(pfpy_stream),
    .tp_dealloc = (destructor)stream_dealloc,
    .tp_repr = (reprfunc)stream_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stream(device=None)\n--\n\nA queue of work on a device (the current device when None). Inside\n"
              "`with stream:` ops run on it; on a device stream they return device pixflow.Tensors.",
    .tp_methods = stream_methods,
    .tp_getset = stream_getset,
    .tp_init = (initproc)stream_init,
    .tp_new = PyType_GenericNew,
};

/* -------------------------------------------------------------- Event */

static PyObject *event_make(PyObject *device) {
    pf_event *e = NULL;
    pf_status st = pf_event_create(((pfpy_device *)device)->dev, &e);
    if (st != PF_OK) return pfpy_raise(st);
    pfpy_event *ev = (pfpy_event *)pfpy_EventType.tp_alloc(&pfpy_EventType, 0);
    if (ev == NULL) {
        pf_event_destroy(e);
        return NULL;
    }
    ev->event = e;
    ev->device = Py_NewRef(device);
    return (PyObject *)ev;
}

static int event_init(pfpy_event *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"device", NULL};
    PyObject *dobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Event", kwlist, &dobj)) return -1;
    if (self->event) return pfpy_invalid("Event is already initialised"), -1;
    PyObject *d = pfpy_device_get(dobj, "device");
    if (d == NULL) return -1;
    pf_status st = pf_event_create(((pfpy_device *)d)->dev, &self->event);
    if (st != PF_OK) {
        self->event = NULL;
        Py_DECREF(d);
        return pfpy_raise(st), -1;
    }
    self->device = d;
    return 0;
}

static void event_dealloc(pfpy_event *ev) {
    if (ev->event) pf_event_destroy(ev->event);
    Py_XDECREF(ev->device);
    Py_TYPE(ev)->tp_free((PyObject *)ev);
}

static PyObject *event_synchronize(pfpy_event *ev, PyObject *noarg) {
    (void)noarg;
    pf_status st;
    PFPY_CALL(st, pf_event_synchronize(ev->event));
    if (st != PF_OK) return pfpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *event_query(pfpy_event *ev, PyObject *noarg) {
    (void)noarg;
    int done = 0;
    pf_status st = pf_event_query(ev->event, &done);
    if (st != PF_OK) return pfpy_raise(st);
    return PyBool_FromLong(done);
}

static PyObject *event_elapsed(pfpy_event *ev, PyObject *end) {
    if (!PyObject_TypeCheck(end, &pfpy_EventType)) return pfpy_invalid("elapsed_ms: end must be a pixflow.Event");
    float ms = 0;
    pf_status st = pf_event_elapsed_ms(ev->event, ((pfpy_event *)end)->event, &ms);
    if (st != PF_OK) return pfpy_raise(st);
    return PyFloat_FromDouble((double)ms);
}

static PyMethodDef event_methods[] = {
    {"synchronize", (PyCFunction)event_synchronize, METH_NOARGS,
     "synchronize()\n--\n\nWaits for the work the event captured."},
    {"query", (PyCFunction)event_query, METH_NOARGS, "query()\n--\n\nTrue when the captured work has finished."},
    {"elapsed_ms", (PyCFunction)event_elapsed, METH_O,
     "elapsed_ms(end, /)\n--\n\nMilliseconds from this event to end (both recorded and finished)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject pfpy_EventType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Event",
    .tp_basicsize = sizeof(pfpy_event),
    .tp_dealloc = (destructor)event_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Event(device=None)\n--\n\nA marker in a stream's work (Stream.record_event / wait_event).",
    .tp_methods = event_methods,
    .tp_init = (initproc)event_init,
    .tp_new = PyType_GenericNew,
};

int pfpy_stream_type_init(PyObject *module) {
    if (PyType_Ready(&pfpy_StreamType) < 0 || PyType_Ready(&pfpy_EventType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Stream", (PyObject *)&pfpy_StreamType) < 0) return -1;
    return PyModule_AddObjectRef(module, "Event", (PyObject *)&pfpy_EventType);
}
