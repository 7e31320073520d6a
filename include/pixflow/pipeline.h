/*
 * pixflow pipeline: a dataset (folder, file list, .tar shards, or a caller
 * callback) becomes an endless, deterministic stream of model-ready
 * batches. Stages, each on its own threads, joined by bounded queues:
 *
 *   read (1 thread, pread + readahead) -> decode+augment (N workers, each
 *   writes straight into its sample's slot of a batch buffer) -> collate
 *   (1 thread: puts samples in order, fills holes left by skipped samples)
 *   -> consumer (pf_pipeline_next)
 *
 * Typical use:
 *   pf_pipeline_config c = pf_pipeline_config_defaults();
 *   c.source.kind = PF_SOURCE_FOLDER; c.source.path = "data/train";
 *   pf_recipe("imagenet-train", &c.desc, &c.policy);
 *   c.batch_size = 256; c.workers = 8; c.seed = 42; c.epochs = 90;
 *   pf_pipeline *p; pf_pipeline_create(&c, &p);
 *   const pf_batch *b;
 *   while (pf_pipeline_next(p, &b, -1) == PF_OK && b) { use(b->tensor); pf_batch_release(p, b); }
 *   pf_pipeline_destroy(p);
 *
 * Determinism: the order of samples in an epoch is a pure function of
 * (seed, epoch, dataset, rank, world_size); the augmentation of a sample
 * is keyed by (seed, epoch, sample index). So the batches (bits and order)
 * do not depend on the worker count, on timing, or on where a run was
 * resumed (start_epoch/start_position from a batch's `next_epoch` /
 * `next_position`).
 */
#ifndef PIXFLOW_PIPELINE_H
#define PIXFLOW_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pixflow/augment.h"
#include "pixflow/core.h"
#include "pixflow/dispatch.h"
#include "pixflow/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- sources */

typedef enum pf_source_kind {
    /* A folder, walked recursively; files whose extension is in
     * `extensions` (case-insensitive) are samples, sorted by path (byte
     * order). Labels: the sorted names of the first-level sub-folders are
     * classes 0..K-1 (ImageFolder); files directly in the folder get -1. */
    PF_SOURCE_FOLDER = 0,
    /* A text file, one sample per line: "path [label]" (label an integer,
     * -1 when absent); relative paths are relative to the list's folder;
     * empty lines and lines starting with '#' are ignored. */
    PF_SOURCE_FILE_LIST = 1,
    /* WebDataset-style .tar shards (ustar): members grouped by key (the
     * name up to the first '.' of the last path component); a key with a
     * member whose extension is in `extensions` is a sample; a ".cls"
     * member holds its integer label. Headers are indexed at create time;
     * samples are read in shard order through a bounded shuffle buffer. */
    PF_SOURCE_TAR = 2,
    /* The caller's callbacks (below): random access by index. A video
     * source (another issue) plugs in here. */
    PF_SOURCE_CALLBACK = 3,
    /* A .pfpack file (pixflow/pack.h, written by `pixflow pack` or
     * pf_pack_write), mapped with mmap: samples are read from the mapping
     * (no system call per sample) and their checksums checked (a mismatch
     * fails that sample: the error policy counts and skips it like a bad
     * file). The header and index are checked at create (a truncated or
     * corrupt pack, or one from a newer format version, is refused with
     * the file and the field named). Epoch order, when shuffled: the
     * pack's page-aligned chunks in a Philox permutation, the samples of
     * each chunk in a permutation of their own, so reads go through the
     * file chunk by chunk; sharding deals that order out sample by sample
     * (as a folder: every sample once per epoch across the ranks with
     * PF_SHARD_DROP's floor / PF_SHARD_PAD's ceil), and resume is exact.
     * `path` is the pack; `extensions` is ignored. The file must not be
     * truncated in place while a pipeline maps it (the kernel would stop
     * the process with SIGBUS on the missing pages); replacing it with
     * pf_pack_write is safe (a new file renamed over the old one, which
     * the mapping keeps). */
    PF_SOURCE_PACK = 4
} pf_source_kind;

/* Bytes of one sample handed to the pipeline by a callback source. The
 * pipeline calls release(release_ctx, data) when done (NULL: nothing). */
typedef struct pf_sample_bytes {
    const void *data;
    size_t size;
    int32_t label;
    void (*release)(void *release_ctx, const void *data);
    void *release_ctx;
} pf_sample_bytes;

/* A caller-defined source. count() is asked once at create; read() is
 * called from the reader thread only, with indices in [0, count); it must
 * return (not block forever). A non-OK status counts as a failed sample
 * (error policy below), with pf_last_error() as the reason. name() (may be
 * NULL) gives a printable name for errors and metadata ("#index" when NULL);
 * the string must live as long as the source. destroy (may be NULL) is
 * called by pf_pipeline_destroy. */
typedef struct pf_source_callbacks {
    void *ctx;
    uint64_t (*count)(void *ctx);
    pf_status (*read)(void *ctx, uint64_t index, pf_sample_bytes *out);
    const char *(*name)(void *ctx, uint64_t index);
    void (*destroy)(void *ctx);
} pf_source_callbacks;

typedef struct pf_source_desc {
    pf_source_kind kind;
    const char *path;              /* FOLDER: the folder; FILE_LIST: the list file; PACK: the .pfpack */
    const char *const *shards;     /* TAR: shard paths (shard_count of them) */
    int32_t shard_count;
    const char *extensions;        /* comma-separated; NULL: "jpg,jpeg,png,webp,ppm,pgm" */
    pf_source_callbacks callbacks; /* CALLBACK */
} pf_source_desc;

/* ------------------------------------------------------- dataset index */

/*
 * The dataset index of a source without a pipeline: the table that
 * pf_pipeline_create builds (the same code), so entry i is the sample
 * whose dataset index -- the augmentation key, pf_sample_input.index and
 * the batch metadata's index -- is i, with the same name and label. For
 * callers that address samples themselves (pixflow.ray's read tasks,
 * pixflow.torch re-sharding a resume point over another world size).
 *
 * Supported: PF_SOURCE_FOLDER, PF_SOURCE_FILE_LIST, PF_SOURCE_TAR and
 * PF_SOURCE_PACK, by the rules of pf_source_kind above (extensions as in
 * pf_source_desc; a pack's entries carry the names and labels of the
 * source it was packed from, path = the pack, offset and size of the
 * sample's bytes in it).
 * Not supported: PF_SOURCE_CALLBACK (PF_ERR_UNSUPPORTED: its callbacks
 * are already an index). Opening scans the folder, reads the list or the
 * tar headers once; entries are read without I/O. Files are not opened,
 * so a folder entry's size is 0 (its bytes are read when read). An empty
 * source is a valid index of 0 entries (pf_pipeline_create refuses it).
 * Errors name the argument ("source.path", "source.shards[1]", "i", ...).
 * An index is immutable: any thread may read it; close it once.
 */
typedef struct pf_source_index pf_source_index;

typedef struct pf_source_entry {
    const char *name;   /* the sample's name in pipeline messages and batch metadata:
                           the file's path; TAR: "<shard path>:<member name>" */
    const char *path;   /* the file holding the bytes: the file; TAR: the shard */
    const char *member; /* TAR: the member's name inside its shard; else NULL */
    int32_t label;      /* the sample's label; -1 when it has none */
    int32_t shard;      /* TAR: the index of its shard in source.shards; else -1 */
    uint64_t offset;    /* TAR: the byte offset of the member's data in the shard; PACK: of
                           the sample's bytes in the pack; else 0 */
    uint64_t size;      /* TAR: the member's size in bytes; PACK: the sample's; else 0 */
} pf_source_entry;

/* Builds the index of `source` into *out (NULL on failure). The strings
 * of `source` are copied; the entries' strings live until close. */
PF_API pf_status pf_source_index_open(const pf_source_desc *source, pf_source_index **out);
/* The number of samples (0 for NULL). */
PF_API uint64_t pf_source_index_count(const pf_source_index *index);
/* Entry i (0 <= i < count) into *out; PF_ERR_INVALID_ARGUMENT naming
 * index, i or out otherwise. */
PF_API pf_status pf_source_index_get(const pf_source_index *index, uint64_t i, pf_source_entry *out);
/* Frees the index (NULL: nothing). */
PF_API void pf_source_index_close(pf_source_index *index);

/* ----------------------------------------------------- per-sample work */

/* What a worker gets for one sample. */
typedef struct pf_sample_input {
    const void *data;   /* encoded bytes */
    size_t size;
    uint64_t index;     /* the sample's index in the dataset: the augmentation key */
    uint64_t epoch;
    uint64_t seed;
    int32_t label;
    const char *name;   /* path (or tar member, or callback name) */
} pf_sample_input;

/* What the pipeline records per sample of a batch. */
typedef struct pf_sample_meta {
    uint64_t index;              /* dataset index */
    uint64_t position;           /* position in this rank's epoch order */
    int32_t label;
    const char *name;            /* valid while the pipeline lives */
    int32_t width, height;       /* source image size (filled by the sample function) */
    pf_letterbox_info letterbox; /* output -> source mapping (filled by the sample function) */
    int32_t warnings;            /* decoder warnings (corrupt but decodable data) */
} pf_sample_meta;

/*
 * The decode+augment work of one sample: in -> `slot` (a one-sample view of
 * the batch tensor: n = 1, the desc's shape, dtype and layout) and the
 * width/height/letterbox/warnings fields of `meta`. Called concurrently
 * from the workers, each with its own `state` (from worker_create, which
 * may be NULL; then state is NULL). Returns PF_OK, or a status with
 * pfi-style pf_last_error() text: the sample is then skipped or fails its
 * batch (error policy). Must not keep pointers to in->data.
 * pf_pipeline_config_defaults() sets the default: decode (the image codec)
 * + pf_aug_sample(policy, seed, epoch, index) + the fused preprocess.
 */
typedef struct pf_sample_fn {
    void *ctx;
    pf_status (*worker_create)(void *ctx, const pf_preprocess_desc *desc, const pf_aug_policy *policy,
                               void **state);
    void (*worker_destroy)(void *ctx, void *state);
    pf_status (*process)(void *ctx, void *state, const pf_sample_input *in, pf_tensor *slot,
                         pf_sample_meta *meta);
} pf_sample_fn;

/* The default sample function (what pf_pipeline_config_defaults sets):
 * decodes JPEG/PNG (and binary PPM/PGM) to u8 RGB, draws the policy's
 * parameters for (seed, epoch, index) on the decoded size, and runs the
 * fused preprocess into the slot. */
PF_API pf_sample_fn pf_sample_fn_decode_augment(void);

/* Batch buffers come from here: e.g. cudaHostAlloc for pinned memory when
 * the consumer copies batches to a GPU. alloc returns NULL on failure;
 * bytes is a multiple of 64. NULL functions: 64-byte aligned malloc. */
typedef struct pf_host_allocator {
    void *ctx;
    void *(*alloc)(void *ctx, size_t bytes);
    void (*free)(void *ctx, void *ptr, size_t bytes);
} pf_host_allocator;

/* ---------------------------------------------------------------- config */

typedef enum pf_shard_mode {
    PF_SHARD_PAD = 0,  /* every rank gets ceil(N / world) samples; short ranks repeat
                          the epoch's first samples (torch DistributedSampler) */
    PF_SHARD_DROP = 1  /* every rank gets floor(N / world); the tail is dropped */
} pf_shard_mode;

typedef enum pf_error_policy {
    PF_ON_ERROR_SKIP = 0, /* count it, record path + reason, fill the batch from the
                             next samples (deterministically: batches are the
                             successful samples in epoch order) */
    PF_ON_ERROR_FAIL = 1  /* the batch holding it is delivered as an error by
                             pf_pipeline_next (its samples dropped); the next
                             call continues with the following batch */
} pf_error_policy;

typedef struct pf_pipeline_config {
    pf_source_desc source;
    pf_preprocess_desc desc;   /* output shape/dtype/layout/normalization (pf_recipe fills it) */
    pf_aug_policy policy;      /* augmentation (pf_recipe fills it) */
    uint64_t seed;             /* default 0 */
    int32_t batch_size;        /* >= 1; default 32 */
    int32_t workers;           /* decode+augment threads, >= 1; 0 (default): online CPUs */
    /* Batch buffers in flight (being filled, ready, held by the consumer):
     * the memory cap is (prefetch_batches + 2) x batch bytes. 0 (default):
     * 2 + ceil(2 * workers / batch_size), enough that no worker idles at a
     * batch boundary. */
    int32_t prefetch_batches;
    int32_t read_queue_depth;  /* read -> decode queue; 0 (default): 2 x workers, at least 32 (the reader is woken when half has drained) */
    int32_t readahead;         /* files ahead of the reader given to posix_fadvise(WILLNEED); default 16, 0 off */
    uint64_t epochs;           /* 0: endless; default 1 */
    bool shuffle;              /* default true */
    int32_t shuffle_buffer;    /* TAR: window of the sequential order shuffled; default 1024 */
    bool drop_last;            /* drop an epoch's last partial batch; default false */
    int32_t rank, world_size;  /* sharding; default 0, 1 */
    pf_shard_mode shard_mode;  /* default PF_SHARD_PAD */
    uint64_t start_epoch;      /* resume point: a batch's next_epoch / next_position */
    uint64_t start_position;
    pf_error_policy on_error;  /* default PF_ON_ERROR_SKIP */
    bool pin_workers;          /* sched_setaffinity worker i to online CPU i mod count */
    pf_sample_fn sample_fn;    /* default pf_sample_fn_decode_augment() */
    pf_host_allocator allocator;
    /* Device placement (see "Device placement" below). NULL (default):
     * the workers decode and augment into host batch buffers. */
    pf_device *augment_device;
    /* The stream the consumer uses the batches on (a stream of
     * augment_device, or NULL: pf_pipeline_next waits until the batch is
     * ready on the host). Only with augment_device. */
    pf_stream *consumer_stream;
    /* Cap of the pinned staging pool that holds decoded images between
     * the workers and the upload (and, separately, of the device pool the
     * uploads land in). 0 (default): batch_size x 1 MiB x
     * (prefetch_batches + 2), at least 64 MiB. Only with augment_device. */
    size_t staging_bytes;
    /* The device dispatcher (include/pixflow/dispatch.h) the device stage
     * runs each batch's preprocess through, spread over its devices
     * (`pixflow run --devices cpu,opencl:0`), instead of on the CPU
     * stream. Needs augment_device to be the CPU device: the workers'
     * decoded crops are host images and the batches host tensors, in
     * order, with the bytes of the CPU placement. Borrowed: close it after
     * pf_pipeline_destroy; nothing else may run on it meanwhile. NULL
     * (default): none. */
    pf_dispatch *augment_dispatch;
} pf_pipeline_config;

PF_API pf_pipeline_config pf_pipeline_config_defaults(void);

/*
 * The epoch order of a folder or list source of n samples, as the pipeline
 * builds it: out[i] is the dataset index at position i of rank's epoch
 * (seed, epoch, shuffle, rank, world_size, shard_mode as in the config;
 * PAD repeats the epoch's first samples). Writes pf_shard_length(n,
 * world_size, shard_mode) entries; cap is out's length (too small ->
 * PF_ERR_INVALID_ARGUMENT). For re-sharding a resume point over another
 * world size (pixflow.torch) and for checking a shard's coverage. Tar
 * sources shuffle shard files and a window instead, pack sources chunks
 * and samples within chunks (PF_SOURCE_PACK); they are not covered.
 */
PF_API uint64_t pf_shard_length(uint64_t n, int32_t world_size, pf_shard_mode mode);
PF_API pf_status pf_epoch_order(uint64_t n, uint64_t seed, uint64_t epoch, bool shuffle, int32_t rank,
                                int32_t world_size, pf_shard_mode mode, uint64_t *out, uint64_t cap);

/*
 * Device placement (augment_device set): decode on the CPU, augment on
 * the device.
 *
 *   read -> decode (N workers: probe, pf_aug_sample exactly as the default
 *   sample function draws it, decode of the crop rectangle only -- JPEG
 *   ROI decode -- into a block of the pinned staging pool) -> collate (in
 *   order, as today) -> device (1 thread, two streams of augment_device:
 *   an upload stream copies the batch's decoded u8 images into one block
 *   of a device pool, the compute stream waits for that upload and runs
 *   pf_preprocess_run with device views into one of 3 device batch
 *   tensors) -> consumer.
 *
 * Uploading decoded u8 crops (not f32 tensors) moves 4x fewer bytes than
 * the output for f32, and only the crop of each image. Upload of batch
 * k+1 overlaps the preprocess of batch k (separate streams, ordered by
 * events). The staging blocks go back to their pools in stream order
 * (pf_pool_free with the stream that last used them), so a block is
 * reused only once its copy or kernel has finished.
 *
 * Batches: tensor is a device tensor (mem = PF_MEM_CUDA, device = index,
 * for a CUDA device; PF_MEM_OPENCL, shared virtual memory, for an OpenCL
 * device: copy it with pf_memcpy_async / pf_tensor_copy_async, the host
 * must not read it directly; host memory for the CPU device), packed, the
 * desc's shape/dtype/layout; labels and meta are host arrays as usual.
 * pf_pipeline_next makes consumer_stream wait for the batch
 * (pf_stream_wait_event: no host wait), or, when consumer_stream is NULL,
 * waits on the host until the batch is ready. pf_batch_release records an
 * event on consumer_stream: the device tensor is rewritten only after the
 * work the consumer queued on it before the release has finished (with a
 * NULL consumer_stream the consumer must be done with the tensor when it
 * releases it).
 *
 * Results are bit-identical to the default placement (tensor bytes,
 * labels, meta, order, skipped samples) for the same config, as long as
 * pf_preprocess_run on the device is bit-identical to the CPU one.
 *
 * Memory: host batch buffers hold no pixels (metadata only); the pinned
 * staging pool and the device image pool are each capped at
 * staging_bytes (pf_pipeline_stats reports their peaks); 3 device batch
 * tensors of batch_bytes. The images of one batch (plus one more) must
 * fit staging_bytes: workers allocate staging in sample order and wait
 * for memory; when nothing can free any (one batch does not fit), the
 * pipeline stops and pf_pipeline_next returns PF_ERR_OUT_OF_MEMORY naming
 * config.staging_bytes.
 *
 * Supported: the default sample function only (a custom sample_fn ->
 * PF_ERR_UNSUPPORTED; it writes host slots), any source, error policy,
 * sharding and resume; formats as the default sample function (JPEG, PNG,
 * WebP through the codec, binary PPM/PGM). config.allocator must be unset
 * (there are no host pixel buffers). A failure of the device stage (an
 * upload or preprocess error, an asynchronous device fault) fails that
 * batch: pf_pipeline_next returns its status and message. With the CPU
 * device (pf_device_open(PF_DEVICE_CPU, 0)) the same staged flow runs on
 * host memory and CPU streams. On an OpenCL device the pinned staging
 * pool is mapped CL_MEM_ALLOC_HOST_PTR buffers, the streams in-order
 * queues and consumer_stream, when set, must be a queue of the same
 * device (pf_stream_create, or pf_stream_wrap_opencl of the caller's).
 */

/* ------------------------------------------------------------- consumer */

typedef struct pf_pipeline pf_pipeline;

typedef struct pf_batch {
    pf_tensor tensor;          /* n = count (the tensor buffer holds batch_size samples) */
    int32_t count;             /* samples in this batch (< batch_size only for an epoch's last) */
    const int32_t *labels;     /* count labels */
    const pf_sample_meta *meta;/* count entries */
    uint64_t epoch;
    uint64_t batch_index;      /* index of this batch in its epoch */
    int32_t skipped;           /* samples skipped while this batch was assembled */
    /* Resume point: a pipeline created with start_epoch/start_position set
     * to these delivers exactly the batches that follow this one. */
    uint64_t next_epoch, next_position;
} pf_batch;

/* Validates the config (errors name the field), scans/indexes the source,
 * allocates every buffer, starts the threads. */
PF_API pf_status pf_pipeline_create(const pf_pipeline_config *config, pf_pipeline **out);

/*
 * The next batch, in order. timeout_ms < 0: wait as long as needed; 0:
 * never block. Returns
 *   - PF_OK with *batch set (valid until pf_batch_release);
 *   - PF_OK with *batch == NULL after the last epoch (state ENDED);
 *   - PF_ERR_TIMEOUT when none was ready in time (state RUNNING);
 *   - (PF_ON_ERROR_FAIL) the failing sample's status for a batch that held
 *     a bad sample, with pf_last_error() naming the sample, its path and
 *     the reason; the state stays RUNNING and the following call goes on
 *     with the next batch;
 *   - a fatal error (state FAILED): the pipeline stopped itself and every
 *     later call returns the same status and message. Fatal errors:
 *     the staging pool cannot hold one batch (device placement:
 *     PF_ERR_OUT_OF_MEMORY naming config.staging_bytes); the source folder
 *     or a tar shard disappeared (PF_ERR_IO naming it); every sample of
 *     one epoch failed, under either policy, so no batch can ever be made
 *     (the last failure's status, naming that sample). Counted per epoch:
 *     failures that straddle two epochs (one bad file at the end of one
 *     shuffled epoch and the start of the next) are not fatal.
 * A non-OK status alone cannot tell a failed batch from a dead pipeline
 * (both can be PF_ERR_CORRUPT_DATA, say): ask pf_pipeline_state_get.
 * The time spent blocked here is the consumer's starvation time
 * (pf_pipeline_stats).
 */
PF_API pf_status pf_pipeline_next(pf_pipeline *p, const pf_batch **batch, int64_t timeout_ms);

typedef enum pf_pipeline_state {
    PF_PIPELINE_RUNNING = 0, /* more batches may come (also after a failed batch) */
    PF_PIPELINE_ENDED = 1,   /* the consumer has seen the end of the last epoch */
    PF_PIPELINE_FAILED = 2   /* stopped by a fatal error: nothing more will come */
} pf_pipeline_state;

/* The pipeline's state as the consumer sees it (call it from the thread
 * that calls pf_pipeline_next). FAILED writes the fatal status to *cause
 * (may be NULL; PF_OK otherwise); the message is what pf_pipeline_next
 * returns with it. A NULL pipeline is FAILED (cause PF_ERR_INVALID_ARGUMENT). */
PF_API pf_pipeline_state pf_pipeline_state_get(const pf_pipeline *p, pf_status *cause);

/* Gives the batch's buffer back to the pool (NULL: no-op). */
PF_API void pf_batch_release(pf_pipeline *p, const pf_batch *batch);

typedef struct pf_stage_stats {
    const char *name;          /* "read", "decode_augment", "collate", "device" */
    int32_t threads;
    uint64_t items;            /* samples (batches for collate and device) */
    double busy_s;             /* summed over the stage's threads */
    double wait_s;             /* blocked on input or output (summed) */
    int32_t queue_depth;       /* items waiting in the stage's input queue now */
    int32_t queue_capacity;
} pf_stage_stats;

/* stage[0] read, [1] decode_augment (decode only with augment_device),
 * [2] collate, [3] device: the upload + preprocess thread of the device
 * placement; threads = 0 and all zero without augment_device. Its busy_s
 * is host time spent queuing the uploads and the preprocess (CPU device:
 * doing the copies and the preprocess; on a GPU the device's own time is
 * not in it: time it with events on the consumer stream); wait_s counts
 * waiting for input and for a free device tensor (the consumer holding
 * all of them). */
#define PF_PIPELINE_STAGES 4

typedef struct pf_pipeline_stats {
    pf_stage_stats stage[PF_PIPELINE_STAGES];
    uint64_t batches;          /* delivered to the consumer */
    uint64_t samples;          /* in delivered batches */
    uint64_t skipped;          /* samples that failed (read or decode) */
    uint64_t failed_batches;   /* PF_ON_ERROR_FAIL */
    double elapsed_s;          /* since create */
    double starvation_s;       /* time pf_pipeline_next blocked: the headline */
    /* Batch latency: first read of a batch's samples -> batch ready, over
     * the last 1024 batches. */
    double latency_p50_ms, latency_p99_ms;
    int32_t buffers, buffers_free; /* batch buffer pool */
    size_t batch_bytes;
    /* Device placement only (zero otherwise): the pinned staging pool
     * (decoded images waiting for upload) and the device pool they are
     * uploaded into; cap = staging_bytes, peak_reserved <= cap. */
    pf_pool_stats staging_pinned, staging_device;
    int32_t device_tensors, device_tensors_free;
} pf_pipeline_stats;

PF_API pf_status pf_pipeline_stats_get(const pf_pipeline *p, pf_pipeline_stats *stats);

/* One recorded sample failure. */
typedef struct pf_sample_error {
    uint64_t epoch, index;
    pf_status status;
    char name[256];
    char reason[256];
} pf_sample_error;

/* Copies the most recent failures (up to 64 are kept; older ones are only
 * counted), oldest first, into out[0..max); returns how many were copied. */
PF_API int pf_pipeline_errors(const pf_pipeline *p, pf_sample_error out[], int max);

/* Stops every thread (mid-epoch is fine), frees everything; batches not
 * yet released become invalid. NULL: no-op. */
PF_API void pf_pipeline_destroy(pf_pipeline *p);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_PIPELINE_H */
