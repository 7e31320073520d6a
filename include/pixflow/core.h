/*
 * pixflow core: status codes, errors, dtypes, image views, CPU features,
 * ISA caps and CPU streams.
 *
 * Conventions (see docs/architecture.md):
 *  - every fallible call returns pf_status (PF_OK == 0); pf_last_error()
 *    then holds a thread-local sentence naming the argument at fault;
 *  - the caller owns image memory; a pf_image is a plain view;
 *  - pf_xxx_destroy(NULL) is always a no-op.
 */
#ifndef PIXFLOW_CORE_H
#define PIXFLOW_CORE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(PIXFLOW_SHARED_BUILD)
#  define PF_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#  define PF_API __attribute__((visibility("default")))
#else
#  define PF_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define PF_VERSION_MAJOR 0
#define PF_VERSION_MINOR 1
#define PF_VERSION_PATCH 0

/* ---------------------------------------------------------------- status */

typedef enum pf_status {
    PF_OK = 0,
    PF_ERR_INVALID_ARGUMENT = 1, /* a caller-supplied value is out of range */
    PF_ERR_UNSUPPORTED = 2,      /* valid, but this op/backend cannot do it */
    PF_ERR_OUT_OF_MEMORY = 3,
    PF_ERR_CORRUPT_DATA = 4,     /* malformed encoded input */
    PF_ERR_IO = 5,
    PF_ERR_DEVICE = 6,           /* accelerator runtime failure */
    PF_ERR_CANCELLED = 7,
    PF_ERR_TIMEOUT = 8,
    PF_ERR_INTERNAL = 9          /* a pixflow bug: please report it */
} pf_status;

/* Short constant name of a status ("PF_ERR_INVALID_ARGUMENT"); never NULL. */
PF_API const char *pf_status_str(pf_status status);

/* The calling thread's last error sentence, e.g.
 * "pf_resize: dst[2].width is 0; it must be >= 1". Empty string when the
 * last call on this thread succeeded without setting one. Valid until the
 * next pixflow call on this thread. */
PF_API const char *pf_last_error(void);

/* "0.1.0" */
PF_API const char *pf_version(void);

/* Build options baked into this library, e.g. "cuda=off simd=avx2,avx512". */
PF_API const char *pf_build_info(void);

/* ---------------------------------------------------------------- dtypes */

typedef enum pf_dtype {
    PF_U8 = 0,
    PF_U16 = 1,
    PF_S16 = 2,
    PF_S32 = 3,
    PF_F16 = 4,  /* IEEE binary16 */
    PF_BF16 = 5, /* bfloat16 */
    PF_F32 = 6
} pf_dtype;

/* Bytes per element; 0 for an unknown dtype. */
PF_API size_t pf_dtype_size(pf_dtype dtype);
/* "u8", "u16", "s16", "s32", "f16", "bf16", "f32"; "?" when unknown. */
PF_API const char *pf_dtype_name(pf_dtype dtype);

typedef enum pf_layout {
    PF_HWC = 0, /* interleaved: channels of a pixel are adjacent */
    PF_CHW = 1  /* planar: one plane per channel, plane_stride apart */
} pf_layout;

typedef enum pf_mem {
    PF_MEM_HOST = 0, /* ordinary (or pinned) host memory */
    PF_MEM_CUDA = 1, /* CUDA device memory on `device` */
    PF_MEM_OPENCL = 2 /* OpenCL shared virtual memory (clSVMAlloc) of OpenCL device `device` */
} pf_mem;

/* ----------------------------------------------------------- image views */

/* A view of caller-owned pixels. Fill it by hand or with the helpers. */
typedef struct pf_image {
    void *data;               /* pixel (0,0) of channel 0 */
    int32_t width, height;    /* >= 1 */
    int32_t channels;         /* 1..4 */
    pf_dtype dtype;
    pf_layout layout;         /* PF_HWC or PF_CHW */
    ptrdiff_t row_stride;     /* bytes between rows; may be negative */
    ptrdiff_t plane_stride;   /* bytes between planes (PF_CHW only) */
    pf_mem mem;               /* PF_MEM_HOST, PF_MEM_CUDA, PF_MEM_OPENCL */
    int32_t device;           /* device index when mem != PF_MEM_HOST */
} pf_image;

/* Interleaved host view. row_stride == 0 means tightly packed
 * (width * channels * dtype size). */
PF_API pf_image pf_image_hwc(void *data, int32_t width, int32_t height,
                             int32_t channels, pf_dtype dtype,
                             ptrdiff_t row_stride);

/* Planar host view. row_stride == 0 means width * dtype size;
 * plane_stride == 0 means height * row_stride. */
PF_API pf_image pf_image_chw(void *data, int32_t width, int32_t height,
                             int32_t channels, pf_dtype dtype,
                             ptrdiff_t row_stride, ptrdiff_t plane_stride);

/* A sub-rectangle view of img (no copy). Fails with a message if the
 * rectangle is empty or leaves the image. */
PF_API pf_status pf_image_roi(const pf_image *img, int32_t x, int32_t y,
                              int32_t width, int32_t height, pf_image *out);

/* Checks a view: non-null data, sizes >= 1, channels 1..4, known dtype and
 * layout, |row_stride| large enough for a row, plane_stride large enough
 * for a plane (CHW), and no size_t overflow of the extent. `name` is used
 * in the error message (e.g. "src[3]"). */
PF_API pf_status pf_image_validate(const pf_image *img, const char *name);

/* Bytes a tightly packed image of this shape needs (0 on overflow). */
PF_API size_t pf_image_packed_size(int32_t width, int32_t height,
                                   int32_t channels, pf_dtype dtype);

/* --------------------------------------------------------------- tensors */

/* A uniform batch in one buffer: N samples of C x H x W elements, NCHW
 * (layout PF_CHW) or NHWC (layout PF_HWC), with byte strides so padded
 * ("pitched") rows and samples are allowed. A tensor is a batch: its
 * per-sample pf_image views (pf_tensor_views) go into any op. */
typedef struct pf_tensor {
    void *data;
    int32_t n, channels, height, width;
    pf_dtype dtype;
    pf_layout layout;          /* PF_CHW = NCHW, PF_HWC = NHWC */
    ptrdiff_t sample_stride;   /* bytes between samples */
    ptrdiff_t row_stride;      /* bytes between rows */
    ptrdiff_t plane_stride;    /* bytes between channel planes (NCHW only) */
    pf_mem mem;
    int32_t device;
} pf_tensor;

/* Contiguous host tensors (all strides packed). */
PF_API pf_tensor pf_tensor_nchw(void *data, int32_t n, int32_t channels, int32_t height,
                                int32_t width, pf_dtype dtype);
PF_API pf_tensor pf_tensor_nhwc(void *data, int32_t n, int32_t channels, int32_t height,
                                int32_t width, pf_dtype dtype);
/* Bytes a contiguous tensor of this shape needs (0 on overflow or a
 * non-positive dimension). */
PF_API size_t pf_tensor_packed_size(int32_t n, int32_t channels, int32_t height, int32_t width,
                                    pf_dtype dtype);
/* Checks shape, strides (no two samples/planes/rows overlap) and overflow. */
PF_API pf_status pf_tensor_validate(const pf_tensor *t, const char *name);
/* Writes the views of samples [first, first + count) into out[0..count). */
PF_API pf_status pf_tensor_views(const pf_tensor *t, int first, int count, pf_image out[]);

/* ------------------------------------------------------ CPU features/ISA */

enum {
    PF_CPU_SSE41 = 1u << 0,
    PF_CPU_AVX2 = 1u << 1,
    PF_CPU_FMA = 1u << 2,
    PF_CPU_AVX512F = 1u << 3,
    PF_CPU_AVX512BW = 1u << 4,
    PF_CPU_AVX512VL = 1u << 5,
    PF_CPU_NEON = 1u << 6,
    PF_CPU_F16C = 1u << 7,        /* half-float conversions (every AVX2 CPU has it) */
    PF_CPU_AVX512VBMI = 1u << 8,  /* byte permutes (vpermb/vpermi2b): the avx512vbmi level */
    PF_CPU_AVX512DQ = 1u << 9     /* part of the avx512 level (every AVX512BW CPU has it) */
};

/* Instruction-set levels, ordered: each x86 level implies the ones below.
 *   sse4:       SSE4.1;
 *   avx2:       AVX2 + FMA + F16C (x86-64-v3's vector part);
 *   avx512:     AVX-512 F + BW + DQ + VL on top (Skylake-SP, Cascade Lake,
 *               Cooper Lake: no VBMI kernel runs at this level);
 *   avx512vbmi: avx512 + AVX512_VBMI byte permutes (Ice Lake, Sapphire
 *               Rapids, Zen 4 and later).
 * NEON is the Arm level; as a cap it is the highest value and means "no
 * cap" on every architecture. Use the names, not the numbers: NEON was
 * 4 until avx512vbmi became a level of its own. */
typedef enum pf_isa {
    PF_ISA_SCALAR = 0,
    PF_ISA_SSE4 = 1,
    PF_ISA_AVX2 = 2,
    PF_ISA_AVX512 = 3,
    PF_ISA_AVX512VBMI = 4,
    PF_ISA_NEON = 5
} pf_isa;

/* Bitmask of PF_CPU_* detected once at first use (OS support included:
 * the AVX and AVX-512 bits only when XGETBV says the OS saves their
 * registers). */
PF_API unsigned pf_cpu_features(void);
/* "scalar", "sse4", "avx2", "avx512", "avx512vbmi", "neon". */
PF_API const char *pf_isa_name(pf_isa isa);
/* Caps the ISA that dispatch may choose, for everything created after the
 * call (NULL-stream calls pick it up at once). The environment variable
 * PIXFLOW_CPU=scalar|sse4|avx2|avx512|avx512vbmi|neon sets the initial cap
 * (unset, empty or unknown: no cap, the highest level the CPU has). A cap
 * above what the CPU has is allowed and simply means "best available":
 * avx512vbmi on an AVX-512 CPU without VBMI runs the avx512 level, any x86
 * cap on Arm runs the reference. Fails with PF_ERR_INVALID_ARGUMENT for a
 * value outside PF_ISA_SCALAR..PF_ISA_NEON. */
PF_API pf_status pf_cpu_set_cap(pf_isa cap);
PF_API pf_isa pf_cpu_cap(void);
/* Highest ISA the CPU has that is <= the cap. */
PF_API pf_isa pf_cpu_active_isa(void);

/* Which ISA the current dispatch chose for each optimized kernel: one
 * table of every kernel family, the image ops' and post.h's alike (`pixflow
 * info` prints it). Iterate i = 0 .. pf_dispatch_count()-1; names are
 * "<family>.<kernel>" ("resize.v_u8_linear", "post.iou_row"), and the ISA
 * is the one the slot really runs at under the current default level,
 * never above what the CPU has. Returns PF_ERR_INVALID_ARGUMENT past the
 * end. */
PF_API int pf_dispatch_count(void);
PF_API pf_status pf_dispatch_entry(int i, const char **kernel, pf_isa *isa);

/* --------------------------------------------------------------- streams */

typedef struct pf_stream pf_stream;

/* A CPU stream: work submitted on it runs on `threads` worker threads
 * (the caller's thread joins in), synchronously from the caller's point of
 * view. threads == 0 means one per online CPU; threads is capped at 256.
 * The kernel dispatch table is resolved here, from the ISA cap at creation.
 * Passing a NULL stream to any op runs it on the calling thread alone.
 * Results never depend on the thread count. */
PF_API pf_status pf_stream_create_cpu(int threads, pf_stream **out);
PF_API void pf_stream_destroy(pf_stream *stream);
/* Waits for all work on the stream; reports a deferred error if any. */
PF_API pf_status pf_stream_synchronize(pf_stream *stream);
/* Number of threads that run work on the stream (1 for NULL). */
PF_API int pf_stream_threads(const pf_stream *stream);
/* ISA the stream's dispatch table was resolved for. */
PF_API pf_isa pf_stream_isa(const pf_stream *stream);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_CORE_H */
