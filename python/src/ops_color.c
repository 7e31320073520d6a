/* Colour conversion: pf_cvt_color, and the 4:2:0 codes through
 * pf_cvt_color_from_yuv / pf_cvt_color_to_yuv with frames held as OpenCV
 * holds them (one (H * 3/2, W) uint8 array: Y, then the chroma planes). */
#include <string.h>

#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

/* Channels a non-video code writes (0: the caller's dst_channels or 3). */
static int code_out_channels(int code, int src_channels, int dst_channels) {
    switch (code) {
    case PF_COLOR_BGR2BGRA: case PF_COLOR_BGR2RGBA: case PF_COLOR_BGRA2RGBA: case PF_COLOR_GRAY2BGRA: return 4;
    case PF_COLOR_BGRA2BGR: case PF_COLOR_RGBA2BGR: case PF_COLOR_BGR2RGB: case PF_COLOR_GRAY2BGR: return 3;
    case PF_COLOR_BGR2GRAY: case PF_COLOR_RGB2GRAY: case PF_COLOR_BGRA2GRAY: case PF_COLOR_RGBA2GRAY: return 1;
    case PF_COLOR_BGR2YCrCb: case PF_COLOR_RGB2YCrCb: case PF_COLOR_BGR2HSV: case PF_COLOR_RGB2HSV:
    case PF_COLOR_BGR2HSV_FULL: case PF_COLOR_RGB2HSV_FULL: return 3;
    case PF_COLOR_YCrCb2BGR: case PF_COLOR_YCrCb2RGB: case PF_COLOR_HSV2BGR: case PF_COLOR_HSV2RGB:
    case PF_COLOR_HSV2BGR_FULL: case PF_COLOR_HSV2RGB_FULL: return dst_channels > 0 ? dst_channels : 3;
    default: return src_channels;
    }
}

static int is_from_yuv(int code) { return code >= 90 && code <= 106; }
static int is_to_yuv(int code) { return (code >= 127 && code <= 134) || (code >= 1000 && code <= 1007); }

/* A frame view over a (H * 3/2, W) array for code's plane order. */
static pf_yuv frame_view(void *data, int32_t w, int32_t h, ptrdiff_t stride, int code) {
    int yv12 = code == 98 || code == 99 || code == 102 || code == 103 || (code >= 131 && code <= 134);
    int i420 = code == 100 || code == 101 || code == 104 || code == 105 || (code >= 127 && code <= 130);
    if (yv12) return pf_yuv_yv12(data, w, h, stride);
    if (i420) return pf_yuv_i420(data, w, h, stride);
    return pf_yuv_nv12(data, w, h, stride); /* NV12, NV21 and GRAY_420 */
}

static int frame_size(const pf_image *v, const char *name, int32_t *w, int32_t *h) {
    if (v->channels != 1 || v->dtype != PF_U8 || v->height % 3 != 0 || (v->height / 3) % 1 != 0 ||
        (v->height * 2 / 3) % 2 != 0 || v->width % 2 != 0) {
        pfpy_invalid("%s is %dx%d with %d channel(s) of %s; a 4:2:0 frame is one uint8 array of shape "
                     "(H * 3 / 2, W) with W and H even",
                     name, v->width, v->height, v->channels, pf_dtype_name(v->dtype));
        return -1;
    }
    *w = v->width;
    *h = v->height * 2 / 3;
    return 0;
}

static PyObject *py_cvt_color(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "code", "dst", "dst_channels", "yuv_matrix", "yuv_range", NULL};
    PyObject *src, *dst = Py_None;
    int code, dcn = 0, matrix = PF_YUV_BT601, range = PF_YUV_LIMITED;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|Oiii:cvt_color", kwlist, &src, &code, &dst, &dcn, &matrix, &range))
        return NULL;
    if (dcn < 0 || dcn > 4) return pfpy_invalid("dst_channels = %d; use 0 (from the code), 3 or 4", dcn);
    pf_color_opts o = pf_color_opts_defaults();
    o.yuv_matrix = (pf_yuv_matrix)matrix;
    o.yuv_range = (pf_yuv_range)range;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_ANY_DTYPE) < 0) return NULL;
    int n = op.in.n;
    pf_yuv yv[1], *frames = NULL;
    pf_status st;
    if (is_from_yuv(code) || is_to_yuv(code)) {
        frames = n == 1 ? yv : PyMem_Calloc((size_t)n, sizeof *frames);
        if (frames == NULL) {
            PyErr_NoMemory();
            return pfpy_op_abort(&op);
        }
    }
    for (int i = 0; i < n; i++) {
        pfpy_shape *s = &op.shapes[i];
        if (is_from_yuv(code)) {
            int32_t w, h;
            char nm[32];
            snprintf(nm, sizeof nm, n > 1 ? "src[%d]" : "src", i);
            if (frame_size(&op.in.views[i], nm, &w, &h) < 0) goto fail;
            const pf_image *v = &op.in.views[i];
            frames[i] = frame_view(v->data, w, h, v->row_stride, code);
            s->width = w;
            s->height = h;
            s->channels = code == PF_COLOR_YUV2GRAY_420 ? 1 : (code >= 94 && code <= 97) || code >= 102 ? 4 : 3;
            s->ndim = s->channels == 1 ? 2 : 3;
        } else if (is_to_yuv(code)) {
            /* kept here: the binding sizes the output frame (H * 3/2 rows) from
             * src, and an odd H has no such frame, so C never sees the case */
            if (op.in.views[i].width % 2 || op.in.views[i].height % 2) {
                pfpy_invalid("src is %dx%d; RGB -> 4:2:0 needs an even width and height", op.in.views[i].width,
                             op.in.views[i].height);
                goto fail;
            }
            s->height = op.in.views[i].height * 3 / 2;
            s->channels = 1;
            s->ndim = 2;
        } else {
            s->channels = code_out_channels(code, s->channels, dcn);
            s->ndim = s->channels == 1 ? 2 : 3;
        }
        s->layout = PF_HWC;
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        if (frames && frames != yv) PyMem_Free(frames);
        return NULL;
    }
    if (is_from_yuv(code)) {
        PFPY_RUN(st, pf_cvt_color_from_yuv(stream_, n, frames, op.out.views, (pf_color_code)code, &o));
    } else if (is_to_yuv(code)) {
        for (int i = 0; i < n; i++) {
            const pf_image *d = &op.out.views[i];
            frames[i] = frame_view(d->data, op.in.views[i].width, op.in.views[i].height, d->row_stride, code);
        }
        PFPY_RUN(st, pf_cvt_color_to_yuv(stream_, n, op.in.views, frames, (pf_color_code)code, &o));
    } else {
        PFPY_RUN(st, pf_cvt_color(stream_, n, op.in.views, op.out.views, (pf_color_code)code, &o));
    }
    if (frames && frames != yv) PyMem_Free(frames);
    return pfpy_op_finish(&op, st);
fail:
    if (frames && frames != yv) PyMem_Free(frames);
    return pfpy_op_abort(&op);
}

PyMethodDef pfpy_color_methods[] = {
    {"cvt_color", FN(py_cvt_color), KW,
     "cvt_color(src, code, dst=None, dst_channels=0, yuv_matrix=YUV_BT601, yuv_range=YUV_LIMITED)\n--\n\n"
     "pf_cvt_color with OpenCV's COLOR_* codes. 4:2:0 frames (NV12/NV21/I420/YV12) are (H*3/2, W)\n"
     "uint8 arrays on either side, as in OpenCV; yuv_matrix 0 BT.601 / 1 BT.709, yuv_range 0 limited /\n"
     "1 full apply to them."},
    {NULL, NULL, 0, NULL}};
