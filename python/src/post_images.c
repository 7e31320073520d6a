/* The post-processing functions that work on image views (the
 * compositing section of include/pixflow/post.h and pf_masks_unmap):
 * composite, background_blur, masks_unmap and draw_detections for
 * pixflow.post. Images are the extension's usual arguments (one array or
 * a list, numpy HWC); python/pixflow/post.py normalizes the per-sample
 * parameters into one tuple per sample, so this file only checks counts,
 * calls the C function with the GIL released and returns the results. */
#include <string.h>

#include "pfpy.h"

/* One pf_letterbox_info per sample from `infos`, a list of n tuples
 * (scale_x, scale_y, offset_x, offset_y[, crop_x, crop_y]). Returns a
 * PyMem block, or NULL with an exception set. */
static pf_letterbox_info *infos_from(PyObject *infos, int n) {
    PyObject *seq = PySequence_Fast(infos, "infos must be a list of (scale_x, scale_y, offset_x, offset_y) tuples");
    if (seq == NULL) return NULL;
    pf_letterbox_info *li = NULL;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        pfpy_invalid("infos has %zd entries for %d samples", PySequence_Fast_GET_SIZE(seq), n);
        goto done;
    }
    if ((li = PyMem_Calloc((size_t)n, sizeof *li)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < n; i++) {
        pf_letterbox_info *l = &li[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ffff|ii", &l->scale_x, &l->scale_y, &l->offset_x,
                              &l->offset_y, &l->crop_x, &l->crop_y)) {
            PyErr_Clear();
            pfpy_invalid("infos[%d] must be (scale_x, scale_y, offset_x, offset_y[, crop_x, crop_y])", i);
            PyMem_Free(li);
            li = NULL;
            goto done;
        }
    }
done:
    Py_DECREF(seq);
    return li;
}

/* ---------------------------------------------------------- composite */

/* composite(fg, bg, mask, dst): u8 (h, w[, c]) arrays, dst written */
static PyObject *py_composite(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *f, *b, *m, *d;
    if (!PyArg_ParseTuple(args, "OOOO", &f, &b, &m, &d)) return NULL;
    pfpy_image fi, bi, mi, di;
    memset(&fi, 0, sizeof fi), memset(&bi, 0, sizeof bi), memset(&mi, 0, sizeof mi), memset(&di, 0, sizeof di);
    PyObject *res = NULL;
    if (pfpy_image_in(f, "fg", 0, &fi) < 0) return NULL;
    if (pfpy_image_in(b, "bg", 0, &bi) < 0) goto done_f;
    if (pfpy_image_in(m, "mask", 0, &mi) < 0) goto done_b;
    if (pfpy_image_in(d, "dst", PFPY_WRITABLE, &di) < 0) goto done_m;
    pf_status st;
    pf_stream *stream = pfpy_stream_acquire();
    PFPY_CALL(st, pf_composite(stream, 1, &fi.img, &bi.img, &mi.img, &di.img));
    pfpy_stream_release(stream);
    if (st != PF_OK) pfpy_raise(st);
    else res = Py_NewRef(d);
    pfpy_image_release(&di);
done_m:
    pfpy_image_release(&mi);
done_b:
    pfpy_image_release(&bi);
done_f:
    pfpy_image_release(&fi);
    return res;
}

/* ------------------------------------------------------- masks_unmap */

/* masks_unmap(src, infos, sizes, interp, dst): src one mask or a list;
 * infos and sizes one entry per sample ((width, height) of dst: the crop
 * in source pixels). New arrays of src's dtype and channels unless dst. */
static PyObject *py_masks_unmap(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *src, *infos, *sizes, *dst = Py_None;
    int interp;
    if (!PyArg_ParseTuple(args, "OOOi|O", &src, &infos, &sizes, &interp, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "masks", 0) < 0) return NULL;
    int n = op.in.n;
    PyObject *ss = PySequence_Fast(sizes, "sizes must be a list of (width, height) pairs");
    if (ss == NULL) return pfpy_op_abort(&op);
    if (PySequence_Fast_GET_SIZE(ss) != n) {
        pfpy_invalid("sizes has %zd entries for %d masks", PySequence_Fast_GET_SIZE(ss), n);
        Py_DECREF(ss);
        return pfpy_op_abort(&op);
    }
    for (int i = 0; i < n; i++) {
        int w, h;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ss, i), "ii", &w, &h) || w < 1 || h < 1) {
            PyErr_Clear();
            pfpy_invalid("sizes[%d] must be a (width, height) pair of integers >= 1", i);
            Py_DECREF(ss);
            return pfpy_op_abort(&op);
        }
        op.shapes[i].width = w;
        op.shapes[i].height = h;
    }
    Py_DECREF(ss);
    pf_letterbox_info *li = infos_from(infos, n);
    if (li == NULL) return pfpy_op_abort(&op);
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyMem_Free(li);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_masks_unmap(stream_, n, op.in.views, li, op.out.views, (pf_interp)interp));
    PyMem_Free(li);
    return pfpy_op_finish(&op, st);
}

/* --------------------------------------------------- background_blur */

/* background_blur(frames, masks, infos, ksize_x, ksize_y, sigma_x,
 * sigma_y, border, dst): frames u8 (h, w, 3), one or a list; masks as
 * many u8 (h, w) at tensor resolution; results like the frames (dst may
 * be the frames). */
static PyObject *py_background_blur(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *frames, *masks, *infos, *dst = Py_None;
    pf_gaussian_params p;
    pf_gaussian_params_defaults(&p);
    int border;
    if (!PyArg_ParseTuple(args, "OOOiiddi|O", &frames, &masks, &infos, &p.ksize_x, &p.ksize_y, &p.sigma_x,
                          &p.sigma_y, &border, &dst))
        return NULL;
    p.border = (pf_border)border;
    pfpy_op op;
    if (pfpy_op_begin(&op, frames, "frames", 0) < 0) return NULL;
    int n = op.in.n;
    pfpy_images mk;
    if (pfpy_images_in(masks, "masks", 0, &mk) < 0) return pfpy_op_abort(&op);
    pf_letterbox_info *li = NULL;
    if (mk.n != n) {
        pfpy_invalid("masks has %d images for %d frames", mk.n, n);
        goto fail;
    }
    if ((li = infos_from(infos, n)) == NULL) goto fail;
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        pfpy_images_release(&mk);
        PyMem_Free(li);
        return NULL;
    }
    pf_status st;
    PFPY_RUN(st, pf_background_blur(stream_, n, op.in.views, mk.views, li, &p, op.out.views));
    pfpy_images_release(&mk);
    PyMem_Free(li);
    return pfpy_op_finish(&op, st);
fail:
    pfpy_images_release(&mk);
    PyMem_Free(li);
    return pfpy_op_abort(&op);
}

/* --------------------------------------------------- draw_detections */

/* draw_detections(image, boxes, classes, thickness, color, palette,
 * fill_alpha, label): one u8 (h, w[, c]) image drawn in place; boxes
 * float32 (n, 4) xyxy and classes int32 (n,) C-contiguous (the Python
 * module converts). Returns None. */
static PyObject *py_draw_detections(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img, *boxes, *classes;
    pf_draw_opts o = pf_draw_opts_defaults();
    int thickness, palette, fill_alpha, label, c0, c1, c2, c3;
    if (!PyArg_ParseTuple(args, "OOOi(iiii)pip", &img, &boxes, &classes, &thickness, &c0, &c1, &c2, &c3, &palette,
                          &fill_alpha, &label))
        return NULL;
    int cv[4] = {c0, c1, c2, c3};
    for (int k = 0; k < 4; k++) {
        if (cv[k] < 0 || cv[k] > 255) return pfpy_invalid("color[%d] = %d must be in 0..255", k, cv[k]);
        o.color[k] = (uint8_t)cv[k];
    }
    if (fill_alpha < 0 || fill_alpha > 255) return pfpy_invalid("fill_alpha = %d must be in 0..255", fill_alpha);
    o.thickness = thickness;
    o.palette = palette;
    o.fill_alpha = (uint8_t)fill_alpha;
    o.label = label;
    Py_buffer bb, cb;
    Py_ssize_t nb = pfpy_flat_buffer(boxes, "boxes", 'f', &bb);
    if (nb < 0) return NULL;
    Py_ssize_t nc = pfpy_flat_buffer(classes, "classes", 'i', &cb);
    if (nc < 0) {
        PyBuffer_Release(&bb);
        return NULL;
    }
    PyObject *res = NULL;
    pf_detection *dets = NULL;
    pfpy_image im;
    memset(&im, 0, sizeof im);
    if (nb % 4 || nc != nb / 4) {
        pfpy_invalid("boxes has %zd values and classes %zd: boxes must be (n, 4) and classes (n,)", nb, nc);
        goto done;
    }
    if (pfpy_image_in(img, "image", PFPY_WRITABLE, &im) < 0) goto done;
    Py_ssize_t n = nc;
    if ((dets = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof *dets)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const float *b = bb.buf;
    const int32_t *c = cb.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        dets[i] = (pf_detection){b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3], 1.0f, c[i], (int32_t)i};
    int64_t off[2] = {0, (int64_t)n};
    pf_status st;
    PFPY_CALL(st, pf_draw_detections(1, &im.img, off, dets, &o));
    if (st != PF_OK) pfpy_raise(st);
    else res = Py_NewRef(Py_None);
done:
    pfpy_image_release(&im);
    PyMem_Free(dets);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&cb);
    return res;
}

/* ------------------------------------------------------------- table */

PyMethodDef pfpy_post_image_methods[] = {
    {"post_composite", py_composite, METH_VARARGS,
     "post_composite(fg, bg, mask, dst, /)\n--\n\npf_composite into dst; returns dst."},
    {"post_masks_unmap", py_masks_unmap, METH_VARARGS,
     "post_masks_unmap(masks, infos, sizes, interp, dst=None, /)\n--\n\npf_masks_unmap: one mask or a list; infos "
     "(scale_x, scale_y, offset_x, offset_y[, crop_x, crop_y]) and sizes (width, height) one per mask."},
    {"post_background_blur", py_background_blur, METH_VARARGS,
     "post_background_blur(frames, masks, infos, ksize_x, ksize_y, sigma_x, sigma_y, border, dst=None, /)\n--\n\n"
     "pf_background_blur: one frame or a list, a mask and an info tuple per frame."},
    {"post_draw_detections", py_draw_detections, METH_VARARGS,
     "post_draw_detections(image, boxes, classes, thickness, color, palette, fill_alpha, label, /)\n--\n\n"
     "pf_draw_detections of float32 (n, 4) xyxy boxes and int32 classes onto image, in place."},
    {NULL, NULL, 0, NULL}};
