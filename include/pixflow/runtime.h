/*
 * pixflow runtime: devices, streams, events, memory, pools and copies.
 *
 * One API over several backends. Each backend is a table of functions
 * (memory, copies, streams, events, kernels; src/core/backend.h): the
 * CPU, CUDA and OpenCL; Ascend ACL/DVPP would be another table.
 *
 *   pf_device *gpu;  pf_stream *s;
 *   pf_device_open(PF_DEVICE_CUDA, 0, &gpu);
 *   pf_stream_create(gpu, &s);                 // or pf_stream_wrap_cuda()
 *   pf_malloc(gpu, PF_ALLOC_DEVICE, bytes, &p); // or a pf_pool
 *   pf_memcpy_async(s, p, host, bytes);
 *   pf_resize(s, n, dev_src, dev_dst, NULL);    // any op, device views
 *   pf_stream_synchronize(s);                   // async errors surface here
 *
 * Device views: a pf_image / pf_tensor / pf_yuv whose `mem` is
 * PF_MEM_CUDA and `device` the device index. An op given device views runs
 * on the device: on `stream` when it is a stream of that device
 * (asynchronously: the call returns once the work is queued), or, with a
 * NULL stream, on a per-thread stream of that device, synchronously (the
 * call returns when the result is ready, as NULL streams do on the CPU).
 * Host and device views cannot be mixed in one call (copy first), and a
 * CPU stream cannot run device work (PF_ERR_INVALID_ARGUMENT naming the
 * argument).
 *
 * Errors: a failing CUDA call becomes PF_ERR_DEVICE with a message naming
 * the pixflow call and the CUDA error ("pf_malloc: cudaMalloc failed:
 * cudaErrorMemoryAllocation (out of memory)"). Kernel faults are
 * asynchronous: they surface from the next pf_stream_synchronize /
 * pf_event_synchronize on that stream, naming the op that was queued last.
 * A build without CUDA (PIXFLOW_CUDA=OFF, or no nvcc) answers
 * PF_ERR_UNSUPPORTED for CUDA requests; a CUDA build on a machine without a
 * GPU or driver answers PF_ERR_DEVICE from pf_device_open and 0 from
 * pf_device_count.
 *
 * OpenCL (PF_DEVICE_OPENCL, views with mem PF_MEM_OPENCL): every device of
 * every platform the ICD loader lists, in platform order; built with
 * -DPIXFLOW_OPENCL=AUTO|ON|OFF. Device memory is coarse-grained shared
 * virtual memory (clSVMAlloc; PF_ALLOC_MANAGED: fine-grained SVM, where the
 * device has it, else PF_ERR_UNSUPPORTED), so pf_malloc returns a pointer
 * that device views hold directly; the host must not dereference it (copy
 * with pf_memcpy_async). Pinned memory is a mapped CL_MEM_ALLOC_HOST_PTR
 * buffer. A device without SVM (OpenCL 1.x) or without 64-bit addresses is
 * refused by pf_device_open (PF_ERR_UNSUPPORTED naming the feature); no
 * ICD or no device: PF_ERR_DEVICE "no OpenCL device (install an ICD such
 * as pocl-opencl-icd)". Streams are in-order command queues; an OpenCL
 * error is PF_ERR_DEVICE naming the OpenCL call and error (allocation
 * failures, and sizes above CL_DEVICE_MAX_MEM_ALLOC_SIZE:
 * PF_ERR_OUT_OF_MEMORY). Kernels are built at first use per device and
 * cached on disk under $XDG_CACHE_HOME/pixflow/opencl (~/.cache/...); a
 * failed build is PF_ERR_DEVICE with the compiler's log. Ops on OpenCL
 * views today: pf_resize, pf_flip, pf_convert, pf_reformat, pf_normalize
 * (both modes), pf_cvt_color, pf_cvt_color_from_yuv, pf_warp_affine,
 * pf_warp_perspective, pf_preprocess_run, pf_preprocess_run_yuv, pf_nms,
 * pf_masks_from_logits, pf_composite (convert, colour, warp, preprocess
 * and NMS need fp64 on the device); others answer PF_ERR_UNSUPPORTED
 * ("... is not available on the opencl backend").
 *
 * A lost OpenCL device or context: when OpenCL answers
 * CL_DEVICE_NOT_AVAILABLE, or CL_OUT_OF_RESOURCES / an execution error
 * while pixflow waits for queued work (what NVIDIA's driver answers once
 * a context is unusable), the device is marked lost. From then on every
 * call that queues work, waits (synchronize, query, event waits),
 * allocates or creates a stream or event on it returns PF_ERR_DEVICE at
 * once, "OpenCL device N (name) is lost (cause); ... destroy and free
 * them, close the device and pf_device_open it again for a fresh
 * context"; nothing hangs (a synchronize drains what OpenCL accepted, and
 * a lost device answers at once). pf_free, pf_stream_destroy,
 * pf_event_destroy and pf_pool_destroy keep working (memory frees into the
 * context it was made in), so nothing leaks; the CPU backend and other
 * devices are not affected. The next pf_device_open of the device (also
 * while a handle is still open) makes a fresh context, or fails if the
 * device is still gone; the NULL stream's per-thread queues move to it,
 * while a pf_stream or memory made before the loss is refused by name
 * (destroy / free it and make a new one). Not a lost device: the same
 * CL_OUT_OF_RESOURCES from an enqueue or an allocation (that is
 * PF_ERR_OUT_OF_MEMORY), or a kernel build failure.
 */
#ifndef PIXFLOW_RUNTIME_H
#define PIXFLOW_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- devices */

typedef enum pf_device_kind {
    PF_DEVICE_CPU = 0,
    PF_DEVICE_CUDA = 1,
    PF_DEVICE_OPENCL = 2 /* an OpenCL device with shared virtual memory (see below) */
} pf_device_kind;

typedef struct pf_device pf_device;

typedef struct pf_device_props {
    pf_device_kind kind;
    int32_t index;
    char name[128];            /* "NVIDIA H200", or the CPU model */
    size_t total_memory;       /* bytes (CPU: physical memory) */
    int32_t compute_major, compute_minor; /* CUDA compute capability; OpenCL: the device's OpenCL version; 0 on CPU */
    int32_t multiprocessors;   /* SMs (CPU: online cores; OpenCL: compute units) */
    double peak_bandwidth_gbs; /* theoretical memory bandwidth, GB/s (0 when unknown) */
    int32_t async_engines;     /* copy engines that overlap kernels (0 on CPU) */
    int32_t memory_pools;      /* 1 when stream-ordered allocation (cudaMallocAsync) is available */
    char version[128];         /* OpenCL: CL_DEVICE_VERSION ("OpenCL 3.0 PoCL ..."); "" elsewhere */
    char driver[128];          /* OpenCL: platform name and CL_DRIVER_VERSION; "" elsewhere */
} pf_device_props;

/* Number of devices of a kind: CPU 1; CUDA 0 when built without CUDA or
 * when no GPU/driver is present (never an error for "none"). */
PF_API pf_status pf_device_count(pf_device_kind kind, int *count);
/* Opens device `index` of `kind`. Devices are reference counted: opening
 * the same device twice gives the same handle, pf_device_close releases
 * one reference. */
PF_API pf_status pf_device_open(pf_device_kind kind, int index, pf_device **out);
PF_API void pf_device_close(pf_device *device);
PF_API pf_status pf_device_props_get(const pf_device *device, pf_device_props *props);
/* Waits for all work on every stream of the device. */
PF_API pf_status pf_device_synchronize(pf_device *device);

/* --------------------------------------------------------------- streams */

/* A stream of `device`: CUDA -> a new non-blocking CUDA stream owned by
 * pixflow; CPU -> pf_stream_create_cpu(0). */
PF_API pf_status pf_stream_create(pf_device *device, pf_stream **out);
/* Wraps the caller's cudaStream_t (passed as void *; NULL means the legacy
 * default stream). pixflow queues work on it and never destroys it; destroy
 * the pf_stream BEFORE the cudaStream_t (pf_stream_destroy synchronizes
 * the handle and frees the stream's parameter arena). */
PF_API pf_status pf_stream_wrap_cuda(pf_device *device, void *cuda_stream, pf_stream **out);
/* Wraps the caller's cl_command_queue (passed as void *; it must be an
 * in-order queue of the context pixflow made for this device, from
 * pf_opencl_context, or of a context holding the same cl_device_id whose
 * SVM allocations are pixflow's: use pixflow's). pixflow queues work on it
 * and never releases or replaces it; destroy the pf_stream before releasing
 * the queue. pf_event_elapsed_ms needs CL_QUEUE_PROFILING_ENABLE on it. */
PF_API pf_status pf_stream_wrap_opencl(pf_device *device, void *cl_queue, pf_stream **out);
/* The cl_command_queue behind an OpenCL stream (NULL for other streams). */
PF_API void *pf_stream_opencl_queue(const pf_stream *stream);
/* The cl_context pixflow uses for an OpenCL device (created at
 * pf_device_open; memory of the device is SVM of this context), or NULL
 * for another kind of device. Create queues to wrap on it. */
PF_API void *pf_opencl_context(const pf_device *device);
/* The device of a stream (the CPU device for CPU streams and NULL). */
PF_API pf_device *pf_stream_device(const pf_stream *stream);
/* The cudaStream_t behind a CUDA stream (NULL for CPU streams). */
PF_API void *pf_stream_cuda_handle(const pf_stream *stream);
/* 1 when all work queued on the stream has finished, else 0. */
PF_API pf_status pf_stream_query(pf_stream *stream, int *done);

/* Runs fn(user, status) on a host thread once all work queued before it on
 * the stream has finished; status is PF_OK or the stream's error. fn must
 * not call pixflow functions that queue work on a CUDA stream (CUDA's own
 * rule for host callbacks), nor pf_pool functions: another thread may hold
 * the pool's lock while it waits for the device, which waits for fn.
 * CPU streams call it before returning. */
typedef void (*pf_host_fn)(void *user, pf_status status);
PF_API pf_status pf_stream_add_callback(pf_stream *stream, pf_host_fn fn, void *user);

/* ---------------------------------------------------------------- events */

typedef struct pf_event pf_event;

/* An event of `device` with timing enabled. */
PF_API pf_status pf_event_create(pf_device *device, pf_event **out);
PF_API void pf_event_destroy(pf_event *event);
/* Captures the work queued on stream so far. */
PF_API pf_status pf_event_record(pf_event *event, pf_stream *stream);
/* Makes future work on stream wait for the event (no host wait). */
PF_API pf_status pf_stream_wait_event(pf_stream *stream, pf_event *event);
/* *done = 1 when the captured work has finished (also for an event never
 * recorded). */
PF_API pf_status pf_event_query(pf_event *event, int *done);
PF_API pf_status pf_event_synchronize(pf_event *event);
/* Milliseconds between two recorded, finished events of one device. */
PF_API pf_status pf_event_elapsed_ms(pf_event *start, pf_event *end, float *ms);

/* ---------------------------------------------------------------- memory */

typedef enum pf_alloc_kind {
    PF_ALLOC_DEVICE = 0,  /* device memory (CPU device: ordinary host memory) */
    PF_ALLOC_PINNED = 1,  /* page-locked host memory: async copies overlap kernels */
    PF_ALLOC_MANAGED = 2  /* CUDA unified memory (CPU device: host memory) */
} pf_alloc_kind;

/* Allocations are 256-byte aligned. bytes == 0 is PF_ERR_INVALID_ARGUMENT. */
PF_API pf_status pf_malloc(pf_device *device, pf_alloc_kind kind, size_t bytes, void **out);
/* Frees a pf_malloc pointer (NULL is a no-op). Device memory may still be
 * in use by queued work: synchronize first, or use a pf_pool. */
PF_API void pf_free(pf_device *device, pf_alloc_kind kind, void *ptr);

/* Copies in stream order. Direction is inferred by the backend (CUDA:
 * unified addressing); host memory that is not pinned makes the copy
 * synchronous with respect to the host. CPU streams copy at once. */
PF_API pf_status pf_memcpy_async(pf_stream *stream, void *dst, const void *src, size_t bytes);
/* 2D: height rows of width_bytes, with the given pitches (>= width_bytes). */
PF_API pf_status pf_memcpy2d_async(pf_stream *stream, void *dst, size_t dst_pitch,
                                   const void *src, size_t src_pitch, size_t width_bytes,
                                   size_t height);
/* Copies pixels between two views of the same shape, dtype and layout (any
 * strides, host or device on either side); one 2D copy per plane. */
PF_API pf_status pf_image_copy_async(pf_stream *stream, const pf_image *src, const pf_image *dst);
/* The same for tensors of equal shape (n, c, h, w, dtype, layout). */
PF_API pf_status pf_tensor_copy_async(pf_stream *stream, const pf_tensor *src, const pf_tensor *dst);

/* Whose memory the `bytes` bytes at ptr are (bytes 0 or 1: ptr alone):
 * *mem = PF_MEM_CUDA / PF_MEM_OPENCL and *device = the index when both the
 * first and the last byte are device or managed memory of that device
 * (CUDA: any device pointer the driver knows; OpenCL: shared virtual
 * memory that pixflow allocated, pf_malloc or a pf_pool, since OpenCL has
 * no pointer query of its own), else PF_MEM_HOST and 0 (pinned memory is
 * host memory). A device kind none of whose devices was opened is not
 * asked (no pixflow memory of it can exist). It cannot tell a live
 * allocation from a freed one that was reused, nor whether the range is
 * one allocation or two adjacent ones of the same device. Fails with
 * PF_ERR_INVALID_ARGUMENT when the first and the last byte have different
 * owners (the message names both) or a pointer argument is NULL. */
PF_API pf_status pf_pointer_memory(const void *ptr, size_t bytes, pf_mem *mem, int32_t *device);

/* ----------------------------------------------------------------- pools */

typedef struct pf_pool pf_pool;

typedef struct pf_pool_stats {
    size_t in_use;      /* bytes handed out and not freed */
    size_t reserved;    /* bytes held from the backend (in use + cached) */
    size_t peak_reserved;
    size_t cap;
    uint64_t allocs, reuses, backend_allocs;
} pf_pool_stats;

/* A caching allocator of `kind` memory on `device` with a hard byte cap:
 * reserved memory never exceeds cap (allocation fails with
 * PF_ERR_OUT_OF_MEMORY naming the cap instead). Reuse is stream ordered:
 * memory freed with pf_pool_free(pool, p, stream) while work queued on
 * stream may still use it is handed out again at once to work on the same
 * stream, and to other streams only once that work has finished. The pool
 * is thread safe. Two implementations:
 *  - CUDA device memory on a GPU with memory pools (pf_device_props.
 *    memory_pools): a cudaMallocAsync pool (cudaMemPool with maxSize = cap,
 *    release threshold = cap), CUDA orders the reuse;
 *  - everything else (pinned, managed, CPU, older GPUs, or the environment
 *    variable PIXFLOW_CUDA_POOL=cache): pixflow's own cache. Blocks are
 *    rounded up to size classes (512 bytes, then 4 classes per power of
 *    two) so churn of varying sizes reuses them; a freed block carries an
 *    event recorded on the freeing stream; over the cap, idle blocks are
 *    released (waiting for their events if needed) before failing.
 * stats.reuses counts allocations served without growing the pool. */
PF_API pf_status pf_pool_create(pf_device *device, pf_alloc_kind kind, size_t cap_bytes,
                                pf_pool **out);
/* Destroys the pool: waits for pending frees and returns all memory to
 * the backend, including blocks never freed (the caller must not use them
 * afterwards). */
PF_API void pf_pool_destroy(pf_pool *pool);
/* A block of at least bytes for work on `stream` (may be NULL: used by
 * the host or any stream after a synchronize). */
PF_API pf_status pf_pool_alloc(pf_pool *pool, size_t bytes, pf_stream *stream, void **out);
/* Returns a block; work already queued on stream may still use it. */
PF_API pf_status pf_pool_free(pf_pool *pool, void *ptr, pf_stream *stream);
/* Frees every idle cached block back to the backend. */
PF_API pf_status pf_pool_trim(pf_pool *pool);
PF_API pf_status pf_pool_stats_get(pf_pool *pool, pf_pool_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_RUNTIME_H */
