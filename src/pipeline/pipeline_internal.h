/* Internals of pf_pipeline shared by its files: the batch buffers, the
 * in-flight items, the stage threads and their counters. */
#ifndef PF_PIPELINE_INTERNAL_H
#define PF_PIPELINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "pipeline/pipeline_queue.h"
#include "pipeline/pipeline_source.h"
#include "pixflow/pipeline.h"

#define PLI_REASON 240
#define PLI_ERRORS_KEPT 64
#define PLI_LATENCIES 1024

/* One sample in flight: read by the reader into its provisional slot of a
 * buffer, processed by a worker, then placed in order by the collator. */
typedef struct pli_item {
    struct pli_buf *buf;
    int32_t slot;
    uint64_t position, index;
    uint64_t seq;            /* dispatch order over the pipeline's life (staging turns) */
    pli_bytes bytes;
    pf_status status;
    char reason[PLI_REASON];
    pf_sample_meta meta;
} pli_item;

/* Device placement: one decoded image waiting in a pinned staging block
 * for its upload (pipeline_device.c). Moves with its sample through
 * collate; the slot that holds block owns it. */
typedef struct pli_staged {
    void *block;             /* staging block (NULL: none) */
    int32_t width, height, channels;
    pf_aug_params params;    /* crop relative to the decoded rectangle */
    int32_t roi_x, roi_y;    /* decoded rectangle's origin in the source image */
} pli_staged;

struct pli_device;
struct pli_dtensor;

/* A batch buffer from the pool. While filling it is "provisional batch q"
 * of an epoch (items at positions first + 0..n_items-1); the collator then
 * uses it as an output batch (see pipeline_collate.c). */
typedef struct pli_buf {
    pf_batch batch;          /* first: the public view handed out */
    void *data;
    int32_t *labels;
    pf_sample_meta *meta;
    pli_item *items;
    pli_staged *staged;      /* device placement: per slot (data is NULL then) */
    struct pli_dtensor *dt;  /* device placement: the device tensor of a delivered batch */
    uint64_t epoch, first;
    int32_t n_items;
    int32_t done;            /* items finished (under pipeline.done_mu) */
    bool last_of_epoch;
    uint64_t t_start_ns;     /* first read of the buffer's items */
    pf_status fail_status;   /* PF_ON_ERROR_FAIL: why the batch failed */
    char fail_reason[PLI_REASON + 300];
    struct pli_buf *next_free;
} pli_buf;

/* PLI_HIST_BOUNDS_NS: the fixed latency buckets of every stage's
 * histogram (pf_metrics_bucket_bounds, include/pixflow/metrics.h): the
 * upper bounds in ns; hist[PLI_HIST_BUCKETS] counts the rest (+Inf). */
#define PLI_HIST_BUCKETS 15
#define PLI_HIST_BOUNDS_NS {50000u, 100000u, 250000u, 500000u, 1000000u, 2500000u, 5000000u, 10000000u, \
        25000000u, 50000000u, 100000000u, 250000000u, 500000000u, 1000000000u, 2500000000u}

typedef struct pli_stage {
    _Atomic uint64_t items, busy_ns, wait_ns;
    /* one count per busy interval (pli_stage_observe): non-cumulative */
    _Atomic uint64_t hist[PLI_HIST_BUCKETS + 1];
} pli_stage;

/* Adds one busy interval of ns to the stage's busy time and to its
 * latency histogram: a short scan and two atomic adds, cheap next to the
 * work it times (pipeline_metrics.c). */
void pli_stage_observe(pli_stage *s, uint64_t ns);

struct pf_pipeline {
    pf_pipeline_config cfg;
    pli_source src;
    size_t sample_bytes, batch_bytes;
    uint64_t t_create_ns;

    /* pool of batch buffers */
    pli_buf *bufs;
    int32_t nbufs;
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    pli_buf *free_list;
    int32_t nfree;

    pli_queue read_q;    /* reader -> workers: pli_item* */
    pli_queue order_q;   /* reader -> collator: pli_buf* in dispatch order; NULL = end */
    pli_queue ready_q;   /* collator (or device stage) -> consumer: pli_buf*; the end marker is &end_marker */
    pli_queue dev_q;     /* device placement: collator -> device stage */
    struct pli_device *dev; /* device placement state; NULL: default placement */
    uint64_t next_seq;   /* reader only */
    pli_buf end_marker;

    pthread_mutex_t done_mu;
    pthread_cond_t done_cv;

    atomic_bool stop;
    pthread_t reader, collator, *workers;
    int32_t nworkers;
    bool reader_started, collator_started;
    int32_t workers_started;
    void **worker_state;
    pli_file_reader *file_readers; /* one per worker */
    struct pli_worker_arg { struct pf_pipeline *p; int32_t index; } *worker_args;
    pf_tensor slot_proto;      /* one-sample view at buffer offset 0 */
    uint64_t *order, *order_scratch; /* reader's epoch order */
    /* reader only: the files its readahead opened, by position % readahead,
     * handed to the item at that position (pli_bytes.open_fd) */
    int *ra_fd;
    uint64_t *ra_pos;

    bool ended;                /* consumer saw the end marker */

    /* stats */
    pli_stage st_read, st_work, st_collate, st_device;
    /* A fatal error that stopped every stage (pli_fatal); from then on
     * pf_pipeline_next returns it and pf_pipeline_state_get says FAILED.
     * fatal_msg is written (under stats_mu) before fatal_status is set. */
    _Atomic int fatal_status;
    char fatal_msg[768];
    _Atomic uint64_t epoch_len; /* samples in the reader's current epoch (this rank) */
    _Atomic uint64_t starve_ns, batches, samples, skipped, failed_batches;
    pthread_mutex_t stats_mu;  /* latencies + errors */
    double latencies_ms[PLI_LATENCIES];
    uint64_t nlatencies;
    pf_sample_error errors[PLI_ERRORS_KEPT];
    uint64_t nerrors;
};

/* pipeline_stages.c */
void *pli_reader_main(void *arg);
void *pli_worker_main(void *arg);
/* pipeline_collate.c */
void *pli_collator_main(void *arg);
/* pipeline.c */
pli_buf *pli_pool_acquire(pf_pipeline *p, uint64_t *waited_ns);
void pli_pool_release(pf_pipeline *p, pli_buf *b);
void pli_record_error(pf_pipeline *p, const pli_item *it);
/* Stops every stage: sets stop, closes the queues, wakes every waiter. */
void pli_stop_all(pf_pipeline *p);
/* Ends the pipeline for good with `status` and a message (the first fatal
 * error wins), then stops every stage. Any thread. */
void pli_fatal(pf_pipeline *p, pf_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* After a failed read of a file or tar member: when the source itself is
 * gone (its folder, or the shard file), the pipeline fails (pli_fatal):
 * every later sample would fail the same way. */
void pli_check_source_gone(pf_pipeline *p, const pli_item *it);

/* pipeline_device.c / pipeline_staging.c / pipeline_decode_staged.c:
 * the device placement. */
pf_status pli_device_setup(pf_pipeline *p);
pf_status pli_device_start(pf_pipeline *p);
void pli_device_join(pf_pipeline *p);
void pli_device_free(pf_pipeline *p);
void pli_device_wake(pf_pipeline *p);
/* pf_pipeline_next: orders the consumer stream after the batch. */
pf_status pli_device_deliver(pf_pipeline *p, pli_buf *b);
/* pf_batch_release: the batch's device tensor goes back after the
 * consumer's queued work. */
void pli_device_release(pf_pipeline *p, pli_buf *b);
void pli_device_stats(pf_pipeline *p, pf_pipeline_stats *s);
/* Frees the staging blocks still held by b's slots. */
void pli_staged_release(pf_pipeline *p, pli_buf *b);
/* A worker's item with the device placement: decode `in` into staging,
 * fill meta and the slot's pli_staged; in == NULL: the item already
 * failed (it only takes its staging turn). */
void pli_device_decode(pf_pipeline *p, int32_t worker, pli_item *it, const pf_sample_input *in);
void pli_device_worker_begin(pf_pipeline *p);
void pli_device_worker_end(pf_pipeline *p);

#endif
