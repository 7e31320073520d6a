/* Geometry ops: pf_flip, pf_rotate, pf_transpose (the C family:
 * src/ops/geom_op.c). Each takes one image or a list (batch-first,
 * per-sample codes: one for every sample or one per sample) and returns
 * the same kind. Resize, border and the warps are their own families
 * (ops_resize.c, ops_border.c, ops_warp.c). */
#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

/* flip / rotate: one code per sample or one for all. */
static PyObject *codes_op(PyObject *args, PyObject *kw, const char *fname, int rotate) {
    static char *kwlist[] = {"src", "codes", "dst", NULL};
    PyObject *src, *codes, *dst = Py_None;
    char fmt[32];
    snprintf(fmt, sizeof fmt, "OO|O:%s", fname);
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &src, &codes, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK | PFPY_ANY_DTYPE) < 0) return NULL;
    int n = op.in.n, one;
    int *c = n == 1 ? &one : PyMem_Malloc((size_t)n * sizeof *c);
    if (c == NULL) return pfpy_op_abort(&op);
    int nc = pfpy_params_int(codes, "codes", n, c);
    if (nc < 0) goto fail;
    if (rotate) {
        for (int i = 0; i < n; i++) {
            int code = c[nc == 1 ? 0 : i];
            if (code == PF_ROTATE_90_CLOCKWISE || code == PF_ROTATE_90_COUNTERCLOCKWISE) {
                int32_t t = op.shapes[i].width;
                op.shapes[i].width = op.shapes[i].height;
                op.shapes[i].height = t;
            }
        }
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        if (c != &one) PyMem_Free(c);
        return NULL;
    }
    pf_status st;
    /* the enums' values are the codes (cv2's plus pixflow's "none") */
    if (rotate) {
        pf_rotate_code rc[1], *r = n == 1 ? rc : PyMem_Malloc((size_t)nc * sizeof *r);
        for (int i = 0; r && i < nc; i++) r[i] = (pf_rotate_code)c[i];
        PFPY_RUN(st, r ? pf_rotate(stream_, n, op.in.views, op.out.views, r, nc) : PF_ERR_OUT_OF_MEMORY);
        if (r != rc) PyMem_Free(r);
    } else {
        pf_flip_code fc[1], *f = n == 1 ? fc : PyMem_Malloc((size_t)nc * sizeof *f);
        for (int i = 0; f && i < nc; i++) f[i] = (pf_flip_code)c[i];
        PFPY_RUN(st, f ? pf_flip(stream_, n, op.in.views, op.out.views, f, nc) : PF_ERR_OUT_OF_MEMORY);
        if (f != fc) PyMem_Free(f);
    }
    if (c != &one) PyMem_Free(c);
    return pfpy_op_finish(&op, st);
fail:
    if (c != &one) PyMem_Free(c);
    return pfpy_op_abort(&op);
}

static PyObject *py_flip(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return codes_op(args, kw, "flip", 0);
}

static PyObject *py_rotate(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    return codes_op(args, kw, "rotate", 1);
}

static PyObject *py_transpose(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "dst", NULL};
    PyObject *src, *dst = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:transpose", kwlist, &src, &dst)) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK | PFPY_ANY_DTYPE) < 0) return NULL;
    for (int i = 0; i < op.in.n; i++) {
        int32_t t = op.shapes[i].width;
        op.shapes[i].width = op.shapes[i].height;
        op.shapes[i].height = t;
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) return NULL;
    pf_status st;
    PFPY_RUN(st, pf_transpose(stream_, op.in.n, op.in.views, op.out.views));
    return pfpy_op_finish(&op, st);
}

PyMethodDef pfpy_geom_methods[] = {
    {"flip", FN(py_flip), KW,
     "flip(src, codes, dst=None)\n--\n\npf_flip: codes 1 horizontal, 0 vertical, -1 both, 2 none (per sample)."},
    {"rotate", FN(py_rotate), KW,
     "rotate(src, codes, dst=None)\n--\n\npf_rotate: 0 90 clockwise, 1 180, 2 90 counter-clockwise, 3 none."},
    {"transpose", FN(py_transpose), KW, "transpose(src, dst=None)\n--\n\npf_transpose: dst(x, y) = src(y, x)."},
    {NULL, NULL, 0, NULL}};
