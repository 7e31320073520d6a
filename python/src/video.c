/* pixflow.Video (pf_video): FFmpeg sources muxed into batches of
 * preprocessed frames. Batch lifetime as for pipeline batches: the
 * tensor views hold the batch, the batch holds the video, and the batch
 * goes back (pf_video_batch_release) when the last view is gone. */
#include <math.h>
#include <string.h>

#include "fields.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

#ifdef PF_HAVE_VIDEO

typedef struct {
    PyObject_HEAD
    pf_video *v;
    int live, closed;
    char **paths;
    int npaths;
} video_obj;

typedef struct {
    PyObject_HEAD
    video_obj *video;
    pf_video_batch *b;
} vbatch_obj;

static PyTypeObject VideoType, VBatchType;

static void video_destroy(video_obj *self) {
    if (self->v) {
        pf_video *v = self->v;
        self->v = NULL;
        Py_BEGIN_ALLOW_THREADS
        pf_video_close(v);
        Py_END_ALLOW_THREADS
    }
}

#define VCFG(name, type) {#name, type, offsetof(pf_video_config, name), 1}
static const pfpy_field video_fields[] = {
    VCFG(batch, PFPY_F_ENUM),        VCFG(batch_timeout_ms, PFPY_F_ENUM), VCFG(realtime, PFPY_F_BOOL),
    VCFG(pace, PFPY_F_BOOL),         VCFG(queue_depth, PFPY_F_ENUM),      VCFG(decode_threads, PFPY_F_ENUM),
    VCFG(color_from_stream, PFPY_F_BOOL), VCFG(threads, PFPY_F_ENUM),      VCFG(batches_in_flight, PFPY_F_ENUM),
    VCFG(convert, PFPY_F_ENUM),
    {NULL, PFPY_F_BOOL, 0, 0}};

static int video_init(video_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"sources", "desc", "config", NULL};
    PyObject *sources, *desc = Py_None, *cfg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:Video", kwlist, &sources, &desc, &cfg)) return -1;
    if (self->v) return pfpy_invalid("Video is already open"), -1;
    pf_video_config c = pf_video_config_defaults();
    if (pfpy_fields_from_dict(desc, pfpy_desc_fields, &c.desc, "desc") < 0 ||
        pfpy_fields_from_dict(cfg, video_fields, &c, "config") < 0)
        return -1;
    PyObject *seq = PySequence_Fast(sources, "sources must be a list of paths");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > PF_VIDEO_MAX_SOURCES) {
        Py_DECREF(seq);
        return pfpy_invalid("sources has %zd entries; use 1 to %d", n, PF_VIDEO_MAX_SOURCES), -1;
    }
    self->paths = PyMem_RawCalloc((size_t)n, sizeof(char *));
    self->npaths = (int)n;
    for (Py_ssize_t i = 0; self->paths && i < n; i++) {
        PyObject *p = PyOS_FSPath(PySequence_Fast_GET_ITEM(seq, i));
        const char *s = p && PyUnicode_Check(p) ? PyUnicode_AsUTF8(p) : NULL;
        if (s == NULL) {
            Py_XDECREF(p);
            Py_DECREF(seq);
            PyErr_Clear();
            return pfpy_invalid("sources[%zd] must be a path (str)", i), -1;
        }
        size_t len = strlen(s) + 1;
        self->paths[i] = PyMem_RawMalloc(len);
        if (self->paths[i]) memcpy(self->paths[i], s, len);
        Py_DECREF(p);
    }
    Py_DECREF(seq);
    c.sources = (const char *const *)self->paths;
    c.nsources = (int)n;
    pf_status st;
    Py_BEGIN_ALLOW_THREADS
    st = pf_video_open(&c, &self->v);
    Py_END_ALLOW_THREADS
    return st == PF_OK ? 0 : (pfpy_raise(st), -1);
}

static void video_dealloc(video_obj *self) {
    video_destroy(self);
    for (int i = 0; self->paths && i < self->npaths; i++) PyMem_RawFree(self->paths[i]);
    PyMem_RawFree(self->paths);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void vbatch_dealloc(vbatch_obj *self) {
    video_obj *v = self->video;
    if (v) {
        if (v->v && self->b) pf_video_batch_release(v->v, self->b);
        v->live--;
        if (v->closed && v->live == 0) video_destroy(v);
        Py_DECREF(v);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *vbatch_images(vbatch_obj *self, void *c) {
    (void)c;
    return (PyObject *)pfpy_tensor_of(&self->b->tensor, self->b->count, (PyObject *)self);
}

static PyObject *vbatch_frames(vbatch_obj *self, void *c) {
    (void)c;
    PyObject *list = PyList_New(self->b->count);
    for (int i = 0; list && i < self->b->count; i++) {
        const pf_video_frame *f = &self->b->frames[i];
        PyObject *lb = pfpy_fields_to_dict(pfpy_letterbox_fields, &f->letterbox);
        PyObject *pts = f->pts == INT64_MIN ? Py_NewRef(Py_None) : PyLong_FromLongLong(f->pts);
        PyObject *d = lb && pts ? Py_BuildValue("{s:i,s:L,s:N,s:d,s:i,s:i,s:d,s:N}", "stream", f->stream,
                                                "frame_index", (long long)f->frame_index, "pts", pts, "pts_seconds",
                                                f->pts_seconds, "width", f->width, "height", f->height, "latency_ms",
                                                f->latency_ms, "letterbox", lb)
                                : NULL;
        if (d == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *vbatch_count(vbatch_obj *self, void *c) { (void)c; return PyLong_FromLong(self->b->count); }

static PyGetSetDef vbatch_getset[] = {
    {"images", (getter)vbatch_images, NULL, "A pixflow.Tensor of the batch's count frames.", NULL},
    {"frames", (getter)vbatch_frames, NULL, "Per-frame dicts: stream, frame_index, pts, size, letterbox.", NULL},
    {"count", (getter)vbatch_count, NULL, "Frames in the batch.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject VBatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.VideoBatch",
    .tp_basicsize = sizeof(vbatch_obj),
    .tp_dealloc = (destructor)vbatch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A batch of preprocessed video frames; returned to the source when it and its views are gone.",
    .tp_getset = vbatch_getset,
};

static PyObject *video_next(video_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"timeout", NULL};
    double timeout = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|d:next", kwlist, &timeout)) return NULL;
    if (self->v == NULL) return pfpy_invalid("the video source is closed");
    pf_video_batch *b = NULL;
    pf_status st;
    double waited = 0;
    for (;;) {
        int slice = 100;
        if (timeout >= 0 && timeout * 1000 - waited < slice)
            slice = (int)(timeout * 1000 - waited > 0 ? timeout * 1000 - waited : 0);
        Py_BEGIN_ALLOW_THREADS
        st = pf_video_next(self->v, &b, slice);
        Py_END_ALLOW_THREADS
        if (st != PF_ERR_TIMEOUT) break;
        waited += slice;
        if (PyErr_CheckSignals() < 0) return NULL;
        if (timeout >= 0 && waited >= timeout * 1000) return pfpy_raise(st);
    }
    if (st != PF_OK) return pfpy_raise(st);
    if (b == NULL) Py_RETURN_NONE;
    vbatch_obj *o = PyObject_New(vbatch_obj, &VBatchType);
    if (o == NULL) {
        pf_video_batch_release(self->v, b);
        return NULL;
    }
    o->video = (video_obj *)Py_NewRef((PyObject *)self);
    o->b = b;
    self->live++;
    return (PyObject *)o;
}

static PyObject *video_stats(video_obj *self, PyObject *noarg) {
    (void)noarg;
    if (self->v == NULL) return pfpy_invalid("the video source is closed");
    pf_video_stats s;
    pf_status st = pf_video_stats_get(self->v, &s);
    if (st != PF_OK) return pfpy_raise(st);
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L,s:i,s:i,s:d,s:d,s:d,s:d,s:d,s:d}", "frames_decoded",
                         (long long)s.frames_decoded, "frames_delivered", (long long)s.frames_delivered,
                         "frames_dropped", (long long)s.frames_dropped, "decode_errors", (long long)s.decode_errors,
                         "batches", (long long)s.batches, "partial_batches", (long long)s.partial_batches,
                         "streams_ended", s.streams_ended, "streams_failed", s.streams_failed, "decode_ms",
                         s.decode_ms, "preprocess_ms", s.preprocess_ms, "wait_ms", s.wait_ms, "latency_p50_ms",
                         s.latency_p50_ms, "latency_p99_ms", s.latency_p99_ms, "latency_max_ms", s.latency_max_ms);
}

/* stream_stats(i): pf_video_stream_stats of stream i as a dict. */
static PyObject *video_stream_stats(video_obj *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    if (self->v == NULL) return pfpy_invalid("the video source is closed");
    if (i < INT32_MIN || i > INT32_MAX) return pfpy_invalid("stream_stats(): stream %ld is out of range", i);
    pf_video_stream_stats s;
    pf_status st = pf_video_stream_stats_get(self->v, (int32_t)i, &s);
    if (st != PF_OK) return pfpy_raise(st);
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:O,s:O,s:d,s:d,s:d,s:d}", "frames_decoded", (long long)s.frames_decoded,
                         "frames_delivered", (long long)s.frames_delivered, "frames_dropped",
                         (long long)s.frames_dropped, "decode_errors", (long long)s.decode_errors, "ended",
                         s.ended ? Py_True : Py_False, "failed", s.failed ? Py_True : Py_False, "decode_ms",
                         s.decode_ms, "latency_p50_ms", s.latency_p50_ms, "latency_p99_ms", s.latency_p99_ms,
                         "latency_max_ms", s.latency_max_ms);
}

/* metrics_text(name=None): the video's Prometheus exposition (label
 * source=name, "video" when None), per-stream series included. The GIL
 * stays held (a snapshot is microseconds): close() needs it, so the source
 * cannot be freed under the snapshot. */
static PyObject *video_metrics_text(video_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"name", NULL};
    const char *name = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|z:metrics_text", kwlist, &name)) return NULL;
    if (self->v == NULL) return pfpy_invalid("metrics_text(): the video source is closed");
    pf_metrics_sources src = {.video = self->v, .video_name = name};
    return pfpy_metrics_text(&src, 0);
}

static PyObject *video_stream_error(video_obj *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    if (self->v == NULL) Py_RETURN_NONE;
    const char *e = pf_video_stream_error(self->v, (int)i);
    if (e == NULL) Py_RETURN_NONE;
    return PyUnicode_FromString(e);
}

static PyObject *video_close(video_obj *self, PyObject *noarg) {
    (void)noarg;
    self->closed = 1;
    if (self->live == 0) video_destroy(self);
    Py_RETURN_NONE;
}

static PyMethodDef video_methods[] = {
    {"next", FN(video_next), KW, "next(timeout=-1)\n--\n\nThe next VideoBatch, or None when every stream ended."},
    {"stats", (PyCFunction)video_stats, METH_NOARGS, "stats()\n--\n\npf_video_stats as a dict."},
    {"stream_stats", (PyCFunction)video_stream_stats, METH_O,
     "stream_stats(i, /)\n--\n\npf_video_stream_stats of stream i as a dict."},
    {"metrics_text", FN(video_metrics_text), KW,
     "metrics_text(name=None)\n--\n\nThe video's metrics as Prometheus text exposition (pixflow.metrics), per stream\n"
     "included; name is the source= label (\"video\" when None)."},
    {"stream_error", (PyCFunction)video_stream_error, METH_O,
     "stream_error(i, /)\n--\n\nWhy stream i ended early, or None."},
    {"close", (PyCFunction)video_close, METH_NOARGS, "close()\n--\n\nStops the decoders (now, or after the last batch)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject VideoType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Video",
    .tp_basicsize = sizeof(video_obj),
    .tp_dealloc = (destructor)video_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Video(sources, desc=None, config=None)\n--\n\npf_video: use pixflow.video.open.",
    .tp_methods = video_methods,
    .tp_init = (initproc)video_init,
    .tp_new = PyType_GenericNew,
};

int pfpy_video_init(PyObject *module) {
    if (PyType_Ready(&VideoType) < 0 || PyType_Ready(&VBatchType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Video", (PyObject *)&VideoType) < 0) return -1;
    return PyModule_AddObjectRef(module, "VideoBatch", (PyObject *)&VBatchType);
}

#else

int pfpy_video_init(PyObject *module) {
    (void)module;
    return 0; /* built without FFmpeg: pixflow.video.open raises Unsupported */
}

#endif
