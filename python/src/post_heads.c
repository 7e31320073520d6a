/* Detection heads for pixflow.post (the C family: src/post/heads.c):
 * YOLO and anchor (SSD / BlazeFace) decoding, each followed by pf_nms with
 * the options of post_nms.c.
 * Shape checks here are the binding's own, for memory safety: these C
 * functions take bare pointers and counts, so only the binding knows how
 * many elements an array holds (python/pixflow/post.py does not re-check). */
#include <string.h>

#include "fields.h"

static PyObject *detections_tuple(int32_t batch, const int64_t *offsets, const pf_detection *dets) {
    Py_ssize_t ob = batch + 1, n = (Py_ssize_t)offsets[batch], b4[2] = {n, 4};
    PyObject *off = pfpy_numpy_empty_named(1, &ob, "int64"), *bx = pfpy_numpy_empty_named(2, b4, "float32"), *sc = pfpy_numpy_empty_named(1, &n, "float32"),
             *cl = pfpy_numpy_empty_named(1, &n, "int32"), *an = pfpy_numpy_empty_named(1, &n, "int32"), *r = NULL;
    if (off && bx && sc && cl && an) {
        memcpy(pfpy_numpy_data(off), offsets, (size_t)ob * sizeof *offsets);
        float *pb = pfpy_numpy_data(bx), *ps = pfpy_numpy_data(sc);
        int32_t *pc = pfpy_numpy_data(cl), *pa = pfpy_numpy_data(an);
        for (Py_ssize_t i = 0; i < n; i++) {
            pb[4 * i] = dets[i].x1;
            pb[4 * i + 1] = dets[i].y1;
            pb[4 * i + 2] = dets[i].x2;
            pb[4 * i + 3] = dets[i].y2;
            ps[i] = dets[i].score;
            pc[i] = dets[i].class_id;
            pa[i] = dets[i].anchor;
        }
        r = Py_BuildValue("(OOOOO)", off, bx, sc, cl, an);
    }
    Py_XDECREF(off);
    Py_XDECREF(bx);
    Py_XDECREF(sc);
    Py_XDECREF(cl);
    Py_XDECREF(an);
    return r;
}

/* yolo_decode(pred (b, d1, d2) f32, layout, num_classes, num_masks, conf,
 * multi_label, max_nms, max_det, **nms_opts) */
static PyObject *py_yolo_decode(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    PyObject *p;
    pf_yolo_opts o = pf_yolo_opts_defaults();
    int layout, multi;
    if (!PyArg_ParseTuple(args, "Oiiifpii", &p, &layout, &o.num_classes, &o.num_masks, &o.conf_threshold, &multi,
                          &o.max_nms, &o.max_det))
        return NULL;
    o.layout = (pf_yolo_layout)layout;
    o.multi_label = multi;
    pf_nms_opts n;
    if (pfpy_nms_opts_from(kw, &n) < 0) return NULL;
    o.nms = n;
    if (kw == NULL || PyDict_GetItemString(kw, "iou_threshold") == NULL) o.nms.iou_threshold = 0.7;
    pfpy_buf bp;
    if (pfpy_buf_get(p, "pred", 'f', 3, 0, 0, &bp) < 0) return NULL;
    PyObject *res = NULL;
    Py_ssize_t B = pfpy_buf_dim(&bp, 0);
    int64_t *off = PyMem_Malloc((size_t)(B + 1) * sizeof *off);
    pf_detection *dets = o.max_det > 0 ? PyMem_Malloc((size_t)(B > 0 ? B : 1) * (size_t)o.max_det * sizeof *dets) : NULL;
    if (!off || (o.max_det > 0 && !dets)) {
        PyErr_NoMemory();
    } else if (B > INT32_MAX || pfpy_buf_dim(&bp, 1) > INT32_MAX || pfpy_buf_dim(&bp, 2) > INT32_MAX) {
        pfpy_invalid("pred is too large");
    } else {
        pf_status st;
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_yolo_decode(stream, &o, bp.v.buf, (int32_t)B, (int32_t)pfpy_buf_dim(&bp, 1), (int32_t)pfpy_buf_dim(&bp, 2), off,
                                     dets, (int64_t)B * o.max_det));
        pfpy_stream_release(stream);
        if (st != PF_OK) pfpy_raise(st);
        else res = detections_tuple((int32_t)B, off, dets);
    }
    PyMem_Free(off);
    PyMem_Free(dets);
    pfpy_buf_release(&bp);
    return res;
}

/* anchor_decode(deltas (b, a, k) f32, scores (b, a, c) f32, anchors (a, 4)
 * f32, scale (4 floats), exp_wh, yx, activation, score_clip, delta_clip,
 * background_class, conf, multi_label, max_det, **nms_opts) */
static PyObject *py_anchor_decode(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    PyObject *d, *s, *an;
    pf_anchor_opts o = pf_anchor_opts_defaults();
    int exp_wh, yx, act, multi;
    if (!PyArg_ParseTuple(args, "OOO(ffff)ppiffifpi", &d, &s, &an, &o.scale[0], &o.scale[1], &o.scale[2], &o.scale[3],
                          &exp_wh, &yx, &act, &o.score_clip, &o.delta_clip, &o.background_class, &o.conf_threshold,
                          &multi, &o.max_det))
        return NULL;
    o.exp_wh = exp_wh;
    o.yx = yx;
    o.activation = (pf_score_activation)act;
    o.multi_label = multi;
    if (pfpy_nms_opts_from(kw, &o.nms) < 0) return NULL;
    pfpy_buf bd, bs, ba;
    if (pfpy_buf_get(d, "deltas", 'f', 3, 0, 0, &bd) < 0) return NULL;
    if (pfpy_buf_get(s, "scores", 'f', 3, 0, 0, &bs) < 0) {
        pfpy_buf_release(&bd);
        return NULL;
    }
    if (pfpy_buf_get(an, "anchors", 'f', 2, 0, 0, &ba) < 0) {
        pfpy_buf_release(&bd);
        pfpy_buf_release(&bs);
        return NULL;
    }
    PyObject *res = NULL;
    Py_ssize_t B = pfpy_buf_dim(&bd, 0), A = pfpy_buf_dim(&bd, 1);
    int64_t *off = PyMem_Malloc((size_t)(B + 1) * sizeof *off);
    pf_detection *dets = o.max_det > 0 ? PyMem_Malloc((size_t)(B > 0 ? B : 1) * (size_t)o.max_det * sizeof *dets) : NULL;
    if (!off || (o.max_det > 0 && !dets)) {
        PyErr_NoMemory();
    } else if (pfpy_buf_dim(&bs, 0) != B || pfpy_buf_dim(&bs, 1) != A || pfpy_buf_dim(&ba, 0) != A || pfpy_buf_dim(&ba, 1) != 4 || A > INT32_MAX) {
        pfpy_invalid("deltas (b, a, k), scores (b, a, c) and anchors (a, 4) disagree");
    } else {
        o.anchors = ba.v.buf;
        pf_status st;
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_anchor_decode(stream, &o, bd.v.buf, (int32_t)pfpy_buf_dim(&bd, 2), bs.v.buf, (int32_t)pfpy_buf_dim(&bs, 2),
                                       (int32_t)B, (int32_t)A, off, dets, (int64_t)B * o.max_det));
        pfpy_stream_release(stream);
        if (st != PF_OK) pfpy_raise(st);
        else res = detections_tuple((int32_t)B, off, dets);
    }
    PyMem_Free(off);
    PyMem_Free(dets);
    pfpy_buf_release(&bd);
    pfpy_buf_release(&bs);
    pfpy_buf_release(&ba);
    return res;
}

PyMethodDef pfpy_post_heads_methods[] = {
    {"post_yolo_decode", (PyCFunction)(void (*)(void))py_yolo_decode, METH_VARARGS | METH_KEYWORDS,
     "post_yolo_decode(pred, layout, num_classes, num_masks, conf, multi_label, max_nms, max_det, /, "
     "**nms_opts)\n--\n\n"
     "pf_yolo_decode: (offsets, boxes, scores, classes, anchors)."},
    {"post_anchor_decode", (PyCFunction)(void (*)(void))py_anchor_decode, METH_VARARGS | METH_KEYWORDS,
     "post_anchor_decode(deltas, scores, anchors, scale, exp_wh, yx, activation, score_clip, delta_clip, "
     "background_class, conf, multi_label, max_det, /, **nms_opts)\n--\n\npf_anchor_decode."},
    {NULL, NULL, 0, NULL}};
