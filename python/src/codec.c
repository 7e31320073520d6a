/* Image decode: pf_image_probe, pf_decode_query, pf_decode (JPEG, PNG,
 * WebP from memory). The GIL is released while pixels are decoded; each
 * thread keeps its own pf_decoder (one per thread is the codec's rule),
 * created on first use and freed at thread exit. */
#include <pthread.h>
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

#ifdef PF_HAVE_CODEC

static pthread_key_t dec_key;
static pthread_once_t dec_once = PTHREAD_ONCE_INIT;

static void dec_free(void *d) { pf_decoder_destroy(d); }
static void dec_key_make(void) { (void)pthread_key_create(&dec_key, dec_free); }

static pf_decoder *thread_decoder(void) {
    pthread_once(&dec_once, dec_key_make);
    pf_decoder *d = pthread_getspecific(dec_key);
    if (d == NULL && pf_decoder_create(&d) == PF_OK) pthread_setspecific(dec_key, d);
    return d; /* NULL: pf_decode uses a temporary one */
}

static int get_bytes(PyObject *obj, Py_buffer *b) {
    if (obj == Py_None) {
        pfpy_invalid("data is None; pass the encoded bytes");
        return -1;
    }
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        pfpy_invalid("data must be bytes-like (bytes, bytearray, memoryview, a uint8 numpy array), got %s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (b->len == 0) {
        PyBuffer_Release(b);
        pfpy_raise_msg(PF_ERR_CORRUPT_DATA, "data is empty (0 bytes)");
        return -1;
    }
    return 0;
}

static const char *subsamp_name(pf_jpeg_subsampling s) {
    static const char *n[] = {"none", "444", "422", "420", "440", "411", "other"};
    return (unsigned)s <= PF_SUBSAMP_OTHER ? n[s] : "other";
}

static PyObject *py_probe(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer b;
    if (get_bytes(arg, &b) < 0) return NULL;
    pf_image_info i;
    pf_status st = pf_image_probe(b.buf, (size_t)b.len, &i);
    PyBuffer_Release(&b);
    if (st != PF_OK) return pfpy_raise(st);
    return Py_BuildValue("{s:s,s:i,s:i,s:i,s:i,s:O,s:i,s:s,s:O,s:O,s:O}", "format", pf_image_format_name(i.format),
                         "width", i.width, "height", i.height, "channels", i.channels, "bit_depth", i.bit_depth,
                         "has_alpha", i.has_alpha ? Py_True : Py_False, "orientation", i.orientation,
                         "subsampling", subsamp_name(i.jpeg_subsampling), "progressive",
                         i.progressive ? Py_True : Py_False, "interlaced", i.interlaced ? Py_True : Py_False,
                         "palette", i.palette ? Py_True : Py_False);
}

static int decode_opts(int mode, PyObject *roi, int scale, int exif, unsigned long long max_pixels, int warn_err,
                       pf_decode_opts *o) {
    *o = pf_decode_opts_defaults();
    if (mode < PF_PIXEL_RGB || mode > PF_PIXEL_RGBA) {
        pfpy_invalid("mode = %d is not a pixel format", mode);
        return -1;
    }
    o->pixel_format = (pf_pixel_format)mode;
    if (roi != Py_None) {
        int r[4];
        if (pfpy_rect(roi, "roi (or None)", r) < 0) return -1;
        o->roi_x = r[0], o->roi_y = r[1], o->roi_w = r[2], o->roi_h = r[3];
    }
    o->scale_num = scale;
    o->apply_orientation = exif != 0;
    o->max_pixels = max_pixels;
    o->warnings_are_errors = warn_err != 0;
    return 0;
}

static PyObject *result_dict(const pf_decode_result *r) {
    return Py_BuildValue("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "format", pf_image_format_name(r->format),
                         "width", r->width, "height", r->height, "channels", r->channels, "scale_num", r->scale_num,
                         "scaled_width", r->scaled_width, "scaled_height", r->scaled_height, "x", r->x, "y", r->y,
                         "orientation", r->orientation, "warnings", r->warnings);
}

/* opts.row_margin lets pf_decode write up to `margin` bytes around each of
 * dst's rows, memory outside dst itself: allowed only where that memory is
 * provably the same array's, dst being a view into a larger contiguous
 * array (the numpy .base chain) that holds the margins; anything else would
 * let a Python caller corrupt memory it does not own. */
static int margins_inside(PyObject *dst, const pf_image *v, int margin) {
    PyObject *root = dst;
    Py_INCREF(root);
    for (int depth = 0; depth < 32; depth++) {
        PyObject *b = PyObject_GetAttrString(root, "base");
        if (b == NULL) {
            PyErr_Clear();
            break;
        }
        if (b == Py_None || !PyObject_CheckBuffer(b)) {
            Py_DECREF(b);
            break;
        }
        Py_DECREF(root);
        root = b;
    }
    Py_buffer rb;
    int ok = 0;
    if (PyObject_GetBuffer(root, &rb, PyBUF_ANY_CONTIGUOUS) == 0) {
        const char *lo = rb.buf, *hi = lo + rb.len;
        const char *first = v->data, *last = first + (ptrdiff_t)(v->height - 1) * v->row_stride;
        const char *a = (v->row_stride >= 0 ? first : last) - margin;
        const char *z = (v->row_stride >= 0 ? last : first) + (ptrdiff_t)v->width * v->channels + margin;
        ok = a >= lo && z <= hi;
        PyBuffer_Release(&rb);
    } else {
        PyErr_Clear();
    }
    Py_DECREF(root);
    if (!ok)
        pfpy_invalid("row_margin = %d: dst must be a view into a larger contiguous array that holds row_margin "
                     "bytes before its first row and after its last (e.g. flat[m:m + s * h].reshape(h, s)"
                     "[:, :w * c].reshape(h, w, c) of a padded 1-D buffer, s >= w * c + m)",
                     margin);
    return ok ? 0 : -1;
}

static PyObject *py_decode(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"data", "mode", "roi", "scale_num", "apply_orientation", "max_pixels",
                             "warnings_are_errors", "dst", "with_info", "row_margin", NULL};
    PyObject *data, *roi = Py_None, *dst = Py_None;
    int mode = PF_PIXEL_RGB, scale = 8, exif = 0, warn_err = 0, with_info = 0, margin = 0;
    unsigned long long max_pixels = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|iOipKpOpi:decode", kwlist, &data, &mode, &roi, &scale, &exif,
                                     &max_pixels, &warn_err, &dst, &with_info, &margin))
        return NULL;
    pf_decode_opts o;
    if (decode_opts(mode, roi, scale, exif, max_pixels, warn_err, &o) < 0) return NULL;
    if (margin != 0 && dst == Py_None)
        return pfpy_invalid("row_margin = %d needs dst (a view into a padded buffer; see decode's doc)", margin);
    o.row_margin = margin;
    Py_buffer b;
    if (get_bytes(data, &b) < 0) return NULL;
    pf_decode_result r;
    pf_status st = pf_decode_query(b.buf, (size_t)b.len, &o, &r);
    if (st != PF_OK) {
        PyBuffer_Release(&b);
        return pfpy_raise(st);
    }
    pfpy_shape s = {r.width, r.height, r.channels, PF_U8, r.channels == 1 ? 2 : 3, PF_HWC, 0};
    pfpy_images one = {0}, out;
    one.n = 1;
    PyObject *arr;
    if (pfpy_images_out(dst, "dst", &one, &s, 0, &out, &arr) < 0) {
        PyBuffer_Release(&b);
        return NULL;
    }
    if (out.views[0].layout != PF_HWC) {
        pfpy_images_release(&out);
        PyBuffer_Release(&b);
        Py_DECREF(arr);
        return pfpy_invalid("dst must be an interleaved (H, W, C) array");
    }
    if (margin > 0 && margins_inside(dst, &out.views[0], margin) < 0) {
        pfpy_images_release(&out);
        PyBuffer_Release(&b);
        Py_DECREF(arr);
        return NULL;
    }
    pf_decoder *dec = thread_decoder();
    PFPY_CALL(st, pf_decode(dec, b.buf, (size_t)b.len, &o, &out.views[0], &r));
    pfpy_images_release(&out);
    PyBuffer_Release(&b);
    if (st != PF_OK) {
        Py_DECREF(arr);
        return pfpy_raise(st);
    }
    if (!with_info) return arr;
    PyObject *info = result_dict(&r);
    return info ? Py_BuildValue("(NN)", arr, info) : (Py_DECREF(arr), NULL);
}

static PyObject *py_decode_query(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"data", "mode", "roi", "scale_num", "apply_orientation", NULL};
    PyObject *data, *roi = Py_None;
    int mode = PF_PIXEL_RGB, scale = 8, exif = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|iOip:decode_query", kwlist, &data, &mode, &roi, &scale, &exif))
        return NULL;
    pf_decode_opts o;
    if (decode_opts(mode, roi, scale, exif, 0, 0, &o) < 0) return NULL;
    Py_buffer b;
    if (get_bytes(data, &b) < 0) return NULL;
    pf_decode_result r;
    pf_status st = pf_decode_query(b.buf, (size_t)b.len, &o, &r);
    PyBuffer_Release(&b);
    return st == PF_OK ? result_dict(&r) : pfpy_raise(st);
}

PyMethodDef pfpy_codec_methods[] = {
    {"probe", (PyCFunction)py_probe, METH_O,
     "probe(data, /)\n--\n\npf_image_probe: the header of encoded bytes as a dict (no pixel decode)."},
    {"decode", FN(py_decode), KW,
     "decode(data, mode=PIXEL_RGB, roi=None, scale_num=8, apply_orientation=False, max_pixels=0,\n"
     "       warnings_are_errors=False, dst=None, with_info=False, row_margin=0)\n--\n\n"
     "pf_decode into a new uint8 array (H, W, C) or (H, W) for gray; mode 0 RGB, 1 BGR, 2 GRAY, 3 RGBA.\n"
     "row_margin (with dst): bytes around each dst row pf_decode may overwrite, so a JPEG ROI decodes\n"
     "in place (pf_decode_opts.row_margin); dst must be a view into a larger array that holds them."},
    {"decode_query", FN(py_decode_query), KW,
     "decode_query(data, mode=PIXEL_RGB, roi=None, scale_num=8, apply_orientation=False)\n--\n\n"
     "pf_decode_query: what decode would produce, as a dict."},
    {NULL, NULL, 0, NULL}};

#else /* built without the image codecs */

static PyObject *no_codec(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    (void)args;
    (void)kw;
    return pfpy_unsupported("this pixflow was built without the image codecs (PIXFLOW_CODEC=OFF)");
}

PyMethodDef pfpy_codec_methods[] = {{"probe", FN(no_codec), KW, "Unavailable: built without codecs."},
                                    {"decode", FN(no_codec), KW, "Unavailable: built without codecs."},
                                    {"decode_query", FN(no_codec), KW, "Unavailable: built without codecs."},
                                    {NULL, NULL, 0, NULL}};

#endif
