/* Value and layout conversions: pf_convert (dtype, scale, shift, channel
 * order, layout), pf_normalize (mean/std and OpenCV's NORM_MINMAX),
 * pf_split and pf_merge (the C family: src/ops/convert_op.c,
 * normalize_op.c, channels_op.c). pf_lut is its own family: ops_lut.c. */
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static int parse_order(PyObject *obj, int8_t order[4]) {
    for (int c = 0; c < 4; c++) order[c] = (int8_t)c;
    if (obj == NULL || obj == Py_None) return 0;
    double v[4] = {0, 1, 2, 3};
    int k = pfpy_scalar_tuple(obj, "order", 4, v);
    if (k < 0) return -1;
    for (int c = 0; c < k; c++) {
        if (v[c] < -1 || v[c] > 3 || v[c] != (double)(int)v[c])
            return pfpy_invalid("order[%d] = %g; entries are source channels 0..3 or -1 (fill)", c, v[c]), -1;
        order[c] = (int8_t)v[c];
    }
    return k;
}

static int check_dtype(int dt, const char *name) {
    if (dt < PF_U8 || dt > PF_F32) {
        pfpy_invalid("%s = %d is not a pixflow dtype", name, dt);
        return -1;
    }
    return 0;
}

/* convert / normalize share: channels from `channels` (0: src's), dtype,
 * layout (-1: src's) */
static void set_out(pfpy_op *op, int dt, int layout, int channels) {
    for (int i = 0; i < op->in.n; i++) {
        pfpy_shape *s = &op->shapes[i];
        s->dtype = (pf_dtype)dt;
        if (channels > 0) s->channels = channels;
        if (layout >= 0) {
            s->layout = (pf_layout)layout;
            s->torch = layout == PF_CHW;
            s->ndim = 3;
        }
        if (s->channels == 1 && s->ndim == 3 && !s->torch && layout < 0) s->ndim = op->in.im[i].ndim;
    }
    op->flags |= PFPY_CHW_OK;
}

static PyObject *py_convert(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "dtype", "alpha", "beta", "order", "channels", "fill", "layout", "dst", NULL};
    PyObject *src, *order = Py_None, *dst = Py_None;
    int dt, channels = 0, layout = -1;
    double alpha = 1, beta = 0, fill = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|ddOidiO:convert", kwlist, &src, &dt, &alpha, &beta, &order,
                                     &channels, &fill, &layout, &dst))
        return NULL;
    if (check_dtype(dt, "dtype") < 0) return NULL;
    pf_convert_opts o = pf_convert_opts_defaults();
    o.alpha = alpha;
    o.beta = beta;
    o.fill = fill;
    if (parse_order(order, o.order) < 0) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    set_out(&op, dt, layout, channels);
    if (pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_convert(stream_, op.in.n, op.in.views, op.out.views, &o));
    return pfpy_op_finish(&op, st);
}

static PyObject *py_normalize(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "dtype", "mean", "std", "scale", "mode", "lo", "hi", "order", "layout", "dst", NULL};
    PyObject *src, *mean = Py_None, *stdv = Py_None, *order = Py_None, *dst = Py_None;
    int dt = PF_F32, mode = PF_NORM_MEAN_STD, layout = -1;
    double scale = 1, lo = 0, hi = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|iOOdiddOiO:normalize", kwlist, &src, &dt, &mean, &stdv, &scale,
                                     &mode, &lo, &hi, &order, &layout, &dst))
        return NULL;
    if (check_dtype(dt, "dtype") < 0) return NULL;
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.mode = (pf_norm_mode)mode;
    o.scale = (float)scale;
    o.lo = lo;
    o.hi = hi;
    double m[4] = {0, 0, 0, 0}, s[4] = {1, 1, 1, 1};
    int km = pfpy_scalar_tuple(mean, "mean", 4, m), ks = pfpy_scalar_tuple(stdv, "std", 4, s);
    if (km < 0 || ks < 0) return NULL;
    /* one number is every channel's (torchvision Normalize accepts that) */
    if (km == 1) m[1] = m[2] = m[3] = m[0];
    if (ks == 1) s[1] = s[2] = s[3] = s[0];
    for (int c = 0; c < 4; c++) {
        o.params.mean[c] = (float)m[c];
        o.params.std[c] = (float)s[c];
    }
    if (parse_order(order, o.order) < 0) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    set_out(&op, dt, layout, 0);
    if (pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_normalize(stream_, op.in.n, op.in.views, op.out.views, &o));
    return pfpy_op_finish(&op, st);
}

/* split: one image -> a list of its 2-D planes */
static PyObject *py_split(PyObject *self, PyObject *arg) {
    (void)self;
    pfpy_image im;
    if (pfpy_image_in(arg, "src", PFPY_CHW_OK, &im) < 0) return NULL;
    int c = im.img.channels;
    PyObject *list = PyList_New(c);
    pf_image planes[4];
    pfpy_image outs[4];
    int made = 0;
    if (list == NULL) goto fail;
    for (; made < c; made++) {
        pfpy_shape s = {im.img.width, im.img.height, 1, im.img.dtype, 2, PF_HWC, 0};
        PyObject *a = pfpy_numpy_empty(&s);
        if (a == NULL || pfpy_image_in(a, "dst", PFPY_WRITABLE, &outs[made]) < 0) {
            Py_XDECREF(a);
            goto fail;
        }
        PyList_SET_ITEM(list, made, a);
        planes[made] = outs[made].img;
    }
    pf_status st;
    PFPY_RUN(st, pf_split(stream_, 1, &im.img, planes));
    for (int i = 0; i < made; i++) pfpy_image_release(&outs[i]);
    pfpy_image_release(&im);
    if (st != PF_OK) {
        Py_DECREF(list);
        return pfpy_raise(st);
    }
    return list;
fail:
    for (int i = 0; i < made; i++) pfpy_image_release(&outs[i]);
    pfpy_image_release(&im);
    Py_XDECREF(list);
    return NULL;
}

static PyObject *py_merge(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"planes", "dst", NULL};
    PyObject *planes, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:merge", kwlist, &planes, &dst)) return NULL;
    if (!PyList_Check(planes) && !PyTuple_Check(planes)) return pfpy_invalid("planes must be a list of 2-D arrays");
    pfpy_op op;
    if (pfpy_op_begin(&op, planes, "planes", 0) < 0) return NULL;
    int c = op.in.n;
    if (c > 4) {
        pfpy_invalid("planes has %d arrays; pixflow images have 1 to 4 channels", c);
        return pfpy_op_abort(&op);
    }
    for (int i = 0; i < c; i++) {
        const pf_image *v = &op.in.views[i];
        if (v->channels != 1 || v->width != op.in.views[0].width || v->height != op.in.views[0].height ||
            v->dtype != op.in.views[0].dtype) {
            pfpy_invalid("planes[%d] must be a single-channel array of planes[0]'s size and dtype", i);
            return pfpy_op_abort(&op);
        }
    }
    /* the result is one image: make it alone, then wrap as a batch of one */
    pfpy_shape s = op.shapes[0];
    s.channels = c;
    s.ndim = c == 1 ? 2 : 3;
    pfpy_images one = {0};
    one.n = 1;
    one.im = &one.one;
    one.views = &one.one_view;
    pfpy_images out;
    PyObject *result;
    if (pfpy_images_out(dst, "dst", &one, &s, 0, &out, &result) < 0) return pfpy_op_abort(&op);
    pf_status st;
    PFPY_RUN(st, pf_merge(stream_, 1, c, op.in.views, out.views));
    pfpy_images_release(&out);
    op.result = result;
    return pfpy_op_finish(&op, st);
}

PyMethodDef pfpy_convert_methods[] = {
    {"convert", FN(py_convert), KW,
     "convert(src, dtype, alpha=1, beta=0, order=None, channels=0, fill=0, layout=-1, dst=None)\n--\n\n"
     "pf_convert: saturate(src * alpha + beta) as dtype (OpenCV convertTo), with a channel order and an\n"
     "optional layout change (layout=1: the result is (C, H, W))."},
    {"normalize", FN(py_normalize), KW,
     "normalize(src, dtype=F32, mean=None, std=None, scale=1, mode=NORM_MEAN_STD, lo=0, hi=1, order=None, layout=-1,\n"
     "          dst=None)\n--\n\n"
     "pf_normalize: (src * scale - mean[c]) / std[c] (mode 0) or OpenCV's NORM_MINMAX (mode 32)."},
    {"split", (PyCFunction)py_split, METH_O, "split(src, /)\n--\n\npf_split: a list of the image's planes."},
    {"merge", FN(py_merge), KW, "merge(planes, dst=None)\n--\n\npf_merge: planes into one image."},
    {NULL, NULL, 0, NULL}};
