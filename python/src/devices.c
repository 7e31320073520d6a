/* pixflow.Device, devices(), set_device() and current_device(): a device
 * named as torch names them ("cpu", "opencl:0", "cuda:0"). A Device holds
 * an open pf_device (pf_device_open is reference counted, so many Device
 * objects of one device share its handle). The current device is process
 * wide (not per thread): it is the default of Stream(), Event() and
 * MemoryPool(); ops outside a `with stream:` run where their arrays are. */
#include <stdio.h>
#include <string.h>

#include "pfpy.h"

static PyObject *current; /* a pfpy_device; NULL: the CPU */

static const char *kind_name(pf_device_kind k) {
    return k == PF_DEVICE_CUDA ? "cuda" : k == PF_DEVICE_OPENCL ? "opencl" : "cpu";
}

/* "cpu", "cpu:0", "cuda", "cuda:N", "opencl", "opencl:N" -> kind, index. */
static int parse(const char *s, const char *name, pf_device_kind *kind, int *index) {
    static const struct { const char *p; pf_device_kind k; } kinds[] = {
        {"cpu", PF_DEVICE_CPU}, {"cuda", PF_DEVICE_CUDA}, {"opencl", PF_DEVICE_OPENCL}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].p);
        if (strncmp(s, kinds[i].p, n) != 0) continue;
        const char *rest = s + n;
        long idx = 0;
        if (*rest == ':') {
            char *end = NULL;
            if (rest[1] < '0' || rest[1] > '9') break;
            idx = strtol(rest + 1, &end, 10);
            if (*end != '\0' || idx > 1024) break;
        } else if (*rest != '\0') {
            break;
        }
        if (kinds[i].k == PF_DEVICE_CPU && idx != 0) {
            pfpy_invalid("%s = '%s': the CPU is device 0 only ('cpu')", name, s);
            return -1;
        }
        *kind = kinds[i].k;
        *index = (int)idx;
        return 0;
    }
    pfpy_invalid("%s = '%s' is not a device; pass 'cpu', 'opencl:N' or 'cuda:N'", name, s);
    return -1;
}

/* Opens the device into d (replacing what d held: __init__ may run twice). */
static int device_fill(pfpy_device *d, pf_device_kind kind, int index) {
    pf_device *dev = NULL;
    pf_status st;
    PFPY_CALL(st, pf_device_open(kind, index, &dev));
    if (st != PF_OK) return pfpy_raise(st), -1;
    pf_device_props props;
    memset(&props, 0, sizeof props);
    if ((st = pf_device_props_get(dev, &props)) != PF_OK) {
        pf_device_close(dev);
        return pfpy_raise(st), -1;
    }
    if (d->dev) pf_device_close(d->dev);
    d->kind = kind;
    d->index = index;
    d->dev = dev;
    memcpy(d->name, props.name, sizeof d->name);
    d->name[sizeof d->name - 1] = '\0';
    d->total_memory = props.total_memory;
    return 0;
}

static PyObject *device_make(PyTypeObject *type, pf_device_kind kind, int index) {
    pfpy_device *d = (pfpy_device *)type->tp_alloc(type, 0);
    if (d == NULL) return NULL;
    if (device_fill(d, kind, index) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return (PyObject *)d;
}

PyObject *pfpy_device_get(PyObject *obj, const char *name) {
    if (obj == NULL || obj == Py_None) return pfpy_current_device(NULL, NULL);
    if (PyObject_TypeCheck(obj, &pfpy_DeviceType)) return Py_NewRef(obj);
    if (!PyUnicode_Check(obj)) {
        char buf[64];
        return pfpy_invalid("%s must be a pixflow.Device or a string such as 'opencl:0', got %s", name,
                            pfpy_repr(obj, buf, sizeof buf));
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (s == NULL) return NULL;
    pf_device_kind kind;
    int index;
    if (parse(s, name, &kind, &index) < 0) return NULL;
    return device_make(&pfpy_DeviceType, kind, index);
}

static int device_init(pfpy_device *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"device", NULL};
    PyObject *obj;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Device", kwlist, &obj)) return -1;
    if (PyObject_TypeCheck(obj, &pfpy_DeviceType)) {
        pfpy_device *o = (pfpy_device *)obj;
        return device_fill(self, o->kind, o->index);
    }
    if (!PyUnicode_Check(obj)) {
        char buf[64];
        pfpy_invalid("Device: device must be a string such as 'cpu', 'opencl:0' or 'cuda:0', got %s",
                     pfpy_repr(obj, buf, sizeof buf));
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    pf_device_kind kind;
    int index;
    if (s == NULL || parse(s, "device", &kind, &index) < 0) return -1;
    return device_fill(self, kind, index);
}

static void device_dealloc(pfpy_device *d) {
    if (d->dev) pf_device_close(d->dev);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

static PyObject *device_str(pfpy_device *d) {
    if (d->kind == PF_DEVICE_CPU) return PyUnicode_FromString("cpu");
    return PyUnicode_FromFormat("%s:%d", kind_name(d->kind), d->index);
}

static PyObject *device_repr(pfpy_device *d) {
    if (d->kind == PF_DEVICE_CPU) return PyUnicode_FromString("pixflow.Device('cpu')");
    return PyUnicode_FromFormat("pixflow.Device('%s:%d')", kind_name(d->kind), d->index);
}

static Py_hash_t device_hash(pfpy_device *d) {
    Py_hash_t h = (Py_hash_t)d->kind * 1000003 + d->index + 1;
    return h == -1 ? -2 : h;
}

/* Equal to another Device of the same kind and index, and to its string. */
static PyObject *device_richcompare(pfpy_device *a, PyObject *b, int op) {
    if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
    int eq;
    if (PyObject_TypeCheck(b, &pfpy_DeviceType)) {
        pfpy_device *o = (pfpy_device *)b;
        eq = o->kind == a->kind && o->index == a->index;
    } else if (PyUnicode_Check(b)) {
        const char *s = PyUnicode_AsUTF8(b);
        pf_device_kind kind;
        int index;
        if (s == NULL) return NULL;
        if (parse(s, "other", &kind, &index) < 0) {
            PyErr_Clear();
            eq = 0;
        } else {
            eq = kind == a->kind && index == a->index;
        }
    } else {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *get_kind(pfpy_device *d, void *c) {
    (void)c;
    return PyUnicode_FromString(kind_name(d->kind));
}
static PyObject *get_index(pfpy_device *d, void *c) {
    (void)c;
    return PyLong_FromLong(d->index);
}
static PyObject *get_name(pfpy_device *d, void *c) {
    (void)c;
    return PyUnicode_FromString(d->name);
}
static PyObject *get_total_memory(pfpy_device *d, void *c) {
    (void)c;
    return PyLong_FromSize_t(d->total_memory);
}

static PyObject *device_synchronize(pfpy_device *d, PyObject *noarg) {
    (void)noarg;
    pf_status st;
    PFPY_CALL(st, pf_device_synchronize(d->dev));
    if (st != PF_OK) return pfpy_raise(st);
    Py_RETURN_NONE;
}

static PyMethodDef device_methods[] = {
    {"synchronize", (PyCFunction)device_synchronize, METH_NOARGS,
     "synchronize()\n--\n\nWaits for all work on every stream of the device."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef device_getset[] = {
    {"kind", (getter)get_kind, NULL, "'cpu', 'opencl' or 'cuda'.", NULL},
    {"index", (getter)get_index, NULL, "The device's index among those of its kind.", NULL},
    {"name", (getter)get_name, NULL, "The device's name (the CPU model, the GPU, the OpenCL device).", NULL},
    {"total_memory", (getter)get_total_memory, NULL, "Bytes of memory (CPU: physical memory).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pfpy_DeviceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Device",
    .tp_basicsize = sizeof(pfpy_device),
    .tp_dealloc = (destructor)device_dealloc,
    .tp_repr = (reprfunc)device_repr,
    .tp_str = (reprfunc)device_str,
    .tp_hash = (hashfunc)device_hash,
    .tp_richcompare = (richcmpfunc)device_richcompare,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Device(device)\n--\n\nA device: 'cpu', 'opencl:N' or 'cuda:N' (opened at once: a device that does\n"
              "not open raises DeviceError or Unsupported; a malformed string raises InvalidArgument).",
    .tp_methods = device_methods,
    .tp_getset = device_getset,
    .tp_init = (initproc)device_init,
    .tp_new = PyType_GenericNew,
};

/* devices(): the CPU, then every OpenCL and CUDA device that opens. */
static PyObject *py_devices(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    const pf_device_kind kinds[] = {PF_DEVICE_CPU, PF_DEVICE_OPENCL, PF_DEVICE_CUDA};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int n = 0;
        if (pf_device_count(kinds[k], &n) != PF_OK) n = 0; /* a build without the backend */
        for (int i = 0; i < n; i++) {
            PyObject *d = device_make(&pfpy_DeviceType, kinds[k], i);
            if (d == NULL) { /* listed but does not open (no SVM, lost): not usable */
                PyErr_Clear();
                continue;
            }
            int r = PyList_Append(list, d);
            Py_DECREF(d);
            if (r < 0) {
                Py_DECREF(list);
                return NULL;
            }
        }
    }
    return list;
}

static PyObject *py_set_device(PyObject *self, PyObject *arg) {
    (void)self;
    PyObject *d = pfpy_device_get(arg == Py_None ? NULL : arg, "device");
    if (d == NULL) return NULL;
    Py_XSETREF(current, d);
    Py_RETURN_NONE;
}

PyObject *pfpy_current_device(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    if (current == NULL && (current = device_make(&pfpy_DeviceType, PF_DEVICE_CPU, 0)) == NULL) return NULL;
    return Py_NewRef(current);
}

static PyMethodDef device_fns[] = {
    {"devices", py_devices, METH_NOARGS,
     "devices()\n--\n\nThe CPU, then every OpenCL and CUDA device that opens, as pixflow.Device objects."},
    {"set_device", py_set_device, METH_O,
     "set_device(device, /)\n--\n\nThe default device of Stream(), Event() and MemoryPool() (process wide)."},
    {"current_device", pfpy_current_device, METH_NOARGS,
     "current_device()\n--\n\nThe device set_device chose (the CPU by default)."},
    {NULL, NULL, 0, NULL}};

int pfpy_devices_init(PyObject *module) {
    if (PyType_Ready(&pfpy_DeviceType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Device", (PyObject *)&pfpy_DeviceType) < 0) return -1;
    return PyModule_AddFunctions(module, device_fns);
}

void pfpy_devices_free(void) { Py_CLEAR(current); }
