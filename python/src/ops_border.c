/* pf_copy_make_border (cv2.copyMakeBorder; the C family:
 * src/ops/border_op.c): widths per sample or one for all. */
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static PyObject *py_copy_make_border(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "top", "bottom", "left", "right", "border", "value", "dst", NULL};
    PyObject *src, *top, *bottom, *left, *right, *value = Py_None, *dst = Py_None;
    int border = PF_BORDER_CONSTANT;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|iOO:copy_make_border", kwlist, &src, &top, &bottom, &left,
                                     &right, &border, &value, &dst))
        return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK | PFPY_ANY_DTYPE) < 0) return NULL;
    int n = op.in.n;
    int *v = PyMem_Calloc((size_t)n * 4, sizeof *v);
    pf_border_params *p = PyMem_Calloc((size_t)n, sizeof *p);
    if (v == NULL || p == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *objs[4] = {top, bottom, left, right};
    static const char *names[4] = {"top", "bottom", "left", "right"};
    for (int k = 0; k < 4; k++) {
        int got = pfpy_params_int(objs[k], names[k], n, v + k * n);
        if (got < 0) goto fail;
        for (int i = got; i < n; i++) v[k * n + i] = v[k * n];
        /* kept here: the binding sizes the outputs from the widths before C
         * sees them (C checks them too, for C callers) */
        for (int i = 0; i < n; i++)
            if (v[k * n + i] < 0) {
                pfpy_invalid("%s = %d; border widths must be >= 0", names[k], v[k * n + i]);
                goto fail;
            }
    }
    double val[4] = {0, 0, 0, 0};
    if (pfpy_scalar_tuple(value, "value", 4, val) < 0) goto fail;
    for (int i = 0; i < n; i++) {
        p[i].top = v[i];
        p[i].left = v[2 * n + i];
        p[i].mode = (pf_border)border;
        memcpy(p[i].value, val, sizeof val);
        op.shapes[i].width += v[2 * n + i] + v[3 * n + i];
        op.shapes[i].height += v[i] + v[n + i];
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyMem_Free(v);
        PyMem_Free(p);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_copy_make_border(stream_, n, op.in.views, op.out.views, p, n));
    PyMem_Free(v);
    PyMem_Free(p);
    return pfpy_op_finish(&op, st);
fail:
    PyMem_Free(v);
    PyMem_Free(p);
    return pfpy_op_abort(&op);
}

PyMethodDef pfpy_border_methods[] = {
    {"copy_make_border", FN(py_copy_make_border), KW,
     "copy_make_border(src, top, bottom, left, right, border=BORDER_CONSTANT, value=None, dst=None)\n--\n\n"
     "pf_copy_make_border (cv2.copyMakeBorder); widths per sample or for all."},
    {NULL, NULL, 0, NULL}};
