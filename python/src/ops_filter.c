/* Neighbourhood filters: Gaussian, box, median, filter_2d, erode,
 * dilate, sharpen (torchvision adjust_sharpness). Parameters apply to
 * every sample of the batch, except sharpen's factors (per sample). */
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static int pair(PyObject *obj, const char *name, int32_t *a, int32_t *b) {
    if (PyLong_Check(obj)) {
        long v = PyLong_AsLong(obj);
        *a = *b = (int32_t)v;
        return 0;
    }
    int x, y;
    if (!PyArg_ParseTuple(obj, "ii", &x, &y)) {
        PyErr_Clear();
        pfpy_invalid("%s must be an integer or an (x, y) pair of integers", name);
        return -1;
    }
    *a = x;
    *b = y;
    return 0;
}

static PyObject *py_gaussian_blur(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "ksize", "sigma", "sigma_y", "border", "dst", NULL};
    PyObject *src, *ksize, *dst = Py_None;
    double sigma = 0, sigma_y = 0;
    int border = PF_BORDER_REFLECT_101;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|ddiO:gaussian_blur", kwlist, &src, &ksize, &sigma, &sigma_y,
                                     &border, &dst))
        return NULL;
    pf_gaussian_params p;
    pf_gaussian_params_defaults(&p);
    if (pair(ksize, "ksize", &p.ksize_x, &p.ksize_y) < 0) return NULL;
    p.sigma_x = sigma;
    p.sigma_y = sigma_y;
    p.border = (pf_border)border;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_gaussian_blur(stream_, op.in.n, op.in.views, op.out.views, &p, 1));
    return pfpy_op_finish(&op, st);
}

static PyObject *py_box_blur(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "ksize", "anchor", "border", "dst", NULL};
    PyObject *src, *ksize, *anchor = Py_None, *dst = Py_None;
    int border = PF_BORDER_REFLECT_101;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OiO:box_blur", kwlist, &src, &ksize, &anchor, &border, &dst))
        return NULL;
    pf_box_params p;
    pf_box_params_defaults(&p);
    if (pair(ksize, "ksize", &p.ksize_x, &p.ksize_y) < 0) return NULL;
    if (anchor != Py_None && pair(anchor, "anchor", &p.anchor_x, &p.anchor_y) < 0) return NULL;
    p.border = (pf_border)border;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_box_blur(stream_, op.in.n, op.in.views, op.out.views, &p, 1));
    return pfpy_op_finish(&op, st);
}

static PyObject *py_median_blur(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "ksize", "dst", NULL};
    PyObject *src, *dst = Py_None;
    int k;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|O:median_blur", kwlist, &src, &k, &dst)) return NULL;
    int32_t ks = k;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_median_blur(stream_, op.in.n, op.in.views, op.out.views, &ks, 1));
    return pfpy_op_finish(&op, st);
}

static PyObject *py_filter_2d(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "kernel", "ksize", "anchor", "delta", "border", "dst", NULL};
    PyObject *src, *kernel, *ksize, *anchor = Py_None, *dst = Py_None;
    double delta = 0;
    int border = PF_BORDER_REFLECT_101;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OdiO:filter_2d", kwlist, &src, &kernel, &ksize, &anchor, &delta,
                                     &border, &dst))
        return NULL;
    pf_filter2d_params p;
    pf_filter2d_params_defaults(&p);
    if (pair(ksize, "ksize", &p.ksize_x, &p.ksize_y) < 0) return NULL;
    if (anchor != Py_None && pair(anchor, "anchor", &p.anchor_x, &p.anchor_y) < 0) return NULL;
    Py_buffer kb;
    Py_ssize_t k = pfpy_flat_buffer(kernel, "kernel", 'f', &kb);
    if (k < 0) return NULL;
    /* memory safety: C reads ksize_x * ksize_y floats from a bare pointer */
    if (p.ksize_x < 1 || p.ksize_y < 1 || k != (Py_ssize_t)p.ksize_x * p.ksize_y) {
        PyBuffer_Release(&kb);
        return pfpy_invalid("kernel has %zd entries for ksize (%d, %d)", k, p.ksize_x, p.ksize_y);
    }
    p.kernel = kb.buf;
    p.delta = delta;
    p.border = (pf_border)border;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyBuffer_Release(&kb);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_filter_2d(stream_, op.in.n, op.in.views, op.out.views, &p, 1));
    PyBuffer_Release(&kb);
    return pfpy_op_finish(&op, st);
}

static PyObject *morph(PyObject *args, PyObject *kw, int dilate) {
    static char *kwlist[] = {"src", "ksize", "anchor", "iterations", "border", "border_value", "dst", NULL};
    PyObject *src, *ksize = Py_None, *anchor = Py_None, *value = Py_None, *dst = Py_None;
    int iterations = 1, border = PF_BORDER_CONSTANT;
    if (!PyArg_ParseTupleAndKeywords(args, kw, dilate ? "O|OOiiOO:dilate" : "O|OOiiOO:erode", kwlist, &src, &ksize,
                                     &anchor, &iterations, &border, &value, &dst))
        return NULL;
    pf_morph_params p;
    pf_morph_params_defaults(&p);
    if (ksize != Py_None && pair(ksize, "ksize", &p.ksize_x, &p.ksize_y) < 0) return NULL;
    if (anchor != Py_None && pair(anchor, "anchor", &p.anchor_x, &p.anchor_y) < 0) return NULL;
    p.iterations = iterations;
    p.border = (pf_border)border;
    if (value != Py_None) {
        p.use_border_value = 1;
        if (pfpy_scalar_tuple(value, "border_value", 4, p.border_value) < 0) return NULL;
    }
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    if (dilate)
        PFPY_RUN(st, pf_dilate(stream_, op.in.n, op.in.views, op.out.views, &p, 1));
    else
        PFPY_RUN(st, pf_erode(stream_, op.in.n, op.in.views, op.out.views, &p, 1));
    return pfpy_op_finish(&op, st);
}

static PyObject *py_erode(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return morph(args, kw, 0);
}

static PyObject *py_dilate(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return morph(args, kw, 1);
}

static PyObject *py_sharpen(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "factors", "dst", NULL};
    PyObject *src, *factors, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:sharpen", kwlist, &src, &factors, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    int n = op.in.n;
    double *d = PyMem_Malloc((size_t)n * sizeof *d);
    float *f = PyMem_Malloc((size_t)n * sizeof *f);
    int k = (d && f) ? pfpy_params_double(factors, "factors", n, d) : (PyErr_NoMemory(), -1);
    if (k < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyMem_Free(d);
        PyMem_Free(f);
        return k < 0 ? pfpy_op_abort(&op) : NULL;
    }
    for (int i = 0; i < k; i++) f[i] = (float)d[i];
    pf_status st;
    PFPY_RUN(st, pf_sharpen(stream_, n, op.in.views, op.out.views, f, k));
    PyMem_Free(d);
    PyMem_Free(f);
    return pfpy_op_finish(&op, st);
}

PyMethodDef pfpy_filter_methods[] = {
    {"gaussian_blur", FN(py_gaussian_blur), KW,
     "gaussian_blur(src, ksize, sigma=0, sigma_y=0, border=BORDER_REFLECT_101, dst=None)\n--\n\n"
     "pf_gaussian_blur (cv2.GaussianBlur)."},
    {"box_blur", FN(py_box_blur), KW,
     "box_blur(src, ksize, anchor=None, border=BORDER_REFLECT_101, dst=None)\n--\n\npf_box_blur (cv2.blur)."},
    {"median_blur", FN(py_median_blur), KW, "median_blur(src, ksize, dst=None)\n--\n\npf_median_blur (cv2.medianBlur)."},
    {"filter_2d", FN(py_filter_2d), KW,
     "filter_2d(src, kernel, ksize, anchor=None, delta=0, border=BORDER_REFLECT_101, dst=None)\n--\n\n"
     "pf_filter_2d (cv2.filter2D with ddepth=-1): kernel is a float32 array of ksize_y x ksize_x."},
    {"erode", FN(py_erode), KW,
     "erode(src, ksize=(3, 3), anchor=None, iterations=1, border=BORDER_CONSTANT, border_value=None, dst=None)\n"
     "--\n\npf_erode with a rectangle (cv2.erode)."},
    {"dilate", FN(py_dilate), KW,
     "dilate(src, ksize=(3, 3), anchor=None, iterations=1, border=BORDER_CONSTANT, border_value=None, dst=None)\n"
     "--\n\npf_dilate with a rectangle (cv2.dilate)."},
    {"sharpen", FN(py_sharpen), KW,
     "sharpen(src, factors, dst=None)\n--\n\npf_sharpen: torchvision adjust_sharpness (per-sample factors)."},
    {NULL, NULL, 0, NULL}};
