/* pf_nms for pixflow.post (the C family: src/post/nms_api.c and its
 * executors nms_greedy.c, nms_grid.c, nms_soft.c): a batch of (boxes,
 * scores, classes) samples in, the CSR keep lists out. The options are a
 * field table (fields.c: pfpy_nms_fields), shared with the heads' NMS.
 * Arrays arrive C-contiguous and typed (python/pixflow/post.py).
 * Shape checks here are the binding's own, for memory safety: these C
 * functions take bare pointers and counts, so only the binding knows how
 * many elements an array holds (python/pixflow/post.py does not re-check). */
#include <string.h>

#include "fields.h"

int pfpy_nms_opts_from(PyObject *kw, pf_nms_opts *o) {
    *o = pf_nms_opts_defaults();
    return pfpy_fields_from_dict(kw, pfpy_nms_fields, o, "nms options");
}

/* nms(samples, **opts): samples is a list of (boxes (n,4) f32, scores (n,)
 * f32, classes (n,) i32 or None); returns (offsets int64 (count+1,), keep
 * int32, scores float32) in CSR form. */
static PyObject *py_nms(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "O", &list)) return NULL;
    pf_nms_opts o;
    if (pfpy_nms_opts_from(kw, &o) < 0) return NULL;
    PyObject *seq = PySequence_Fast(list, "samples must be a list of (boxes, scores, classes)");
    if (seq == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > INT32_MAX / 4) {
        Py_DECREF(seq);
        return pfpy_invalid("too many samples");
    }
    pfpy_buf *bufs = PyMem_Calloc((size_t)(count > 0 ? count : 1) * 3, sizeof *bufs);
    pf_nms_sample *smp = PyMem_Calloc((size_t)(count > 0 ? count : 1), sizeof *smp);
    PyObject *res = NULL, *off = NULL, *keep = NULL, *sc = NULL;
    if (!bufs || !smp) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *b, *s, *c = Py_None;
        if (!PyArg_ParseTuple(t, "OO|O", &b, &s, &c)) goto done;
        pfpy_buf *bb = &bufs[3 * i];
        if (pfpy_buf_get(b, "boxes", 'f', 2, 0, 0, &bb[0]) < 0 || pfpy_buf_get(s, "scores", 'f', 1, 0, 0, &bb[1]) < 0 ||
            pfpy_buf_get(c, "classes", 'i', 1, 0, 1, &bb[2]) < 0)
            goto done;
        Py_ssize_t n = pfpy_buf_dim(&bb[1], 0);
        if (pfpy_buf_dim(&bb[0], 0) != n || pfpy_buf_dim(&bb[0], 1) != 4 || (bb[2].held && pfpy_buf_dim(&bb[2], 0) != n) || n > INT32_MAX) {
            pfpy_invalid("sample %zd: boxes must be (n, 4), scores (n,) and classes (n,) (n = %zd)", i, n);
            goto done;
        }
        smp[i] = (pf_nms_sample){bb[0].v.buf, bb[1].v.buf, bb[2].held ? bb[2].v.buf : NULL, (int32_t)n};
    }
    int64_t cap = 0;
    pf_status st = pf_nms_capacity((int)count, smp, &o, &cap);
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    Py_ssize_t oshape = count + 1, kshape = (Py_ssize_t)(cap > 0 ? cap : 0);
    off = pfpy_numpy_empty_named(1, &oshape, "int64");
    keep = pfpy_numpy_empty_named(1, &kshape, "int32");
    sc = pfpy_numpy_empty_named(1, &kshape, "float32");
    if (!off || !keep || !sc) goto done;
    int64_t *po = pfpy_numpy_data(off);
    int32_t *pk = pfpy_numpy_data(keep);
    float *ps = pfpy_numpy_data(sc);
    pf_stream *stream = pfpy_stream_acquire();
    PFPY_CALL(st, pf_nms(stream, (int)count, smp, &o, po, pk, cap, ps));
    pfpy_stream_release(stream);
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    res = Py_BuildValue("(OOO)", off, keep, sc);
done:
    for (Py_ssize_t i = 0; bufs && i < 3 * count; i++) pfpy_buf_release(&bufs[i]);
    PyMem_Free(bufs);
    PyMem_Free(smp);
    Py_XDECREF(off);
    Py_XDECREF(keep);
    Py_XDECREF(sc);
    Py_DECREF(seq);
    return res;
}

PyMethodDef pfpy_post_nms_methods[] = {
    {"post_nms", (PyCFunction)(void (*)(void))py_nms, METH_VARARGS | METH_KEYWORDS,
     "post_nms(samples, /, **opts)\n--\n\npf_nms over a batch: samples is a list of (boxes float32 (n, 4), scores "
     "float32 (n,), classes int32 (n,) or None); options as pf_nms_opts fields. Returns (offsets int64, keep "
     "int32, scores float32) in CSR form. pixflow.post wraps it."},
    {NULL, NULL, 0, NULL}};
