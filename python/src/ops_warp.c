/* Warps: pf_warp_affine, pf_warp_perspective, pf_remap and the matrix
 * helpers (cv2.getRotationMatrix2D, getAffineTransform,
 * getPerspectiveTransform, invertAffineTransform) (the C family:
 * src/ops/warp_op.c, warp_matrix.c). Output sizes as resize's
 * (pfpy_op_out_sizes). */
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static int warp_opts(int interp, int border, PyObject *value, int inverse, pf_warp_opts *o) {
    *o = pf_warp_opts_defaults();
    o->interp = (pf_interp)interp;
    o->border = (pf_border)border;
    o->flags = inverse ? PF_WARP_INVERSE_MAP : 0;
    return pfpy_scalar_tuple(value, "border_value", 4, o->border_value) < 0 ? -1 : 0;
}

static PyObject *warp_op(PyObject *args, PyObject *kw, int persp) {
    static char *kwlist[] = {"src", "matrices", "size", "dst", "interp", "border", "border_value", "inverse", NULL};
    PyObject *src, *mats, *size = Py_None, *dst = Py_None, *value = Py_None;
    int interp = PF_INTERP_LINEAR, border = PF_BORDER_CONSTANT, inverse = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, persp ? "OO|OOiiOp:warp_perspective" : "OO|OOiiOp:warp_affine", kwlist,
                                     &src, &mats, &size, &dst, &interp, &border, &value, &inverse))
        return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    Py_buffer mb;
    int per = persp ? 9 : 6;
    Py_ssize_t k = pfpy_flat_buffer(mats, "matrices", 'd', &mb);
    if (k < 0) return pfpy_op_abort(&op);
    pf_warp_opts o;
    /* memory safety: the matrices reach C as a bare array, so the binding
     * is the layer that knows how many numbers it holds */
    if (k != per && k != (Py_ssize_t)per * op.in.n) {
        pfpy_invalid("matrices has %zd numbers; pass one %s matrix or one per sample (%d)", k,
                     persp ? "3x3" : "2x3", op.in.n);
        goto fail;
    }
    if (warp_opts(interp, border, value, inverse, &o) < 0 || pfpy_op_out_sizes(&op, size, dst) < 0) goto fail;
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyBuffer_Release(&mb);
        return NULL;
    }
    pf_status st;
    int nm = (int)(k / per);
    const double *m = mb.buf;
    if (persp)
        PFPY_RUN(st, pf_warp_perspective(stream_, op.in.n, op.in.views, op.out.views, m, nm, &o));
    else
        PFPY_RUN(st, pf_warp_affine(stream_, op.in.n, op.in.views, op.out.views, m, nm, &o));
    PyBuffer_Release(&mb);
    return pfpy_op_finish(&op, st);
fail:
    PyBuffer_Release(&mb);
    return pfpy_op_abort(&op);
}

static PyObject *py_warp_affine(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return warp_op(args, kw, 0);
}

static PyObject *py_warp_perspective(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return warp_op(args, kw, 1);
}

static PyObject *py_remap(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "map_x", "map_y", "dst", "interp", "border", "border_value", NULL};
    PyObject *src, *mx, *my, *dst = Py_None, *value = Py_None;
    int interp = PF_INTERP_LINEAR, border = PF_BORDER_CONSTANT;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OiiO:remap", kwlist, &src, &mx, &my, &dst, &interp, &border,
                                     &value))
        return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    pfpy_images xs, ys;
    if (pfpy_images_in(mx, "map_x", 0, &xs) < 0) return pfpy_op_abort(&op);
    if (pfpy_images_in(my, "map_y", 0, &ys) < 0) {
        pfpy_images_release(&xs);
        return pfpy_op_abort(&op);
    }
    pf_warp_opts o;
    if (xs.n != op.in.n || ys.n != op.in.n) {
        pfpy_invalid("map_x and map_y need one map per source (%d)", op.in.n);
        goto fail;
    }
    if (warp_opts(interp, border, value, 0, &o) < 0) goto fail;
    for (int i = 0; i < op.in.n; i++) {
        op.shapes[i].width = xs.views[i].width;
        op.shapes[i].height = xs.views[i].height;
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        pfpy_images_release(&xs);
        pfpy_images_release(&ys);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_remap(stream_, op.in.n, op.in.views, op.out.views, xs.views, ys.views, &o));
    pfpy_images_release(&xs);
    pfpy_images_release(&ys);
    return pfpy_op_finish(&op, st);
fail:
    pfpy_images_release(&xs);
    pfpy_images_release(&ys);
    return pfpy_op_abort(&op);
}

/* ------------------------------------------------------ matrix helpers */

static PyObject *matrix_tuple(const double *m, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, PyFloat_FromDouble(m[i]));
    return t;
}

static PyObject *py_rotation_matrix_2d(PyObject *self, PyObject *args) {
    (void)self;
    float cx, cy;
    double angle, scale;
    if (!PyArg_ParseTuple(args, "(ff)dd:rotation_matrix_2d", &cx, &cy, &angle, &scale)) return NULL;
    double m[6];
    pf_status st = pf_rotation_matrix_2d(cx, cy, angle, scale, m);
    return st == PF_OK ? matrix_tuple(m, 6) : pfpy_raise(st);
}

static int points(PyObject *obj, const char *name, int n, float *out) {
    Py_buffer b;
    Py_ssize_t k = pfpy_flat_buffer(obj, name, 'f', &b);
    if (k < 0) return -1;
    if (k != 2 * n) {
        PyBuffer_Release(&b);
        pfpy_invalid("%s has %zd numbers; expected %d (x, y) points", name, k, n);
        return -1;
    }
    memcpy(out, b.buf, (size_t)(2 * n) * sizeof(float));
    PyBuffer_Release(&b);
    return 0;
}

/* src, dst: n points each -> the m-entry matrix that fit computes. */
static PyObject *from_points(PyObject *args, const char *fmt, int n, int m,
                             pf_status (*fit)(const float *, const float *, double *)) {
    PyObject *s, *d;
    if (!PyArg_ParseTuple(args, fmt, &s, &d)) return NULL;
    float a[8], b[8];
    double mat[9];
    if (points(s, "src", n, a) < 0 || points(d, "dst", n, b) < 0) return NULL;
    pf_status st = fit(a, b, mat);
    return st == PF_OK ? matrix_tuple(mat, m) : pfpy_raise(st);
}

static PyObject *py_affine_from_points(PyObject *self, PyObject *args) {
    (void)self;
    return from_points(args, "OO:affine_from_points", 3, 6, pf_affine_from_points);
}

static PyObject *py_perspective_from_points(PyObject *self, PyObject *args) {
    (void)self;
    return from_points(args, "OO:perspective_from_points", 4, 9, pf_perspective_from_points);
}

static PyObject *py_invert_affine(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer b;
    Py_ssize_t k = pfpy_flat_buffer(arg, "m", 'd', &b);
    if (k < 0) return NULL;
    if (k != 6) {
        PyBuffer_Release(&b);
        return pfpy_invalid("m has %zd numbers; a 2x3 matrix has 6", k);
    }
    double m[6], inv[6];
    memcpy(m, b.buf, sizeof m);
    PyBuffer_Release(&b);
    pf_status st = pf_invert_affine(m, inv);
    return st == PF_OK ? matrix_tuple(inv, 6) : pfpy_raise(st);
}

PyMethodDef pfpy_warp_methods[] = {
    {"warp_affine", FN(py_warp_affine), KW,
     "warp_affine(src, matrices, size=None, dst=None, interp=INTERP_LINEAR, border=BORDER_CONSTANT,\n"
     "            border_value=None, inverse=False)\n--\n\n"
     "pf_warp_affine: matrices is a float64 array of 6 (2x3) or 6 per sample."},
    {"warp_perspective", FN(py_warp_perspective), KW,
     "warp_perspective(src, matrices, size=None, dst=None, interp=INTERP_LINEAR, border=BORDER_CONSTANT,\n"
     "                 border_value=None, inverse=False)\n--\n\n"
     "pf_warp_perspective: matrices is a float64 array of 9 (3x3) or 9 per sample."},
    {"remap", FN(py_remap), KW,
     "remap(src, map_x, map_y, dst=None, interp=INTERP_LINEAR, border=BORDER_CONSTANT, border_value=None)\n--\n\n"
     "pf_remap with float32 maps of the output's size."},
    {"rotation_matrix_2d", (PyCFunction)py_rotation_matrix_2d, METH_VARARGS,
     "rotation_matrix_2d(center, angle, scale, /)\n--\n\ncv2.getRotationMatrix2D as 6 floats."},
    {"affine_from_points", (PyCFunction)py_affine_from_points, METH_VARARGS,
     "affine_from_points(src, dst, /)\n--\n\ncv2.getAffineTransform (float32 arrays of 3 points) as 6 floats."},
    {"perspective_from_points", (PyCFunction)py_perspective_from_points, METH_VARARGS,
     "perspective_from_points(src, dst, /)\n--\n\ncv2.getPerspectiveTransform (4 points) as 9 floats."},
    {"invert_affine", (PyCFunction)py_invert_affine, METH_O,
     "invert_affine(m, /)\n--\n\ncv2.invertAffineTransform of a float64 array of 6."},
    {NULL, NULL, 0, NULL}};
