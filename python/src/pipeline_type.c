/* pixflow.Pipeline (pf_pipeline) and its batches. A batch's memory is
 * lent to Python without a copy: pixflow.Tensor views of it (and every
 * torch/numpy view made from those) hold a reference to the batch
 * object, and the buffer goes back to the pipeline (pf_batch_release)
 * only when the last of them is gone, so a buffer in use is never
 * refilled. Each batch holds its pipeline, which is destroyed after its
 * last batch. Waiting for a batch releases the GIL and wakes up every
 * 100 ms to let Ctrl-C through. With pin=, the batch buffers are
 * page-locked memory of that device, allocated by the pipeline itself
 * (pf_host_allocator over pf_malloc(PF_ALLOC_PINNED): cudaMallocHost on
 * CUDA, ordinary host memory on the CPU device), so batches can go to the
 * GPU with asynchronous copies and no pinned copy of each batch is made. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

/* The batch buffers' allocator when pinning: the device whose pinned
 * memory they are, and what it handed out (create and destroy run on one
 * thread, so plain counters do). */
typedef struct {
    pf_device *device;
    size_t bytes, buffers;
} pin_alloc;

typedef struct {
    PyObject_HEAD
    pf_pipeline *p;
    pf_device *device;
    pin_alloc pin;
    pf_dispatch *dispatch; /* devices=: the preprocess spread over them; closed after the pipeline */
    int live;        /* batches handed out and not yet released */
    int closed;      /* close() called: destroy once live drops to 0 */
    int buffers;     /* the batch buffer pool's size */
    const char **shards; /* copies of the source's strings (pfpy_source_desc) */
    PyObject *weakrefs; /* pixflow.data closes live pipelines at exit */
} pipe_obj;

typedef struct {
    PyObject_HEAD
    pipe_obj *pipe;
    const pf_batch *b;
} batch_obj;

static PyTypeObject PipeType, BatchType;

static void pipe_destroy(pipe_obj *self) {
    if (self->p) {
        pf_pipeline *p = self->p;
        self->p = NULL;
        Py_BEGIN_ALLOW_THREADS
        pf_pipeline_destroy(p);
        Py_END_ALLOW_THREADS
    }
    pf_device_close(self->device);
    self->device = NULL;
    /* borrowed by the pipeline (pf_pipeline_config.augment_dispatch): close it after */
    if (self->dispatch) pf_dispatch_close(self->dispatch);
    self->dispatch = NULL;
    /* after the pipeline: its destroy frees the buffers through pin */
    pf_device_close(self->pin.device);
    self->pin.device = NULL;
}

static void *pin_alloc_fn(void *ctx, size_t bytes) {
    pin_alloc *a = ctx;
    void *p = NULL;
    if (pf_malloc(a->device, PF_ALLOC_PINNED, bytes, &p) != PF_OK) return NULL;
    a->bytes += bytes;
    a->buffers++;
    return p;
}

static void pin_free_fn(void *ctx, void *ptr, size_t bytes) {
    pin_alloc *a = ctx;
    pf_free(a->device, PF_ALLOC_PINNED, ptr);
    a->bytes -= bytes;
    a->buffers--;
}

/* "cpu", "cuda[:N]" or "opencl[:N]" -> an open device; -1 with the error
 * set (an index that does not exist: pf_device_open's message, which
 * names the count). */
static int open_device_arg(PyObject *dev, const char *name, pf_device **out) {
    static const struct {
        const char *prefix;
        pf_device_kind kind;
    } kinds[] = {{"cuda", PF_DEVICE_CUDA}, {"opencl", PF_DEVICE_OPENCL}};
    const char *d = PyUnicode_Check(dev) ? PyUnicode_AsUTF8(dev) : NULL;
    int index = 0, known = d && strcmp(d, "cpu") == 0;
    pf_device_kind dk = PF_DEVICE_CPU;
    for (size_t k = 0; d && !known && k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t n = strlen(kinds[k].prefix);
        if (strncmp(d, kinds[k].prefix, n) != 0) continue;
        char *end = NULL;
        long v = 0;
        if (d[n] == ':' && d[n + 1] >= '0' && d[n + 1] <= '9') v = strtol(d + n + 1, &end, 10);
        if (d[n] == 0 || (end != NULL && *end == 0 && v <= 1024)) {
            known = 1;
            dk = kinds[k].kind;
            index = (int)v;
        }
    }
    if (!known) {
        char rb[96];
        PyErr_Clear();
        return pfpy_invalid("%s = %s; use 'cpu', 'cuda', 'cuda:N', 'opencl' or 'opencl:N'", name,
                            pfpy_repr(dev, rb, sizeof rb)), -1;
    }
    pf_status st = pf_device_open(dk, index, out);
    return st == PF_OK ? 0 : (pfpy_raise(st), -1);
}

/* -------------------------------------------------------------- config */

#define CFG(name, type) {#name, type, offsetof(pf_pipeline_config, name), 1}
static const pfpy_field config_fields[] = {
    CFG(seed, PFPY_F_U64),        CFG(batch_size, PFPY_F_I32),     CFG(workers, PFPY_F_I32),
    CFG(prefetch_batches, PFPY_F_I32), CFG(read_queue_depth, PFPY_F_I32), CFG(readahead, PFPY_F_I32),
    CFG(epochs, PFPY_F_U64),      CFG(shuffle, PFPY_F_BOOL),       CFG(shuffle_buffer, PFPY_F_I32),
    CFG(drop_last, PFPY_F_BOOL),  CFG(rank, PFPY_F_I32),           CFG(world_size, PFPY_F_I32),
    CFG(shard_mode, PFPY_F_ENUM), CFG(start_epoch, PFPY_F_U64),    CFG(start_position, PFPY_F_U64),
    CFG(on_error, PFPY_F_ENUM),   CFG(pin_workers, PFPY_F_BOOL),   CFG(staging_bytes, PFPY_F_U64),
    {NULL, PFPY_F_BOOL, 0, 0}};

/* Pipeline(source, desc, policy, config, device=None, pin=None,
 * devices=None, rules=None): source is
 * a dict {"kind": "folder"|"list"|"tar", "path": str, "shards": [str],
 * "extensions": str} (source_index.c); config holds pf_pipeline_config's scalar fields;
 * pin names the device whose pinned memory the batch buffers are; devices
 * ("cpu,opencl:0", "auto") runs the preprocess through a pf_dispatch over
 * them (config.augment_dispatch, as `pixflow run --devices`): the CPU
 * device placement, host batches with the bytes of a single device);
 * rules ("geometry=opencl:0,pointwise=cpu": pf_dispatch_set_rules, needs
 * devices) places the op classes over the measured choice. */
static int pipe_init(pipe_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"source", "desc", "policy", "config", "device", "pin", "devices", "rules", NULL};
    PyObject *src, *desc = Py_None, *pol = Py_None, *cfg = Py_None, *dev = Py_None, *pin = Py_None,
             *devs = Py_None, *rules = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOOOOO:Pipeline", kwlist, &src, &desc, &pol, &cfg, &dev, &pin,
                                     &devs, &rules))
        return -1;
    if (rules != Py_None && devs == Py_None) return pfpy_invalid("rules need devices (the dispatcher's devices)"), -1;
    if (self->p) return pfpy_invalid("Pipeline is already initialised"), -1;
    pf_pipeline_config c = pf_pipeline_config_defaults();
    if (pfpy_fields_from_dict(desc, pfpy_desc_fields, &c.desc, "desc") < 0 ||
        pfpy_fields_from_dict(pol, pfpy_policy_fields, &c.policy, "policy") < 0 ||
        pfpy_fields_from_dict(cfg, config_fields, &c, "config") < 0)
        return -1;
    /* the source's strings live as long as the pipeline (its index holds
     * its own copies, but config.source is kept by reference) */
    if (pfpy_source_desc(src, &c.source, &self->shards) < 0) return -1;
    if (dev != Py_None) {
        if (open_device_arg(dev, "device", &self->device) < 0) return -1;
        c.augment_device = self->device;
    }
    if (devs != Py_None) {
        const char *list = PyUnicode_Check(devs) ? PyUnicode_AsUTF8(devs) : NULL;
        if (list == NULL) {
            PyErr_Clear();
            return pfpy_invalid("devices must be a str such as 'cpu,opencl:0' or 'auto'"), -1;
        }
        if (dev != Py_None || pin != Py_None)
            return pfpy_invalid("devices = '%s' with %s: the dispatcher's batches are host memory of the CPU "
                                "device placement; pass devices alone", list, dev != Py_None ? "device" : "pin"), -1;
        pf_dispatch_config dc = pf_dispatch_config_defaults();
        dc.devices = list;
        pf_status st;
        PFPY_CALL(st, pf_dispatch_open(&dc, &self->dispatch));
        if (st != PF_OK) {
            self->dispatch = NULL;
            return pfpy_raise_msg(st, "devices = '%s': %s", list, pf_last_error()), -1;
        }
        if (rules != Py_None) {
            const char *rs = PyUnicode_Check(rules) ? PyUnicode_AsUTF8(rules) : NULL;
            if (rs == NULL) {
                PyErr_Clear();
                return pfpy_invalid("rules must be a str such as 'geometry=opencl:0,pointwise=cpu'"), -1;
            }
            PFPY_CALL(st, pf_dispatch_set_rules(self->dispatch, rs));
            if (st != PF_OK) return pfpy_raise_msg(st, "rules = '%s': %s", rs, pf_last_error()), -1;
        }
        if ((st = pf_device_open(PF_DEVICE_CPU, 0, &self->device)) != PF_OK) return pfpy_raise(st), -1;
        c.augment_device = self->device;
        c.augment_dispatch = self->dispatch;
    }
    if (pin != Py_None) {
        if (dev != Py_None)
            return pfpy_invalid("pin: the batches of a pipeline with device= are that device's memory, not host "
                                "buffers that could be pinned"), -1;
        if (open_device_arg(pin, "pin", &self->pin.device) < 0) return -1;
        c.allocator = (pf_host_allocator){&self->pin, pin_alloc_fn, pin_free_fn};
    }
    pf_status st;
    Py_BEGIN_ALLOW_THREADS
    st = pf_pipeline_create(&c, &self->p);
    Py_END_ALLOW_THREADS
    if (st != PF_OK) return pfpy_raise(st), -1;
    pf_pipeline_stats s;
    if (pf_pipeline_stats_get(self->p, &s) == PF_OK) self->buffers = s.buffers;
    return 0;
}

static void pipe_dealloc(pipe_obj *self) {
    if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
    pipe_destroy(self);
    pfpy_source_strings_free(self->shards);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* --------------------------------------------------------------- batches */

static void batch_dealloc(batch_obj *self) {
    pipe_obj *p = self->pipe;
    if (p) {
        if (p->p && self->b) pf_batch_release(p->p, self->b);
        p->live--;
        if (p->closed && p->live == 0) pipe_destroy(p);
        Py_DECREF(p);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *batch_images(batch_obj *self, void *c) {
    (void)c;
    return (PyObject *)pfpy_tensor_of(&self->b->tensor, self->b->count, (PyObject *)self);
}

static PyObject *batch_labels(batch_obj *self, void *c) {
    (void)c;
    Py_ssize_t shape[1] = {self->b->count}, strides[1] = {4};
    /* labels are the pipeline's memory too: read-only for consumers */
    return (PyObject *)pfpy_tensor_view((void *)self->b->labels, 1, shape, strides, PF_S32, PF_MEM_HOST, 0, 1,
                                        (PyObject *)self);
}

static PyObject *batch_meta(batch_obj *self, void *c) {
    (void)c;
    PyObject *list = PyList_New(self->b->count);
    for (int i = 0; list && i < self->b->count; i++) {
        const pf_sample_meta *m = &self->b->meta[i];
        PyObject *lb = pfpy_fields_to_dict(pfpy_letterbox_fields, &m->letterbox);
        PyObject *d = lb ? Py_BuildValue("{s:K,s:K,s:i,s:s,s:i,s:i,s:N,s:i}", "index", (unsigned long long)m->index,
                                         "position", (unsigned long long)m->position, "label", m->label, "name",
                                         m->name ? m->name : "", "width", m->width, "height", m->height,
                                         "letterbox", lb, "warnings", m->warnings)
                         : NULL;
        if (d == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, d);
    }
    return list;
}

#define BATCH_U64(field)                                                     \
    static PyObject *batch_##field(batch_obj *self, void *c) {               \
        (void)c;                                                             \
        return PyLong_FromUnsignedLongLong((unsigned long long)self->b->field); \
    }
BATCH_U64(epoch)
BATCH_U64(batch_index)
BATCH_U64(next_epoch)
BATCH_U64(next_position)
static PyObject *batch_count(batch_obj *self, void *c) { (void)c; return PyLong_FromLong(self->b->count); }
static PyObject *batch_skipped(batch_obj *self, void *c) { (void)c; return PyLong_FromLong(self->b->skipped); }

static PyGetSetDef batch_getset[] = {
    {"images", (getter)batch_images, NULL, "A pixflow.Tensor view of the batch (count samples).", NULL},
    {"labels", (getter)batch_labels, NULL, "A read-only int32 pixflow.Tensor of the labels.", NULL},
    {"meta", (getter)batch_meta, NULL, "Per-sample metadata dicts (index, position, label, name, size, letterbox).",
     NULL},
    {"epoch", (getter)batch_epoch, NULL, "The batch's epoch.", NULL},
    {"batch_index", (getter)batch_batch_index, NULL, "Index of the batch in its epoch.", NULL},
    {"count", (getter)batch_count, NULL, "Samples in the batch.", NULL},
    {"skipped", (getter)batch_skipped, NULL, "Samples skipped while it was assembled.", NULL},
    {"next_epoch", (getter)batch_next_epoch, NULL, "Resume point (epoch) after this batch.", NULL},
    {"next_position", (getter)batch_next_position, NULL, "Resume point (position) after this batch.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Batch",
    .tp_basicsize = sizeof(batch_obj),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A batch of a Pipeline: its buffer returns to the pipeline when the batch and every view of its\n"
              "images are gone.",
    .tp_getset = batch_getset,
};

/* -------------------------------------------------------------- methods */

static PyObject *pipe_next(pipe_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"timeout", NULL};
    double timeout = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|d:next", kwlist, &timeout)) return NULL;
    if (self->p == NULL) return pfpy_invalid("the pipeline is closed");
    const pf_batch *b = NULL;
    pf_status st;
    double waited = 0;
    int stalls = 0;
    for (;;) {
        int64_t slice = 100;
        if (timeout >= 0 && timeout * 1000 - waited < (double)slice)
            slice = (int64_t)(timeout * 1000 - waited > 0 ? timeout * 1000 - waited : 0);
        Py_BEGIN_ALLOW_THREADS
        st = pf_pipeline_next(self->p, &b, slice);
        Py_END_ALLOW_THREADS
        if (st != PF_ERR_TIMEOUT) break;
        waited += (double)slice;
        if (PyErr_CheckSignals() < 0) return NULL;
        if (timeout >= 0 && waited >= timeout * 1000) return pfpy_raise(st);
        /* every buffer held by the consumer: nothing can ever come */
        if (self->live >= self->buffers || (self->live >= self->buffers - 1 && ++stalls >= 20))
            return pfpy_raise_msg(PF_ERR_INVALID_ARGUMENT,
                                  "pipeline: %d of its %d batch buffers are still referenced (batches, tensors or "
                                  "arrays made from them), so it cannot fill another; drop old batches or copy "
                                  "what you keep (tensor.clone(), array.copy())",
                                  self->live, self->buffers);
    }
    if (st != PF_OK) return pfpy_raise(st);
    if (b == NULL) Py_RETURN_NONE;
    batch_obj *o = PyObject_New(batch_obj, &BatchType);
    if (o == NULL) {
        pf_batch_release(self->p, b);
        return NULL;
    }
    o->pipe = (pipe_obj *)Py_NewRef((PyObject *)self);
    o->b = b;
    self->live++;
    return (PyObject *)o;
}

static PyObject *pipe_state(pipe_obj *self, PyObject *noarg) {
    (void)noarg;
    if (self->p == NULL) return PyUnicode_FromString("closed");
    pf_status cause;
    pf_pipeline_state s = pf_pipeline_state_get(self->p, &cause);
    return PyUnicode_FromString(s == PF_PIPELINE_RUNNING ? "running" : s == PF_PIPELINE_ENDED ? "ended" : "failed");
}

static PyObject *stage_dict(const pf_stage_stats *g) {
    return Py_BuildValue("{s:i,s:K,s:d,s:d,s:i,s:i}", "threads", g->threads, "items", (unsigned long long)g->items,
                         "busy_s", g->busy_s, "wait_s", g->wait_s, "queue_depth", g->queue_depth, "queue_capacity",
                         g->queue_capacity);
}

static PyObject *pipe_stats(pipe_obj *self, PyObject *noarg) {
    (void)noarg;
    if (self->p == NULL) return pfpy_invalid("the pipeline is closed");
    pf_pipeline_stats s;
    pf_status st = pf_pipeline_stats_get(self->p, &s);
    if (st != PF_OK) return pfpy_raise(st);
    PyObject *stages = PyDict_New();
    for (int i = 0; stages && i < PF_PIPELINE_STAGES; i++) {
        PyObject *g = stage_dict(&s.stage[i]);
        if (g == NULL || PyDict_SetItemString(stages, s.stage[i].name ? s.stage[i].name : "?", g) < 0) Py_CLEAR(stages);
        Py_XDECREF(g);
    }
    if (stages == NULL) return NULL;
    PyObject *r = Py_BuildValue("{s:N,s:K,s:K,s:K,s:K,s:d,s:d,s:d,s:d,s:i,s:i,s:n,s:i}", "stages", stages, "batches",
                         (unsigned long long)s.batches, "samples", (unsigned long long)s.samples, "skipped",
                         (unsigned long long)s.skipped, "failed_batches", (unsigned long long)s.failed_batches,
                         "elapsed_s", s.elapsed_s, "starvation_s", s.starvation_s, "latency_p50_ms", s.latency_p50_ms,
                         "latency_p99_ms", s.latency_p99_ms, "buffers", s.buffers, "buffers_free", s.buffers_free,
                         "batch_bytes", (Py_ssize_t)s.batch_bytes, "live_batches", self->live);
    if (r != NULL && self->dispatch != NULL) { /* devices=: the per-device shares */
        PyObject *d = pfpy_dispatch_stats(self->dispatch);
        if (d == NULL || PyDict_SetItemString(r, "dispatch", d) < 0) Py_CLEAR(r);
        Py_XDECREF(d);
    }
    return r;
}

static PyObject *pipe_errors(pipe_obj *self, PyObject *noarg) {
    (void)noarg;
    if (self->p == NULL) return PyList_New(0);
    pf_sample_error e[64];
    int n = pf_pipeline_errors(self->p, e, 64);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *d = Py_BuildValue("{s:K,s:K,s:s,s:s,s:s}", "epoch", (unsigned long long)e[i].epoch, "index",
                                    (unsigned long long)e[i].index, "status", pf_status_str(e[i].status), "name",
                                    e[i].name, "reason", e[i].reason);
        if (d == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *pipe_close(pipe_obj *self, PyObject *noarg) {
    (void)noarg;
    self->closed = 1;
    if (self->live == 0) pipe_destroy(self);
    Py_RETURN_NONE;
}

static PyObject *get_live(pipe_obj *self, void *c) { (void)c; return PyLong_FromLong(self->live); }
static PyObject *get_buffers(pipe_obj *self, void *c) { (void)c; return PyLong_FromLong(self->buffers); }
static PyObject *get_pinned(pipe_obj *self, void *c) {
    (void)c;
    return Py_BuildValue("{s:n,s:n}", "buffers", (Py_ssize_t)self->pin.buffers, "bytes", (Py_ssize_t)self->pin.bytes);
}

/* metrics_text(device=None): the Prometheus exposition of this pipeline
 * (pf_metrics_snapshot_take + pf_metrics_write_text, include/pixflow/
 * metrics.h); pixflow.metrics' collector serves it, so Python keeps no
 * counters of its own. */
static PyObject *pipe_metrics_text(pipe_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"device", NULL};
    const char *device = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|z:metrics_text", kwlist, &device)) return NULL;
    if (self->p == NULL) return pfpy_invalid("metrics_text(): the pipeline is closed");
    pf_metrics_sources src = {.pipeline = self->p, .device = device};
    return pfpy_metrics_text(&src, 1);
}

static PyMethodDef pipe_methods[] = {
    {"metrics_text", FN(pipe_metrics_text), KW,
     "metrics_text(device=None)\n--\n\nThe pipeline's metrics as Prometheus text exposition (pixflow.metrics)."},
    {"next", FN(pipe_next), KW,
     "next(timeout=-1)\n--\n\nThe next batch (pixflow.Batch), or None after the last epoch. timeout in seconds\n"
     "(< 0: wait as long as needed); raises pixflow.Timeout when none came in time."},
    {"state", (PyCFunction)pipe_state, METH_NOARGS, "state()\n--\n\n'running', 'ended', 'failed' or 'closed'."},
    {"stats", (PyCFunction)pipe_stats, METH_NOARGS, "stats()\n--\n\nThe stage table and counters as a dict."},
    {"errors", (PyCFunction)pipe_errors, METH_NOARGS, "errors()\n--\n\nThe most recent sample failures."},
    {"close", (PyCFunction)pipe_close, METH_NOARGS,
     "close()\n--\n\nStops the pipeline (at once, or when the last batch still referenced is gone)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef pipe_getset[] = {
    {"live_batches", (getter)get_live, NULL, "Batches handed out and still referenced.", NULL},
    {"buffers", (getter)get_buffers, NULL, "Size of the batch buffer pool.", NULL},
    {"pinned", (getter)get_pinned, NULL,
     "{'buffers', 'bytes'}: batch buffers allocated as pinned memory of the pin= device (0 without pin=).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject PipeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Pipeline",
    .tp_basicsize = sizeof(pipe_obj),
    .tp_weaklistoffset = offsetof(pipe_obj, weakrefs),
    .tp_dealloc = (destructor)pipe_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Pipeline(source, desc=None, policy=None, config=None, device=None, pin=None, devices=None, rules=None)\n--\n\n"
              "pf_pipeline: read -> decode+augment -> collate, on C threads. Use pixflow.data.Loader.",
    .tp_methods = pipe_methods,
    .tp_getset = pipe_getset,
    .tp_init = (initproc)pipe_init,
    .tp_new = PyType_GenericNew,
};

/* epoch_order(n, seed, epoch, shuffle, rank, world_size, shard_mode): the
 * rank's epoch order as bytes of uint64 (numpy.frombuffer(..., uint64)). */
static PyObject *py_epoch_order(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"n", "seed", "epoch", "shuffle", "rank", "world_size", "shard_mode", NULL};
    unsigned long long n, seed, epoch;
    int shuffle, rank, world, mode = PF_SHARD_PAD;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "KKKpii|i:epoch_order", kwlist, &n, &seed, &epoch, &shuffle, &rank,
                                     &world, &mode))
        return NULL;
    uint64_t len = pf_shard_length(n, world, (pf_shard_mode)mode);
    if (len > (uint64_t)(SIZE_MAX / 16)) return pfpy_invalid("epoch_order: n = %llu is too large", n);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(len ? len : 1) * 8);
    if (out == NULL) return NULL;
    pf_status st;
    Py_BEGIN_ALLOW_THREADS
    st = pf_epoch_order(n, seed, epoch, shuffle != 0, rank, world, (pf_shard_mode)mode,
                        (uint64_t *)(void *)PyBytes_AS_STRING(out), len);
    Py_END_ALLOW_THREADS
    if (st != PF_OK) {
        Py_DECREF(out);
        return pfpy_raise(st);
    }
    if (_PyBytes_Resize(&out, (Py_ssize_t)len * 8) < 0) return NULL;
    return out;
}

PyMethodDef pfpy_pipeline_methods[] = {
    {"epoch_order", FN(py_epoch_order), KW,
     "epoch_order(n, seed, epoch, shuffle, rank, world_size, shard_mode=SHARD_PAD)\n--\n\n"
     "pf_epoch_order: the dataset indices of rank's epoch (folder and list sources), as bytes of uint64."},
    {NULL, NULL, 0, NULL}};

int pfpy_pipeline_init(PyObject *module) {
    if (PyType_Ready(&PipeType) < 0 || PyType_Ready(&BatchType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Pipeline", (PyObject *)&PipeType) < 0) return -1;
    return PyModule_AddObjectRef(module, "Batch", (PyObject *)&BatchType);
}
