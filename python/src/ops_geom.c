/* Geometry ops: resize, flip, rotate, transpose, copy_make_border,
 * warp_affine, warp_perspective, remap and the matrix helpers. Each takes
 * one image or a list (batch-first, per-sample parameters: a value for
 * every sample or one per sample) and returns the same kind. */
#include <string.h>

#include "pfpy.h"

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

/* Output sizes: from `size`, or (size None) from the destinations. */
static int out_sizes(pfpy_op *op, PyObject *size, PyObject *dst) {
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

static PyObject *py_resize(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "size", "dst", "interp", "antialias", "flavor", NULL};
    PyObject *src, *size = Py_None, *dst = Py_None;
    int interp = PF_INTERP_LINEAR, antialias = 0, flavor = PF_RESIZE_OPENCV;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOipi:resize", kwlist, &src, &size, &dst, &interp, &antialias,
                                     &flavor))
        return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    if (out_sizes(&op, size, dst) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return pfpy_op_abort(&op);
    pf_resize_opts o = pf_resize_opts_defaults();
    o.interp = (pf_interp)interp;
    o.antialias = antialias != 0;
    o.flavor = (pf_resize_flavor)flavor;
    pf_status st;
    PFPY_RUN(st, pf_resize(stream_, op.in.n, op.in.views, op.out.views, &o));
    return pfpy_op_finish(&op, st);
}

/* flip / rotate: one code per sample or one for all. */
static PyObject *codes_op(PyObject *args, PyObject *kw, const char *fname, int rotate) {
    static char *kwlist[] = {"src", "codes", "dst", NULL};
    PyObject *src, *codes, *dst = Py_None;
    char fmt[32];
    snprintf(fmt, sizeof fmt, "OO|O:%s", fname);
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &src, &codes, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK | PFPY_ANY_DTYPE) < 0) return NULL;
    int n = op.in.n, one;
    int *c = n == 1 ? &one : PyMem_Malloc((size_t)n * sizeof *c);
    if (c == NULL) return pfpy_op_abort(&op);
    int nc = pfpy_params_int(codes, "codes", n, c);
    if (nc < 0) goto fail;
    if (rotate) {
        for (int i = 0; i < n; i++) {
            int code = c[nc == 1 ? 0 : i];
            if (code == PF_ROTATE_90_CLOCKWISE || code == PF_ROTATE_90_COUNTERCLOCKWISE) {
                int32_t t = op.shapes[i].width;
                op.shapes[i].width = op.shapes[i].height;
                op.shapes[i].height = t;
            }
        }
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        if (c != &one) PyMem_Free(c);
        return NULL;
    }
    pf_status st;
    /* the enums' values are the codes (cv2's plus pixflow's "none") */
    if (rotate) {
        pf_rotate_code rc[1], *r = n == 1 ? rc : PyMem_Malloc((size_t)nc * sizeof *r);
        for (int i = 0; r && i < nc; i++) r[i] = (pf_rotate_code)c[i];
        PFPY_RUN(st, r ? pf_rotate(stream_, n, op.in.views, op.out.views, r, nc) : PF_ERR_OUT_OF_MEMORY);
        if (r != rc) PyMem_Free(r);
    } else {
        pf_flip_code fc[1], *f = n == 1 ? fc : PyMem_Malloc((size_t)nc * sizeof *f);
        for (int i = 0; f && i < nc; i++) f[i] = (pf_flip_code)c[i];
        PFPY_RUN(st, f ? pf_flip(stream_, n, op.in.views, op.out.views, f, nc) : PF_ERR_OUT_OF_MEMORY);
        if (f != fc) PyMem_Free(f);
    }
    if (c != &one) PyMem_Free(c);
    return pfpy_op_finish(&op, st);
fail:
    if (c != &one) PyMem_Free(c);
    return pfpy_op_abort(&op);
}

static PyObject *py_flip(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return codes_op(args, kw, "flip", 0);
}

static PyObject *py_rotate(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return codes_op(args, kw, "rotate", 1);
}

static PyObject *py_transpose(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "dst", NULL};
    PyObject *src, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:transpose", kwlist, &src, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK | PFPY_ANY_DTYPE) < 0) return NULL;
    for (int i = 0; i < op.in.n; i++) {
        int32_t t = op.shapes[i].width;
        op.shapes[i].width = op.shapes[i].height;
        op.shapes[i].height = t;
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_transpose(stream_, op.in.n, op.in.views, op.out.views));
    return pfpy_op_finish(&op, st);
}

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
    if (k != per && k != (Py_ssize_t)per * op.in.n) {
        pfpy_invalid("matrices has %zd numbers; pass one %s matrix or one per sample (%d)", k,
                     persp ? "3x3" : "2x3", op.in.n);
        goto fail;
    }
    if (warp_opts(interp, border, value, inverse, &o) < 0 || out_sizes(&op, size, dst) < 0) goto fail;
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

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

PyMethodDef pfpy_geom_methods[] = {
    {"resize", FN(py_resize), KW,
     "resize(src, size=None, dst=None, interp=INTERP_LINEAR, antialias=False, flavor=RESIZE_OPENCV)\n--\n\n"
     "pf_resize: src (an image or a list) to size (width, height), one for all or one per sample.\n"
     "flavor RESIZE_OPENCV: cv2.resize's pixels (antialias=True: Pillow's Image.resize);\n"
     "RESIZE_PILLOW: Pillow's; RESIZE_TORCHVISION: torchvision 0.29 F.resize's (antialias is its argument)."},
    {"flip", FN(py_flip), KW,
     "flip(src, codes, dst=None)\n--\n\npf_flip: codes 1 horizontal, 0 vertical, -1 both, 2 none (per sample)."},
    {"rotate", FN(py_rotate), KW,
     "rotate(src, codes, dst=None)\n--\n\npf_rotate: 0 90 clockwise, 1 180, 2 90 counter-clockwise, 3 none."},
    {"transpose", FN(py_transpose), KW, "transpose(src, dst=None)\n--\n\npf_transpose: dst(x, y) = src(y, x)."},
    {"copy_make_border", FN(py_copy_make_border), KW,
     "copy_make_border(src, top, bottom, left, right, border=BORDER_CONSTANT, value=None, dst=None)\n--\n\n"
     "pf_copy_make_border (cv2.copyMakeBorder); widths per sample or for all."},
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
