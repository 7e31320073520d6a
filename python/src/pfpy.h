/* Internal declarations shared by the files of the _pixflow extension.
 * The extension uses pixflow's public API only (include/pixflow/). */
#ifndef PFPY_H
#define PFPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pixflow/pixflow.h>

#include "dlpack_abi.h"

/* ---------------------------------------------------------- errors.c */

/* The exception classes (pixflow.Error and its subclasses). */
extern PyObject *pfpy_Error;
extern PyObject *pfpy_InvalidArgument;
extern PyObject *pfpy_Unsupported;

int pfpy_errors_init(PyObject *module);
/* Raises the class mapped from `status` with pf_last_error()'s sentence
 * (the status name when the sentence is empty); returns NULL. */
PyObject *pfpy_raise(pf_status status);
/* The same with the status and message given; returns NULL. */
PyObject *pfpy_raise_msg(pf_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* repr(o) into buf (for messages; pf-style printf has no %R). */
const char *pfpy_repr(PyObject *o, char *buf, size_t cap);
/* Shorthands for argument checks done in the extension; return NULL. */
PyObject *pfpy_invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
PyObject *pfpy_unsupported(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ----------------------------------------------------- metrics_str.c */

/* The Prometheus exposition of src's snapshot as a str (NULL with an
 * exception set on failure). allow_threads: release the GIL meanwhile (only
 * where the source cannot be closed under the call). */
PyObject *pfpy_metrics_text(const pf_metrics_sources *src, int allow_threads);

/* ----------------------------------------------------------- array.c */

/* One array-like object seen as memory: from the buffer protocol (numpy,
 * memoryview, pixflow.Tensor), DLPack (__dlpack__: torch, jax, cupy...)
 * or __cuda_array_interface__. Strides are in bytes. */
typedef struct pfpy_array {
    void *data;
    int ndim;
    Py_ssize_t shape[5];
    Py_ssize_t strides[5];
    pf_dtype dtype;
    pf_mem mem;
    int device;
    int readonly;
    /* what keeps the memory alive while we use it */
    Py_buffer view;
    int has_view;
    PyObject *keep; /* a pixflow.Tensor owning an imported DLPack tensor, or a numpy copy */
} pfpy_array;

/* Acquires obj (writable: refuse read-only memory). `name` is the
 * argument's name for messages. Returns 0, or -1 with an exception set. */
int pfpy_array_get(PyObject *obj, int writable, const char *name, pfpy_array *out);
void pfpy_array_release(pfpy_array *a);
/* pf_dtype of a buffer-protocol format string; -1 when pixflow has none. */
int pfpy_dtype_from_format(const char *format, Py_ssize_t itemsize);
/* numpy dtype name of a pf_dtype ("uint8", ...); NULL for bf16. */
const char *pfpy_numpy_dtype(pf_dtype dt);

/* How an array's axes name an image. */
enum {
    PFPY_CONV_HWC = 0, /* (H, W) or (H, W, C): numpy / OpenCV */
    PFPY_CONV_CHW = 1  /* (C, H, W) or (H, W): torch */
};

/* Flags of pfpy_image_in / pfpy_images_in / pfpy_images_out. */
enum {
    PFPY_CHW_OK = 1u << 0,   /* the op accepts planar views */
    PFPY_WRITABLE = 1u << 1, /* a destination: no copy, writable memory */
    PFPY_CONV_TORCH = 1u << 2, /* axes are (C, H, W) */
    PFPY_ANY_DTYPE = 1u << 3   /* no dtype check here (the op checks) */
};

/* An image argument: its array, the view an op gets, and a packed copy
 * when the strides cannot be expressed as a pf_image (or the op needs HWC
 * and the memory is planar). */
typedef struct pfpy_image {
    pfpy_array arr;
    pf_image img;
    void *copy; /* PyMem_RawMalloc'd packed HWC copy, or NULL */
    int ndim;   /* 2 or 3: how the caller shaped it */
} pfpy_image;

int pfpy_image_in(PyObject *obj, const char *name, unsigned flags, pfpy_image *out);
void pfpy_image_release(pfpy_image *im);

/* A batch argument: one image or a list/tuple of them. */
typedef struct pfpy_images {
    int n;
    int is_seq;         /* given as a list/tuple (the result is a list) */
    pfpy_image *im;     /* n entries (points at `one` for a single image) */
    pf_image *views;    /* n views, contiguous for the C call */
    pfpy_image one;
    pf_image one_view;
} pfpy_images;

int pfpy_images_in(PyObject *obj, const char *name, unsigned flags, pfpy_images *out);
void pfpy_images_release(pfpy_images *ims);

/* Output geometry of sample i. */
typedef struct pfpy_shape {
    int32_t width, height, channels;
    pf_dtype dtype;
    int ndim;         /* 2 or 3 for a numpy result */
    pf_layout layout; /* memory order of a new result (planar for planar inputs) */
    int torch;        /* axes (C, H, W) rather than (H, W, C) */
} pfpy_shape;

/* Destinations: `dst` None -> new numpy arrays of `shapes`; else the
 * caller's arrays (or list), each checked against its shape (dtype, size,
 * channels, writable, strides a pf_image can express). On success *result
 * holds the object to return (the new arrays, or dst itself). */
int pfpy_images_out(PyObject *dst, const char *name, const pfpy_images *src,
                    const pfpy_shape *shapes, unsigned flags, pfpy_images *out,
                    PyObject **result);
/* A new numpy array of that shape (HWC convention). */
PyObject *pfpy_numpy_empty(const pfpy_shape *s);
PyObject *pfpy_numpy_empty_nd(int ndim, const Py_ssize_t *shape, pf_dtype dtype);

/* ----------------------------------------------------- tensor_type.c */

/* pixflow.Tensor: a strided view of memory that someone keeps alive
 * (`owner`), our own allocation, or an imported DLPack tensor. Exports
 * DLPack and (host memory) the buffer protocol. */
typedef struct pfpy_tensor {
    PyObject_HEAD
    void *data;
    int ndim;
    Py_ssize_t shape[5];
    Py_ssize_t strides[5]; /* bytes */
    pf_dtype dtype;
    pf_mem mem;
    int device;
    int readonly;
    PyObject *owner;
    void *owned;                       /* PyMem_RawFree on dealloc */
    DLManagedTensor *dl_legacy;        /* deleter on dealloc */
    DLManagedTensorVersioned *dl_versioned;
    PyObject *weakrefs;
} pfpy_tensor;

extern PyTypeObject pfpy_TensorType;
int pfpy_tensor_init_type(PyObject *module);
/* A tensor viewing `data` with `owner` as the keeper (new reference). */
pfpy_tensor *pfpy_tensor_view(void *data, int ndim, const Py_ssize_t *shape,
                              const Py_ssize_t *strides, pf_dtype dtype, pf_mem mem, int device,
                              int readonly, PyObject *owner);
/* A tensor that owns a new packed host allocation. */
pfpy_tensor *pfpy_tensor_new(int ndim, const Py_ssize_t *shape, pf_dtype dtype);
/* A view of samples [0, count) of a pf_tensor, NCHW or NHWC as its layout
 * says (new reference; owner keeps the memory). */
pfpy_tensor *pfpy_tensor_of(const pf_tensor *t, int count, PyObject *owner);
/* Imports a DLPack capsule (legacy or versioned); new reference. */
pfpy_tensor *pfpy_tensor_from_capsule(PyObject *capsule, const char *name);

/* --------------------------------------------------------- streams.c */

/* A CPU stream for one op call (GIL held to acquire and release): streams
 * are checked out of a free list, so concurrent Python threads never share
 * one. NULL when the thread count is 1 (the calling thread alone). */
pf_stream *pfpy_stream_acquire(void);
void pfpy_stream_release(pf_stream *s);
void pfpy_streams_free(void);
PyObject *pfpy_set_num_threads(PyObject *self, PyObject *arg);
PyObject *pfpy_get_num_threads(PyObject *self, PyObject *noarg);

/* --------------------------------------------------------- devices.c */

/* pixflow.Device: an open pf_device and what names it. */
typedef struct pfpy_device {
    PyObject_HEAD
    pf_device_kind kind;
    int index;
    pf_device *dev;
    char name[128];
    size_t total_memory;
} pfpy_device;

extern PyTypeObject pfpy_DeviceType;
int pfpy_devices_init(PyObject *module);
void pfpy_devices_free(void);
/* A Device (new reference) from a Device, a string such as "opencl:0" or
 * None (the current device); `name` names the argument in errors. */
PyObject *pfpy_device_get(PyObject *obj, const char *name);
PyObject *pfpy_current_device(PyObject *self, PyObject *noarg);

/* ----------------------------------------------------- stream_type.c */

/* pixflow.Stream: a pf_stream of `device` (a pfpy_device); `external`
 * keeps a wrapped torch stream alive. */
typedef struct pfpy_stream {
    PyObject_HEAD
    PyObject *device;
    pf_stream *stream;
    PyObject *external;
    /* device results of ops inside `with stream:` (device_results.c): a
     * stream-ordered caching pool, made at the first one, so that freeing
     * a result while queued work may still use it needs no synchronize */
    pf_pool *results;
    size_t results_peak; /* peak bytes in use of `results` */
} pfpy_stream;

typedef struct pfpy_event {
    PyObject_HEAD
    pf_event *event;
    PyObject *device;
} pfpy_event;

extern PyTypeObject pfpy_StreamType, pfpy_EventType;
int pfpy_stream_type_init(PyObject *module);
/* The innermost stream entered with `with` on this thread, or NULL. */
pfpy_stream *pfpy_active_stream(void);

/* -------------------------------------------------- device_results.c */

int pfpy_device_results_init(void);
/* 1 when the active stream is a device (not CPU) stream. */
int pfpy_on_device_stream(void);
/* As pfpy_numpy_empty, a device pixflow.Tensor of the active stream's
 * device (call only when pfpy_on_device_stream()). */
PyObject *pfpy_device_result(const pfpy_shape *s);
/* Uploads the host views of `in` on the active stream (keep[i]: the
 * device tensor of source i, or left NULL); -1 with an exception set. */
int pfpy_upload_sources(pfpy_images *in, PyObject **keep);

/* ------------------------------------------------------- pool_type.c */

int pfpy_pool_type_init(PyObject *module);
/* {"in_use", "peak_in_use", "reserved", ..., "reuses"} of a pf_pool */
PyObject *pfpy_pool_stats_dict(pf_pool *pool, size_t peak_in_use);

/* -------------------------------------------------- dispatch_stats.c */

/* pf_dispatch_stats and the per-device stats as a dict (new reference). */
PyObject *pfpy_dispatch_stats(const pf_dispatch *d);

/* ------------------------------------------------------ param helpers */

/* Per-sample parameters: a scalar for every sample or a sequence of n
 * (or 1). Fill out[0..n); return the count given (1 or n), -1 on error. */
int pfpy_params_double(PyObject *obj, const char *name, int n, double *out);
int pfpy_params_int(PyObject *obj, const char *name, int n, int *out);
/* A cv2 Scalar: a sequence of up to `max` numbers, or one number (the
 * first entry); out must be pre-filled (zeros). Returns how many were
 * given (0 for None), -1 on error. */
int pfpy_scalar_tuple(PyObject *obj, const char *name, int max, double *out);
/* (x, y, width, height) integers into r[4]; -1 with "<what> must be (x, y,
 * width, height) integers" set otherwise. */
int pfpy_rect(PyObject *obj, const char *what, int r[4]);

/* A C-contiguous buffer of `fmt` elements ('d' float64, 'f' float32, 'i'
 * int32, 'B' uint8) from obj (numpy arrays and array.array of that type; the Python
 * modules convert). Returns the element count, -1 on error (view
 * released). */
Py_ssize_t pfpy_flat_buffer(PyObject *obj, const char *name, char fmt, Py_buffer *view);
/* The same with the dimension count checked (ndim; -1: any) and, when
 * writable, writable memory. Same return. */
Py_ssize_t pfpy_nd_buffer(PyObject *obj, const char *name, char fmt, int ndim, int writable, Py_buffer *view);

/* A pfpy_nd_buffer view that knows whether it is held, for functions with
 * several optional array arguments (the post bindings). None gives an
 * empty, unheld view when allow_none. pfpy_buf_dim: shape[i], 0 when
 * unheld or past ndim. */
typedef struct pfpy_buf {
    Py_buffer v;
    int held;
} pfpy_buf;
int pfpy_buf_get(PyObject *obj, const char *name, char fmt, int ndim, int writable, int allow_none, pfpy_buf *b);
void pfpy_buf_release(pfpy_buf *b);
Py_ssize_t pfpy_buf_dim(const pfpy_buf *b, int i);
/* numpy.empty(shape, dtype) by numpy dtype name ("int64", "float64": the
 * dtypes pf_dtype has not), and the data pointer of a new array. */
PyObject *pfpy_numpy_empty_named(int ndim, const Py_ssize_t *shape, const char *dtype);
void *pfpy_numpy_data(PyObject *arr);

/* Runs a pf_ call with the GIL released; st receives its status. */
#define PFPY_CALL(st, call)    \
    do {                       \
        Py_BEGIN_ALLOW_THREADS \
        st = (call);           \
        Py_END_ALLOW_THREADS   \
    } while (0)

/* ------------------------------------------------------- op_common.c */

/* The life of one op call: sources, their default output shapes (the
 * sources' own), destinations, the stream, the result. */
typedef struct pfpy_op {
    pfpy_images in, out;
    pfpy_shape *shapes;
    pfpy_shape one_shape;
    PyObject *result;
    unsigned flags;
    PyObject **uploads; /* device copies of host sources on a device stream (n entries), or NULL */
} pfpy_op;

/* Acquires the sources (flags as pfpy_images_in) and sets shapes[i] to
 * source i's geometry. -1 with an exception set (nothing to release). */
int pfpy_op_begin(pfpy_op *op, PyObject *src, const char *name, unsigned flags);
/* Makes or checks the destinations for op->shapes. -1: released, raised. */
int pfpy_op_outputs(pfpy_op *op, PyObject *dst, const char *name);
/* Releases everything; returns the result for PF_OK, else raises. */
PyObject *pfpy_op_finish(pfpy_op *op, pf_status st);
/* Releases everything after an argument error; returns NULL. */
PyObject *pfpy_op_abort(pfpy_op *op);
/* Output sizes of resize and the warps into op->shapes: from `size` ((w, h)
 * for all or a list of one per sample), or when size is None from the
 * destinations `dst`. -1 with an exception set (op not released). */
int pfpy_op_out_sizes(pfpy_op *op, PyObject *size, PyObject *dst);

/* Runs `call` (which may name `stream_`) on a checked-out CPU stream
 * with the GIL released. */
#define PFPY_RUN(st, call)                          \
    do {                                            \
        pf_stream *stream_ = pfpy_stream_acquire(); \
        PFPY_CALL(st, call);                        \
        pfpy_stream_release(stream_);               \
    } while (0)

/* ------------------------------------------------- op tables (ops_*.c) */

/* One table per C op family (src/ops/<family>_op.c -> ops_<family>.c). */
extern PyMethodDef pfpy_resize_methods[];
extern PyMethodDef pfpy_geom_methods[];
extern PyMethodDef pfpy_border_methods[];
extern PyMethodDef pfpy_warp_methods[];
extern PyMethodDef pfpy_lut_methods[];
extern PyMethodDef pfpy_color_methods[];
extern PyMethodDef pfpy_convert_methods[];
extern PyMethodDef pfpy_filter_methods[];
extern PyMethodDef pfpy_photo_methods[];
/* post families (src/post): post_<family>.c */
extern PyMethodDef pfpy_post_nms_methods[];
extern PyMethodDef pfpy_post_boxes_methods[];
extern PyMethodDef pfpy_post_heads_methods[];
extern PyMethodDef pfpy_post_masks_methods[];
extern PyMethodDef pfpy_post_regions_methods[];
extern PyMethodDef pfpy_post_image_methods[];
extern PyMethodDef pfpy_codec_methods[];
extern PyMethodDef pfpy_augment_methods[];
extern PyMethodDef pfpy_pipeline_methods[];
extern PyMethodDef pfpy_source_methods[];
extern PyMethodDef pfpy_pack_methods[];

int pfpy_augment_init(PyObject *module);
int pfpy_pipeline_init(PyObject *module);
int pfpy_video_init(PyObject *module);
/* A source dict ({"kind", "path", "shards", "extensions"}) as a
 * pf_source_desc whose strings are copies in *strings (free them with
 * pfpy_source_strings_free once the desc is no longer used); -1 with an
 * exception naming the key (source_index.c). */
int pfpy_source_desc(PyObject *src, pf_source_desc *out, const char ***strings);
void pfpy_source_strings_free(const char **strings);
/* The public enums as module constants (constants.c). */
int pfpy_constants_init(PyObject *module);

#endif /* PFPY_H */
