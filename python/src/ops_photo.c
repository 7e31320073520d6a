/* Photometric ops with torchvision.transforms.v2.functional semantics
 * (pf_adjust_* , grayscale, invert, solarize, posterize, autocontrast,
 * equalize, colour twist, Gaussian noise, erase). Factors are per sample:
 * one number for all or one per sample. Channel-wise ops take planar
 * views too; the colour-mixing ones need HWC (copied when not). */
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

typedef pf_status (*factor_fn)(pf_stream *, int, const pf_image[], pf_image[], const double[], int);

/* op(src, factors, dst=None) for the ops whose parameter is one double */
static PyObject *factor_op(PyObject *args, PyObject *kw, const char *fmt, const char *pname, unsigned flags,
                           factor_fn fn) {
    /* the keyword is the parameter's name (solarize's thresholds, as its docstring and errors say) */
    static char *kw_factors[] = {"src", "factors", "dst", NULL};
    static char *kw_thresholds[] = {"src", "thresholds", "dst", NULL};
    char **kwlist = strcmp(pname, "thresholds") == 0 ? kw_thresholds : kw_factors;
    PyObject *src, *factors, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &src, &factors, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", flags) < 0) return NULL;
    double one, *d = op.in.n == 1 ? &one : PyMem_Malloc((size_t)op.in.n * sizeof *d);
    int k = d ? pfpy_params_double(factors, pname, op.in.n, d) : (PyErr_NoMemory(), -1);
    if (k < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) {
        if (d != &one) PyMem_Free(d);
        return k < 0 ? pfpy_op_abort(&op) : NULL;
    }
    pf_status st;
    PFPY_RUN(st, fn(stream_, op.in.n, op.in.views, op.out.views, d, k));
    if (d != &one) PyMem_Free(d);
    return pfpy_op_finish(&op, st);
}

#define FACTOR_OP(name, pname, flags, fn)                                     \
    static PyObject *py_##name(PyObject *self, PyObject *args, PyObject *kw) { \
        (void)self;                                                           \
        return factor_op(args, kw, "OO|O:" #name, pname, flags, fn);          \
    }

FACTOR_OP(adjust_brightness, "factors", PFPY_CHW_OK, pf_adjust_brightness)
FACTOR_OP(adjust_contrast, "factors", 0, pf_adjust_contrast)
FACTOR_OP(adjust_saturation, "factors", 0, pf_adjust_saturation)
FACTOR_OP(adjust_hue, "factors", 0, pf_adjust_hue)
FACTOR_OP(solarize, "thresholds", PFPY_CHW_OK, pf_solarize)

typedef pf_status (*plain_fn)(pf_stream *, int, const pf_image[], pf_image[]);

static PyObject *plain_op(PyObject *args, PyObject *kw, const char *fmt, unsigned flags, plain_fn fn) {
    static char *kwlist[] = {"src", "dst", NULL};
    PyObject *src, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &src, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", flags) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, fn(stream_, op.in.n, op.in.views, op.out.views));
    return pfpy_op_finish(&op, st);
}

#define PLAIN_OP(name, flags, fn)                                             \
    static PyObject *py_##name(PyObject *self, PyObject *args, PyObject *kw) { \
        (void)self;                                                           \
        return plain_op(args, kw, "O|O:" #name, flags, fn);                   \
    }

PLAIN_OP(invert, PFPY_CHW_OK, pf_invert)
PLAIN_OP(autocontrast, PFPY_CHW_OK, pf_autocontrast)
PLAIN_OP(equalize, PFPY_CHW_OK, pf_equalize)

static PyObject *py_rgb_to_grayscale(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "channels", "dst", NULL};
    PyObject *src, *dst = Py_None;
    int channels = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|iO:rgb_to_grayscale", kwlist, &src, &channels, &dst)) return NULL;
    if (channels != 1 && channels != 3) return pfpy_invalid("channels = %d; use 1 or 3", channels);
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", 0) < 0) return NULL;
    for (int i = 0; i < op.in.n; i++) {
        op.shapes[i].channels = channels;
        if (channels == 3) op.shapes[i].ndim = 3;
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_rgb_to_grayscale(stream_, op.in.n, op.in.views, op.out.views));
    return pfpy_op_finish(&op, st);
}

static PyObject *py_posterize(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "bits", "dst", NULL};
    PyObject *src, *bits, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:posterize", kwlist, &src, &bits, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    int one, *b = op.in.n == 1 ? &one : PyMem_Malloc((size_t)op.in.n * sizeof *b);
    int k = b ? pfpy_params_int(bits, "bits", op.in.n, b) : (PyErr_NoMemory(), -1);
    if (k < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) {
        if (b != &one) PyMem_Free(b);
        return k < 0 ? pfpy_op_abort(&op) : NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_posterize(stream_, op.in.n, op.in.views, op.out.views, b, k));
    if (b != &one) PyMem_Free(b);
    return pfpy_op_finish(&op, st);
}

static PyObject *py_adjust_gamma(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "gammas", "gains", "dst", NULL};
    PyObject *src, *gammas, *gains = Py_None, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:adjust_gamma", kwlist, &src, &gammas, &gains, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    int n = op.in.n;
    double *g = PyMem_Malloc((size_t)n * sizeof *g), *a = PyMem_Malloc((size_t)n * sizeof *a);
    int kg = -1, ka = 0;
    if (g == NULL || a == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if ((kg = pfpy_params_double(gammas, "gammas", n, g)) < 0) goto fail;
    if (gains != Py_None && (ka = pfpy_params_double(gains, "gains", n, a)) < 0) goto fail;
    /* the C call takes one count for both arrays: widen the shorter */
    int k = kg;
    if (ka && ka != kg) {
        k = n;
        for (int i = kg; i < n; i++) g[i] = g[0];
        for (int i = ka; i < n; i++) a[i] = a[0];
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyMem_Free(g);
        PyMem_Free(a);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_adjust_gamma(stream_, n, op.in.views, op.out.views, g, ka ? a : NULL, k));
    PyMem_Free(g);
    PyMem_Free(a);
    return pfpy_op_finish(&op, st);
fail:
    PyMem_Free(g);
    PyMem_Free(a);
    return pfpy_op_abort(&op);
}

static PyObject *py_color_twist(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "matrices", "dst", NULL};
    PyObject *src, *mats, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:color_twist", kwlist, &src, &mats, &dst)) return NULL;
    Py_buffer mb;
    Py_ssize_t k = pfpy_flat_buffer(mats, "matrices", 'f', &mb);
    if (k < 0) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", 0) < 0) {
        PyBuffer_Release(&mb);
        return NULL;
    }
    /* memory safety: C reads 12 floats per sample from a bare array */
    if (k != 12 && k != 12 * (Py_ssize_t)op.in.n) {
        PyBuffer_Release(&mb);
        pfpy_invalid("matrices has %zd numbers; pass one 3x4 matrix or one per sample", k);
        return pfpy_op_abort(&op);
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyBuffer_Release(&mb);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_color_twist(stream_, op.in.n, op.in.views, op.out.views, mb.buf, (int)(k / 12)));
    PyBuffer_Release(&mb);
    return pfpy_op_finish(&op, st);
}

static PyObject *py_gaussian_noise(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "means", "sigmas", "seed", "clip", "sample_ids", "dst", NULL};
    PyObject *src, *means, *sigmas, *ids = Py_None, *dst = Py_None;
    unsigned long long seed = 0;
    int clip = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|KpOO:gaussian_noise", kwlist, &src, &means, &sigmas, &seed, &clip,
                                     &ids, &dst))
        return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    int n = op.in.n;
    double *m = PyMem_Malloc((size_t)n * sizeof *m), *s = PyMem_Malloc((size_t)n * sizeof *s);
    uint64_t *sid = PyMem_Malloc((size_t)n * sizeof *sid);
    int km = -1, ks = -1;
    pf_noise_opts o = pf_noise_opts_defaults();
    if (m == NULL || s == NULL || sid == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if ((km = pfpy_params_double(means, "means", n, m)) < 0 || (ks = pfpy_params_double(sigmas, "sigmas", n, s)) < 0)
        goto fail;
    int k = km;
    if (km != ks) {
        k = n;
        for (int i = km; i < n; i++) m[i] = m[0];
        for (int i = ks; i < n; i++) s[i] = s[0];
    }
    o.seed = seed;
    o.clip = clip != 0;
    if (ids != Py_None) {
        PyObject *seq = PySequence_Fast(ids, "sample_ids");
        if (seq == NULL || PySequence_Fast_GET_SIZE(seq) != n) {
            Py_XDECREF(seq);
            PyErr_Clear();
            pfpy_invalid("sample_ids must be a sequence of one id per sample (%d)", n);
            goto fail;
        }
        for (int i = 0; i < n; i++) sid[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        Py_DECREF(seq);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            pfpy_invalid("sample_ids must be non-negative integers");
            goto fail;
        }
        o.sample_ids = sid;
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyMem_Free(m);
        PyMem_Free(s);
        PyMem_Free(sid);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_gaussian_noise(stream_, n, op.in.views, op.out.views, m, s, k, &o));
    PyMem_Free(m);
    PyMem_Free(s);
    PyMem_Free(sid);
    return pfpy_op_finish(&op, st);
fail:
    PyMem_Free(m);
    PyMem_Free(s);
    PyMem_Free(sid);
    return pfpy_op_abort(&op);
}

/* erase(src, rects, value=0): rects is (x, y, w, h) for every sample, or
 * a list with one (x, y, w, h) (or a list of them) per sample. */
static int parse_rect(PyObject *o, double *value, pf_erase_rect *r) {
    int q[4];
    if (pfpy_rect(o, "rects entries", q) < 0) return -1;
    r->x = q[0], r->y = q[1], r->width = q[2], r->height = q[3];
    memcpy(r->value, value, 4 * sizeof *value);
    return 0;
}

static PyObject *py_erase(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "rects", "value", "dst", NULL};
    PyObject *src, *rects, *value = Py_None, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:erase", kwlist, &src, &rects, &value, &dst)) return NULL;
    double v[4] = {0, 0, 0, 0};
    int kv = pfpy_scalar_tuple(value, "value", 4, v);
    if (kv < 0) return NULL;
    if (kv == 1) v[1] = v[2] = v[3] = v[0];
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    int n = op.in.n;
    PyObject *seq = PySequence_Fast(rects, "rects");
    pf_erase_rect *r = NULL;
    int32_t *counts = NULL;
    int ncounts = 1;
    if (seq == NULL) goto fail;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int flat = k == 4 && PyLong_Check(PySequence_Fast_GET_ITEM(seq, 0));
    if (flat) {
        r = PyMem_Malloc(sizeof *r);
        counts = PyMem_Malloc(sizeof *counts);
        if (r == NULL || counts == NULL || parse_rect(rects, v, r) < 0) goto fail;
        counts[0] = 1;
    } else {
        if (k != n) {
            pfpy_invalid("rects has %zd entries; pass one (x, y, w, h) for all or one entry per sample (%d)", k, n);
            goto fail;
        }
        ncounts = n;
        counts = PyMem_Calloc((size_t)n, sizeof *counts);
        Py_ssize_t total = 0;
        for (int i = 0; i < n; i++) {
            PyObject *e = PySequence_Fast_GET_ITEM(seq, i);
            if (e == Py_None) continue;
            if (!PySequence_Check(e)) {
                pfpy_invalid("rects[%d] must be (x, y, w, h), a list of them, or None", i);
                goto fail;
            }
            PyObject *first = PySequence_GetItem(e, 0);
            int single = first && PyLong_Check(first);
            Py_XDECREF(first);
            PyErr_Clear();
            total += single ? 1 : PySequence_Size(e);
        }
        r = PyMem_Calloc((size_t)(total ? total : 1), sizeof *r);
        if (counts == NULL || r == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        Py_ssize_t at = 0;
        for (int i = 0; i < n; i++) {
            PyObject *e = PySequence_Fast_GET_ITEM(seq, i);
            if (e == Py_None) continue;
            PyObject *first = PySequence_GetItem(e, 0);
            int single = first && PyLong_Check(first);
            Py_XDECREF(first);
            PyErr_Clear();
            if (single) {
                if (parse_rect(e, v, &r[at++]) < 0) goto fail;
                counts[i] = 1;
            } else {
                Py_ssize_t m = PySequence_Size(e);
                for (Py_ssize_t j = 0; j < m; j++) {
                    PyObject *rr = PySequence_GetItem(e, j);
                    int bad = rr == NULL || parse_rect(rr, v, &r[at++]) < 0;
                    Py_XDECREF(rr);
                    if (bad) goto fail;
                }
                counts[i] = (int32_t)m;
            }
        }
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        Py_DECREF(seq);
        PyMem_Free(r);
        PyMem_Free(counts);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_erase(stream_, n, op.in.views, op.out.views, r, counts, ncounts));
    Py_DECREF(seq);
    PyMem_Free(r);
    PyMem_Free(counts);
    return pfpy_op_finish(&op, st);
fail:
    Py_XDECREF(seq);
    PyMem_Free(r);
    PyMem_Free(counts);
    return pfpy_op_abort(&op);
}

PyMethodDef pfpy_photo_methods[] = {
    {"adjust_brightness", FN(py_adjust_brightness), KW,
     "adjust_brightness(src, factors, dst=None)\n--\n\ntorchvision adjust_brightness (per-sample factors)."},
    {"adjust_contrast", FN(py_adjust_contrast), KW,
     "adjust_contrast(src, factors, dst=None)\n--\n\ntorchvision adjust_contrast."},
    {"adjust_saturation", FN(py_adjust_saturation), KW,
     "adjust_saturation(src, factors, dst=None)\n--\n\ntorchvision adjust_saturation."},
    {"adjust_hue", FN(py_adjust_hue), KW, "adjust_hue(src, factors, dst=None)\n--\n\ntorchvision adjust_hue."},
    {"adjust_gamma", FN(py_adjust_gamma), KW,
     "adjust_gamma(src, gammas, gains=None, dst=None)\n--\n\ntorchvision adjust_gamma."},
    {"rgb_to_grayscale", FN(py_rgb_to_grayscale), KW,
     "rgb_to_grayscale(src, channels=1, dst=None)\n--\n\ntorchvision rgb_to_grayscale."},
    {"invert", FN(py_invert), KW, "invert(src, dst=None)\n--\n\ntorchvision invert (255 - x / 1 - x)."},
    {"solarize", FN(py_solarize), KW, "solarize(src, thresholds, dst=None)\n--\n\ntorchvision solarize."},
    {"posterize", FN(py_posterize), KW, "posterize(src, bits, dst=None)\n--\n\ntorchvision posterize."},
    {"autocontrast", FN(py_autocontrast), KW, "autocontrast(src, dst=None)\n--\n\ntorchvision autocontrast."},
    {"equalize", FN(py_equalize), KW, "equalize(src, dst=None)\n--\n\ntorchvision equalize."},
    {"color_twist", FN(py_color_twist), KW,
     "color_twist(src, matrices, dst=None)\n--\n\npf_color_twist: float32 3x4 matrices (one or one per sample)."},
    {"gaussian_noise", FN(py_gaussian_noise), KW,
     "gaussian_noise(src, means, sigmas, seed=0, clip=True, sample_ids=None, dst=None)\n--\n\n"
     "torchvision gaussian_noise with pixflow's Philox stream keyed by (seed, sample id)."},
    {"erase", FN(py_erase), KW,
     "erase(src, rects, value=0, dst=None)\n--\n\ntorchvision erase: rects (x, y, w, h) for all, or per sample\n"
     "(a rect, a list of rects, or None)."},
    {NULL, NULL, 0, NULL}};
