/* pf_lut: dst = table[src] for uint8 images, one table for every sample or
 * one per sample (the C family: src/ops/lut_op.c). */
#include "pfpy.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static PyObject *py_lut(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"src", "table", "dst", "table_channels", "per_sample", NULL};
    PyObject *src, *table, *dst = Py_None;
    int tc = 1, per_sample = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|Oip:lut", kwlist, &src, &table, &dst, &tc, &per_sample)) return NULL;
    Py_buffer tb;
    Py_ssize_t k = pfpy_flat_buffer(table, "table", 'B', &tb);
    if (k < 0) return NULL;
    pfpy_op op;
    if (pfpy_op_begin(&op, src, "src", PFPY_CHW_OK) < 0) {
        PyBuffer_Release(&tb);
        return NULL;
    }
    /* memory safety: pf_lut gets a bare table pointer, so the binding is the
     * layer that knows how many entries the buffer holds */
    Py_ssize_t want = 256 * (Py_ssize_t)tc * (per_sample ? op.in.n : 1);
    if (tc < 1 || k != want) {
        pfpy_invalid("table has %zd entries; %d table(s) of 256%s need %zd", k, tc, per_sample ? " per sample" : "",
                     want);
        PyBuffer_Release(&tb);
        return pfpy_op_abort(&op);
    }
    if (pfpy_op_outputs(&op, dst, "dst") < 0) {
        PyBuffer_Release(&tb);
        return NULL;
    }
    pf_lut_opts o = pf_lut_opts_defaults();
    o.table_channels = tc;
    o.per_sample = per_sample;
    pf_status st;
    PFPY_RUN(st, pf_lut(stream_, op.in.n, op.in.views, op.out.views, tb.buf, &o));
    PyBuffer_Release(&tb);
    return pfpy_op_finish(&op, st);
}

PyMethodDef pfpy_lut_methods[] = {
    {"lut", FN(py_lut), KW,
     "lut(src, table, dst=None, table_channels=1, per_sample=False)\n--\n\npf_lut: dst = table[src] (uint8)."},
    {NULL, NULL, 0, NULL}};
