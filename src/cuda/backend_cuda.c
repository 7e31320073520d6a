/* The CUDA backend table: memory, copies, streams, events and host
 * callbacks on the CUDA runtime API, plus the device-op kernels table
 * (one entry per op, implemented in src/cuda/<op>_cuda.c). Every CUDA
 * error becomes PF_ERR_DEVICE with the CUDA call and error name; callers
 * prefix the pixflow function. Each entry makes its device current first
 * (cudaSetDevice is cheap and per thread). */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"

const char *pfi_cuda_error_text(int e) {
    static _Thread_local char buf[160];
    snprintf(buf, sizeof buf, "%s (%s)", cudaGetErrorName((cudaError_t)e), cudaGetErrorString((cudaError_t)e));
    return buf;
}

static pf_status fail_cuda(const char *call, cudaError_t e) {
    return pfi_fail(PF_ERR_DEVICE, "%s failed: %s", call, pfi_cuda_error_text((int)e));
}

#define CU(call)                                              \
    do {                                                      \
        cudaError_t e_ = (call);                              \
        if (e_ != cudaSuccess) return fail_cuda(#call, e_);   \
    } while (0)

static pf_status use_device(int device) {
    CU(cudaSetDevice(device));
    return PF_OK;
}

static pf_status cu_count(int *count) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    /* no GPU or no driver means zero devices, not an error */
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    *count = n;
    return PF_OK;
}

static pf_status cu_probe(int index, pf_device_props *p) {
    int n = 0;
    CU(cudaGetDeviceCount(&n));
    if (index >= n) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "index %d but there are %d CUDA devices", index, n);
    struct cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, index));
    memset(p, 0, sizeof *p);
    p->kind = PF_DEVICE_CUDA;
    p->index = index;
    memcpy(p->name, prop.name, sizeof p->name - 1); /* prop.name is NUL-terminated within 256 */
    p->name[sizeof p->name - 1] = '\0';
    p->total_memory = prop.totalGlobalMem;
    p->compute_major = prop.major;
    p->compute_minor = prop.minor;
    p->multiprocessors = prop.multiProcessorCount;
    p->async_engines = prop.asyncEngineCount;
    int clock_khz = 0, bus_bits = 0, pools = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, index) != cudaSuccess) clock_khz = 0;
    if (cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, index) != cudaSuccess) bus_bits = 0;
    if (cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, index) != cudaSuccess) pools = 0;
    (void)cudaGetLastError();
    /* double data rate: 2 transfers per clock */
    p->peak_bandwidth_gbs = 2.0 * (double)clock_khz * 1e3 * ((double)bus_bits / 8.0) / 1e9;
    p->memory_pools = pools != 0;
    return use_device(index);
}

static pf_status cu_sync_device(int index) {
    pf_status st = use_device(index);
    if (st != PF_OK) return st;
    CU(cudaDeviceSynchronize());
    return PF_OK;
}

static pf_status cu_alloc(int device, pf_alloc_kind kind, size_t bytes, void **out) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    switch (kind) {
    case PF_ALLOC_DEVICE: CU(cudaMalloc(out, bytes)); break;
    case PF_ALLOC_PINNED: CU(cudaMallocHost(out, bytes)); break;
    case PF_ALLOC_MANAGED: CU(cudaMallocManaged(out, bytes, cudaMemAttachGlobal)); break;
    }
    return PF_OK;
}

static void cu_free(int device, pf_alloc_kind kind, void *ptr) {
    (void)cudaSetDevice(device);
    if (kind == PF_ALLOC_PINNED)
        (void)cudaFreeHost(ptr);
    else
        (void)cudaFree(ptr);
}

static pf_status cu_stream_create(int device, void *wrap, bool wrap_given, void **impl) {
    if (wrap_given) {
        *impl = wrap;
        return PF_OK;
    }
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    cudaStream_t s;
    CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    *impl = s;
    return PF_OK;
}

static void cu_stream_destroy(int device, void *impl, bool owned) {
    if (!owned) return;
    (void)cudaSetDevice(device);
    (void)cudaStreamDestroy((cudaStream_t)impl);
}

static pf_status cu_stream_sync(int device, void *impl) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaStreamSynchronize((cudaStream_t)impl));
    return PF_OK;
}

/* A stream/event query: cudaErrorNotReady is the answer "not done yet",
 * not a failure; *done is set only when the query answered. */
static pf_status query_result(const char *call, cudaError_t e, int *done) {
    if (e != cudaSuccess && e != cudaErrorNotReady) return fail_cuda(call, e);
    *done = e == cudaSuccess;
    return PF_OK;
}

static pf_status cu_stream_query(int device, void *impl, int *done) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    return query_result("cudaStreamQuery", cudaStreamQuery((cudaStream_t)impl), done);
}

typedef struct cu_callback {
    pf_host_fn fn;
    void *user;
} cu_callback;

static void CUDART_CB cu_callback_tramp(cudaStream_t s, cudaError_t status, void *p) {
    (void)s;
    cu_callback c = *(cu_callback *)p;
    free(p);
    c.fn(c.user, status == cudaSuccess ? PF_OK : PF_ERR_DEVICE);
}

static pf_status cu_stream_callback(int device, void *impl, pf_host_fn fn, void *user) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    cu_callback *c = malloc(sizeof *c);
    if (c == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
    c->fn = fn;
    c->user = user;
    /* cudaStreamAddCallback (not cudaLaunchHostFunc) because it reports
     * the stream's error status to the callback */
    cudaError_t e = cudaStreamAddCallback((cudaStream_t)impl, cu_callback_tramp, c, 0);
    if (e != cudaSuccess) {
        free(c);
        return fail_cuda("cudaStreamAddCallback", e);
    }
    return PF_OK;
}

static pf_status cu_event_create(int device, void **impl) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    cudaEvent_t e;
    CU(cudaEventCreate(&e));
    *impl = e;
    return PF_OK;
}
static void cu_event_destroy(int device, void *impl) {
    (void)cudaSetDevice(device);
    (void)cudaEventDestroy((cudaEvent_t)impl);
}
static pf_status cu_event_record(int device, void *event, void *stream) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaEventRecord((cudaEvent_t)event, (cudaStream_t)stream));
    return PF_OK;
}
static pf_status cu_event_wait(int device, void *stream, void *event) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)event, 0));
    return PF_OK;
}
static pf_status cu_event_query(int device, void *event, int *done) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    return query_result("cudaEventQuery", cudaEventQuery((cudaEvent_t)event), done);
}
static pf_status cu_event_sync(int device, void *event) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaEventSynchronize((cudaEvent_t)event));
    return PF_OK;
}
static pf_status cu_event_elapsed(int device, void *start, void *end, float *ms) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end));
    return PF_OK;
}

static pf_status cu_copy_2d(int device, void *stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                            size_t width_bytes, size_t height) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    if (height == 1)
        CU(cudaMemcpyAsync(dst, src, width_bytes, cudaMemcpyDefault, (cudaStream_t)stream));
    else
        CU(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width_bytes, height, cudaMemcpyDefault,
                             (cudaStream_t)stream));
    return PF_OK;
}

static int cu_ptr_device(const void *ptr) {
    struct cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, ptr) != cudaSuccess) {
        (void)cudaGetLastError(); /* older runtimes: plain host memory is an error */
        return -1;
    }
    return at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged ? at.device : -1;
}

/* ---- stream-ordered pools (cudaMallocAsync) -------------------------- */

static pf_status cu_opool_create(int device, size_t cap, void **opool) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    props.maxSize = cap; /* the hard cap: CUDA refuses to grow the pool past it */
    cudaMemPool_t pool;
    CU(cudaMemPoolCreate(&pool, &props));
    /* keep freed memory cached up to the cap (the default threshold 0
     * returns it to the driver at every synchronization) */
    uint64_t keep = cap;
    cudaError_t e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    if (e != cudaSuccess) {
        (void)cudaMemPoolDestroy(pool);
        return fail_cuda("cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)", e);
    }
    *opool = pool;
    return PF_OK;
}

static void cu_opool_destroy(int device, void *opool) {
    (void)cudaSetDevice(device);
    (void)cudaDeviceSynchronize(); /* frees queued with cudaFreeAsync must complete first */
    (void)cudaMemPoolDestroy((cudaMemPool_t)opool);
}

static pf_status cu_opool_alloc(int device, void *opool, size_t bytes, void *stream, void **out) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    cudaError_t e = cudaMallocFromPoolAsync(out, bytes, (cudaMemPool_t)opool, (cudaStream_t)stream);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "cudaMallocFromPoolAsync: %s", pfi_cuda_error_text((int)e));
    }
    if (e != cudaSuccess) return fail_cuda("cudaMallocFromPoolAsync", e);
    return PF_OK;
}

static pf_status cu_opool_free(int device, void *opool, void *ptr, void *stream) {
    (void)opool;
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaFreeAsync(ptr, (cudaStream_t)stream));
    return PF_OK;
}

static pf_status cu_opool_trim(int device, void *opool) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    CU(cudaDeviceSynchronize());
    CU(cudaMemPoolTrimTo((cudaMemPool_t)opool, 0));
    return PF_OK;
}

static pf_status cu_opool_reserved(int device, void *opool, size_t *current, size_t *high) {
    pf_status st = use_device(device);
    if (st != PF_OK) return st;
    uint64_t cur = 0, hi = 0;
    CU(cudaMemPoolGetAttribute((cudaMemPool_t)opool, cudaMemPoolAttrReservedMemCurrent, &cur));
    CU(cudaMemPoolGetAttribute((cudaMemPool_t)opool, cudaMemPoolAttrReservedMemHigh, &hi));
    *current = (size_t)cur;
    *high = (size_t)hi;
    return PF_OK;
}

static const pfi_kernels cuda_kernels = {
    .resize = pfi_cuda_resize,
    .preprocess = pfi_cuda_preprocess,
    .preprocess_yuv = pfi_cuda_preprocess_yuv,
    .warp_affine = pfi_cuda_warp_affine,
    .warp_perspective = pfi_cuda_warp_perspective,
    .cvt_color = pfi_cuda_cvt_color,
    .cvt_color_from_yuv = pfi_cuda_cvt_color_from_yuv,
    .flip = pfi_cuda_flip,
    .convert = pfi_cuda_convert,
    .reformat = pfi_cuda_reformat,
    .normalize = pfi_cuda_normalize,
    .nms = pfi_cuda_nms,
    .masks_from_logits = pfi_cuda_masks_from_logits,
    .composite = pfi_cuda_composite,
};

static const pfi_backend cuda_backend = {
    .name = "cuda",
    .kind = PF_DEVICE_CUDA,
    .mem = PF_MEM_CUDA,
    .device_count = cu_count,
    .device_probe = cu_probe,
    .device_synchronize = cu_sync_device,
    .mem_alloc = cu_alloc,
    .mem_free = cu_free,
    .stream_create = cu_stream_create,
    .stream_destroy = cu_stream_destroy,
    .stream_synchronize = cu_stream_sync,
    .stream_query = cu_stream_query,
    .stream_add_callback = cu_stream_callback,
    .stream_state_free = pfi_cuda_stream_state_free,
    .event_create = cu_event_create,
    .event_destroy = cu_event_destroy,
    .event_record = cu_event_record,
    .event_wait = cu_event_wait,
    .event_query = cu_event_query,
    .event_synchronize = cu_event_sync,
    .event_elapsed_ms = cu_event_elapsed,
    .ptr_device = cu_ptr_device,
    .copy_2d = cu_copy_2d,
    .opool_create = cu_opool_create,
    .opool_destroy = cu_opool_destroy,
    .opool_alloc = cu_opool_alloc,
    .opool_free = cu_opool_free,
    .opool_trim = cu_opool_trim,
    .opool_reserved = cu_opool_reserved,
    .kernels = &cuda_kernels,
};

const pfi_backend *pfi_backend_cuda(void) { return &cuda_backend; }
