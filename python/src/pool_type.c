/* pixflow.MemoryPool: a pf_pool (the runtime's caching allocator with a
 * hard cap) of a device's memory. `with pool.allocate(nbytes) as buf:`
 * hands out a block and returns it at exit; stats() reports the pool.
 * Allocation beyond the cap raises OutOfMemory naming the pool. */
#include <stdio.h>
#include <string.h>

#include "pfpy.h"

typedef struct {
    PyObject_HEAD
    PyObject *device; /* pfpy_device */
    pf_pool *pool;
    PyObject *name;   /* str: in messages and repr */
    size_t peak_in_use; /* pf_pool_stats has the peak of reserved bytes only */
} pool_obj;

typedef struct {
    PyObject_HEAD
    pool_obj *pool;
    void *ptr; /* NULL once freed */
    size_t nbytes;
} buffer_obj;

static PyTypeObject PoolType, BufferType;

static int pool_init(pool_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"device", "size", "name", NULL};
    PyObject *dobj = Py_None, *name = Py_None;
    long long size = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|O:MemoryPool", kwlist, &dobj, &size, &name)) return -1;
    if (self->pool) return pfpy_invalid("MemoryPool is already initialised"), -1;
    if (size <= 0) return pfpy_invalid("MemoryPool: size = %lld; the cap must be > 0 bytes", size), -1;
    if (name != Py_None && !PyUnicode_Check(name)) return pfpy_invalid("MemoryPool: name must be a str or None"), -1;
    PyObject *d = pfpy_device_get(dobj, "device");
    if (d == NULL) return -1;
    PyObject *nm = name != Py_None ? Py_NewRef(name) : PyUnicode_FromFormat("MemoryPool(%S, %lld)", d, size);
    if (nm == NULL) {
        Py_DECREF(d);
        return -1;
    }
    pf_pool *p = NULL;
    pf_status st = pf_pool_create(((pfpy_device *)d)->dev, PF_ALLOC_DEVICE, (size_t)size, &p);
    if (st != PF_OK) {
        Py_DECREF(d);
        Py_DECREF(nm);
        return pfpy_raise(st), -1;
    }
    self->device = d;
    self->pool = p;
    self->name = nm;
    return 0;
}

static void pool_dealloc(pool_obj *self) {
    if (self->pool) {
        Py_BEGIN_ALLOW_THREADS
        pf_pool_destroy(self->pool);
        Py_END_ALLOW_THREADS
    }
    Py_XDECREF(self->name);
    Py_XDECREF(self->device);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *pool_allocate(pool_obj *self, PyObject *arg) {
    if (self->pool == NULL) return pfpy_invalid("MemoryPool was not initialised");
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return pfpy_invalid("allocate: nbytes must be an integer");
    }
    if (n <= 0) return pfpy_invalid("allocate: nbytes = %lld; pass > 0", n);
    pfpy_stream *s = pfpy_active_stream();
    pf_stream *ps = s && s->device == self->device ? s->stream : NULL;
    void *ptr = NULL;
    pf_status st;
    PFPY_CALL(st, pf_pool_alloc(self->pool, (size_t)n, ps, &ptr));
    if (st != PF_OK) {
        const char *nm = PyUnicode_AsUTF8(self->name);
        return pfpy_raise_msg(st, "%s: allocate(%lld) failed: %s", nm ? nm : "MemoryPool", n, pf_last_error());
    }
    buffer_obj *b = PyObject_New(buffer_obj, &BufferType);
    if (b == NULL) {
        pf_pool_free(self->pool, ptr, ps);
        return NULL;
    }
    b->pool = (pool_obj *)Py_NewRef((PyObject *)self);
    b->ptr = ptr;
    b->nbytes = (size_t)n;
    pf_pool_stats ps_;
    if (pf_pool_stats_get(self->pool, &ps_) == PF_OK && ps_.in_use > self->peak_in_use)
        self->peak_in_use = ps_.in_use;
    return (PyObject *)b;
}

/* The stats dict of MemoryPool.stats() and Stream.memory_stats(). */
PyObject *pfpy_pool_stats_dict(pf_pool *pool, size_t peak_in_use) {
    pf_pool_stats s;
    pf_status st = pf_pool_stats_get(pool, &s);
    if (st != PF_OK) return pfpy_raise(st);
    /* fragmentation as pixflow_pool_fragmentation_ratio: the share of reserved bytes not in use */
    double frag = s.reserved ? (double)(s.reserved - s.in_use) / (double)s.reserved : 0.0;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:d,s:K,s:K,s:K}", "in_use", (Py_ssize_t)s.in_use, "peak_in_use",
                         (Py_ssize_t)peak_in_use, "reserved", (Py_ssize_t)s.reserved, "peak_reserved",
                         (Py_ssize_t)s.peak_reserved, "cap", (Py_ssize_t)s.cap, "fragmentation", frag, "allocs",
                         (unsigned long long)s.allocs, "reuses", (unsigned long long)s.reuses, "backend_allocs",
                         (unsigned long long)s.backend_allocs);
}

static PyObject *pool_stats(pool_obj *self, PyObject *noarg) {
    (void)noarg;
    if (self->pool == NULL) return pfpy_invalid("MemoryPool was not initialised");
    return pfpy_pool_stats_dict(self->pool, self->peak_in_use);
}

static PyObject *pool_trim(pool_obj *self, PyObject *noarg) {
    (void)noarg;
    if (self->pool == NULL) return pfpy_invalid("MemoryPool was not initialised");
    pf_status st;
    PFPY_CALL(st, pf_pool_trim(self->pool));
    if (st != PF_OK) return pfpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *pool_repr(pool_obj *self) {
    return self->name ? Py_NewRef(self->name) : PyUnicode_FromString("MemoryPool(<not initialised>)");
}

static PyObject *pool_get(pool_obj *self, void *c) {
    PyObject *v = c ? self->name : self->device;
    return v ? Py_NewRef(v) : pfpy_invalid("MemoryPool was not initialised");
}

static PyMethodDef pool_methods[] = {
    {"allocate", (PyCFunction)pool_allocate, METH_O,
     "allocate(nbytes, /)\n--\n\nA block of at least nbytes (a context manager that frees it at exit)."},
    {"stats", (PyCFunction)pool_stats, METH_NOARGS,
     "stats()\n--\n\nin_use, peak_in_use, reserved, peak_reserved, cap (bytes), fragmentation\n"
     "((reserved - in_use) / reserved), allocs, reuses, backend_allocs."},
    {"trim", (PyCFunction)pool_trim, METH_NOARGS, "trim()\n--\n\nReturns idle cached blocks to the device."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef pool_getset[] = {
    {"device", (getter)pool_get, NULL, "The pool's pixflow.Device.", NULL},
    {"name", (getter)pool_get, NULL, "The name errors use.", (void *)1},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject PoolType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.MemoryPool",
    .tp_basicsize = sizeof(pool_obj),
    .tp_dealloc = (destructor)pool_dealloc,
    .tp_repr = (reprfunc)pool_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MemoryPool(device, size, name=None)\n--\n\nA caching allocator of the device's memory that never\n"
              "holds more than size bytes (pf_pool); beyond it allocate raises OutOfMemory naming the pool.",
    .tp_methods = pool_methods,
    .tp_getset = pool_getset,
    .tp_init = (initproc)pool_init,
    .tp_new = PyType_GenericNew,
};

/* ------------------------------------------------------------- Buffer */

static void buffer_release(buffer_obj *b) {
    if (b->ptr == NULL) return;
    pfpy_stream *s = pfpy_active_stream();
    pf_stream *ps = s && s->device == b->pool->device ? s->stream : NULL;
    (void)pf_pool_free(b->pool->pool, b->ptr, ps); /* fails only for a pointer not of the pool */
    b->ptr = NULL;
}

static void buffer_dealloc(buffer_obj *b) {
    buffer_release(b);
    Py_XDECREF((PyObject *)b->pool);
    PyObject_Free(b);
}

static PyObject *buffer_enter(buffer_obj *b, PyObject *noarg) {
    (void)noarg;
    if (b->ptr == NULL) return pfpy_invalid("this pool buffer was already freed");
    return Py_NewRef((PyObject *)b);
}

static PyObject *buffer_free(buffer_obj *b, PyObject *args) {
    (void)args;
    buffer_release(b);
    Py_RETURN_NONE;
}

static PyObject *buffer_exit(buffer_obj *b, PyObject *args) {
    buffer_release(b);
    (void)args;
    Py_RETURN_FALSE;
}

static PyObject *buffer_get(buffer_obj *b, void *c) {
    if (c == NULL) return PyLong_FromVoidPtr(b->ptr);
    return PyLong_FromSize_t(b->nbytes);
}

static PyObject *buffer_freed(buffer_obj *b, void *c) {
    (void)c;
    return PyBool_FromLong(b->ptr == NULL);
}

static PyMethodDef buffer_methods[] = {
    {"__enter__", (PyCFunction)buffer_enter, METH_NOARGS, "__enter__()\n--\n\nEnters the block (see the type)."},
    {"__exit__", (PyCFunction)buffer_exit, METH_VARARGS, "__exit__(*exc)\n--\n\nLeaves the block."},
    {"free", (PyCFunction)buffer_free, METH_NOARGS, "free()\n--\n\nReturns the block to its pool (idempotent)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef buffer_getset[] = {
    {"ptr", (getter)buffer_get, NULL, "The block's address (0 once freed).", NULL},
    {"nbytes", (getter)buffer_get, NULL, "The bytes asked for.", (void *)1},
    {"freed", (getter)buffer_freed, NULL, "True once returned to the pool.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject BufferType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.PoolBuffer",
    .tp_basicsize = sizeof(buffer_obj),
    .tp_dealloc = (destructor)buffer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A block of a MemoryPool; freed at the end of `with`, by free(), or when collected.",
    .tp_methods = buffer_methods,
    .tp_getset = buffer_getset,
};

int pfpy_pool_type_init(PyObject *module) {
    if (PyType_Ready(&PoolType) < 0 || PyType_Ready(&BufferType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "MemoryPool", (PyObject *)&PoolType) < 0) return -1;
    return PyModule_AddObjectRef(module, "PoolBuffer", (PyObject *)&BufferType);
}
