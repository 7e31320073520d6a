/* Box utilities for pixflow.post (the C family: src/post/boxes.c,
 * box_iou.c): box_convert, clip_boxes, remove_small_boxes, box_iou and
 * boxes_unmap. Arrays arrive C-contiguous and typed (post.py).
 * Shape checks here are the binding's own, for memory safety: these C
 * functions take bare pointers and counts, so only the binding knows how
 * many elements an array holds (python/pixflow/post.py does not re-check). */
#include <string.h>

#include "pfpy.h"

static PyObject *py_box_convert(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b;
    int in_fmt, out_fmt;
    if (!PyArg_ParseTuple(args, "Oii", &b, &in_fmt, &out_fmt)) return NULL;
    pfpy_buf bb;
    if (pfpy_buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) return NULL;
    Py_ssize_t shape[2] = {pfpy_buf_dim(&bb, 0), 4};
    PyObject *out = pfpy_buf_dim(&bb, 1) == 4 ? pfpy_numpy_empty_named(2, shape, "float32") : pfpy_invalid("boxes must be (n, 4)");
    if (out) {
        pf_status st = pf_box_convert(shape[0], bb.v.buf, (pf_box_format)in_fmt, pfpy_numpy_data(out), (pf_box_format)out_fmt);
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    pfpy_buf_release(&bb);
    return out;
}

static PyObject *py_clip_boxes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b;
    int w, h;
    if (!PyArg_ParseTuple(args, "Oii", &b, &w, &h)) return NULL;
    pfpy_buf bb;
    if (pfpy_buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) return NULL;
    Py_ssize_t shape[2] = {pfpy_buf_dim(&bb, 0), 4};
    PyObject *out = pfpy_buf_dim(&bb, 1) == 4 ? pfpy_numpy_empty_named(2, shape, "float32") : pfpy_invalid("boxes must be (n, 4)");
    if (out) {
        pf_status st = pf_clip_boxes(shape[0], bb.v.buf, w, h, pfpy_numpy_data(out));
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    pfpy_buf_release(&bb);
    return out;
}

static PyObject *py_remove_small_boxes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b;
    float min_size;
    if (!PyArg_ParseTuple(args, "Of", &b, &min_size)) return NULL;
    pfpy_buf bb;
    if (pfpy_buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) return NULL;
    Py_ssize_t n = pfpy_buf_dim(&bb, 0);
    PyObject *out = pfpy_buf_dim(&bb, 1) == 4 && n <= INT32_MAX ? pfpy_numpy_empty_named(1, &n, "int32") : pfpy_invalid("boxes must be (n, 4)");
    PyObject *res = NULL;
    if (out) {
        int32_t kept = 0;
        pf_status st = pf_remove_small_boxes((int32_t)n, bb.v.buf, min_size, pfpy_numpy_data(out), &kept);
        if (st != PF_OK) pfpy_raise(st);
        else res = Py_BuildValue("(On)", out, (Py_ssize_t)kept);
        Py_DECREF(out);
    }
    pfpy_buf_release(&bb);
    return res;
}

static PyObject *py_box_iou(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *a, *b;
    int kind;
    float eps;
    if (!PyArg_ParseTuple(args, "iOOf", &kind, &a, &b, &eps)) return NULL;
    pfpy_buf ba, bb;
    if (pfpy_buf_get(a, "boxes1", 'f', 2, 0, 0, &ba) < 0) return NULL;
    if (pfpy_buf_get(b, "boxes2", 'f', 2, 0, 0, &bb) < 0) {
        pfpy_buf_release(&ba);
        return NULL;
    }
    Py_ssize_t shape[2] = {pfpy_buf_dim(&ba, 0), pfpy_buf_dim(&bb, 0)};
    PyObject *out = NULL;
    if (pfpy_buf_dim(&ba, 1) != 4 || pfpy_buf_dim(&bb, 1) != 4 || shape[0] > INT32_MAX || shape[1] > INT32_MAX)
        pfpy_invalid("boxes1 and boxes2 must be (n, 4) and (m, 4)");
    else if ((out = pfpy_numpy_empty_named(2, shape, "float32")) != NULL) {
        pf_status st;
        void *po = pfpy_numpy_data(out);
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_box_iou(stream, (pf_iou_kind)kind, (int32_t)shape[0], ba.v.buf, (int32_t)shape[1], bb.v.buf,
                                 eps, po));
        pfpy_stream_release(stream);
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    pfpy_buf_release(&ba);
    pfpy_buf_release(&bb);
    return out;
}

/* boxes_unmap(boxes (n,4) f32 writable, offsets int64-compatible list,
 * fmt, descs [(scale_x, scale_y, offset_x, offset_y, crop_x, crop_y,
 * src_w, src_h, crop_w, crop_h, flip_h, flip_v)], rounding, clip, out_w,
 * out_h): in place. */
static PyObject *py_boxes_unmap(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b, *offs, *descs;
    int fmt, rounding, clip, ow, oh;
    if (!PyArg_ParseTuple(args, "OOiOpiii", &b, &offs, &fmt, &descs, &clip, &rounding, &ow, &oh)) return NULL;
    pfpy_buf bb;
    if (pfpy_buf_get(b, "boxes", 'f', 2, 1, 0, &bb) < 0) return NULL;
    PyObject *os = PySequence_Fast(offs, "offsets must be a sequence");
    PyObject *ds = os ? PySequence_Fast(descs, "descs must be a sequence") : NULL;
    PyObject *res = NULL;
    int64_t *off = NULL;
    pf_unmap_desc *d = NULL;
    if (!os || !ds) goto done;
    /* memory safety: pf_boxes_unmap gets a pointer and the offsets, so the
     * binding is the layer that knows the array holds 4 floats per box */
    if (pfpy_buf_dim(&bb, 1) != 4) {
        pfpy_invalid("boxes must be (n, 4); it is (%zd, %zd)", pfpy_buf_dim(&bb, 0), pfpy_buf_dim(&bb, 1));
        goto done;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(os) - 1, nd = PySequence_Fast_GET_SIZE(ds);
    if (count < 0 || (nd != 1 && nd != count)) {
        pfpy_invalid("offsets must have count + 1 entries and descs 1 or count");
        goto done;
    }
    off = PyMem_Malloc((size_t)(count + 1) * sizeof *off);
    d = PyMem_Calloc((size_t)(nd > 0 ? nd : 1), sizeof *d);
    if (!off || !d) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i <= count; i++) {
        off[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(os, i));
        if (off[i] == -1 && PyErr_Occurred()) goto done;
        if (off[i] > pfpy_buf_dim(&bb, 0)) {
            pfpy_invalid("offsets[%zd] = %lld is past the %zd boxes", i, (long long)off[i], pfpy_buf_dim(&bb, 0));
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < nd; i++) {
        pf_unmap_desc *u = &d[i];
        int fh = 0, fv = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ds, i), "ffffiiiiii|pp", &u->info.scale_x, &u->info.scale_y,
                              &u->info.offset_x, &u->info.offset_y, &u->info.crop_x, &u->info.crop_y, &u->src_width,
                              &u->src_height, &u->crop_width, &u->crop_height, &fh, &fv))
            goto done;
        u->flip_h = fh;
        u->flip_v = fv;
    }
    pf_unmap_opts uo = pf_unmap_opts_defaults();
    uo.rounding = (pf_unmap_rounding)rounding;
    uo.clip = clip;
    uo.out_width = ow;
    uo.out_height = oh;
    pf_status st = pf_boxes_unmap((int)count, off, bb.v.buf, (pf_box_format)fmt, d, (int)nd, &uo);
    if (st != PF_OK) pfpy_raise(st);
    else res = Py_NewRef(Py_None);
done:
    PyMem_Free(off);
    PyMem_Free(d);
    Py_XDECREF(os);
    Py_XDECREF(ds);
    pfpy_buf_release(&bb);
    return res;
}

PyMethodDef pfpy_post_boxes_methods[] = {
    {"post_box_convert", py_box_convert, METH_VARARGS,
     "post_box_convert(boxes, in_fmt, out_fmt, /)\n--\n\npf_box_convert of float32 (n, 4) boxes."},
    {"post_clip_boxes", py_clip_boxes, METH_VARARGS, "post_clip_boxes(boxes, width, height, /)\n--\n\npf_clip_boxes."},
    {"post_remove_small_boxes", py_remove_small_boxes, METH_VARARGS,
     "post_remove_small_boxes(boxes, min_size, /)\n--\n\npf_remove_small_boxes: (indices, count)."},
    {"post_box_iou", py_box_iou, METH_VARARGS, "post_box_iou(kind, boxes1, boxes2, eps, /)\n--\n\npf_box_iou matrix."},
    {"post_boxes_unmap", py_boxes_unmap, METH_VARARGS,
     "post_boxes_unmap(boxes, offsets, fmt, descs, clip, rounding, out_width, out_height, /)\n--\n\n"
     "pf_boxes_unmap in place (descs: tuples of the pf_unmap_desc fields)."},
    {NULL, NULL, 0, NULL}};
