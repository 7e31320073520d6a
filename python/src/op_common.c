/* The shared shape of an op call (see pfpy_op in pfpy.h): acquire the
 * sources, derive or check the destinations, run with the GIL released,
 * release everything on every path. */
#include <string.h>

#include "pfpy.h"

int pfpy_op_begin(pfpy_op *op, PyObject *src, const char *name, unsigned flags) {
    memset(op, 0, sizeof *op);
    op->flags = flags & (PFPY_CHW_OK | PFPY_CONV_TORCH);
    if (pfpy_images_in(src, name, flags, &op->in) < 0) return -1;
    int n = op->in.n;
    if (n == 1) {
        op->shapes = &op->one_shape;
    } else if ((op->shapes = PyMem_Calloc((size_t)n, sizeof *op->shapes)) == NULL) {
        pfpy_images_release(&op->in);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const pf_image *v = &op->in.views[i];
        pfpy_shape *s = &op->shapes[i];
        s->width = v->width;
        s->height = v->height;
        s->channels = v->channels;
        s->dtype = v->dtype;
        s->ndim = op->in.im[i].ndim;
        s->layout = v->layout;
        s->torch = (flags & PFPY_CONV_TORCH) != 0;
    }
    /* inside `with stream:` on a device: host sources go to the device first */
    if (pfpy_on_device_stream()) {
        if ((op->uploads = PyMem_Calloc((size_t)n, sizeof *op->uploads)) == NULL) {
            PyErr_NoMemory();
            pfpy_op_abort(op);
            return -1;
        }
        if (pfpy_upload_sources(&op->in, op->uploads) < 0) {
            pfpy_op_abort(op);
            return -1;
        }
    }
    return 0;
}

int pfpy_op_outputs(pfpy_op *op, PyObject *dst, const char *name) {
    if (pfpy_images_out(dst, name, &op->in, op->shapes, op->flags, &op->out, &op->result) < 0) {
        pfpy_op_abort(op);
        return -1;
    }
    return 0;
}

static void release(pfpy_op *op) {
    if (op->uploads) { /* the device copies' keepers wait for queued work before freeing */
        for (int i = 0; i < op->in.n; i++) Py_XDECREF(op->uploads[i]);
        PyMem_Free(op->uploads);
        op->uploads = NULL;
    }
    pfpy_images_release(&op->in);
    pfpy_images_release(&op->out);
    if (op->shapes != &op->one_shape) PyMem_Free(op->shapes);
    op->shapes = NULL;
}

PyObject *pfpy_op_finish(pfpy_op *op, pf_status st) {
    release(op);
    if (st != PF_OK) {
        Py_CLEAR(op->result);
        return pfpy_raise(st);
    }
    return op->result;
}

PyObject *pfpy_op_abort(pfpy_op *op) {
    release(op);
    Py_CLEAR(op->result);
    return NULL;
}

/* (w, h) pairs: one pair for all or one per sample. */
static int parse_sizes(PyObject *obj, const char *name, int n, int32_t *w, int32_t *h) {
    if (obj == NULL || obj == Py_None) {
        pfpy_invalid("%s is None; pass (width, height)", name);
        return -1;
    }
    PyObject *seq = PySequence_Fast(obj, name);
    if (seq == NULL) {
        PyErr_Clear();
        pfpy_invalid("%s must be (width, height) or a list of them", name);
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int nested = k > 0 && PySequence_Check(PySequence_Fast_GET_ITEM(seq, 0)) &&
                 !PyLong_Check(PySequence_Fast_GET_ITEM(seq, 0));
    int count = nested ? (int)k : 1;
    if (!nested && k != 2) goto bad;
    if (nested && count != 1 && count != n) {
        Py_DECREF(seq);
        pfpy_invalid("%s has %d sizes; pass 1 or one per sample (%d)", name, count, n);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *pair = nested ? PySequence_Fast_GET_ITEM(seq, i) : obj;
        long a, b;
        if (!PyArg_ParseTuple(pair, "ll", &a, &b)) {
            PyErr_Clear();
            goto bad;
        }
        if (a < 1 || b < 1 || a > INT32_MAX || b > INT32_MAX) {
            Py_DECREF(seq);
            pfpy_invalid("%s = (%ld, %ld); width and height must be >= 1", name, a, b);
            return -1;
        }
        w[i] = (int32_t)a;
        h[i] = (int32_t)b;
    }
    for (int i = count; i < n; i++) w[i] = w[0], h[i] = h[0];
    Py_DECREF(seq);
    return 0;
bad:
    Py_DECREF(seq);
    pfpy_invalid("%s must be a (width, height) tuple of integers or a list of them", name);
    return -1;
}

/* Output sizes of resize and the warps (see pfpy.h). */
int pfpy_op_out_sizes(pfpy_op *op, PyObject *size, PyObject *dst) {
    int n = op->in.n;
    int32_t wv[1], hv[1];
    int32_t *w = n == 1 ? wv : PyMem_Malloc((size_t)n * sizeof *w);
    int32_t *h = n == 1 ? hv : PyMem_Malloc((size_t)n * sizeof *h);
    int r = -1;
    if (w == NULL || h == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if ((size == NULL || size == Py_None) && dst != NULL && dst != Py_None) {
        pfpy_images d;
        if (pfpy_images_in(dst, "dst", PFPY_WRITABLE | PFPY_CHW_OK | (op->flags & PFPY_CONV_TORCH), &d) < 0)
            goto done;
        if (d.n != n) {
            pfpy_images_release(&d);
            pfpy_invalid("dst has %d images for %d sources", d.n, n);
            goto done;
        }
        for (int i = 0; i < n; i++) w[i] = d.views[i].width, h[i] = d.views[i].height;
        pfpy_images_release(&d);
    } else if (parse_sizes(size, "size", n, w, h) < 0) {
        goto done;
    }
    for (int i = 0; i < n; i++) op->shapes[i].width = w[i], op->shapes[i].height = h[i];
    r = 0;
done:
    if (w != wv) PyMem_Free(w);
    if (h != hv) PyMem_Free(h);
    return r;
}
