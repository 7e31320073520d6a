/* Resize: pf_resize (include/pixflow/ops.h; the C family: src/ops/resize_op.c).
 * One image or a list (batch-first), output sizes one for all or one per
 * sample (pfpy_op_out_sizes), or the destinations' own. */
#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static PyObject *py_resize(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "size", "dst", "interp", "antialias", "flavor", NULL};
    PyObject *src, *size = Py_None, *dst = Py_None;
    int interp = PF_INTERP_LINEAR, antialias = 0, flavor = PF_RESIZE_OPENCV;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOipi:resize", kwlist, &src, &size, &dst, &interp, &antialias,
                                     &flavor))
        return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) return NULL;
    if (pfpy_op_out_sizes(&op, size, dst) < 0 || pfpy_op_outputs(&op, dst, "dst") < 0) return pfpy_op_abort(&op);
    pf_resize_opts o = pf_resize_opts_defaults();
    o.interp = (pf_interp)interp;
    o.antialias = antialias != 0;
    o.flavor = (pf_resize_flavor)flavor;
    pf_status st;
    PFPY_RUN(st, pf_resize(stream_, op.in.n, op.in.views, op.out.views, &o));
    return pfpy_op_finish(&op, st);
}

PyMethodDef pfpy_resize_methods[] = {
    {"resize", FN(py_resize), KW,
     "resize(src, size=None, dst=None, interp=INTERP_LINEAR, antialias=False, flavor=RESIZE_OPENCV)\n--\n\n"
     "pf_resize: src (an image or a list) to size (width, height), one for all or one per sample.\n"
     "flavor RESIZE_OPENCV: cv2.resize's pixels (antialias=True: Pillow's Image.resize);\n"
     "RESIZE_PILLOW: Pillow's; RESIZE_TORCHVISION: torchvision 0.29 F.resize's (antialias is its argument)."},
    {NULL, NULL, 0, NULL}};
