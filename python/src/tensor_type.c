/* pixflow.Tensor: a strided array of pixflow memory (a Loader batch, a
 * video batch, our own allocation, or an imported DLPack tensor) that
 * other libraries take without a copy: __dlpack__ / __dlpack_device__
 * (DLPack 1.x versioned capsules, or legacy ones for consumers that do
 * not pass max_version), the buffer protocol for host memory (numpy:
 * np.asarray(t)), and __cuda_array_interface__ for CUDA memory. OpenCL
 * memory (shared virtual memory of pixflow's OpenCL backend) is DLPack
 * device kDLOpenCL with the device index as id; to_host() copies any
 * tensor into a new host one. Every export holds a reference to the
 * tensor, and the tensor holds its owner, so the memory lives as long as
 * any consumer uses it. */
#include <string.h>

#include "pfpy.h"

static int dl_dtype(pf_dtype dt, DLDataType *out) {
    out->lanes = 1;
    switch (dt) {
    case PF_U8: out->code = kDLUInt, out->bits = 8; return 0;
    case PF_U16: out->code = kDLUInt, out->bits = 16; return 0;
    case PF_S16: out->code = kDLInt, out->bits = 16; return 0;
    case PF_S32: out->code = kDLInt, out->bits = 32; return 0;
    case PF_F16: out->code = kDLFloat, out->bits = 16; return 0;
    case PF_BF16: out->code = kDLBfloat, out->bits = 16; return 0;
    case PF_F32: out->code = kDLFloat, out->bits = 32; return 0;
    default: return -1;
    }
}

static int pf_from_dl(DLDataType t) {
    if (t.lanes != 1) return -1;
    if (t.code == kDLUInt && t.bits == 8) return PF_U8;
    if (t.code == kDLUInt && t.bits == 16) return PF_U16;
    if (t.code == kDLInt && t.bits == 16) return PF_S16;
    if (t.code == kDLInt && t.bits == 32) return PF_S32;
    if (t.code == kDLFloat && t.bits == 16) return PF_F16;
    if (t.code == kDLBfloat && t.bits == 16) return PF_BF16;
    if (t.code == kDLFloat && t.bits == 32) return PF_F32;
    return -1;
}

/* ------------------------------------------------------------ create */

pfpy_tensor *pfpy_tensor_view(void *data, int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
                              pf_dtype dtype, pf_mem mem, int device, int readonly, PyObject *owner) {
    pfpy_tensor *t = PyObject_New(pfpy_tensor, &pfpy_TensorType);
    if (t == NULL) return NULL;
    t->data = data;
    t->ndim = ndim;
    memset(t->shape, 0, sizeof t->shape);
    memset(t->strides, 0, sizeof t->strides);
    memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    t->dtype = dtype;
    t->mem = mem;
    t->device = device;
    t->readonly = readonly;
    t->owner = Py_XNewRef(owner);
    t->owned = NULL;
    t->dl_legacy = NULL;
    t->dl_versioned = NULL;
    t->weakrefs = NULL;
    return t;
}

pfpy_tensor *pfpy_tensor_of(const pf_tensor *t, int count, PyObject *owner) {
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size(t->dtype), shape[4], strides[4];
    shape[0] = count;
    strides[0] = t->sample_stride;
    if (t->layout == PF_CHW) {
        shape[1] = t->channels, shape[2] = t->height, shape[3] = t->width;
        strides[1] = t->plane_stride, strides[2] = t->row_stride, strides[3] = es;
    } else {
        shape[1] = t->height, shape[2] = t->width, shape[3] = t->channels;
        strides[1] = t->row_stride, strides[2] = t->channels * es, strides[3] = es;
    }
    return pfpy_tensor_view(t->data, 4, shape, strides, t->dtype, t->mem, t->device, 0, owner);
}

pfpy_tensor *pfpy_tensor_new(int ndim, const Py_ssize_t *shape, pf_dtype dtype) {
    Py_ssize_t strides[5];
    size_t bytes = pf_dtype_size(dtype);
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = (Py_ssize_t)bytes;
        bytes *= (size_t)shape[i];
    }
    /* 64-byte aligned so that SIMD loads and other libraries are happy */
    void *raw = PyMem_RawMalloc(bytes + 64);
    if (raw == NULL) return (pfpy_tensor *)PyErr_NoMemory();
    void *data = (void *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    pfpy_tensor *t = pfpy_tensor_view(data, ndim, shape, strides, dtype, PF_MEM_HOST, 0, 0, NULL);
    if (t == NULL) {
        PyMem_RawFree(raw);
        return NULL;
    }
    t->owned = raw;
    return t;
}

/* The bytes [*lo, *hi) relative to data that a strided view reaches
 * (strides may be negative); 0, 0 for an empty one. */
static void view_extent(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides, Py_ssize_t es, Py_ssize_t *lo,
                        Py_ssize_t *hi) {
    *lo = 0;
    *hi = es;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            *lo = *hi = 0;
            return;
        }
        Py_ssize_t span = (shape[i] - 1) * strides[i];
        if (span < 0) *lo += span;
        else *hi += span;
    }
}

/* An OpenCL pointer cannot be checked by OpenCL itself, and a kernel or
 * copy given memory that is not SVM of its device reads anything: only
 * shared virtual memory that pixflow allocated on device `id` (a batch of
 * a Loader on "opencl:N", pf_malloc, a pixflow pool) is taken. */
static int opencl_check(const char *name, const char *data, int ndim, const Py_ssize_t *shape,
                        const Py_ssize_t *strides, Py_ssize_t es, int id) {
    Py_ssize_t lo, hi;
    view_extent(ndim, shape, strides, es, &lo, &hi);
    pf_mem m = PF_MEM_HOST;
    int32_t d = -1;
    pf_status st = pf_pointer_memory(data + lo, (size_t)(hi - lo), &m, &d);
    if (st != PF_OK || m != PF_MEM_OPENCL || d != id) {
        pfpy_invalid("%s is DLPack device (kDLOpenCL, %d), but its memory is not shared virtual memory that pixflow "
                     "allocated on OpenCL device %d%s%s; pixflow takes only its own OpenCL memory (a Loader batch "
                     "on 'opencl:N', or another pixflow.Tensor), since OpenCL cannot check a pointer",
                     name, id, id, st != PF_OK ? ": " : "", st != PF_OK ? pf_last_error() : "");
        return -1;
    }
    return 0;
}

pfpy_tensor *pfpy_tensor_from_capsule(PyObject *cap, const char *name) {
    DLTensor *dl = NULL;
    DLManagedTensor *legacy = NULL;
    DLManagedTensorVersioned *ver = NULL;
    int readonly = 0;
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        ver = PyCapsule_GetPointer(cap, "dltensor_versioned");
        if (ver->version.major > PFPY_DLPACK_MAJOR) {
            return (pfpy_tensor *)pfpy_unsupported("%s: DLPack %u.%u is newer than pixflow's %u.x", name,
                                                   ver->version.major, ver->version.minor, PFPY_DLPACK_MAJOR);
        }
        dl = &ver->dl_tensor;
        readonly = (ver->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    } else if (PyCapsule_IsValid(cap, "dltensor")) {
        legacy = PyCapsule_GetPointer(cap, "dltensor");
        dl = &legacy->dl_tensor;
    } else {
        return (pfpy_tensor *)pfpy_invalid("%s: __dlpack__ did not return an unused DLPack capsule", name);
    }
    pf_mem mem;
    if (dl->device.device_type == kDLCPU || dl->device.device_type == kDLCUDAHost) {
        mem = PF_MEM_HOST;
    } else if (dl->device.device_type == kDLCUDA || dl->device.device_type == kDLCUDAManaged) {
        mem = PF_MEM_CUDA;
    } else if (dl->device.device_type == kDLOpenCL) {
        mem = PF_MEM_OPENCL; /* checked below: it must be pixflow's own SVM */
    } else {
        return (pfpy_tensor *)pfpy_unsupported(
            "%s lives on DLPack device type %d; pixflow reads CPU, CUDA and (its own) OpenCL memory", name,
            dl->device.device_type);
    }
    int dt = pf_from_dl(dl->dtype);
    if (dt < 0) {
        return (pfpy_tensor *)pfpy_unsupported("%s has DLPack dtype (code %u, %u bits, %u lanes); pixflow takes "
                                               "uint8, uint16, int16, int32, float16, bfloat16 and float32",
                                               name, dl->dtype.code, dl->dtype.bits, dl->dtype.lanes);
    }
    if (dl->ndim < 1 || dl->ndim > 5)
        return (pfpy_tensor *)pfpy_invalid("%s has %d dimensions; pixflow takes 1 to 5", name, dl->ndim);
    Py_ssize_t shape[5], strides[5];
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size((pf_dtype)dt), run = es;
    for (int i = dl->ndim - 1; i >= 0; i--) {
        shape[i] = (Py_ssize_t)dl->shape[i];
        strides[i] = dl->strides ? (Py_ssize_t)dl->strides[i] * es : run;
        run *= shape[i];
    }
    if (mem == PF_MEM_OPENCL && opencl_check(name, (char *)dl->data + dl->byte_offset, dl->ndim, shape, strides, es,
                                             dl->device.device_id) < 0)
        return NULL;
    pfpy_tensor *t = pfpy_tensor_view((char *)dl->data + dl->byte_offset, dl->ndim, shape, strides, (pf_dtype)dt,
                                      mem, dl->device.device_id, readonly, NULL);
    if (t == NULL) return NULL;
    /* consumed: the capsule no longer owns it, we call its deleter */
    if (PyCapsule_SetName(cap, ver ? "used_dltensor_versioned" : "used_dltensor") < 0) {
        Py_DECREF(t);
        return NULL;
    }
    t->dl_legacy = legacy;
    t->dl_versioned = ver;
    return t;
}

static void tensor_dealloc(pfpy_tensor *t) {
    if (t->weakrefs) PyObject_ClearWeakRefs((PyObject *)t);
    if (t->dl_versioned && t->dl_versioned->deleter) t->dl_versioned->deleter(t->dl_versioned);
    if (t->dl_legacy && t->dl_legacy->deleter) t->dl_legacy->deleter(t->dl_legacy);
    PyMem_RawFree(t->owned);
    Py_XDECREF(t->owner);
    PyObject_Free(t);
}

/* ------------------------------------------------------------ DLPack */

/* What a DLPack export carries: the managed tensor (either flavour), its
 * shape/strides arrays, and a reference to the tensor. */
typedef struct {
    DLManagedTensorVersioned ver;
    DLManagedTensor legacy;
    int64_t shape[5], strides[5];
    PyObject *tensor;
} dl_export;

static void release_export(dl_export *e) {
    /* consumers may call deleters from any thread, GIL or not */
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF(e->tensor);
    PyMem_RawFree(e);
    PyGILState_Release(g);
}

static void deleter_versioned(DLManagedTensorVersioned *m) { release_export(m->manager_ctx); }
static void deleter_legacy(DLManagedTensor *m) { release_export(m->manager_ctx); }

static void capsule_destructor(PyObject *cap) {
    /* a capsule never consumed still owns its tensor */
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
        m->deleter(m);
    } else if (PyCapsule_IsValid(cap, "dltensor")) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
        m->deleter(m);
    }
}

static int dl_device(const pfpy_tensor *t, DLDevice *d) {
    d->device_type = t->mem == PF_MEM_CUDA ? kDLCUDA : t->mem == PF_MEM_OPENCL ? kDLOpenCL : kDLCPU;
    d->device_id = t->mem == PF_MEM_HOST ? 0 : t->device;
    return 0;
}

static PyObject *tensor_dlpack(pfpy_tensor *t, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
    PyObject *stream = Py_None, *max_version = Py_None, *dl_dev = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$OOOO:__dlpack__", kwlist, &stream, &max_version, &dl_dev, &copy))
        return NULL;
    if (copy == Py_True) return pfpy_unsupported("__dlpack__: copy=True is not supported; the export shares memory");
    if (dl_dev != Py_None) {
        int type, id;
        if (!PyArg_ParseTuple(dl_dev, "ii:__dlpack__ dl_device", &type, &id)) return NULL;
        DLDevice mine;
        dl_device(t, &mine);
        if (type != mine.device_type || id != mine.device_id)
            return pfpy_unsupported("__dlpack__: dl_device (%d, %d) is not the tensor's device (%d, %d); "
                                    "pixflow does not copy across devices here",
                                    type, id, mine.device_type, mine.device_id);
    }
    /* CUDA: our batches are complete (synchronized) when handed out, so
     * any consumer stream may use them at once: nothing to wait for. */
    (void)stream;
    int versioned = 0;
    if (max_version != Py_None) {
        unsigned major, minor;
        if (!PyArg_ParseTuple(max_version, "II:__dlpack__ max_version", &major, &minor)) return NULL;
        versioned = major >= 1;
    }
    dl_export *e = PyMem_RawCalloc(1, sizeof *e);
    if (e == NULL) return PyErr_NoMemory();
    DLTensor dl;
    memset(&dl, 0, sizeof dl);
    dl.data = t->data;
    dl_device(t, &dl.device);
    dl.ndim = t->ndim;
    if (dl_dtype(t->dtype, &dl.dtype) < 0) {
        PyMem_RawFree(e);
        return pfpy_unsupported("__dlpack__: dtype %s has no DLPack code", pf_dtype_name(t->dtype));
    }
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size(t->dtype);
    for (int i = 0; i < t->ndim; i++) {
        if (t->strides[i] % es != 0) {
            PyMem_RawFree(e);
            return pfpy_unsupported("__dlpack__: stride %zd bytes is not a whole number of elements", t->strides[i]);
        }
        e->shape[i] = t->shape[i];
        e->strides[i] = t->strides[i] / es;
    }
    dl.shape = e->shape;
    dl.strides = e->strides;
    e->tensor = Py_NewRef((PyObject *)t);
    PyObject *cap;
    if (versioned) {
        e->ver.version.major = PFPY_DLPACK_MAJOR;
        e->ver.version.minor = PFPY_DLPACK_MINOR;
        e->ver.manager_ctx = e;
        e->ver.deleter = deleter_versioned;
        e->ver.flags = t->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
        e->ver.dl_tensor = dl;
        cap = PyCapsule_New(&e->ver, "dltensor_versioned", capsule_destructor);
    } else {
        e->legacy.manager_ctx = e;
        e->legacy.deleter = deleter_legacy;
        e->legacy.dl_tensor = dl;
        cap = PyCapsule_New(&e->legacy, "dltensor", capsule_destructor);
    }
    if (cap == NULL) {
        Py_DECREF(t);
        PyMem_RawFree(e);
    }
    return cap;
}

static PyObject *tensor_dlpack_device(pfpy_tensor *t, PyObject *noarg) {
    (void)noarg;
    DLDevice d;
    dl_device(t, &d);
    return Py_BuildValue("(ii)", d.device_type, d.device_id);
}

/* ------------------------------------------------------ buffer protocol */

static const char *buffer_format(pf_dtype dt) {
    switch (dt) {
    case PF_U8: return "B";
    case PF_U16: return "H";
    case PF_S16: return "h";
    case PF_S32: return "i";
    case PF_F16: return "e";
    case PF_F32: return "f";
    default: return NULL;
    }
}

/* -1 with the error set for device memory, which the host cannot read */
static int host_only(const pfpy_tensor *t) {
    if (t->mem == PF_MEM_CUDA) {
        pfpy_invalid("this pixflow.Tensor is in CUDA memory; use torch.from_dlpack(), or t.to_host() for a host copy");
        return -1;
    }
    if (t->mem != PF_MEM_HOST) {
        pfpy_invalid("this pixflow.Tensor is in OpenCL memory of device %d; t.to_host() copies it to the host",
                     t->device);
        return -1;
    }
    return 0;
}

static int tensor_getbuffer(pfpy_tensor *t, Py_buffer *view, int flags) {
    if (host_only(t) < 0) return -1;
    const char *fmt = buffer_format(t->dtype);
    if (fmt == NULL) {
        pfpy_unsupported("a %s pixflow.Tensor has no buffer format; use torch.from_dlpack()", pf_dtype_name(t->dtype));
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) && t->readonly) {
        PyErr_SetString(PyExc_BufferError, "pixflow.Tensor is read-only");
        return -1;
    }
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES) {
        /* the consumer wants contiguous memory: only if it is */
        Py_ssize_t s = (Py_ssize_t)pf_dtype_size(t->dtype);
        for (int i = t->ndim - 1; i >= 0; i--) {
            if (t->shape[i] != 1 && t->strides[i] != s) {
                PyErr_SetString(PyExc_BufferError, "pixflow.Tensor is not contiguous");
                return -1;
            }
            s *= t->shape[i];
        }
    }
    Py_ssize_t len = (Py_ssize_t)pf_dtype_size(t->dtype);
    for (int i = 0; i < t->ndim; i++) len *= t->shape[i];
    view->buf = t->data;
    view->obj = Py_NewRef((PyObject *)t);
    view->len = len;
    view->readonly = t->readonly;
    view->itemsize = (Py_ssize_t)pf_dtype_size(t->dtype);
    view->format = (flags & PyBUF_FORMAT) ? (char *)fmt : NULL;
    view->ndim = t->ndim;
    view->shape = (flags & PyBUF_ND) ? t->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? t->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static PyBufferProcs tensor_as_buffer = {(getbufferproc)tensor_getbuffer, NULL};

/* ----------------------------------------------------------- attributes */

static PyObject *tuple_of(const Py_ssize_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromSsize_t(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *get_shape(pfpy_tensor *t, void *c) { (void)c; return tuple_of(t->shape, t->ndim); }
static PyObject *get_strides(pfpy_tensor *t, void *c) { (void)c; return tuple_of(t->strides, t->ndim); }
static PyObject *get_ndim(pfpy_tensor *t, void *c) { (void)c; return PyLong_FromLong(t->ndim); }
static PyObject *get_readonly(pfpy_tensor *t, void *c) { (void)c; return PyBool_FromLong(t->readonly); }
static PyObject *get_dtype(pfpy_tensor *t, void *c) {
    (void)c;
    return PyUnicode_FromString(t->dtype == PF_BF16 ? "bfloat16" : pfpy_numpy_dtype(t->dtype));
}
static PyObject *get_device(pfpy_tensor *t, void *c) {
    (void)c;
    if (t->mem == PF_MEM_CUDA) return PyUnicode_FromFormat("cuda:%d", t->device);
    if (t->mem == PF_MEM_OPENCL) return PyUnicode_FromFormat("opencl:%d", t->device);
    return PyUnicode_FromString("cpu");
}
static PyObject *get_nbytes(pfpy_tensor *t, void *c) {
    (void)c;
    Py_ssize_t n = (Py_ssize_t)pf_dtype_size(t->dtype);
    for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
    return PyLong_FromSsize_t(n);
}
static PyObject *tensor_data_ptr(pfpy_tensor *t, PyObject *noarg) {
    (void)noarg;
    return PyLong_FromVoidPtr(t->data);
}

static const char *cai_typestr(pf_dtype dt) {
    switch (dt) {
    case PF_U8: return "|u1";
    case PF_U16: return "<u2";
    case PF_S16: return "<i2";
    case PF_S32: return "<i4";
    case PF_F16: return "<f2";
    case PF_F32: return "<f4";
    default: return NULL;
    }
}

static PyObject *get_cai(pfpy_tensor *t, void *c) {
    (void)c;
    if (t->mem != PF_MEM_CUDA) {
        PyErr_SetString(PyExc_AttributeError, t->mem == PF_MEM_OPENCL
                                                  ? "__cuda_array_interface__: this pixflow.Tensor is in OpenCL memory"
                                                  : "__cuda_array_interface__: this pixflow.Tensor is in host memory");
        return NULL;
    }
    const char *ts = cai_typestr(t->dtype);
    if (ts == NULL) {
        PyErr_SetString(PyExc_AttributeError, "__cuda_array_interface__: bfloat16 has no typestr; use DLPack");
        return NULL;
    }
    PyObject *shape = tuple_of(t->shape, t->ndim), *strides = tuple_of(t->strides, t->ndim);
    PyObject *r = NULL;
    if (shape && strides)
        r = Py_BuildValue("{s:O,s:s,s:(NO),s:O,s:i,s:O}", "shape", shape, "typestr", ts, "data",
                          PyLong_FromVoidPtr(t->data), t->readonly ? Py_True : Py_False, "strides", strides,
                          "version", 3, "stream", Py_None);
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return r;
}

static Py_ssize_t tensor_len(pfpy_tensor *t) { return t->ndim ? t->shape[0] : 0; }

static PyObject *tensor_repr(pfpy_tensor *t) {
    char buf[160];
    size_t n = (size_t)snprintf(buf, sizeof buf, "pixflow.Tensor(shape=(");
    for (int i = 0; i < t->ndim && n < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%zd", i ? ", " : "", t->shape[i]);
    if (n < sizeof buf)
        snprintf(buf + n, sizeof buf - n, "), dtype=%s, device=%s%s)",
                 t->dtype == PF_BF16 ? "bfloat16" : pfpy_numpy_dtype(t->dtype),
                 t->mem == PF_MEM_CUDA ? "cuda" : t->mem == PF_MEM_OPENCL ? "opencl" : "cpu",
                 t->readonly ? ", readonly" : "");
    return PyUnicode_FromString(buf);
}

static PyObject *tensor_numpy(pfpy_tensor *t, PyObject *noarg) {
    (void)noarg;
    /* np.asarray would wrap a device tensor in an object array */
    if (host_only(t) < 0) return NULL;
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL) return NULL;
    PyObject *r = PyObject_CallMethod(np, "asarray", "O", (PyObject *)t);
    Py_DECREF(np);
    return r;
}

/* to_host(): one synchronous copy (a NULL stream: the backend that owns
 * the memory copies it, and the call returns when the bytes are there).
 * Every tensor pixflow hands out (batches, plan outputs) is packed. */
static PyObject *tensor_to_host(pfpy_tensor *t, PyObject *noarg) {
    (void)noarg;
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size(t->dtype), n = 1, run = es;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->strides[i] != run)
            return pfpy_unsupported("to_host(): this pixflow.Tensor is a strided view (strides %zd bytes at axis "
                                    "%d, packed would be %zd); only packed tensors are copied",
                                    t->strides[i], i, run);
        run *= t->shape[i];
        n *= t->shape[i];
    }
    pfpy_tensor *h = pfpy_tensor_new(t->ndim, t->shape, t->dtype);
    if (h == NULL) return NULL;
    pf_status st = PF_OK;
    if (n > 0) {
        Py_BEGIN_ALLOW_THREADS
        st = pf_memcpy_async(NULL, h->data, t->data, (size_t)(n * es));
        Py_END_ALLOW_THREADS
    }
    if (st != PF_OK) {
        Py_DECREF(h);
        return pfpy_raise(st);
    }
    return (PyObject *)h;
}

static PyObject *tensor_torch(pfpy_tensor *t, PyObject *noarg) {
    (void)noarg;
    PyObject *torch = PyImport_ImportModule("torch");
    if (torch == NULL) return NULL;
    PyObject *r = PyObject_CallMethod(torch, "from_dlpack", "O", (PyObject *)t);
    Py_DECREF(torch);
    return r;
}

static PyMethodDef tensor_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
     "A DLPack capsule sharing this memory (versioned when max_version >= (1, 0), else legacy)."},
    {"__dlpack_device__", (PyCFunction)tensor_dlpack_device, METH_NOARGS,
     "__dlpack_device__()\n--\n\n(device_type, device_id): (1, 0) for host memory, (2, i) for CUDA device i,\n"
     "(4, i) for OpenCL device i (kDLOpenCL)."},
    {"data_ptr", (PyCFunction)tensor_data_ptr, METH_NOARGS, "data_ptr()\n--\n\nAddress of the first element."},
    {"numpy", (PyCFunction)tensor_numpy, METH_NOARGS,
     "numpy()\n--\n\nA numpy array sharing this memory (host tensors only; to_host() first for device ones)."},
    {"to_host", (PyCFunction)tensor_to_host, METH_NOARGS,
     "to_host()\n--\n\nA new host pixflow.Tensor with a copy of this packed tensor (host, CUDA or OpenCL memory;\n"
     "the copy is synchronous)."},
    {"torch", (PyCFunction)tensor_torch, METH_NOARGS,
     "torch()\n--\n\nA torch tensor sharing this memory (torch.from_dlpack)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef tensor_getset[] = {
    {"shape", (getter)get_shape, NULL, "Dimensions, like numpy's shape.", NULL},
    {"strides", (getter)get_strides, NULL, "Byte strides, like numpy's strides.", NULL},
    {"ndim", (getter)get_ndim, NULL, "Number of dimensions.", NULL},
    {"dtype", (getter)get_dtype, NULL, "Element type name ('uint8', 'float32', 'bfloat16', ...).", NULL},
    {"device", (getter)get_device, NULL, "'cpu', 'cuda:N' or 'opencl:N'.", NULL},
    {"nbytes", (getter)get_nbytes, NULL, "Bytes of the elements.", NULL},
    {"readonly", (getter)get_readonly, NULL, "True when consumers must not write.", NULL},
    {"__cuda_array_interface__", (getter)get_cai, NULL, "The CUDA array interface (device tensors only).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PySequenceMethods tensor_as_sequence = {.sq_length = (lenfunc)tensor_len};

PyTypeObject pfpy_TensorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Tensor",
    .tp_basicsize = sizeof(pfpy_tensor),
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_repr = (reprfunc)tensor_repr,
    .tp_as_sequence = &tensor_as_sequence,
    .tp_as_buffer = &tensor_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "pixflow.Tensor: memory made by pixflow (a batch, an op's output), shared without copies:\n"
              "torch.from_dlpack(t) and np.asarray(t) view the same bytes. It keeps its memory alive as\n"
              "long as it or any consumer's view exists.",
    .tp_weaklistoffset = offsetof(pfpy_tensor, weakrefs),
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
};

int pfpy_tensor_init_type(PyObject *module) {
    if (PyType_Ready(&pfpy_TensorType) < 0) return -1;
    return PyModule_AddObjectRef(module, "Tensor", (PyObject *)&pfpy_TensorType);
}
