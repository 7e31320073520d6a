/* pixflow.data.pack's C side: pf_pack_write (pixflow/pack.h) with the GIL
 * released; the progress callable, when given, runs on the writing thread
 * with the GIL taken back for each call. */
#include "pfpy.h"

#include "pixflow/pack.h"

#ifdef PF_HAVE_CODEC
typedef struct progress_ctx {
    PyObject *fn;
    int failed; /* the callable raised: the exception is kept, later calls are skipped */
} progress_ctx;

static void on_progress(void *ctx, uint64_t done, uint64_t total) {
    progress_ctx *p = ctx;
    if (p->failed) return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallFunction(p->fn, "KK", (unsigned long long)done, (unsigned long long)total);
    if (r == NULL) p->failed = 1; /* raised after the write: a progress bar must not cost a half-written pack */
    Py_XDECREF(r);
    PyGILState_Release(g);
}

static PyObject *py_pack(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"source", "out", "max_side", "quality", "raw_below", "threads", "chunk_kib", "progress", NULL};
    PyObject *src, *out_arg, *out_obj = NULL, *progress = Py_None;
    pf_pack_opts o = pf_pack_opts_defaults();
    int max_side = o.max_side, quality = o.quality, raw_below = o.raw_below, threads = o.threads, chunk_kib = o.chunk_kib;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|iiiiiO:pack", kwlist, &src, &out_arg, &max_side, &quality,
                                     &raw_below, &threads, &chunk_kib, &progress))
        return NULL;
    /* after the parse, so argument errors name the argument first */
    if (!PyUnicode_FSConverter(out_arg, &out_obj)) return NULL;
    if (progress != Py_None && !PyCallable_Check(progress)) {
        Py_DECREF(out_obj);
        return pfpy_invalid("progress must be a callable (done, total) or None");
    }
    pf_source_desc desc;
    const char **strings;
    if (pfpy_source_desc(src, &desc, &strings) < 0) {
        Py_DECREF(out_obj);
        return NULL;
    }
    o.max_side = max_side;
    o.quality = quality;
    o.raw_below = raw_below;
    o.threads = threads;
    o.chunk_kib = chunk_kib;
    progress_ctx pc = {progress, 0};
    if (progress != Py_None) {
        o.progress = on_progress;
        o.progress_ctx = &pc;
    }
    pf_pack_stats st;
    pf_status s;
    const char *out = PyBytes_AS_STRING(out_obj);
    PFPY_CALL(s, pf_pack_write(&desc, out, &o, &st));
    pfpy_source_strings_free(strings);
    Py_DECREF(out_obj);
    if (pc.failed) return NULL; /* the callable's exception */
    if (s != PF_OK) return pfpy_raise(s);
    return Py_BuildValue("{sKsKsKsKsKsKsK}", "samples", (unsigned long long)st.samples, "jpeg_reencoded",
                         (unsigned long long)st.jpeg_reencoded, "jpeg_kept", (unsigned long long)st.jpeg_kept, "raw",
                         (unsigned long long)st.raw, "chunks", (unsigned long long)st.chunks, "input_bytes",
                         (unsigned long long)st.input_bytes, "output_bytes", (unsigned long long)st.output_bytes);
}
#endif

PyMethodDef pfpy_pack_methods[] = {
#ifdef PF_HAVE_CODEC
    {"pack", (PyCFunction)(void (*)(void))py_pack, METH_VARARGS | METH_KEYWORDS,
     "pack(source, out, max_side=320, quality=90, raw_below=0, threads=0, chunk_kib=1024, progress=None)\n--\n\n"
     "pf_pack_write: the samples of a source dict (folder, list or tar) into one .pfpack file; "
     "returns the write's counts as a dict."},
#endif
    {NULL, NULL, 0, NULL}};
