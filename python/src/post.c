/* The post-processing functions (include/pixflow/post.h) for pixflow.post.
 * The Python module (python/pixflow/post.py) converts arguments to
 * C-contiguous numpy arrays of the dtype each function names (float32
 * boxes and scores, int32 classes and points, uint8 masks), so this file
 * only checks shapes, calls the C function with the GIL released and wraps
 * the results in new numpy arrays. The functions on image views
 * (composite, background blur, mask unmapping, drawing) are in
 * post_images.c. */
#include <string.h>

#include "pfpy.h"

/* ------------------------------------------------------------ helpers */

typedef struct buf {
    Py_buffer v;
    int held;
} buf;

static void buf_release(buf *b) {
    if (b->held) PyBuffer_Release(&b->v);
    b->held = 0;
}

/* A C-contiguous array of element format fmt ('f' float32, 'i' int32, 'B'
 * uint8) with ndim dimensions (-1: any). None gives an empty buffer when
 * allow_none. Returns 0, -1 with an exception. */
static int buf_get(PyObject *o, const char *name, char fmt, int ndim, int writable, int allow_none, buf *b) {
    memset(b, 0, sizeof *b);
    if (o == NULL || o == Py_None) {
        if (allow_none) return 0;
        pfpy_invalid("%s is None", name);
        return -1;
    }
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, &b->v, flags) < 0) {
        PyErr_Clear();
        pfpy_invalid("%s must be a C-contiguous%s array", name, writable ? " writable" : "");
        return -1;
    }
    b->held = 1;
    const char *f = b->v.format ? b->v.format : "B";
    while (*f == '@' || *f == '=' || *f == '<' || *f == '|') f++;
    int ok = f[1] == '\0' && (f[0] == fmt || (fmt == 'i' && f[0] == 'l' && b->v.itemsize == 4));
    if (!ok) {
        pfpy_invalid("%s has element format '%s'; expected '%c'", name, f, fmt);
        buf_release(b);
        return -1;
    }
    if (ndim >= 0 && b->v.ndim != ndim) {
        pfpy_invalid("%s has %d dimensions; expected %d", name, b->v.ndim, ndim);
        buf_release(b);
        return -1;
    }
    return 0;
}

static Py_ssize_t dim(const buf *b, int i) { return b->held && i < b->v.ndim ? b->v.shape[i] : 0; }

/* numpy.empty(shape, dtype) with a numpy dtype name */
static PyObject *np_empty(int ndim, const Py_ssize_t *shape, const char *dtype) {
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL) return NULL;
    PyObject *tup = PyTuple_New(ndim), *r = NULL;
    if (tup != NULL) {
        for (int i = 0; i < ndim; i++) PyTuple_SET_ITEM(tup, i, PyLong_FromSsize_t(shape[i]));
        r = PyObject_CallMethod(np, "empty", "Os", tup, dtype);
    }
    Py_XDECREF(tup);
    Py_DECREF(np);
    return r;
}

static void *np_data(PyObject *arr) {
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    void *p = v.buf;
    PyBuffer_Release(&v); /* the array keeps the memory */
    return p;
}

/* NMS options from keyword arguments */
static int nms_opts_from(PyObject *kw, pf_nms_opts *o) {
    *o = pf_nms_opts_defaults();
    if (kw == NULL) return 0;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kw, &pos, &k, &v)) {
        const char *name = PyUnicode_AsUTF8(k);
        if (name == NULL) return -1;
        double d = 0;
        long l = 0;
        int is_float = !strcmp(name, "iou_threshold") || !strcmp(name, "score_threshold") ||
                       !strcmp(name, "class_offset") || !strcmp(name, "eta") || !strcmp(name, "sigma");
        if (is_float) {
            d = PyFloat_AsDouble(v);
            if (d == -1.0 && PyErr_Occurred()) return -1;
        } else {
            l = PyLong_AsLong(v);
            if (l == -1 && PyErr_Occurred()) return -1;
        }
        if (!strcmp(name, "semantics")) o->semantics = (pf_nms_semantics)l;
        else if (!strcmp(name, "box_format")) o->box_format = (pf_box_format)l;
        else if (!strcmp(name, "classes")) o->classes = (pf_nms_classes)l;
        else if (!strcmp(name, "iou_threshold")) o->iou_threshold = d;
        else if (!strcmp(name, "score_threshold")) o->score_threshold = (float)d;
        else if (!strcmp(name, "pre_nms_top_k")) o->pre_nms_top_k = (int32_t)l;
        else if (!strcmp(name, "max_output")) o->max_output = (int32_t)l;
        else if (!strcmp(name, "max_output_per_class")) o->max_output_per_class = (int32_t)l;
        else if (!strcmp(name, "class_offset")) o->class_offset = (float)d;
        else if (!strcmp(name, "legacy_plus_one")) o->legacy_plus_one = l != 0;
        else if (!strcmp(name, "eta")) o->eta = (float)d;
        else if (!strcmp(name, "soft")) o->soft = (pf_soft_nms)l;
        else if (!strcmp(name, "sigma")) o->sigma = (float)d;
        else if (!strcmp(name, "order")) o->order = (pf_nms_order)l;
        else {
            pfpy_invalid("nms options have no field '%s'", name);
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- NMS */

/* nms(samples, **opts): samples is a list of (boxes (n,4) f32, scores (n,)
 * f32, classes (n,) i32 or None); returns (offsets int64 (count+1,), keep
 * int32, scores float32) in CSR form. */
static PyObject *py_nms(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "O", &list)) return NULL;
    pf_nms_opts o;
    if (nms_opts_from(kw, &o) < 0) return NULL;
    PyObject *seq = PySequence_Fast(list, "samples must be a list of (boxes, scores, classes)");
    if (seq == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > INT32_MAX / 4) {
        Py_DECREF(seq);
        return pfpy_invalid("too many samples");
    }
    buf *bufs = PyMem_Calloc((size_t)(count > 0 ? count : 1) * 3, sizeof *bufs);
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
        buf *bb = &bufs[3 * i];
        if (buf_get(b, "boxes", 'f', 2, 0, 0, &bb[0]) < 0 || buf_get(s, "scores", 'f', 1, 0, 0, &bb[1]) < 0 ||
            buf_get(c, "classes", 'i', 1, 0, 1, &bb[2]) < 0)
            goto done;
        Py_ssize_t n = dim(&bb[1], 0);
        if (dim(&bb[0], 0) != n || dim(&bb[0], 1) != 4 || (bb[2].held && dim(&bb[2], 0) != n) || n > INT32_MAX) {
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
    off = np_empty(1, &oshape, "int64");
    keep = np_empty(1, &kshape, "int32");
    sc = np_empty(1, &kshape, "float32");
    if (!off || !keep || !sc) goto done;
    int64_t *po = np_data(off);
    int32_t *pk = np_data(keep);
    float *ps = np_data(sc);
    pf_stream *stream = pfpy_stream_acquire();
    PFPY_CALL(st, pf_nms(stream, (int)count, smp, &o, po, pk, cap, ps));
    pfpy_stream_release(stream);
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    res = Py_BuildValue("(OOO)", off, keep, sc);
done:
    for (Py_ssize_t i = 0; bufs && i < 3 * count; i++) buf_release(&bufs[i]);
    PyMem_Free(bufs);
    PyMem_Free(smp);
    Py_XDECREF(off);
    Py_XDECREF(keep);
    Py_XDECREF(sc);
    Py_DECREF(seq);
    return res;
}

/* -------------------------------------------------------------- boxes */

static PyObject *py_box_convert(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b;
    int in_fmt, out_fmt;
    if (!PyArg_ParseTuple(args, "Oii", &b, &in_fmt, &out_fmt)) return NULL;
    buf bb;
    if (buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) return NULL;
    Py_ssize_t shape[2] = {dim(&bb, 0), 4};
    PyObject *out = dim(&bb, 1) == 4 ? np_empty(2, shape, "float32") : pfpy_invalid("boxes must be (n, 4)");
    if (out) {
        pf_status st = pf_box_convert(shape[0], bb.v.buf, (pf_box_format)in_fmt, np_data(out), (pf_box_format)out_fmt);
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    buf_release(&bb);
    return out;
}

static PyObject *py_clip_boxes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b;
    int w, h;
    if (!PyArg_ParseTuple(args, "Oii", &b, &w, &h)) return NULL;
    buf bb;
    if (buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) return NULL;
    Py_ssize_t shape[2] = {dim(&bb, 0), 4};
    PyObject *out = dim(&bb, 1) == 4 ? np_empty(2, shape, "float32") : pfpy_invalid("boxes must be (n, 4)");
    if (out) {
        pf_status st = pf_clip_boxes(shape[0], bb.v.buf, w, h, np_data(out));
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    buf_release(&bb);
    return out;
}

static PyObject *py_remove_small_boxes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *b;
    float min_size;
    if (!PyArg_ParseTuple(args, "Of", &b, &min_size)) return NULL;
    buf bb;
    if (buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) return NULL;
    Py_ssize_t n = dim(&bb, 0);
    PyObject *out = dim(&bb, 1) == 4 && n <= INT32_MAX ? np_empty(1, &n, "int32") : pfpy_invalid("boxes must be (n, 4)");
    PyObject *res = NULL;
    if (out) {
        int32_t kept = 0;
        pf_status st = pf_remove_small_boxes((int32_t)n, bb.v.buf, min_size, np_data(out), &kept);
        if (st != PF_OK) pfpy_raise(st);
        else res = Py_BuildValue("(On)", out, (Py_ssize_t)kept);
        Py_DECREF(out);
    }
    buf_release(&bb);
    return res;
}

static PyObject *py_box_iou(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *a, *b;
    int kind;
    float eps;
    if (!PyArg_ParseTuple(args, "iOOf", &kind, &a, &b, &eps)) return NULL;
    buf ba, bb;
    if (buf_get(a, "boxes1", 'f', 2, 0, 0, &ba) < 0) return NULL;
    if (buf_get(b, "boxes2", 'f', 2, 0, 0, &bb) < 0) {
        buf_release(&ba);
        return NULL;
    }
    Py_ssize_t shape[2] = {dim(&ba, 0), dim(&bb, 0)};
    PyObject *out = NULL;
    if (dim(&ba, 1) != 4 || dim(&bb, 1) != 4 || shape[0] > INT32_MAX || shape[1] > INT32_MAX)
        pfpy_invalid("boxes1 and boxes2 must be (n, 4) and (m, 4)");
    else if ((out = np_empty(2, shape, "float32")) != NULL) {
        pf_status st;
        void *po = np_data(out);
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_box_iou(stream, (pf_iou_kind)kind, (int32_t)shape[0], ba.v.buf, (int32_t)shape[1], bb.v.buf,
                                 eps, po));
        pfpy_stream_release(stream);
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    buf_release(&ba);
    buf_release(&bb);
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
    buf bb;
    if (buf_get(b, "boxes", 'f', 2, 1, 0, &bb) < 0) return NULL;
    PyObject *os = PySequence_Fast(offs, "offsets must be a sequence");
    PyObject *ds = os ? PySequence_Fast(descs, "descs must be a sequence") : NULL;
    PyObject *res = NULL;
    int64_t *off = NULL;
    pf_unmap_desc *d = NULL;
    if (!os || !ds) goto done;
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
        if (off[i] > dim(&bb, 0)) {
            pfpy_invalid("offsets[%zd] = %lld is past the %zd boxes", i, (long long)off[i], dim(&bb, 0));
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
    buf_release(&bb);
    return res;
}

/* -------------------------------------------------------------- heads */

static PyObject *detections_tuple(int32_t batch, const int64_t *offsets, const pf_detection *dets) {
    Py_ssize_t ob = batch + 1, n = (Py_ssize_t)offsets[batch], b4[2] = {n, 4};
    PyObject *off = np_empty(1, &ob, "int64"), *bx = np_empty(2, b4, "float32"), *sc = np_empty(1, &n, "float32"),
             *cl = np_empty(1, &n, "int32"), *an = np_empty(1, &n, "int32"), *r = NULL;
    if (off && bx && sc && cl && an) {
        memcpy(np_data(off), offsets, (size_t)ob * sizeof *offsets);
        float *pb = np_data(bx), *ps = np_data(sc);
        int32_t *pc = np_data(cl), *pa = np_data(an);
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
    if (nms_opts_from(kw, &n) < 0) return NULL;
    o.nms = n;
    if (kw == NULL || PyDict_GetItemString(kw, "iou_threshold") == NULL) o.nms.iou_threshold = 0.7;
    buf bp;
    if (buf_get(p, "pred", 'f', 3, 0, 0, &bp) < 0) return NULL;
    PyObject *res = NULL;
    Py_ssize_t B = dim(&bp, 0);
    int64_t *off = PyMem_Malloc((size_t)(B + 1) * sizeof *off);
    pf_detection *dets = o.max_det > 0 ? PyMem_Malloc((size_t)(B > 0 ? B : 1) * (size_t)o.max_det * sizeof *dets) : NULL;
    if (!off || (o.max_det > 0 && !dets)) {
        PyErr_NoMemory();
    } else if (B > INT32_MAX || dim(&bp, 1) > INT32_MAX || dim(&bp, 2) > INT32_MAX) {
        pfpy_invalid("pred is too large");
    } else {
        pf_status st;
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_yolo_decode(stream, &o, bp.v.buf, (int32_t)B, (int32_t)dim(&bp, 1), (int32_t)dim(&bp, 2), off,
                                     dets, (int64_t)B * o.max_det));
        pfpy_stream_release(stream);
        if (st != PF_OK) pfpy_raise(st);
        else res = detections_tuple((int32_t)B, off, dets);
    }
    PyMem_Free(off);
    PyMem_Free(dets);
    buf_release(&bp);
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
    if (nms_opts_from(kw, &o.nms) < 0) return NULL;
    buf bd, bs, ba;
    if (buf_get(d, "deltas", 'f', 3, 0, 0, &bd) < 0) return NULL;
    if (buf_get(s, "scores", 'f', 3, 0, 0, &bs) < 0) {
        buf_release(&bd);
        return NULL;
    }
    if (buf_get(an, "anchors", 'f', 2, 0, 0, &ba) < 0) {
        buf_release(&bd);
        buf_release(&bs);
        return NULL;
    }
    PyObject *res = NULL;
    Py_ssize_t B = dim(&bd, 0), A = dim(&bd, 1);
    int64_t *off = PyMem_Malloc((size_t)(B + 1) * sizeof *off);
    pf_detection *dets = o.max_det > 0 ? PyMem_Malloc((size_t)(B > 0 ? B : 1) * (size_t)o.max_det * sizeof *dets) : NULL;
    if (!off || (o.max_det > 0 && !dets)) {
        PyErr_NoMemory();
    } else if (dim(&bs, 0) != B || dim(&bs, 1) != A || dim(&ba, 0) != A || dim(&ba, 1) != 4 || A > INT32_MAX) {
        pfpy_invalid("deltas (b, a, k), scores (b, a, c) and anchors (a, 4) disagree");
    } else {
        o.anchors = ba.v.buf;
        pf_status st;
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_anchor_decode(stream, &o, bd.v.buf, (int32_t)dim(&bd, 2), bs.v.buf, (int32_t)dim(&bs, 2),
                                       (int32_t)B, (int32_t)A, off, dets, (int64_t)B * o.max_det));
        pfpy_stream_release(stream);
        if (st != PF_OK) pfpy_raise(st);
        else res = detections_tuple((int32_t)B, off, dets);
    }
    PyMem_Free(off);
    PyMem_Free(dets);
    buf_release(&bd);
    buf_release(&bs);
    buf_release(&ba);
    return res;
}

/* -------------------------------------------------------------- masks */

static PyObject *py_masks_from_logits(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *l;
    pf_mask_opts o = pf_mask_opts_defaults();
    int mode, value;
    if (!PyArg_ParseTuple(args, "Oifi", &l, &mode, &o.threshold, &value)) return NULL;
    o.mode = (pf_mask_mode)mode;
    o.value = (uint8_t)value;
    buf bl;
    if (buf_get(l, "logits", 'f', 4, 0, 0, &bl) < 0) return NULL;
    Py_ssize_t shape[4] = {dim(&bl, 0), mode == PF_MASK_ARGMAX ? 1 : dim(&bl, 1), dim(&bl, 2), dim(&bl, 3)};
    PyObject *out = NULL;
    if (shape[0] > INT32_MAX || dim(&bl, 1) > INT32_MAX || shape[2] > INT32_MAX || shape[3] > INT32_MAX)
        pfpy_invalid("logits is too large");
    else if ((out = np_empty(4, shape, "uint8")) != NULL) {
        pf_status st;
        void *po = np_data(out);
        pf_stream *stream = pfpy_stream_acquire();
        PFPY_CALL(st, pf_masks_from_logits(stream, bl.v.buf, (int32_t)shape[0], (int32_t)dim(&bl, 1), (int32_t)shape[2],
                                           (int32_t)shape[3], po, &o));
        pfpy_stream_release(stream);
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    buf_release(&bl);
    return out;
}

static PyObject *py_masks_to_boxes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *m;
    if (!PyArg_ParseTuple(args, "O", &m)) return NULL;
    buf bm;
    if (buf_get(m, "masks", 'B', 3, 0, 0, &bm) < 0) return NULL;
    Py_ssize_t n = dim(&bm, 0), h = dim(&bm, 1), w = dim(&bm, 2), shape[2] = {n, 4};
    PyObject *out = np_empty(2, shape, "float32");
    pf_image *v = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (out && v && n > 0 && h > 0 && w > 0 && n <= INT32_MAX && h <= INT32_MAX && w <= INT32_MAX) {
        for (Py_ssize_t i = 0; i < n; i++)
            v[i] = pf_image_hwc((uint8_t *)bm.v.buf + (size_t)i * (size_t)h * (size_t)w, (int32_t)w, (int32_t)h, 1, PF_U8, 0);
        pf_status st = pf_masks_to_boxes((int)n, v, np_data(out));
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    } else if (out && n > 0 && (h == 0 || w == 0)) { /* no pixels at all: every mask is empty */
        memset(np_data(out), 0, (size_t)n * 16);
    } else if (!v) {
        Py_CLEAR(out);
        PyErr_NoMemory();
    }
    PyMem_Free(v);
    buf_release(&bm);
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
    buf bc, bp, bb;
    if (buf_get(c, "coeffs", 'f', 2, 0, 0, &bc) < 0) return NULL;
    if (buf_get(p, "protos", 'f', 3, 0, 0, &bp) < 0) {
        buf_release(&bc);
        return NULL;
    }
    if (buf_get(b, "boxes", 'f', 2, 0, 0, &bb) < 0) {
        buf_release(&bc);
        buf_release(&bp);
        return NULL;
    }
    PyObject *res = NULL, *mo = NULL, *lo = NULL;
    Py_ssize_t k = dim(&bc, 0), m = dim(&bc, 1), h = dim(&bp, 1), w = dim(&bp, 2), shape[3] = {k, h, w};
    pf_image *v = PyMem_Malloc((size_t)(k > 0 ? k : 1) * 2 * sizeof *v);
    if (!v) {
        PyErr_NoMemory();
    } else if (dim(&bp, 0) != m || dim(&bb, 0) != k || dim(&bb, 1) != 4 || m > INT32_MAX || h > INT32_MAX ||
               w > INT32_MAX || k > INT32_MAX) {
        pfpy_invalid("coeffs (k, m), protos (m, h, w) and boxes (k, 4) disagree");
    } else if ((mo = np_empty(3, shape, "uint8")) != NULL && (lo = np_empty(3, shape, "float32")) != NULL) {
        uint8_t *pm = np_data(mo);
        float *pl = np_data(lo);
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
    buf_release(&bc);
    buf_release(&bp);
    buf_release(&bb);
    return res;
}

/* ------------------------------------------------------------ regions */

static pf_image image_of(const buf *b, pf_dtype dt) {
    return pf_image_hwc(b->v.buf, (int32_t)dim(b, 1), (int32_t)dim(b, 0), 1, dt, 0);
}

static int image_dims_ok(const buf *b) {
    if (dim(b, 0) < 1 || dim(b, 1) < 1 || dim(b, 0) > INT32_MAX || dim(b, 1) > INT32_MAX) {
        pfpy_invalid("the image must be (h, w) with h, w >= 1");
        return 0;
    }
    return 1;
}

static PyObject *py_connected_components(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img;
    int conn;
    if (!PyArg_ParseTuple(args, "Oi", &img, &conn)) return NULL;
    buf bi;
    if (buf_get(img, "image", 'B', 2, 0, 0, &bi) < 0) return NULL;
    PyObject *res = NULL, *lab = NULL, *stats = NULL, *cent = NULL;
    pf_cc_stats *cs = NULL;
    if (!image_dims_ok(&bi)) goto done;
    Py_ssize_t shape[2] = {dim(&bi, 0), dim(&bi, 1)};
    lab = np_empty(2, shape, "int32");
    Py_ssize_t cap = shape[0] * shape[1] / (conn == 4 ? 2 : 4) + 4;
    cs = PyMem_Malloc((size_t)cap * sizeof *cs);
    if (!lab || !cs) {
        if (!cs) PyErr_NoMemory();
        goto done;
    }
    pf_image src = image_of(&bi, PF_U8), li = pf_image_hwc(np_data(lab), (int32_t)shape[1], (int32_t)shape[0], 1, PF_S32, 0);
    int32_t n = 0;
    pf_status st;
    PFPY_CALL(st, pf_connected_components(&src, conn, &li, &n, cs, (int32_t)cap));
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    Py_ssize_t s5[2] = {n, 5}, s2[2] = {n, 2};
    stats = np_empty(2, s5, "int32");
    cent = np_empty(2, s2, "float64");
    if (!stats || !cent) goto done;
    int32_t *ps = np_data(stats);
    double *pc = np_data(cent);
    for (int32_t i = 0; i < n && i < cap; i++) {
        ps[5 * i] = cs[i].left;
        ps[5 * i + 1] = cs[i].top;
        ps[5 * i + 2] = cs[i].width;
        ps[5 * i + 3] = cs[i].height;
        ps[5 * i + 4] = cs[i].area;
        pc[2 * i] = cs[i].cx;
        pc[2 * i + 1] = cs[i].cy;
    }
    res = Py_BuildValue("(iOOO)", n, lab, stats, cent);
done:
    Py_XDECREF(lab);
    Py_XDECREF(stats);
    Py_XDECREF(cent);
    PyMem_Free(cs);
    buf_release(&bi);
    return res;
}

/* find_contours(image u8 (h, w), mode) -> list of (k, 1, 2) int32 arrays */
static PyObject *py_find_contours(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img;
    int mode;
    if (!PyArg_ParseTuple(args, "Oi", &img, &mode)) return NULL;
    buf bi;
    if (buf_get(img, "image", 'B', 2, 0, 0, &bi) < 0) return NULL;
    PyObject *list = NULL;
    pf_contours *c = NULL;
    pf_status st = PF_OK;
    if (!image_dims_ok(&bi)) goto done;
    if ((st = pf_contours_create(&c)) != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    pf_image src = image_of(&bi, PF_U8);
    PFPY_CALL(st, pf_find_contours(&src, (pf_contour_mode)mode, c));
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    int32_t n = pf_contours_count(c);
    list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) {
        int32_t np_ = 0;
        const int32_t *p = pf_contours_points(c, i, &np_);
        Py_ssize_t shape[3] = {np_, 1, 2};
        PyObject *a = np_empty(3, shape, "int32");
        if (a == NULL) {
            Py_CLEAR(list);
            break;
        }
        memcpy(np_data(a), p, (size_t)np_ * 8);
        PyList_SET_ITEM(list, i, a);
    }
done:
    pf_contours_destroy(c);
    buf_release(&bi);
    return list;
}

static PyObject *py_min_area_rect(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *p;
    if (!PyArg_ParseTuple(args, "O", &p)) return NULL;
    buf bp;
    if (buf_get(p, "points", 'i', -1, 0, 0, &bp) < 0) return NULL;
    PyObject *res = NULL;
    Py_ssize_t n = bp.v.len / 8;
    if (bp.v.len % 8 || n > INT32_MAX) {
        pfpy_invalid("points must be int32 (x, y) pairs");
    } else {
        pf_rotated_rect r;
        pf_status st = pf_min_area_rect(bp.v.buf, (int32_t)n, &r);
        if (st != PF_OK) pfpy_raise(st);
        else res = Py_BuildValue("((dd)(dd)d)", (double)r.cx, (double)r.cy, (double)r.width, (double)r.height,
                                 (double)r.angle);
    }
    buf_release(&bp);
    return res;
}

static PyObject *py_box_points(PyObject *self, PyObject *args) {
    (void)self;
    pf_rotated_rect r;
    if (!PyArg_ParseTuple(args, "((ff)(ff)f)", &r.cx, &r.cy, &r.width, &r.height, &r.angle)) return NULL;
    Py_ssize_t shape[2] = {4, 2};
    PyObject *out = np_empty(2, shape, "float32");
    if (out) {
        pf_status st = pf_box_points(&r, np_data(out));
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    return out;
}

static PyObject *py_fill_poly(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img, *p;
    int value;
    if (!PyArg_ParseTuple(args, "OOi", &img, &p, &value)) return NULL;
    buf bi, bp;
    if (buf_get(img, "image", 'B', 2, 1, 0, &bi) < 0) return NULL;
    if (buf_get(p, "points", 'i', -1, 0, 0, &bp) < 0) {
        buf_release(&bi);
        return NULL;
    }
    PyObject *res = NULL;
    if (image_dims_ok(&bi)) {
        pf_image im = image_of(&bi, PF_U8);
        pf_status st = bp.v.len % 8 ? pfpy_invalid("points must be int32 (x, y) pairs"), PF_ERR_INVALID_ARGUMENT
                                    : pf_fill_poly(&im, bp.v.buf, (int32_t)(bp.v.len / 8), (uint8_t)value);
        if (st == PF_OK) res = Py_NewRef(Py_None);
        else if (!PyErr_Occurred()) pfpy_raise(st);
    }
    buf_release(&bi);
    buf_release(&bp);
    return res;
}

static PyObject *py_poly_mean_score(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img, *p;
    if (!PyArg_ParseTuple(args, "OO", &img, &p)) return NULL;
    buf bi, bp;
    if (buf_get(img, "score", 'f', 2, 0, 0, &bi) < 0) return NULL;
    if (buf_get(p, "points", 'f', -1, 0, 0, &bp) < 0) {
        buf_release(&bi);
        return NULL;
    }
    PyObject *res = NULL;
    if (image_dims_ok(&bi)) {
        pf_image im = image_of(&bi, PF_F32);
        double mean = 0;
        pf_status st = bp.v.len % 8 ? pfpy_invalid("points must be float32 (x, y) pairs"), PF_ERR_INVALID_ARGUMENT
                                    : pf_poly_mean_score(&im, bp.v.buf, (int32_t)(bp.v.len / 8), &mean);
        if (st == PF_OK) res = PyFloat_FromDouble(mean);
        else if (!PyErr_Occurred()) pfpy_raise(st);
    }
    buf_release(&bi);
    buf_release(&bp);
    return res;
}

/* ------------------------------------------------------------- table */

PyMethodDef pfpy_post_methods[] = {
    {"post_nms", (PyCFunction)(void (*)(void))py_nms, METH_VARARGS | METH_KEYWORDS,
     "post_nms(samples, /, **opts)\n--\n\npf_nms over a batch: samples is a list of (boxes float32 (n, 4), scores "
     "float32 (n,), classes int32 (n,) or None); options as pf_nms_opts fields. Returns (offsets int64, keep "
     "int32, scores float32) in CSR form. pixflow.post wraps it."},
    {"post_box_convert", py_box_convert, METH_VARARGS,
     "post_box_convert(boxes, in_fmt, out_fmt, /)\n--\n\npf_box_convert of float32 (n, 4) boxes."},
    {"post_clip_boxes", py_clip_boxes, METH_VARARGS, "post_clip_boxes(boxes, width, height, /)\n--\n\npf_clip_boxes."},
    {"post_remove_small_boxes", py_remove_small_boxes, METH_VARARGS,
     "post_remove_small_boxes(boxes, min_size, /)\n--\n\npf_remove_small_boxes: (indices, count)."},
    {"post_box_iou", py_box_iou, METH_VARARGS, "post_box_iou(kind, boxes1, boxes2, eps, /)\n--\n\npf_box_iou matrix."},
    {"post_boxes_unmap", py_boxes_unmap, METH_VARARGS,
     "post_boxes_unmap(boxes, offsets, fmt, descs, clip, rounding, out_width, out_height, /)\n--\n\n"
     "pf_boxes_unmap in place (descs: tuples of the pf_unmap_desc fields)."},
    {"post_yolo_decode", (PyCFunction)(void (*)(void))py_yolo_decode, METH_VARARGS | METH_KEYWORDS,
     "post_yolo_decode(pred, layout, num_classes, num_masks, conf, multi_label, max_nms, max_det, /, "
     "**nms_opts)\n--\n\n"
     "pf_yolo_decode: (offsets, boxes, scores, classes, anchors)."},
    {"post_anchor_decode", (PyCFunction)(void (*)(void))py_anchor_decode, METH_VARARGS | METH_KEYWORDS,
     "post_anchor_decode(deltas, scores, anchors, scale, exp_wh, yx, activation, score_clip, delta_clip, "
     "background_class, conf, multi_label, max_det, /, **nms_opts)\n--\n\npf_anchor_decode."},
    {"post_masks_from_logits", py_masks_from_logits, METH_VARARGS,
     "post_masks_from_logits(logits, mode, threshold, value, /)\n--\n\npf_masks_from_logits of float32 (n, c, h, w)."},
    {"post_masks_to_boxes", py_masks_to_boxes, METH_VARARGS,
     "post_masks_to_boxes(masks, /)\n--\n\npf_masks_to_boxes of uint8 (n, h, w) masks."},
    {"post_proto_masks", py_proto_masks, METH_VARARGS,
     "post_proto_masks(coeffs, protos, boxes, input_width, input_height, crop, value, /)\n--\n\npf_proto_masks: "
     "(masks, logits)."},
    {"post_connected_components", py_connected_components, METH_VARARGS,
     "post_connected_components(image, connectivity, /)\n--\n\npf_connected_components: (n, labels, stats, "
     "centroids) as cv2.connectedComponentsWithStats."},
    {"post_find_contours", py_find_contours, METH_VARARGS,
     "post_find_contours(image, mode, /)\n--\n\npf_find_contours: a list of (k, 1, 2) int32 arrays."},
    {"post_min_area_rect", py_min_area_rect, METH_VARARGS,
     "post_min_area_rect(points, /)\n--\n\npf_min_area_rect of int32 points: ((cx, cy), (w, h), angle)."},
    {"post_box_points", py_box_points, METH_VARARGS, "post_box_points(rect, /)\n--\n\npf_box_points: (4, 2) float32."},
    {"post_fill_poly", py_fill_poly, METH_VARARGS,
     "post_fill_poly(image, points, value, /)\n--\n\npf_fill_poly into a uint8 (h, w) array."},
    {"post_poly_mean_score", py_poly_mean_score, METH_VARARGS,
     "post_poly_mean_score(score, points, /)\n--\n\npf_poly_mean_score (PaddleOCR's box_score_fast)."},
    {NULL, NULL, 0, NULL}};
