/* pixflow.Error and its subclasses, one per pf_status, carrying
 * pf_last_error()'s sentence. Classes that have a natural built-in base
 * also derive from it (InvalidArgument is a ValueError, OutOfMemory a
 * MemoryError, IOError an OSError, Timeout a TimeoutError), so generic
 * `except ValueError` code keeps working. */
#include <stdarg.h>
#include <stdio.h>

#include "pfpy.h"

PyObject *pfpy_Error;
PyObject *pfpy_InvalidArgument;
PyObject *pfpy_Unsupported;
static PyObject *by_status[PF_ERR_INTERNAL + 1];

typedef struct {
    pf_status status;
    const char *name;
    PyObject **builtin; /* NULL: pixflow.Error only */
    const char *doc;
} err_def;

static PyObject *make_class(PyObject *module, const char *name, PyObject *bases, const char *doc) {
    char qual[64];
    snprintf(qual, sizeof qual, "pixflow.%s", name);
    PyObject *cls = PyErr_NewExceptionWithDoc(qual, doc, bases, NULL);
    if (cls == NULL) return NULL;
    if (PyModule_AddObjectRef(module, name, cls) < 0) {
        Py_DECREF(cls);
        return NULL;
    }
    return cls;
}

int pfpy_errors_init(PyObject *module) {
    pfpy_Error = make_class(module, "Error", PyExc_Exception,
                            "Base class of every pixflow error. `status` is the C status name "
                            "(e.g. 'PF_ERR_INVALID_ARGUMENT'); str(e) is pf_last_error()'s sentence.");
    if (pfpy_Error == NULL) return -1;
    const err_def defs[] = {
        {PF_ERR_INVALID_ARGUMENT, "InvalidArgument", &PyExc_ValueError,
         "An argument is out of range or of the wrong type, shape or dtype (also a ValueError)."},
        {PF_ERR_UNSUPPORTED, "Unsupported", NULL, "Valid, but this op or backend cannot do it."},
        {PF_ERR_OUT_OF_MEMORY, "OutOfMemory", &PyExc_MemoryError, "An allocation failed (also a MemoryError)."},
        {PF_ERR_CORRUPT_DATA, "CorruptData", NULL, "Malformed encoded input (a corrupt or truncated file)."},
        {PF_ERR_IO, "IOError", &PyExc_OSError, "A file could not be read (also an OSError)."},
        {PF_ERR_DEVICE, "DeviceError", NULL, "The accelerator runtime failed."},
        {PF_ERR_CANCELLED, "Cancelled", NULL, "The work was cancelled."},
        {PF_ERR_TIMEOUT, "Timeout", &PyExc_TimeoutError, "Nothing came in time (also a TimeoutError)."},
        {PF_ERR_INTERNAL, "InternalError", NULL, "A pixflow bug: please report it."},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        PyObject *bases = defs[i].builtin ? PyTuple_Pack(2, pfpy_Error, *defs[i].builtin)
                                          : PyTuple_Pack(1, pfpy_Error);
        if (bases == NULL) return -1;
        PyObject *cls = make_class(module, defs[i].name, bases, defs[i].doc);
        Py_DECREF(bases);
        if (cls == NULL) return -1;
        by_status[defs[i].status] = cls;
    }
    by_status[PF_OK] = pfpy_Error;
    pfpy_InvalidArgument = by_status[PF_ERR_INVALID_ARGUMENT];
    pfpy_Unsupported = by_status[PF_ERR_UNSUPPORTED];
    return 0;
}

static PyObject *raise_text(pf_status status, const char *text) {
    PyObject *cls = ((unsigned)status <= PF_ERR_INTERNAL) ? by_status[status] : pfpy_Error;
    PyObject *msg = PyUnicode_FromString(text);
    if (msg == NULL) return NULL;
    PyObject *exc = PyObject_CallOneArg(cls, msg);
    Py_DECREF(msg);
    if (exc == NULL) return NULL;
    PyObject *name = PyUnicode_FromString(pf_status_str(status));
    if (name == NULL || PyObject_SetAttrString(exc, "status", name) < 0) {
        Py_XDECREF(name);
        Py_DECREF(exc);
        return NULL;
    }
    Py_DECREF(name);
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *pfpy_raise(pf_status status) {
    const char *text = pf_last_error();
    return raise_text(status, text && text[0] ? text : pf_status_str(status));
}

__attribute__((format(printf, 2, 0))) static PyObject *raise_va(pf_status status, const char *fmt, va_list ap) {
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return raise_text(status, buf);
}

PyObject *pfpy_raise_msg(pf_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raise_va(status, fmt, ap);
    va_end(ap);
    return NULL;
}

PyObject *pfpy_invalid(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raise_va(PF_ERR_INVALID_ARGUMENT, fmt, ap);
    va_end(ap);
    return NULL;
}

PyObject *pfpy_unsupported(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raise_va(PF_ERR_UNSUPPORTED, fmt, ap);
    va_end(ap);
    return NULL;
}

const char *pfpy_repr(PyObject *o, char *buf, size_t cap) {
    PyObject *r = o ? PyObject_Repr(o) : NULL;
    const char *s = r ? PyUnicode_AsUTF8(r) : NULL;
    snprintf(buf, cap, "%s", s ? s : "<unprintable>");
    Py_XDECREF(r);
    PyErr_Clear();
    return buf;
}
