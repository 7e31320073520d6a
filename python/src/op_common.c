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
