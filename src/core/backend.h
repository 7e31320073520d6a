/* The backend table: everything a device kind must provide for the runtime
 * (memory, copies, streams, events) and for the ops (kernels). The CPU,
 * CUDA and OpenCL backends are three instances (src/cpu/backend_cpu.c,
 * src/cuda/backend_cuda.c, src/opencl/backend_opencl.c); an Ascend
 * ACL/DVPP backend would be a fourth, with no change to the public API or
 * to the op front-ends (src/ops, src/augment), which only look up
 * `kernels`.
 *
 * Arguments reaching a table entry are already validated by the public
 * function (non-NULL, sizes, same device); entries return pf_status and
 * set pf_last_error() with the public function's name. */
#ifndef PF_CORE_BACKEND_H
#define PF_CORE_BACKEND_H

#include <stdbool.h>

#include "pixflow/augment.h"
#include "pixflow/ops.h"
#include "pixflow/post.h"
#include "pixflow/runtime.h"

struct pfi_filter_plan; /* src/ops/filter_plan.h */

/* Ops: one entry per public op, same arguments, called by the op's
 * front-end (src/ops, src/augment) after it validated them, with views
 * in that backend's memory on a stream of that backend (or NULL: the
 * CPU's inline stream, or the backend's synchronous per-thread stream).
 * The filters take the per-sample plans their front-end resolved. A NULL
 * entry means the op is not available on that backend (PF_ERR_UNSUPPORTED
 * naming the op and the backend; PFI_KERNEL below). The CPU backend
 * (src/cpu/backend_cpu.c) has every entry but the post-processing ones:
 * the host side of those is the post room's own (src/post: its front-ends
 * run it when pfi_route picks the host), the entries are for devices. */
typedef pf_status (*pfi_photo_factors_fn)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                          const double factors[], int n);
typedef pf_status (*pfi_image_op_fn)(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
typedef struct pfi_kernels {
    /* resize, colour */
    pf_status (*resize)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                        const pf_resize_opts *opts);
    pf_status (*cvt_color)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                           pf_color_code code, const pf_color_opts *opts);
    pf_status (*cvt_color_from_yuv)(pf_stream *s, int count, const pf_yuv src[], pf_image dst[],
                                    pf_color_code code, const pf_color_opts *opts);
    pf_status (*cvt_color_to_yuv)(pf_stream *s, int count, const pf_image src[], pf_yuv dst[],
                                  pf_color_code code, const pf_color_opts *opts);
    /* geometry */
    pf_status (*flip)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                      const pf_flip_code codes[], int ncodes);
    pf_status (*rotate)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                        const pf_rotate_code codes[], int ncodes);
    pfi_image_op_fn transpose;
    pf_status (*copy_make_border)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                  const pf_border_params params[], int nparams);
    pf_status (*warp_affine)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                             const double matrices[], int nmatrices, const pf_warp_opts *opts);
    pf_status (*warp_perspective)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                  const double matrices[], int nmatrices, const pf_warp_opts *opts);
    pf_status (*remap)(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_image map_x[],
                       const pf_image map_y[], const pf_warp_opts *opts);
    /* conversions */
    pf_status (*convert)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                         const pf_convert_opts *opts);
    pf_status (*reformat)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                          const int8_t order[4], double fill);
    pf_status (*normalize)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                           const pf_normalize_opts *opts);
    pfi_image_op_fn split;
    pf_status (*merge)(pf_stream *s, int count, int channels, const pf_image src[], pf_image dst[]);
    pf_status (*lut)(pf_stream *s, int count, const pf_image src[], pf_image dst[], const uint8_t *tables,
                     const pf_lut_opts *opts);
    /* photometric */
    pfi_photo_factors_fn adjust_brightness, adjust_contrast, adjust_saturation, adjust_hue, solarize;
    pf_status (*adjust_gamma)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                              const double gammas[], const double gains[], int n);
    pf_status (*posterize)(pf_stream *s, int count, const pf_image src[], pf_image dst[], const int bits[],
                           int n);
    pfi_image_op_fn rgb_to_grayscale, invert, autocontrast, equalize;
    pf_status (*color_twist)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                             const float matrices[], int n);
    pf_status (*gaussian_noise)(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                const double means[], const double sigmas[], int n, const pf_noise_opts *opts);
    pf_status (*erase)(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_erase_rect rects[],
                       const int32_t rect_counts[], int ncounts);
    /* filters: pf_gaussian_blur ... pf_sharpen, plans[i] for sample i (op names the public function) */
    pf_status (*filter)(pf_stream *s, const char *op, int count, const pf_image src[], pf_image dst[],
                        const struct pfi_filter_plan *plans);
    /* the fused preprocess */
    pf_status (*preprocess)(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                            const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);
    pf_status (*preprocess_yuv)(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                const pf_color_code codes[], const pf_color_opts opts[],
                                const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);
    /* post-processing (device backends; src/post runs the host side):
     * pf_nms (samples' arrays, offsets, keep and updated_scores in the
     * backend's memory; keep holds pf_nms_capacity entries),
     * pf_masks_from_logits, pf_composite */
    pf_status (*nms)(pf_stream *s, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                     int64_t offsets[], int32_t keep[], float updated_scores[]);
    pf_status (*masks_from_logits)(pf_stream *s, const float *logits, int32_t n, int32_t channels, int32_t height,
                                   int32_t width, uint8_t *masks, const pf_mask_opts *opts);
    pf_status (*composite)(pf_stream *s, int count, const pf_image fg[], const pf_image bg[], const pf_image mask[],
                           pf_image dst[]);
} pfi_kernels;

/* Calls entry `entry` of backend be (from pfi_route: NULL means the CPU
 * backend) with the arguments that follow, or fails with
 * PF_ERR_UNSUPPORTED naming op and the backend when it has none. */
#define PFI_KERNEL(be, op, entry, ...)                                                  \
    (pfi_backend_or_host(be)->kernels->entry != NULL                                    \
         ? pfi_backend_or_host(be)->kernels->entry(__VA_ARGS__)                         \
         : pfi_unsupported_on((op), pfi_backend_or_host(be)))

typedef struct pfi_backend {
    const char *name;      /* "cpu", "cuda", "opencl" */
    pf_device_kind kind;

    pf_status (*device_count)(int *count);
    /* Fills props for device index; fails when the device cannot be used. */
    pf_status (*device_probe)(int index, pf_device_props *props);
    pf_status (*device_synchronize)(int index);
    /* Optional: the native context of device index (OpenCL: cl_context). */
    void *(*device_native)(int index);
    /* Optional: called by every pf_device_open, also of an open handle
     * (OpenCL: a lost device gets a fresh context here); a failure fails
     * the open. */
    pf_status (*device_reopen)(int index);

    pf_status (*mem_alloc)(int device, pf_alloc_kind kind, size_t bytes, void **out);
    void (*mem_free)(int device, pf_alloc_kind kind, void *ptr);

    /* Streams: `impl` is the backend's handle (cudaStream_t). wrap != NULL
     * (or wrap_default) wraps a caller's stream instead of creating one. */
    pf_status (*stream_create)(int device, void *wrap, bool wrap_given, void **impl);
    void (*stream_destroy)(int device, void *impl, bool owned);
    pf_status (*stream_synchronize)(int device, void *impl);
    pf_status (*stream_query)(int device, void *impl, int *done);
    pf_status (*stream_add_callback)(int device, void *impl, pf_host_fn fn, void *user);
    /* Optional: the native queue behind impl (OpenCL: impl is pixflow's
     * queue record, this its cl_command_queue); NULL entry: impl itself. */
    void *(*stream_native)(void *impl);
    /* Frees pf_stream.backend_state (may be NULL). */
    void (*stream_state_free)(int device, void *state);

    pf_status (*event_create)(int device, void **impl);
    void (*event_destroy)(int device, void *impl);
    pf_status (*event_record)(int device, void *event, void *stream);
    pf_status (*event_wait)(int device, void *stream, void *event);
    pf_status (*event_query)(int device, void *event, int *done);
    pf_status (*event_synchronize)(int device, void *event);
    pf_status (*event_elapsed_ms)(int device, void *start, void *end, float *ms);

    /* Optional: the device index owning ptr (device or managed memory), or
     * -1 for host memory (pageable or pinned). NULL: every pointer is host
     * memory to this backend. pfi_route_ptrs asks every device backend. */
    int (*ptr_device)(const void *ptr);

    pf_status (*copy_2d)(int device, void *stream, void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width_bytes, size_t height);

    /* Optional stream-ordered allocator of device memory (CUDA: a
     * cudaMallocAsync memory pool with maxSize = cap). NULL entries: pf_pool
     * uses its own event-gated cache on mem_alloc/mem_free. */
    pf_status (*opool_create)(int device, size_t cap, void **opool);
    void (*opool_destroy)(int device, void *opool);
    pf_status (*opool_alloc)(int device, void *opool, size_t bytes, void *stream, void **out);
    pf_status (*opool_free)(int device, void *opool, void *ptr, void *stream);
    pf_status (*opool_trim)(int device, void *opool);
    pf_status (*opool_reserved)(int device, void *opool, size_t *current, size_t *high);

    const pfi_kernels *kernels;
} pfi_backend;

/* The backend of a kind: CPU always; CUDA NULL when built without it
 * (core/backend_registry.c: the one place that names the backends). */
const pfi_backend *pfi_backend_get(pf_device_kind kind);
const pfi_backend *pfi_backend_cpu(void);  /* src/cpu/backend_cpu.c */
const pfi_backend *pfi_backend_cuda(void); /* src/cuda/backend_cuda.c; NULL without CUDA */
const pfi_backend *pfi_backend_opencl(void); /* src/opencl/backend_opencl.c; NULL without OpenCL */
/* Device kinds and the memory of their views: one pf_mem per device kind
 * (PF_MEM_HOST for the CPU). */
#define PFI_DEVICE_KINDS 3
static inline pf_mem pfi_mem_of_kind(pf_device_kind k) {
    return k == PF_DEVICE_CUDA ? PF_MEM_CUDA : k == PF_DEVICE_OPENCL ? PF_MEM_OPENCL : PF_MEM_HOST;
}
static inline pf_device_kind pfi_kind_of_mem(pf_mem m) {
    return m == PF_MEM_CUDA ? PF_DEVICE_CUDA : m == PF_MEM_OPENCL ? PF_DEVICE_OPENCL : PF_DEVICE_CPU;
}
/* "CUDA", "OpenCL", "CPU": for messages. */
static inline const char *pfi_kind_label(pf_device_kind k) {
    return k == PF_DEVICE_CUDA ? "CUDA" : k == PF_DEVICE_OPENCL ? "OpenCL" : "CPU";
}
/* The CPU backend, for the ops only it implements (their front-ends check
 * that every view is host memory instead of routing). */
static inline const pfi_backend *pfi_host_backend(void) { return pfi_backend_get(PF_DEVICE_CPU); }
/* The backend pfi_route chose: be, or the CPU backend when be is NULL. */
static inline const pfi_backend *pfi_backend_or_host(const pfi_backend *be) { return be ? be : pfi_host_backend(); }

/* ---- what ops need from the runtime --------------------------------- */

/* Decides where an op runs from its stream and its views' memory:
 *  - every view host and stream NULL or a CPU stream: *be = NULL (the
 *    CPU backend: PFI_KERNEL resolves it), *stream_out = stream;
 *  - every view on device d of kind K and stream NULL or a K stream of d:
 *    *be = K's backend, and *stream_out the stream to queue on (the given
 *    one, or the calling thread's synchronous stream of d);
 *  - anything else fails naming the first offending argument ("src[1] is
 *    host memory but dst[1] is CUDA device 0", "stream is a CPU stream but
 *    src[0] is CUDA device memory", "built without CUDA").
 * mems/devices list every view of the call (src views then dst views);
 * names[i] is a printf format with one %d for the sample index, and
 * per_sample[i] how many views of that name follow (count or 1). */
typedef struct pfi_view_ref {
    pf_mem mem;
    int32_t device;
    const char *name; /* e.g. "src[%d]" */
    int index;
} pfi_view_ref;
pf_status pfi_route(const char *op, pf_stream *stream, const pfi_view_ref views[], int nviews,
                    const pfi_backend **be, pf_stream **stream_out);
/* The common case: count src and count dst images. */
pf_status pfi_route_images(const char *op, pf_stream *stream, int count, const pf_image src[],
                           const pf_image dst[], const pfi_backend **be, pf_stream **stream_out);
/* For ops on plain pointers (post.h's pf_nms, pf_masks_from_logits): one
 * array of the call, its pointer and its name in messages (name and index,
 * "samples.boxes[3]"; index -1: the name alone). */
typedef struct pfi_ptr_ref {
    const void *p;
    const char *name;
    int index;
} pfi_ptr_ref;
/* pfi_route for pointers: each non-NULL pointer becomes a view of the
 * memory that owns it (the first device backend whose ptr_device claims
 * it, else host memory) and pfi_route decides from those views and the
 * stream. A backend is asked only once a device of its kind was opened or
 * the stream is one of its streams (before that no pixflow memory of it
 * exists, and asking could start its runtime), as the copies do
 * (core/memory.c). Mixed memory fails naming the first offender. */
pf_status pfi_route_ptrs(const char *op, pf_stream *stream, const pfi_ptr_ref ptrs[], int n,
                         const pfi_backend **be, pf_stream **stream_out);
/* For ops with no device path that read plain host pointers (no view to
 * route): PF_ERR_UNSUPPORTED naming op when stream is a device stream. */
pf_status pfi_route_host_only(const char *op, const pf_stream *stream);
/* PF_ERR_UNSUPPORTED: op has no entry on backend be. */
pf_status pfi_unsupported_on(const char *op, const pfi_backend *be);

/* Stream internals the backends and ops share. */
int pfi_stream_device_index(const pf_stream *s); /* -1 for CPU / NULL */
pf_device_kind pfi_stream_kind(const pf_stream *s);
void *pfi_stream_impl(const pf_stream *s);
/* Remembers the name of the last op queued (for async error messages). */
void pfi_stream_note_op(pf_stream *s, const char *op);
const char *pfi_stream_last_op(const pf_stream *s);
/* True for the per-thread synchronous stream a NULL stream stands for. */
bool pfi_stream_is_implicit(const pf_stream *s);

#endif
