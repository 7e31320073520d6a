/* Masks for pixflow.post (the C family: src/post/masks.c):
 * masks_from_logits, masks_to_boxes and YOLO prototype masks.
 * Shape checks here are the binding's own, for memory safety: these C
 * functions take bare pointers and counts, so only the binding knows how
 * many elements an array holds (python/pixflow/post.py does not re-check). */
#include <string.h>

#include "pfpy.h"

static PyObject *py_masks_from_logits(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *l;
    pf_mask_opts o = pf_mask_opts_defaults();
    int mode, value;
    if (!PyArg_ParseTuple(args, "Oifi", &l, &mode, &o.threshold, &value)) return NULL;
    o.mode = (pf_mask_mode)mode;
    o.value = (uint8_t)value;
    pfpy_buf bl;
    if (pfpy_buf_get(l, "logits", 'f', 4, 0, 0, &bl) < 0) return NULL;
    Py_ssize_t shape[4] = {pfpy_buf_dim(&bl, 0), mode == PF_MASK_ARGMAX ? 1 : pfpy_buf_dim(&bl, 1), pfpy_buf_dim(&bl, 2), pfpy_buf_dim(&bl, 3)};
    PyObject *out = NULL;
    if (shape[0] > INT32_MAX || pfpy_buf_dim(&bl, 1) > INT32_MAX || shape[2] > INT32_MAX || shape[3] > INT32_MAX)
        pfpy_invalid("logits is too large");
    else if ((out = pfpy_numpy_empty_named(4, shape, "uint8")) != NULL) {
        pf_status st;
        void *po = pfpy_numpy_data(out);
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_masks_from_logits(stream, bl.v.buf, (int32_t)shape[0], (int32_t)pfpy_buf_dim(&bl, 1), (int32_t)shape[2],
                                           (int32_t)shape[3], po, &o));
        pfpy_stream_release(stream);
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    pfpy_buf_release(&bl);
    return out;
}

static PyObject *py_masks_to_boxes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *m;
    if (!PyArg_ParseTuple(args, "O", &m)) return NULL;
    pfpy_buf bm;
    if (pfpy_buf_get(m, "masks", 'B', 3, 0, 0, &bm) < 0) return NULL;
    Py_ssize_t n = pfpy_buf_dim(&bm, 0), h = pfpy_buf_dim(&bm, 1), w = pfpy_buf_dim(&bm, 2), shape[2] = {n, 4};
    PyObject *out = pfpy_numpy_empty_named(2, shape, "float32");
    pf_image *v = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (out && v && n > 0 && h > 0 && w > 0 && n <= INT32_MAX && h <= INT32_MAX && w <= INT32_MAX) {
        for (Py_ssize_t i = 0; i < n; i++)
            v[i] = pf_image_hwc((uint8_t *)bm.v.buf + (size_t)i * (size_t)h * (size_t)w, (int32_t)w, (int32_t)h, 1, PF_U8, 0);
        pf_status st = pf_masks_to_boxes((int)n, v, pfpy_numpy_data(out));
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    } else if (out && n > 0 && (h == 0 || w == 0)) { /* no pixels at all: every mask is empty */
        memset(pfpy_numpy_data(out), 0, (size_t)n * 16);
    } else if (!v) {
        Py_CLEAR(out);
        PyErr_NoMemory();
    }
    PyMem_Free(v);
    pfpy_buf_release(&bm);
    return out;
}

/* proto_masks(coeffs (k, m) f32, protos (m, h, w) f32, boxes (k, 4) f32,
 * input_w, input_h, crop, value) -> (masks u8 (k, h, w), logits f32) */
static PyObject *py_proto_masks(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *c, *p, *b;
    pf_proto_opts o = pf_proto_opts_defaults();
    int crop, value;
    if (!PyArg_ParseTuple(args, "OOOiipi", &c, &p, &b, &o.input_width, &o.input_height, &crop, &value)) return NULL;
    o.crop = crop;
    o.value = (uint8_t)value;
    pfpy_buf bc, bp, bb;
    if (pfpy_buf_get(c, "coeffs", 'f', 2, 0, 0, &bc) < 0) return NULL;
    if (pfpy_buf_get(p, "protos", 'f', 3, 0, 0, &bp) < 0) {
        pfpy_buf_release(&bc);
        return NULL;
    }
    if (pfpy_buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) {
        pfpy_buf_release(&bc);
        pfpy_buf_release(&bp);
        return NULL;
    }
    PyObject *res = NULL, *mo = NULL, *lo = NULL;
    Py_ssize_t k = pfpy_buf_dim(&bc, 0), m = pfpy_buf_dim(&bc, 1), h = pfpy_buf_dim(&bp, 1), w = pfpy_buf_dim(&bp, 2), shape[3] = {k, h, w};
    pf_image *v = PyMem_Malloc((size_t)(k > 0 ? k : 1) * 2 * sizeof *v);
    if (!v) {
        PyErr_NoMemory();
    } else if (pfpy_buf_dim(&bp, 0) != m || pfpy_buf_dim(&bb, 0) != k || pfpy_buf_dim(&bb, 1) != 4 || m > INT32_MAX || h > INT32_MAX ||
               w > INT32_MAX || k > INT32_MAX) {
        pfpy_invalid("coeffs (k, m), protos (m, h, w) and boxes (k, 4) disagree");
    } else if ((mo = pfpy_numpy_empty_named(3, shape, "uint8")) != NULL && (lo = pfpy_numpy_empty_named(3, shape, "float32")) != NULL) {
        uint8_t *pm = pfpy_numpy_data(mo);
        float *pl = pfpy_numpy_data(lo);
        for (Py_ssize_t i = 0; i < k; i++) {
            v[i] = pf_image_hwc(pm + (size_t)i * (size_t)h * (size_t)w, (int32_t)w, (int32_t)h, 1, PF_U8, 0);
            v[k + i] = pf_image_hwc(pl + (size_t)i * (size_t)h * (size_t)w, (int32_t)w, (int32_t)h, 1, PF_F32, 0);
        }
        pf_status st;
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_proto_masks(stream, &o, (int)k, bc.v.buf, (int32_t)m, bp.v.buf, (int32_t)h, (int32_t)w, bb.v.buf,
                                     v, v + k));
        pfpy_stream_release(stream);
        if (st != PF_OK) pfpy_raise(st);
        else res = Py_BuildValue("(OO)", mo, lo);
    }
    Py_XDECREF(mo);
    Py_XDECREF(lo);
    PyMem_Free(v);
    pfpy_buf_release(&bc);
    pfpy_buf_release(&bp);
    pfpy_buf_release(&bb);
    return res;
}

PyMethodDef pfpy_post_masks_methods[] = {
    {"post_masks_from_logits", py_masks_from_logits, METH_VARARGS,
     "post_masks_from_logits(logits, mode, threshold, value, /)\n--\n\npf_masks_from_logits of float32 (n, c, h, w)."},
    {"post_masks_to_boxes", py_masks_to_boxes, METH_VARARGS,
     "post_masks_to_boxes(masks, /)\n--\n\npf_masks_to_boxes of uint8 (n, h, w) masks."},
    {"post_proto_masks", py_proto_masks, METH_VARARGS,
     "post_proto_masks(coeffs, protos, boxes, input_width, input_height, crop, value, /)\n--\n\npf_proto_masks: "
     "(masks, logits)."},
    {NULL, NULL, 0, NULL}};
