/* Array-like objects -> memory descriptions (pfpy_array), and images
 * (pfpy_image: a pf_image view of that memory, or a packed copy when its
 * strides are not a pf_image's). Sources, fastest first: a pixflow.Tensor
 * (fields read directly), the buffer protocol (numpy, memoryview),
 * DLPack (__dlpack__: torch, jax, cupy; versioned and legacy capsules),
 * __cuda_array_interface__, and anything numpy.asarray takes (PIL). */
#include <string.h>

#include "pfpy.h"

int pfpy_dtype_from_format(const char *f, Py_ssize_t itemsize) {
    if (f == NULL) return PF_U8; /* "B" is implied when no format is requested */
    while (*f == '@' || *f == '=' || *f == '<' || *f == '|') f++;
    if (f[0] == '\0' || f[1] != '\0') return -1;
    switch (f[0]) {
    case 'B': return PF_U8;
    case 'H': return itemsize == 2 ? PF_U16 : -1;
    case 'h': return itemsize == 2 ? PF_S16 : -1;
    case 'i': case 'l': return itemsize == 4 ? PF_S32 : -1;
    case 'e': return PF_F16;
    case 'f': return PF_F32;
    default: return -1;
    }
}

const char *pfpy_numpy_dtype(pf_dtype dt) {
    switch (dt) {
    case PF_U8: return "uint8";
    case PF_U16: return "uint16";
    case PF_S16: return "int16";
    case PF_S32: return "int32";
    case PF_F16: return "float16";
    case PF_F32: return "float32";
    default: return NULL;
    }
}

static PyObject *numpy_attr(const char *attr) {
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL) return NULL;
    PyObject *r = PyObject_GetAttrString(np, attr);
    Py_DECREF(np);
    return r;
}

static int from_tensor(pfpy_tensor *t, int writable, const char *name, pfpy_array *out) {
    if (writable && t->readonly) {
        pfpy_invalid("%s is read-only (a read-only pixflow.Tensor); pass writable memory", name);
        return -1;
    }
    out->data = t->data;
    out->ndim = t->ndim;
    memcpy(out->shape, t->shape, sizeof out->shape);
    memcpy(out->strides, t->strides, sizeof out->strides);
    out->dtype = t->dtype;
    out->mem = t->mem;
    out->device = t->device;
    out->readonly = t->readonly;
    out->keep = Py_NewRef((PyObject *)t);
    return 0;
}

static int from_buffer(PyObject *obj, int writable, const char *name, pfpy_array *out) {
    int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &out->view, flags) < 0) {
        if (writable && PyObject_GetBuffer(obj, &out->view, PyBUF_STRIDES | PyBUF_FORMAT) == 0) {
            PyBuffer_Release(&out->view);
            PyErr_Clear();
            pfpy_invalid("%s is read-only; pass a writable array (e.g. arr.copy())", name);
            return -1;
        }
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyObject *s = v ? PyObject_Str(v) : NULL;
        pfpy_invalid("%s: its buffer cannot be read as an array (%s)", name,
                     s ? PyUnicode_AsUTF8(s) : "unknown reason");
        Py_XDECREF(s);
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
        return -1;
    }
    out->has_view = 1;
    Py_buffer *b = &out->view;
    if (b->ndim > 5 || b->ndim < 1) {
        pfpy_invalid("%s has %d dimensions; images have 2 or 3", name, b->ndim);
        return -1;
    }
    int dt = pfpy_dtype_from_format(b->format, b->itemsize);
    if (dt < 0) {
        pfpy_unsupported("%s has element format '%s' (%zd bytes); pixflow takes uint8, uint16, int16, "
                         "int32, float16 and float32",
                         name, b->format ? b->format : "B", b->itemsize);
        return -1;
    }
    out->data = b->buf;
    out->ndim = b->ndim;
    for (int i = 0; i < b->ndim; i++) {
        out->shape[i] = b->shape[i];
        out->strides[i] = b->strides ? b->strides[i] : 0;
    }
    if (b->strides == NULL) { /* C-contiguous */
        Py_ssize_t s = b->itemsize;
        for (int i = b->ndim - 1; i >= 0; i--) {
            out->strides[i] = s;
            s *= b->shape[i];
        }
    }
    out->dtype = (pf_dtype)dt;
    out->mem = PF_MEM_HOST;
    out->device = 0;
    out->readonly = b->readonly;
    return 0;
}

static PyObject *call_dlpack(PyObject *obj) {
    /* ask for a versioned capsule; producers older than DLPack 1.0 do not
     * know max_version and raise TypeError: ask again without it */
    PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
    if (fn == NULL) return NULL;
    PyObject *kw = Py_BuildValue("{s:(II)}", "max_version", PFPY_DLPACK_MAJOR, PFPY_DLPACK_MINOR);
    PyObject *empty = PyTuple_New(0);
    PyObject *cap = (kw && empty) ? PyObject_Call(fn, empty, kw) : NULL;
    if (cap == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        cap = PyObject_CallNoArgs(fn);
    }
    Py_XDECREF(kw);
    Py_XDECREF(empty);
    Py_DECREF(fn);
    return cap;
}

static int from_dlpack(PyObject *obj, int writable, const char *name, pfpy_array *out) {
    PyObject *cap = call_dlpack(obj);
    if (cap == NULL) return -1;
    pfpy_tensor *t = pfpy_tensor_from_capsule(cap, name);
    Py_DECREF(cap);
    if (t == NULL) return -1;
    int r = from_tensor(t, writable, name, out);
    Py_DECREF(t);
    return r;
}

static int cai_dtype(const char *ts) {
    if (ts == NULL || strlen(ts) < 3) return -1;
    if (ts[0] == '>') return -1;
    const char *k = ts + 1;
    if (strcmp(k, "u1") == 0) return PF_U8;
    if (strcmp(k, "u2") == 0) return PF_U16;
    if (strcmp(k, "i2") == 0) return PF_S16;
    if (strcmp(k, "i4") == 0) return PF_S32;
    if (strcmp(k, "f2") == 0) return PF_F16;
    if (strcmp(k, "f4") == 0) return PF_F32;
    return -1;
}

/* __cuda_array_interface__ (numba, cupy, torch): shape, typestr, data,
 * strides (None: C-contiguous). The device is the current CUDA device
 * (the interface does not name one); index 0 unless set otherwise. */
static int from_cai(PyObject *obj, PyObject *cai, int writable, const char *name, pfpy_array *out) {
    PyObject *shape = PyDict_GetItemString(cai, "shape");
    PyObject *typestr = PyDict_GetItemString(cai, "typestr");
    PyObject *data = PyDict_GetItemString(cai, "data");
    PyObject *strides = PyDict_GetItemString(cai, "strides");
    if (!shape || !typestr || !data || !PyTuple_Check(shape) || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2) {
        pfpy_invalid("%s: malformed __cuda_array_interface__", name);
        return -1;
    }
    int dt = cai_dtype(PyUnicode_Check(typestr) ? PyUnicode_AsUTF8(typestr) : NULL);
    if (dt < 0) {
        pfpy_unsupported("%s: __cuda_array_interface__ typestr is not one of pixflow's dtypes", name);
        return -1;
    }
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    if (nd < 1 || nd > 5) {
        pfpy_invalid("%s has %zd dimensions; images have 2 or 3", name, nd);
        return -1;
    }
    out->ndim = (int)nd;
    out->dtype = (pf_dtype)dt;
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size(out->dtype);
    for (Py_ssize_t i = 0; i < nd; i++) out->shape[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
    if (strides && strides != Py_None) {
        if (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != nd) {
            pfpy_invalid("%s: __cuda_array_interface__ strides do not match its shape", name);
            return -1;
        }
        for (Py_ssize_t i = 0; i < nd; i++) out->strides[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, i));
    } else {
        Py_ssize_t s = es;
        for (Py_ssize_t i = nd - 1; i >= 0; i--) {
            out->strides[i] = s;
            s *= out->shape[i];
        }
    }
    out->data = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
    out->readonly = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
    if (PyErr_Occurred()) return -1;
    if (writable && out->readonly) {
        pfpy_invalid("%s is read-only (__cuda_array_interface__ says so)", name);
        return -1;
    }
    out->mem = PF_MEM_CUDA;
    out->device = 0;
    out->keep = Py_NewRef(obj);
    return 0;
}

int pfpy_array_get(PyObject *obj, int writable, const char *name, pfpy_array *out) {
    memset(out, 0, sizeof *out);
    if (obj == NULL || obj == Py_None) {
        pfpy_invalid("%s is None; pass an image (numpy array, torch tensor, PIL image or DLPack array)", name);
        return -1;
    }
    if (Py_IS_TYPE(obj, &pfpy_TensorType)) return from_tensor((pfpy_tensor *)obj, writable, name, out);
    if (PyObject_CheckBuffer(obj) && !PyBytes_Check(obj) && !PyByteArray_Check(obj))
        return from_buffer(obj, writable, name, out);
    if (PyObject_HasAttrString(obj, "__dlpack__")) return from_dlpack(obj, writable, name, out);
    PyObject *cai = PyObject_GetAttrString(obj, "__cuda_array_interface__");
    if (cai != NULL) {
        int r = PyDict_Check(cai) ? from_cai(obj, cai, writable, name, out)
                                  : (pfpy_invalid("%s: __cuda_array_interface__ is not a dict", name), -1);
        Py_DECREF(cai);
        return r;
    }
    PyErr_Clear();
    if (PyObject_HasAttrString(obj, "__array_interface__") || PyObject_HasAttrString(obj, "__array__")) {
        if (writable) {
            pfpy_invalid("%s (%s) cannot be written in place; pass a numpy array or a tensor", name,
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        /* PIL images and other array-likes: numpy makes the array (a PIL
         * image has no memory numpy could share) */
        PyObject *asarray = numpy_attr("asarray");
        PyObject *arr = asarray ? PyObject_CallOneArg(asarray, obj) : NULL;
        Py_XDECREF(asarray);
        if (arr == NULL) return -1;
        int r = from_buffer(arr, 0, name, out);
        out->keep = arr;
        return r;
    }
    pfpy_invalid("%s: expected an image (numpy array, torch tensor, PIL image or DLPack array), got %s", name,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

void pfpy_array_release(pfpy_array *a) {
    if (a->has_view) PyBuffer_Release(&a->view);
    a->has_view = 0;
    Py_CLEAR(a->keep);
}

/* ------------------------------------------------------------ images */

/* Packed HWC copy of an arbitrarily strided host image (axes in HWC
 * order: rs row, ps pixel, cs channel strides in bytes). */
static void *strided_copy(const pfpy_array *a, int h, int w, int c, Py_ssize_t rs, Py_ssize_t ps, Py_ssize_t cs) {
    size_t es = pf_dtype_size(a->dtype);
    size_t bytes = (size_t)h * (size_t)w * (size_t)c * es;
    unsigned char *dst = PyMem_RawMalloc(bytes ? bytes : 1);
    if (dst == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    unsigned char *o = dst;
    for (int y = 0; y < h; y++) {
        const unsigned char *row = (const unsigned char *)a->data + (Py_ssize_t)y * rs;
        for (int x = 0; x < w; x++) {
            const unsigned char *px = row + (Py_ssize_t)x * ps;
            for (int k = 0; k < c; k++, o += es) memcpy(o, px + (Py_ssize_t)k * cs, es);
        }
    }
    return dst;
}

static const char *shape_str(const pfpy_array *a, char *buf, size_t cap) {
    size_t n = 0;
    n += (size_t)snprintf(buf + n, cap - n, "(");
    for (int i = 0; i < a->ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%zd", i ? ", " : "", a->shape[i]);
    if (n < cap) snprintf(buf + n, cap - n, "%s)", a->ndim == 1 ? "," : "");
    return buf;
}

int pfpy_image_in(PyObject *obj, const char *name, unsigned flags, pfpy_image *out) {
    memset(out, 0, sizeof *out);
    pfpy_array *a = &out->arr;
    if (pfpy_array_get(obj, (flags & PFPY_WRITABLE) != 0, name, a) < 0) return -1;
    char sb[96];
    int torch = (flags & PFPY_CONV_TORCH) != 0;
    if (a->ndim != 2 && a->ndim != 3) {
        pfpy_invalid("%s has shape %s; an image is %s", name, shape_str(a, sb, sizeof sb),
                     torch ? "(C, H, W) or (H, W)" : "(H, W) or (H, W, C)");
        goto fail;
    }
    Py_ssize_t h, w, c, rs, ps, cs;
    if (a->ndim == 2) {
        h = a->shape[0], w = a->shape[1], c = 1;
        rs = a->strides[0], ps = a->strides[1], cs = ps;
    } else if (torch) {
        c = a->shape[0], h = a->shape[1], w = a->shape[2];
        cs = a->strides[0], rs = a->strides[1], ps = a->strides[2];
    } else {
        h = a->shape[0], w = a->shape[1], c = a->shape[2];
        rs = a->strides[0], ps = a->strides[1], cs = a->strides[2];
    }
    out->ndim = a->ndim;
    if (h < 1 || w < 1 || c < 1) {
        pfpy_invalid("%s is empty (shape %s)", name, shape_str(a, sb, sizeof sb));
        goto fail;
    }
    if (c > 4) {
        pfpy_invalid("%s has %zd channels (shape %s); pixflow images have 1 to 4", name, c,
                     shape_str(a, sb, sizeof sb));
        goto fail;
    }
    if (h > INT32_MAX || w > INT32_MAX) {
        pfpy_invalid("%s is too large (shape %s)", name, shape_str(a, sb, sizeof sb));
        goto fail;
    }
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size(a->dtype);
    /* numpy (and torch) give axes of size 1 any stride: when the strides
     * name no layout, only the other axes say it (a 1-pixel-wide or 1-row
     * planar view) */
    int hwc = ps == c * es && (c == 1 || cs == es), chw = c > 1 && ps == es;
    if (!hwc && !chw && w == 1) ps = (c == 1 || cs == es) ? c * es : es;
    if (!hwc && !chw && h == 1) rs = w * ps;
    pf_image *im = &out->img;
    memset(im, 0, sizeof *im);
    im->width = (int32_t)w;
    im->height = (int32_t)h;
    im->channels = (int32_t)c;
    im->dtype = a->dtype;
    im->mem = a->mem;
    im->device = a->device;
    if (ps == c * es && (c == 1 || cs == es)) {
        im->data = a->data;
        im->layout = PF_HWC;
        im->row_stride = rs;
        return 0;
    }
    if (c > 1 && ps == es && (flags & PFPY_CHW_OK)) {
        im->data = a->data;
        im->layout = PF_CHW;
        im->row_stride = rs;
        im->plane_stride = cs;
        return 0;
    }
    if ((flags & PFPY_WRITABLE) || a->mem != PF_MEM_HOST) {
        pfpy_invalid("%s: strides (row %zd, pixel %zd, channel %zd bytes) are not an image view pixflow can "
                     "%s (pixels must be %zd bytes apart%s); pass a contiguous array",
                     name, rs, ps, cs, (flags & PFPY_WRITABLE) ? "write" : "read on the device", c * es,
                     (flags & PFPY_CHW_OK) ? ", or planes of adjacent pixels" : "");
        goto fail;
    }
    out->copy = strided_copy(a, (int)h, (int)w, (int)c, rs, ps, cs);
    if (out->copy == NULL) goto fail;
    im->data = out->copy;
    im->layout = PF_HWC;
    im->row_stride = w * c * es;
    return 0;
fail:
    pfpy_array_release(a);
    return -1;
}

void pfpy_image_release(pfpy_image *im) {
    pfpy_array_release(&im->arr);
    PyMem_RawFree(im->copy);
    im->copy = NULL;
}

/* -------------------------------------------------------------- batches */

static int alloc_batch(pfpy_images *out, Py_ssize_t n) {
    if (n == 1) {
        out->im = &out->one;
        out->views = &out->one_view;
        return 0;
    }
    out->im = PyMem_Calloc((size_t)n, sizeof *out->im);
    out->views = PyMem_Calloc((size_t)n, sizeof *out->views);
    if (out->im == NULL || out->views == NULL) {
        PyMem_Free(out->im);
        PyMem_Free(out->views);
        out->im = NULL;
        out->views = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

int pfpy_images_in(PyObject *obj, const char *name, unsigned flags, pfpy_images *out) {
    memset(out, 0, sizeof *out);
    if (obj != NULL && (PyList_Check(obj) || PyTuple_Check(obj))) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
        if (n < 1 || n > INT32_MAX) {
            pfpy_invalid("%s is an empty list; pass at least one image", name);
            return -1;
        }
        if (alloc_batch(out, n) < 0) return -1;
        out->is_seq = 1;
        PyObject **items = PySequence_Fast_ITEMS(obj);
        for (Py_ssize_t i = 0; i < n; i++) {
            char nm[64];
            snprintf(nm, sizeof nm, "%s[%zd]", name, i);
            if (pfpy_image_in(items[i], nm, flags, &out->im[i]) < 0) {
                out->n = (int)i;
                pfpy_images_release(out);
                return -1;
            }
            out->views[i] = out->im[i].img;
        }
        out->n = (int)n;
        return 0;
    }
    alloc_batch(out, 1);
    if (pfpy_image_in(obj, name, flags, &out->one) < 0) return -1;
    out->one_view = out->one.img;
    out->n = 1;
    return 0;
}

void pfpy_images_release(pfpy_images *ims) {
    for (int i = 0; i < ims->n; i++) pfpy_image_release(&ims->im[i]);
    if (ims->im != &ims->one) {
        PyMem_Free(ims->im);
        PyMem_Free(ims->views);
    }
    ims->im = NULL;
    ims->views = NULL;
    ims->n = 0;
}

/* ------------------------------------------------------------- outputs */

static PyObject *np_empty_fn;
static PyObject *np_dtypes[PF_F32 + 1];

PyObject *pfpy_numpy_empty_nd(int ndim, const Py_ssize_t *shape, pf_dtype dtype) {
    if (np_empty_fn == NULL) {
        np_empty_fn = numpy_attr("empty");
        if (np_empty_fn == NULL) return NULL;
    }
    if ((unsigned)dtype > PF_F32 || pfpy_numpy_dtype(dtype) == NULL)
        return pfpy_unsupported("numpy has no %s dtype; ask for a pixflow.Tensor instead", pf_dtype_name(dtype));
    if (np_dtypes[dtype] == NULL) {
        PyObject *dt = numpy_attr("dtype");
        np_dtypes[dtype] = dt ? PyObject_CallFunction(dt, "s", pfpy_numpy_dtype(dtype)) : NULL;
        Py_XDECREF(dt);
        if (np_dtypes[dtype] == NULL) return NULL;
    }
    PyObject *tup = PyTuple_New(ndim);
    if (tup == NULL) return NULL;
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromSsize_t(shape[i]);
        if (v == NULL) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, v);
    }
    PyObject *r = PyObject_CallFunctionObjArgs(np_empty_fn, tup, np_dtypes[dtype], NULL);
    Py_DECREF(tup);
    return r;
}

/* Axes as the caller's convention names them; memory in the layout the
 * op writes (a planar result of an HWC-named array is a transposed view
 * of a (C, H, W) allocation, and the other way round). */
PyObject *pfpy_numpy_empty(const pfpy_shape *s) {
    if (s->channels == 1 && s->ndim == 2) {
        Py_ssize_t shape[2] = {s->height, s->width};
        return pfpy_numpy_empty_nd(2, shape, s->dtype);
    }
    int planar = s->layout == PF_CHW && s->channels > 1;
    if (planar == s->torch) {
        Py_ssize_t hwc[3] = {s->height, s->width, s->channels}, chw[3] = {s->channels, s->height, s->width};
        return pfpy_numpy_empty_nd(3, s->torch ? chw : hwc, s->dtype);
    }
    Py_ssize_t mem[3] = {s->height, s->width, s->channels};
    const char *axes = "(2, 0, 1)"; /* HWC memory named (C, H, W) */
    if (planar) {
        mem[0] = s->channels, mem[1] = s->height, mem[2] = s->width;
        axes = "(1, 2, 0)"; /* CHW memory named (H, W, C) */
    }
    PyObject *a = pfpy_numpy_empty_nd(3, mem, s->dtype);
    if (a == NULL) return NULL;
    PyObject *r = PyObject_CallMethod(a, "transpose", "iii", axes[1] - '0', axes[4] - '0', axes[7] - '0');
    Py_DECREF(a);
    return r;
}

static int check_dst(const pfpy_image *d, const pfpy_shape *s, const char *name) {
    const pf_image *v = &d->img;
    if (v->width != s->width || v->height != s->height || v->channels != s->channels || v->dtype != s->dtype) {
        pfpy_invalid("%s is %dx%d with %d channel(s) of %s; this op writes %dx%d with %d channel(s) of %s "
                     "(width x height)",
                     name, v->width, v->height, v->channels, pf_dtype_name(v->dtype), s->width, s->height,
                     s->channels, pf_dtype_name(s->dtype));
        return -1;
    }
    return 0;
}

int pfpy_images_out(PyObject *dst, const char *name, const pfpy_images *src, const pfpy_shape *shapes,
                    unsigned flags, pfpy_images *out, PyObject **result) {
    memset(out, 0, sizeof *out);
    *result = NULL;
    int n = src->n;
    flags |= PFPY_WRITABLE;
    if (dst == NULL || dst == Py_None) {
        PyObject *list = NULL;
        if (src->is_seq && (list = PyList_New(n)) == NULL) return -1;
        if (alloc_batch(out, n) < 0) {
            Py_XDECREF(list);
            return -1;
        }
        out->is_seq = src->is_seq;
        for (int i = 0; i < n; i++) {
            /* inside `with stream:` on a device the results are device tensors */
            PyObject *arr = pfpy_on_device_stream() ? pfpy_device_result(&shapes[i]) : pfpy_numpy_empty(&shapes[i]);
            if (arr == NULL || pfpy_image_in(arr, name, flags, &out->im[i]) < 0) {
                Py_XDECREF(arr);
                out->n = i;
                pfpy_images_release(out);
                Py_XDECREF(list);
                return -1;
            }
            /* a 1x1 result is both layouts in memory (numpy may report it
             * either way): it is the one the op writes */
            pf_image *v = &out->im[i].img;
            if (v->width == 1 && v->height == 1 && v->channels > 1 && v->layout != shapes[i].layout) {
                ptrdiff_t es = (ptrdiff_t)pf_dtype_size(v->dtype);
                v->layout = shapes[i].layout;
                v->row_stride = v->layout == PF_CHW ? es : es * v->channels;
                v->plane_stride = v->layout == PF_CHW ? es : 0;
            }
            out->views[i] = out->im[i].img;
            out->n = i + 1;
            if (list) {
                PyList_SET_ITEM(list, i, arr);
            } else {
                *result = arr;
            }
        }
        if (list) *result = list;
        return 0;
    }
    int seq = PyList_Check(dst) || PyTuple_Check(dst);
    if (seq != src->is_seq || (seq && PySequence_Fast_GET_SIZE(dst) != n)) {
        pfpy_invalid("%s must be %s, as the source is", name,
                     src->is_seq ? "a list of the same length" : "one image (not a list)");
        return -1;
    }
    if (pfpy_images_in(dst, name, flags, out) < 0) return -1;
    for (int i = 0; i < n; i++) {
        char nm[64];
        if (seq) snprintf(nm, sizeof nm, "%s[%d]", name, i);
        if (check_dst(&out->im[i], &shapes[i], seq ? nm : name) < 0) {
            pfpy_images_release(out);
            return -1;
        }
    }
    *result = Py_NewRef(dst);
    return 0;
}

/* -------------------------------------------------------- parameters */

static int as_double(PyObject *o, const char *name, double *v) {
    *v = PyFloat_AsDouble(o);
    if (*v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        pfpy_invalid("%s must be a number, got %s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

static int as_int32(PyObject *o, const char *name, int *v) {
    long x = PyLong_AsLong(o);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        pfpy_invalid("%s must be an integer, got %s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (x < INT32_MIN || x > INT32_MAX) {
        pfpy_invalid("%s = %ld is out of range (int32)", name, x);
        return -1;
    }
    *v = (int)x;
    return 0;
}

/* out[i] = element o, named name (for the message). */
typedef int (*param_put)(PyObject *o, const char *name, void *out, Py_ssize_t i);
static int put_double(PyObject *o, const char *name, void *out, Py_ssize_t i) {
    return as_double(o, name, (double *)out + i);
}
static int put_int(PyObject *o, const char *name, void *out, Py_ssize_t i) { return as_int32(o, name, (int *)out + i); }

/* One value or one per sample (a sequence of 1 or n) into out; returns how
 * many were given, or -1 with the error set. scalar: obj is one value. */
static int params(PyObject *obj, const char *name, int n, const char *what, int scalar, param_put put, void *out) {
    if (obj == NULL || obj == Py_None) {
        pfpy_invalid("%s is None; pass %s or one per sample", name, what);
        return -1;
    }
    if (scalar) return put(obj, name, out, 0) < 0 ? -1 : 1;
    PyObject *seq = PySequence_Fast(obj, name);
    if (seq == NULL) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k != 1 && k != n) {
        Py_DECREF(seq);
        pfpy_invalid("%s has %zd entries; pass 1 or one per sample (%d)", name, k, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "%s[%zd]", name, i);
        if (put(PySequence_Fast_GET_ITEM(seq, i), nm, out, i) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return (int)k;
}

int pfpy_params_double(PyObject *obj, const char *name, int n, double *out) {
    int scalar = obj && (PyFloat_Check(obj) || PyLong_Check(obj) || !PySequence_Check(obj));
    return params(obj, name, n, "a number", scalar, put_double, out);
}

int pfpy_params_int(PyObject *obj, const char *name, int n, int *out) {
    int scalar = obj && (PyLong_Check(obj) || !PySequence_Check(obj));
    return params(obj, name, n, "an integer", scalar, put_int, out);
}

int pfpy_rect(PyObject *obj, const char *what, int r[4]) {
    if (PyTuple_Check(obj) && PyArg_ParseTuple(obj, "iiii", &r[0], &r[1], &r[2], &r[3])) return 0;
    PyErr_Clear();
    pfpy_invalid("%s must be (x, y, width, height) integers", what);
    return -1;
}

int pfpy_scalar_tuple(PyObject *obj, const char *name, int max, double *out) {
    if (obj == NULL || obj == Py_None) return 0;
    if (PyFloat_Check(obj) || PyLong_Check(obj)) {
        /* a plain number is (v, 0, 0, 0), as cv2 reads a Scalar */
        return as_double(obj, name, &out[0]) < 0 ? -1 : 1;
    }
    PyObject *seq = PySequence_Fast(obj, name);
    if (seq == NULL) {
        PyErr_Clear();
        pfpy_invalid("%s must be a number or a sequence of up to %d numbers", name, max);
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > max) k = max; /* cv2 Scalars are 4 long; extra entries are ignored */
    for (Py_ssize_t i = 0; i < k; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "%s[%zd]", name, i);
        if (as_double(PySequence_Fast_GET_ITEM(seq, i), nm, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return (int)k;
}

Py_ssize_t pfpy_nd_buffer(PyObject *obj, const char *name, char fmt, int ndim, int writable, Py_buffer *view) {
    if (obj == NULL || obj == Py_None) {
        pfpy_invalid("%s is None", name);
        return -1;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Clear();
        pfpy_invalid("%s must be a contiguous%s array of %s", name, writable ? " writable" : "",
                     fmt == 'd' ? "float64" : fmt == 'f' ? "float32" : fmt == 'i' ? "int32" : "uint8");
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    while (*f == '@' || *f == '=' || *f == '<' || *f == '|') f++;
    /* int32 is 'i' or, where long has 32 bits, 'l' */
    int same = f[0] == fmt || (fmt == 'i' && f[0] == 'l' && view->itemsize == 4);
    if (!same || f[1] != '\0') {
        PyBuffer_Release(view);
        pfpy_invalid("%s has element format '%s'; expected '%c'", name, f, fmt);
        return -1;
    }
    if (ndim >= 0 && view->ndim != ndim) {
        pfpy_invalid("%s has %d dimensions; expected %d", name, view->ndim, ndim);
        PyBuffer_Release(view);
        return -1;
    }
    return view->len / view->itemsize;
}

Py_ssize_t pfpy_flat_buffer(PyObject *obj, const char *name, char fmt, Py_buffer *view) {
    return pfpy_nd_buffer(obj, name, fmt, -1, 0, view);
}

int pfpy_buf_get(PyObject *obj, const char *name, char fmt, int ndim, int writable, int allow_none, pfpy_buf *b) {
    memset(b, 0, sizeof *b);
    if ((obj == NULL || obj == Py_None) && allow_none) return 0;
    if (pfpy_nd_buffer(obj, name, fmt, ndim, writable, &b->v) < 0) return -1;
    b->held = 1;
    return 0;
}

void pfpy_buf_release(pfpy_buf *b) {
    if (b->held) PyBuffer_Release(&b->v);
    b->held = 0;
}

Py_ssize_t pfpy_buf_dim(const pfpy_buf *b, int i) { return b->held && i < b->v.ndim ? b->v.shape[i] : 0; }

PyObject *pfpy_numpy_empty_named(int ndim, const Py_ssize_t *shape, const char *dtype) {
    if (np_empty_fn == NULL) {
        np_empty_fn = numpy_attr("empty");
        if (np_empty_fn == NULL) return NULL;
    }
    PyObject *tup = PyTuple_New(ndim), *r = NULL;
    for (int i = 0; tup && i < ndim; i++) {
        PyObject *v = PyLong_FromSsize_t(shape[i]);
        if (v == NULL) {
            Py_CLEAR(tup);
            break;
        }
        PyTuple_SET_ITEM(tup, i, v);
    }
    if (tup) r = PyObject_CallFunction(np_empty_fn, "Os", tup, dtype);
    Py_XDECREF(tup);
    return r;
}

void *pfpy_numpy_data(PyObject *arr) {
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    void *p = v.buf;
    PyBuffer_Release(&v); /* the array keeps the memory */
    return p;
}
