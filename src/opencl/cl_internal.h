/* Internals of the OpenCL backend (src/opencl): the device records, the
 * SVM allocation registry, queue records, programs and launches.
 *
 * Memory model: device memory is coarse-grained shared virtual memory
 * (clSVMAlloc), so a pf_image's data pointer on an OpenCL device is a real
 * address that the job structs of src/kernels/gpu_*.h can hold, exactly as
 * they hold CUDA device pointers; the job builders (src/gpu/<op>_jobs.c)
 * are therefore shared unchanged. A device without SVM (OpenCL 1.x) is
 * refused at pf_device_open, naming the missing feature. */
#ifndef PF_OPENCL_CL_INTERNAL_H
#define PF_OPENCL_CL_INTERNAL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/backend.h"
#include "gpu/gpu_arena.h"

#define PFI_CL_MAX_DEVICES 64

/* The embedded programs (src/opencl/cl_programs.c lists their sources). */
typedef enum pfi_cl_prog_id {
    PFI_CL_PROG_POINTWISE = 0,
    PFI_CL_PROG_CONVERT,
    PFI_CL_PROG_COLOR,
    PFI_CL_PROG_WARP,
    PFI_CL_PROG_RESIZE,
    PFI_CL_PROG_PREPROCESS,
    PFI_CL_PROG_POST,
    PFI_CL_PROG_NMS,
    PFI_CL_PROG_COUNT
} pfi_cl_prog_id;

/* Where a program came from on its last build (tests check the cache). */
typedef enum pfi_cl_prog_origin { PFI_CL_FROM_SOURCE = 1, PFI_CL_FROM_DISK = 2, PFI_CL_FROM_MEMORY = 3 } pfi_cl_prog_origin;

typedef struct pfi_cl_program {
    cl_program prog;
    char *options; /* the options it was built with (malloc'd) */
    pfi_cl_prog_origin origin;
    double build_ms; /* time of the last build or load */
} pfi_cl_program;

typedef struct pfi_cl_device {
    cl_platform_id platform;
    cl_device_id id;
    char name[128], version[128], driver[128], platform_name[128];
    cl_device_svm_capabilities svm;
    cl_ulong max_alloc, global_mem;
    cl_uint address_bits, compute_units;
    cl_bool little_endian;
    cl_device_fp_config fp32, fp64;
    /* created at the first probe (guarded by the backend lock) */
    cl_context ctx;
    cl_command_queue queue; /* for NULL-stream copies and mapping pinned memory */
    pfi_cl_program programs[PFI_CL_PROG_COUNT];
    struct pfi_cl_stream *streams; /* live queue records (device synchronize) */
    /* a lost device or context (cl_lost.c): set once, cleared when a
     * pf_device_open after the loss makes a fresh context */
    int lost;                /* read and written with __atomic builtins */
    char lost_why[256];      /* the call and error that lost it (guarded by the lost lock) */
    uint32_t generation;     /* of the context: 1 for the first, +1 per fresh one */
    long long enqueues;      /* commands queued on this context (the test hook counts them) */
    long long lose_after;    /* PIXFLOW_OPENCL_TEST_LOSE_AFTER at context creation; 0: off */
    char ctx_error[160];     /* the context's last error callback text (guarded by the lost lock) */
} pfi_cl_device;

/* A stream's impl: the queue and the ordering of its host callbacks. */
typedef struct pfi_cl_stream {
    cl_command_queue q;
    bool owned;
    int device;
    pthread_mutex_t lock;
    pthread_cond_t idle;
    uint64_t next_ticket, next_run; /* callbacks run in ticket order */
    struct pfi_cl_cb *ready;        /* completed callbacks not yet run (any order) */
    int inflight;                   /* callbacks registered and not yet run */
    bool draining;                  /* a callback thread is running the ready ones */
    cl_event last;                  /* the last command pixflow queued (NULL: none) */
    uint32_t generation;            /* the device context's when the stream was made */
    struct pfi_cl_stream *next_live;
} pfi_cl_stream;

/* Records ev (ownership passes) as the last command pixflow queued on
 * the stream: pf_stream_query asks it, adding no command of its own. */
void pfi_cl_stream_note(pfi_cl_stream *cs, cl_event ev);

/* "CL_OUT_OF_RESOURCES (-5)" */
const char *pfi_cl_error_name(cl_int e);
pf_status pfi_cl_fail(const char *call, cl_int e);

/* Device records: enumeration once per process; *dev after a successful
 * pfi_cl_device_ready has a context and queue. */
int pfi_cl_device_count(void);
pfi_cl_device *pfi_cl_device_at(int index);
pf_status pfi_cl_device_ready(int index, pfi_cl_device **dev);
void pfi_cl_lock(void);
void pfi_cl_unlock(void);

/* Lost devices (cl_lost.c). A device is lost when OpenCL says so
 * (CL_DEVICE_NOT_AVAILABLE from any call, CL_OUT_OF_RESOURCES or an
 * execution error from waiting for queued work: what NVIDIA's driver
 * answers once a context is unusable) or when the test hook
 * PIXFLOW_OPENCL_TEST_LOSE_AFTER=N fails the command after the N-th
 * one queued on the context. Every later call on the device, its
 * streams, events and memory fails with PF_ERR_DEVICE naming the device
 * and what to do; pf_device_open once every handle is closed makes a
 * fresh context (pfi_cl_device_renew). */
void pfi_cl_mark_lost(int device, const char *call, cl_int e);
/* PF_OK, or the lost device's PF_ERR_DEVICE. */
pf_status pfi_cl_lost_check(int device);
/* Before queuing a command on stream s (NULL: the device's own queue):
 * the lost check, a stream of an earlier context refused (an implicit
 * NULL-stream one is remade on the fresh context instead), and the test
 * hook's count. */
pf_status pfi_cl_enqueue_gate(int device, pf_stream *s);
/* The lost check of stream s's device, and a stale implicit stream remade
 * (counts nothing: before an op sets up its parameters). */
pf_status pfi_cl_stream_fresh(pf_stream *s);
/* The same for a backend-table call that has the stream record only (no
 * implicit stream reaches those). */
pf_status pfi_cl_enqueue_gate_impl(int device, const pfi_cl_stream *cs);
/* pfi_cl_fail for a call that waited for queued work: marks the device
 * lost on the errors above. */
pf_status pfi_cl_fail_wait(int device, const char *call, cl_int e);
/* At every pf_device_open: a lost device drops its context (allocations
 * and streams still alive keep theirs until freed) so the next use makes
 * a fresh one. */
bool pfi_cl_device_renew(int device); /* true when it was lost */
/* The context error callback of every context pixflow makes. */
void CL_CALLBACK pfi_cl_context_notify(const char *errinfo, const void *info, size_t cb, void *user);

/* Whether device index offers OpenCL extension ext (a name of
 * CL_DEVICE_EXTENSIONS, matched as a whole word). */
bool pfi_cl_device_has_extension(int index, const char *ext);
/* SVM registry: every allocation the backend made, so a pointer maps to
 * its device, kind and base (the SVM pointers a kernel uses are passed
 * with clSetKernelExecInfo). */
pf_status pfi_cl_registry_add(void *base, void *raw, size_t bytes, int device, pf_alloc_kind kind, cl_mem buffer,
                              cl_context ctx);
/* Removes ptr's record; returns false when ptr is not a base pixflow made.
 * *raw is the pointer OpenCL returned (to free). */
bool pfi_cl_registry_remove(void *base, void **raw, int *device, pf_alloc_kind *kind, cl_mem *buffer,
                            cl_context *ctx);
/* The context the allocation holding ptr was made in (NULL: none). */
cl_context pfi_cl_registry_context(const void *ptr);
/* The allocation holding ptr: true with the pointer OpenCL returned for
 * it (*base: the one to name in clSetKernelExecInfo), device and kind. */
bool pfi_cl_registry_find(const void *ptr, void **base, int *device, pf_alloc_kind *kind);

/* Programs (cl_program_cache.c): the built program of id for device. */
pf_status pfi_cl_program_get(int device, pfi_cl_prog_id id, pfi_cl_program **out);
/* Test hook: forgets the in-memory programs of device so the next use
 * loads from disk or source. */
void pfi_cl_program_forget(int device);
/* Test hook: where program id of device came from, and its build time. */
pfi_cl_prog_origin pfi_cl_program_origin(int device, pfi_cl_prog_id id, double *ms);
/* The embedded sources of program id (cl_programs.c). */
const char *const *pfi_cl_program_sources(pfi_cl_prog_id id, unsigned *count);
const char *pfi_cl_program_name(pfi_cl_prog_id id);
/* True when program id computes in double (needs cl_khr_fp64). */
bool pfi_cl_program_needs_fp64(pfi_cl_prog_id id);
/* The disk cache file of program id for device (for tests; "" if none). */
pf_status pfi_cl_program_cache_path(int device, pfi_cl_prog_id id, char *out, size_t cap);

/* Launches (cl_launch.c). */
pf_status pfi_cl_arena_begin(pf_stream *s, const char *op, size_t bytes, size_t scratch_bytes, pfi_arena *a);
pf_status pfi_cl_arena_submit(pf_stream *s, const char *op, const pfi_arena *a);
void pfi_cl_stream_state_free(int device, void *state);
/* SVM pointers a kernel reaches through its job structs, collected per
 * launch (with their allocations' bases). */
typedef struct pfi_cl_ptrs {
    void *p[64];
    int n;
    void **more; /* beyond 64 */
    int more_cap;
} pfi_cl_ptrs;
void pfi_cl_ptrs_init(pfi_cl_ptrs *ps);
void pfi_cl_ptrs_free(pfi_cl_ptrs *ps);
/* Adds the allocation of a view's data (which must be SVM of device,
 * else PF_ERR_INVALID_ARGUMENT naming it). */
pf_status pfi_cl_ptrs_add_view(pfi_cl_ptrs *ps, const char *op, const char *name, int index, const void *data,
                               int device);
pf_status pfi_cl_ptrs_add_images(pfi_cl_ptrs *ps, const char *op, int count, const pf_image src[],
                                 const pf_image dst[], int device);
/* Queues kernel `kernel` of program id over grid g (x: w, y: h, z: n)
 * with the batch pointer as its only argument. */
pf_status pfi_cl_launch(pf_stream *s, const char *op, pfi_cl_prog_id id, const char *kernel, const void *dev_batch,
                        pfi_grid g, const pfi_arena *a, pfi_cl_ptrs *ps);

/* Ops (one file per op family). */
pf_status pfi_cl_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_flip_code codes[],
                      int ncodes);
pf_status pfi_cl_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_convert_opts *opts);
pf_status pfi_cl_reformat(pf_stream *s, int count, const pf_image src[], pf_image dst[], const int8_t order[4],
                          double fill);
pf_status pfi_cl_normalize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                           const pf_normalize_opts *opts);
pf_status pfi_cl_cvt_color(pf_stream *s, int count, const pf_image src[], pf_image dst[], pf_color_code code,
                           const pf_color_opts *opts);
pf_status pfi_cl_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_resize_opts *opts);
pf_status pfi_cl_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                             int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cl_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                  const double matrices[], int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cl_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                            const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);
pf_status pfi_cl_preprocess_yuv(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                const pf_color_code codes[], const pf_color_opts opts[],
                                const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);
pf_status pfi_cl_cvt_color_from_yuv(pf_stream *s, int count, const pf_yuv src[], pf_image dst[], pf_color_code code,
                                    const pf_color_opts *opts);
pf_status pfi_cl_masks_from_logits(pf_stream *s, const float *logits, int32_t n, int32_t channels, int32_t height,
                                   int32_t width, uint8_t *masks, const pf_mask_opts *opts);
pf_status pfi_cl_nms(pf_stream *s, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                     int64_t offsets[], int32_t keep[], float updated_scores[]);
pf_status pfi_cl_composite(pf_stream *s, int count, const pf_image fg[], const pf_image bg[], const pf_image mask[],
                           pf_image dst[]);

#endif
