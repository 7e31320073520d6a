/* The fused preprocess and the sampler: pixflow.Plan (pf_preprocess_plan
 * over a desc dict), recipe(), the defaults, and aug_sample() (the
 * Philox sampler's per-sample parameters as dicts). */
#include <string.h>

#include "fields.h"
#include "pythread.h"

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static PyObject *py_recipe(PyObject *self, PyObject *arg) {
    (void)self;
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (name == NULL) return pfpy_invalid("recipe: name must be a string");
    pf_preprocess_desc d;
    pf_aug_policy p;
    pf_status st = pf_recipe(name, &d, &p);
    if (st != PF_OK) return pfpy_raise(st);
    return Py_BuildValue("(NN)", pfpy_fields_to_dict(pfpy_desc_fields, &d), pfpy_fields_to_dict(pfpy_policy_fields, &p));
}

static PyObject *py_defaults(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    pf_aug_policy p = pf_aug_policy_defaults();
    pf_aug_params a = pf_aug_params_identity();
    return Py_BuildValue("(NNN)", pfpy_fields_to_dict(pfpy_desc_fields, &d), pfpy_fields_to_dict(pfpy_policy_fields, &p),
                         pfpy_fields_to_dict(pfpy_params_fields, &a));
}

static int int_list(PyObject *obj, const char *name, int n, int32_t *out) {
    PyObject *seq = PySequence_Fast(obj, name);
    if (seq == NULL || PySequence_Fast_GET_SIZE(seq) != n) {
        Py_XDECREF(seq);
        PyErr_Clear();
        pfpy_invalid("%s must be a sequence of %d integers", name, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((v == -1 && PyErr_Occurred()) || v < INT32_MIN || v > INT32_MAX) {
            Py_DECREF(seq);
            PyErr_Clear();
            pfpy_invalid("%s[%d] must be an integer", name, i);
            return -1;
        }
        out[i] = (int32_t)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* aug_sample(policy, seed, epoch, first_index, widths, heights) */
static PyObject *py_aug_sample(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"policy", "seed", "epoch", "first_index", "widths", "heights", NULL};
    PyObject *pol, *ws, *hs;
    unsigned long long seed, epoch, first;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OKKKOO:aug_sample", kwlist, &pol, &seed, &epoch, &first, &ws, &hs))
        return NULL;
    pf_aug_policy p = pf_aug_policy_defaults();
    if (pfpy_fields_from_dict(pol, pfpy_policy_fields, &p, "policy") < 0) return NULL;
    Py_ssize_t n = PyObject_Length(ws);
    if (n < 0 || n > INT32_MAX) return pfpy_invalid("widths must be a sequence");
    int32_t *w = PyMem_Malloc((size_t)(n + 1) * sizeof *w), *h = PyMem_Malloc((size_t)(n + 1) * sizeof *h);
    pf_aug_params *out = PyMem_Malloc((size_t)(n + 1) * sizeof *out);
    PyObject *list = NULL;
    if (w == NULL || h == NULL || out == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (int_list(ws, "widths", (int)n, w) < 0 || int_list(hs, "heights", (int)n, h) < 0) goto done;
    pf_status st = pf_aug_sample(&p, seed, epoch, first, (int)n, w, h, out);
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    list = PyList_New(n);
    for (Py_ssize_t i = 0; list && i < n; i++) {
        PyObject *d = pfpy_fields_to_dict(pfpy_params_fields, &out[i]);
        if (d == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, d);
    }
done:
    PyMem_Free(w);
    PyMem_Free(h);
    PyMem_Free(out);
    return list;
}

/* ---------------------------------------------------------------- Plan */

typedef struct {
    PyObject_HEAD
    pf_preprocess_plan *plan;
    pf_preprocess_desc desc;
    PyThread_type_lock lock; /* one pf_preprocess_run per plan at a time */
} plan_obj;

static PyTypeObject PlanType;

static int plan_init(plan_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"desc", NULL};
    PyObject *d;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Plan", kwlist, &d)) return -1;
    if (self->plan) return pfpy_invalid("Plan is already initialised"), -1;
    self->desc = pf_preprocess_desc_defaults();
    if (pfpy_fields_from_dict(d, pfpy_desc_fields, &self->desc, "desc") < 0) return -1;
    pf_status st = pf_preprocess_plan_create(&self->desc, &self->plan);
    if (st != PF_OK) return pfpy_raise(st), -1;
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL) return PyErr_NoMemory(), -1;
    return 0;
}

static void plan_dealloc(plan_obj *self) {
    pf_preprocess_plan_destroy(self->plan);
    if (self->lock) PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A 4-D batch argument as a pf_tensor of the plan's layout. */
static int tensor_arg(pfpy_array *a, const pf_preprocess_desc *d, int count, pf_tensor *t) {
    if (a->ndim != 4) return pfpy_invalid("out must have 4 dimensions (N, C, H, W) or (N, H, W, C)"), -1;
    int chw = d->out_layout == PF_CHW;
    Py_ssize_t n = a->shape[0], c = chw ? a->shape[1] : a->shape[3], h = chw ? a->shape[2] : a->shape[1],
               w = chw ? a->shape[3] : a->shape[2];
    Py_ssize_t es = (Py_ssize_t)pf_dtype_size(a->dtype);
    if (n < count || c != d->out_channels || h != d->out_height || w != d->out_width || a->dtype != d->out_dtype)
        return pfpy_invalid("out is %s %zdx%zdx%zdx%zd of %s; the plan writes %d x %s of %dx%d, %d channel(s), %s",
                            chw ? "NCHW" : "NHWC", n, chw ? c : h, chw ? h : w, chw ? w : c,
                            pf_dtype_name(a->dtype), count, chw ? "NCHW" : "NHWC", d->out_width, d->out_height,
                            d->out_channels, pf_dtype_name(d->out_dtype)),
               -1;
    memset(t, 0, sizeof *t);
    t->data = a->data;
    t->n = (int32_t)n;
    t->channels = (int32_t)c;
    t->height = (int32_t)h;
    t->width = (int32_t)w;
    t->dtype = a->dtype;
    t->layout = d->out_layout;
    t->sample_stride = a->strides[0];
    t->mem = a->mem;
    t->device = a->device;
    if (chw) {
        t->plane_stride = a->strides[1];
        t->row_stride = a->strides[2];
        if (a->strides[3] != es) return pfpy_invalid("out: the W axis must be contiguous"), -1;
    } else {
        t->row_stride = a->strides[1];
        if (a->strides[2] != c * es || a->strides[3] != es)
            return pfpy_invalid("out: pixels must be contiguous (H, W, C) rows"), -1;
    }
    return 0;
}

static PyObject *plan_run(plan_obj *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"images", "params", "out", "info", NULL};
    PyObject *images, *params = Py_None, *outobj = Py_None;
    int want_info = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOp:run", kwlist, &images, &params, &outobj, &want_info)) return NULL;
    if (self->plan == NULL) return pfpy_invalid("Plan was not initialised");
    pfpy_images in;
    if (pfpy_images_in(images, "images", 0, &in) < 0) return NULL;
    int n = in.n;
    pf_aug_params *p = NULL;
    pf_letterbox_info *info = NULL;
    PyObject *result = NULL, *ret = NULL;
    pfpy_array oa;
    memset(&oa, 0, sizeof oa);
    if (params != Py_None) {
        PyObject *seq = PySequence_Fast(params, "params");
        if (seq == NULL || PySequence_Fast_GET_SIZE(seq) != n) {
            Py_XDECREF(seq);
            PyErr_Clear();
            pfpy_invalid("params must be a list of one dict per image (%d)", n);
            goto done;
        }
        p = PyMem_Malloc((size_t)n * sizeof *p);
        if (p == NULL) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            goto done;
        }
        for (int i = 0; i < n; i++) {
            char nm[32];
            snprintf(nm, sizeof nm, "params[%d]", i);
            p[i] = pf_aug_params_identity();
            if (pfpy_fields_from_dict(PySequence_Fast_GET_ITEM(seq, i), pfpy_params_fields, &p[i], nm) < 0) {
                Py_DECREF(seq);
                goto done;
            }
        }
        Py_DECREF(seq);
    }
    const pf_preprocess_desc *d = &self->desc;
    if (outobj == Py_None) {
        int chw = d->out_layout == PF_CHW;
        Py_ssize_t shape[4] = {n, chw ? d->out_channels : d->out_height, chw ? d->out_height : d->out_width,
                               chw ? d->out_width : d->out_channels};
        result = (PyObject *)pfpy_tensor_new(4, shape, d->out_dtype);
        if (result == NULL) goto done;
        outobj = result;
    } else {
        result = Py_NewRef(outobj);
    }
    if (pfpy_array_get(outobj, 1, "out", &oa) < 0) goto done;
    pf_tensor t;
    if (tensor_arg(&oa, d, n, &t) < 0) goto done;
    if (want_info && (info = PyMem_Malloc((size_t)n * sizeof *info)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    pf_status st;
    pf_stream *s = pfpy_stream_acquire();
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    st = pf_preprocess_run(self->plan, s, n, in.views, p, &t, info);
    PyThread_release_lock(self->lock);
    Py_END_ALLOW_THREADS
    pfpy_stream_release(s);
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    if (want_info) {
        PyObject *list = PyList_New(n);
        for (int i = 0; list && i < n; i++) {
            PyObject *e = pfpy_fields_to_dict(pfpy_letterbox_fields, &info[i]);
            if (e == NULL) Py_CLEAR(list);
            else PyList_SET_ITEM(list, i, e);
        }
        ret = list ? Py_BuildValue("(ON)", result, list) : NULL;
    } else {
        ret = Py_NewRef(result);
    }
done:
    pfpy_array_release(&oa);
    pfpy_images_release(&in);
    Py_XDECREF(result);
    PyMem_Free(p);
    PyMem_Free(info);
    return ret;
}

static PyObject *plan_desc(plan_obj *self, void *c) {
    (void)c;
    return pfpy_fields_to_dict(pfpy_desc_fields, &self->desc);
}

static PyMethodDef plan_methods[] = {
    {"run", FN(plan_run), KW,
     "run(images, params=None, out=None, info=False)\n--\n\n"
     "pf_preprocess_run: uint8 HWC images (1 or 3 channels, any sizes) -> one batch. params: None (identity)\n"
     "or one dict per image (pf_aug_params fields). out: None (a new pixflow.Tensor) or a 4-D array of the\n"
     "plan's shape. info=True also returns the letterbox mappings."},
    {NULL, NULL, 0, NULL}};

/* Plans are equal when their descs are (what pixflow.fuse() promises to
 * give: the same Plan as the equivalent Compose). */
static PyObject *plan_richcompare(plan_obj *a, PyObject *b, int op) {
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &PlanType)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *da = plan_desc(a, NULL), *db = da ? plan_desc((plan_obj *)b, NULL) : NULL;
    PyObject *r = db ? PyObject_RichCompare(da, db, op) : NULL;
    Py_XDECREF(da);
    Py_XDECREF(db);
    return r;
}

static PyGetSetDef plan_getset[] = {{"desc", (getter)plan_desc, NULL, "The plan's description (a dict).", NULL},
                                    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pixflow.Plan",
    .tp_basicsize = sizeof(plan_obj),
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_richcompare = (richcmpfunc)plan_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Plan(desc)\n--\n\nA fused preprocess plan (pf_preprocess_plan): crop, resize or letterbox, flips,\n"
              "affine, colour ops, normalization, dtype and layout in one pass over the output.",
    .tp_methods = plan_methods,
    .tp_getset = plan_getset,
    .tp_init = (initproc)plan_init,
    .tp_new = PyType_GenericNew,
};

int pfpy_augment_init(PyObject *module) {
    if (PyType_Ready(&PlanType) < 0) return -1;
    return PyModule_AddObjectRef(module, "Plan", (PyObject *)&PlanType);
}

PyMethodDef pfpy_augment_methods[] = {
    {"recipe", (PyCFunction)py_recipe, METH_O,
     "recipe(name, /)\n--\n\n"
     "pf_recipe: (desc, policy) dicts of a named preset ('imagenet-train', 'imagenet-eval', 'yolo')."},
    {"defaults", (PyCFunction)py_defaults, METH_NOARGS,
     "defaults()\n--\n\n(desc, policy, params) dicts at their C defaults / identity."},
    {"aug_sample", FN(py_aug_sample), KW,
     "aug_sample(policy, seed, epoch, first_index, widths, heights)\n--\n\n"
     "pf_aug_sample: one params dict per sample (Philox keyed by seed, epoch, index)."},
    {NULL, NULL, 0, NULL}};
