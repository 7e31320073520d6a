/* The Prometheus text of a metrics snapshot as a str: the one place the
 * extension turns pf_metrics_snapshot_take + pf_metrics_write_text
 * (include/pixflow/metrics.h) into Python, for Pipeline.metrics_text and
 * Video.metrics_text. */
#include <stdlib.h>

#include "pfpy.h"

PyObject *pfpy_metrics_text(const pf_metrics_sources *src, int allow_threads) {
    pf_metrics_snapshot *snap = PyMem_Malloc(sizeof *snap);
    if (snap == NULL) return PyErr_NoMemory();
    pf_status st;
    size_t len = 0;
    char *text = NULL;
    int nomem = 0;
    PyThreadState *ts = allow_threads ? PyEval_SaveThread() : NULL;
    st = pf_metrics_snapshot_take(src, snap);
    if (st == PF_OK) {
        (void)pf_metrics_write_text(snap, NULL, 0, &len); /* sizes it */
        text = malloc(len + 1);
        nomem = text == NULL;
        if (text) st = pf_metrics_write_text(snap, text, len + 1, &len);
    }
    if (ts) PyEval_RestoreThread(ts);
    PyMem_Free(snap);
    if (nomem) return PyErr_NoMemory();
    if (st != PF_OK) {
        free(text);
        return pfpy_raise(st);
    }
    PyObject *out = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    free(text);
    return out;
}
