/* pf_pipeline: configuration checks, buffers, thread start/stop, the
 * consumer calls and statistics. Stages: pipeline_stages.c (read,
 * decode+augment), pipeline_collate.c (in-order batches). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "pipeline/pipeline_internal.h"
#include "pipeline/pipeline_order.h"

pf_pipeline_config pf_pipeline_config_defaults(void) {
    pf_pipeline_config c;
    memset(&c, 0, sizeof c);
    c.source.kind = PF_SOURCE_FOLDER;
    c.desc = pf_preprocess_desc_defaults();
    c.desc.out_width = c.desc.out_height = 224;
    c.policy = pf_aug_policy_defaults();
    c.batch_size = 32;
    c.readahead = 16;
    c.epochs = 1;
    c.shuffle = true;
    c.shuffle_buffer = 1024;
    c.world_size = 1;
    c.shard_mode = PF_SHARD_PAD;
    c.on_error = PF_ON_ERROR_SKIP;
    c.sample_fn = pf_sample_fn_decode_augment();
    return c;
}

/* ------------------------------------------------------------- pool */

pli_buf *pli_pool_acquire(pf_pipeline *p, uint64_t *waited_ns) {
    uint64_t t0 = 0;
    pthread_mutex_lock(&p->pool_mu);
    while (p->free_list == NULL && !atomic_load(&p->stop)) {
        if (t0 == 0) t0 = pli_now_ns();
        pthread_cond_wait(&p->pool_cv, &p->pool_mu);
    }
    pli_buf *b = NULL;
    if (!atomic_load(&p->stop)) {
        b = p->free_list;
        p->free_list = b->next_free;
        p->nfree--;
    }
    pthread_mutex_unlock(&p->pool_mu);
    *waited_ns = t0 ? pli_now_ns() - t0 : 0;
    return b;
}

void pli_pool_release(pf_pipeline *p, pli_buf *b) {
    pli_staged_release(p, b); /* device placement: blocks of samples never uploaded */
    pthread_mutex_lock(&p->pool_mu);
    b->next_free = p->free_list;
    p->free_list = b;
    p->nfree++;
    pthread_cond_signal(&p->pool_cv);
    pthread_mutex_unlock(&p->pool_mu);
}

void pli_record_error(pf_pipeline *p, const pli_item *it) {
    pthread_mutex_lock(&p->stats_mu);
    pf_sample_error *e = &p->errors[p->nerrors % PLI_ERRORS_KEPT];
    e->epoch = it->buf->epoch;
    e->index = it->index;
    e->status = it->status;
    snprintf(e->name, sizeof e->name, "%s", it->meta.name ? it->meta.name : "");
    snprintf(e->reason, sizeof e->reason, "%s", it->reason);
    p->nerrors++;
    pthread_mutex_unlock(&p->stats_mu);
}

/* ------------------------------------------------------------ create */

static void *default_alloc(void *ctx, size_t bytes) {
    (void)ctx;
    return aligned_alloc(64, bytes);
}
static void default_free(void *ctx, void *ptr, size_t bytes) {
    (void)ctx;
    (void)bytes;
    free(ptr);
}

static pf_status check_config(const pf_pipeline_config *c) {
#define BAD(...) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: " __VA_ARGS__)
    if (c->batch_size < 1) BAD("config.batch_size is %d; it must be >= 1", (int)c->batch_size);
    if (c->workers < 0 || c->workers > 1024) BAD("config.workers is %d; it must be 0 (one per CPU) .. 1024", (int)c->workers);
    if (c->prefetch_batches < 0 || c->prefetch_batches > 4096) BAD("config.prefetch_batches is %d; it must be 0 (auto) .. 4096", (int)c->prefetch_batches);
    if (c->read_queue_depth < 0) BAD("config.read_queue_depth is %d; it must be >= 0 (0: auto)", (int)c->read_queue_depth);
    if (c->readahead < 0) BAD("config.readahead is %d; it must be >= 0", (int)c->readahead);
    if (c->shuffle_buffer < 0 || c->shuffle_buffer > (1 << 24)) BAD("config.shuffle_buffer is %d; it must be 0 .. 2^24", (int)c->shuffle_buffer);
    if (c->world_size < 1) BAD("config.world_size is %d; it must be >= 1", (int)c->world_size);
    if (c->rank < 0 || c->rank >= c->world_size) BAD("config.rank is %d; it must be in [0, world_size = %d)", (int)c->rank, (int)c->world_size);
    if (c->shard_mode != PF_SHARD_PAD && c->shard_mode != PF_SHARD_DROP) BAD("config.shard_mode is %d; it must be PF_SHARD_PAD or PF_SHARD_DROP", (int)c->shard_mode);
    if (c->on_error != PF_ON_ERROR_SKIP && c->on_error != PF_ON_ERROR_FAIL) BAD("config.on_error is %d; it must be PF_ON_ERROR_SKIP or PF_ON_ERROR_FAIL", (int)c->on_error);
    if (c->epochs != 0 && c->start_epoch > c->epochs) BAD("config.start_epoch is %llu; it must be <= epochs (%llu)", (unsigned long long)c->start_epoch, (unsigned long long)c->epochs);
    if (c->start_epoch >= (1ull << 32)) BAD("config.start_epoch is %llu; epochs must stay below 2^32", (unsigned long long)c->start_epoch);
    if (c->sample_fn.process == NULL) BAD("config.sample_fn.process is NULL (pf_sample_fn_decode_augment() is the default)");
    if ((c->allocator.alloc == NULL) != (c->allocator.free == NULL)) BAD("config.allocator: alloc and free must both be set or both NULL");
    if (c->augment_dispatch != NULL) {
        pf_device_props a;
        memset(&a, 0, sizeof a);
        if (c->augment_device == NULL || pf_device_props_get(c->augment_device, &a) != PF_OK || a.kind != PF_DEVICE_CPU)
            BAD("config.augment_dispatch is set but config.augment_device is not the CPU device (the dispatcher reads the decoded host images and writes host batches)");
    }
    if (c->augment_device == NULL) {
        if (c->consumer_stream != NULL) BAD("config.consumer_stream is set but config.augment_device is NULL (batches are host buffers; set augment_device for device batches)");
        if (c->staging_bytes != 0) BAD("config.staging_bytes is %zu but config.augment_device is NULL (it caps the device placement's staging)", c->staging_bytes);
    } else {
        pf_sample_fn def = pf_sample_fn_decode_augment();
        if (c->sample_fn.process != def.process || c->sample_fn.worker_create != def.worker_create)
            return pfi_fail(PF_ERR_UNSUPPORTED, "pf_pipeline_create: config.augment_device needs the default sample function; config.sample_fn is a custom one (it writes host slots: leave augment_device NULL)");
        if (c->allocator.alloc != NULL) BAD("config.allocator is set but config.augment_device is set too (the batches are device tensors; staging is pinned memory of the device)");
        if (c->staging_bytes != 0 && c->staging_bytes < 4096) BAD("config.staging_bytes is %zu; it must be 0 (default) or >= 4096", c->staging_bytes);
        if (c->consumer_stream != NULL && pf_stream_device(c->consumer_stream) != c->augment_device) {
            pf_device_props a, s;
            memset(&a, 0, sizeof a);
            memset(&s, 0, sizeof s);
            pf_device_props_get(c->augment_device, &a);
            pf_device_props_get(pf_stream_device(c->consumer_stream), &s);
            BAD("config.consumer_stream is a stream of %s device %d but config.augment_device is %s device %d",
                s.kind == PF_DEVICE_CUDA ? "CUDA" : s.kind == PF_DEVICE_OPENCL ? "OpenCL" : "CPU", (int)s.index,
                a.kind == PF_DEVICE_CUDA ? "CUDA" : a.kind == PF_DEVICE_OPENCL ? "OpenCL" : "CPU", (int)a.index);
        }
    }
#undef BAD
    return PF_OK;
}

static pf_status setup(pf_pipeline *p) {
    pf_pipeline_config *c = &p->cfg;
    const pf_preprocess_desc *d = &c->desc;
    int32_t ch = d->out_channels ? d->out_channels : 3;
    if (d->out_width < 1 || d->out_height < 1 || (ch != 1 && ch != 3))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: config.desc is %dx%d with %d channels; the output needs width, height >= 1 and 1 or 3 channels",
                        (int)d->out_width, (int)d->out_height, (int)ch);
    p->slot_proto = d->out_layout == PF_HWC ? pf_tensor_nhwc(NULL, 1, ch, d->out_height, d->out_width, d->out_dtype)
                                            : pf_tensor_nchw(NULL, 1, ch, d->out_height, d->out_width, d->out_dtype);
    p->sample_bytes = pf_tensor_packed_size(1, ch, d->out_height, d->out_width, d->out_dtype);
    if (p->sample_bytes == 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: config.desc.out_dtype %d is not a known dtype", (int)d->out_dtype);
    p->batch_bytes = (p->sample_bytes * (size_t)c->batch_size + 63) / 64 * 64;

    pf_status st = pli_source_open(&c->source, &p->src, "pf_pipeline_create", "config.source");
    if (st != PF_OK) return st;
    if (p->src.count == 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: the source has no samples (kind %d, path %s, extensions %s)",
                        (int)c->source.kind, c->source.path ? c->source.path : "-",
                        c->source.extensions ? c->source.extensions : "default");
    uint64_t n = p->src.count, order_len, scratch_len;
    if (p->src.kind == PF_SOURCE_TAR) {
        if (p->src.shard_count < c->world_size)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: %d tar shards cannot be split over world_size %d (tar sources shard by file)",
                            (int)p->src.shard_count, (int)c->world_size);
        order_len = n;
        scratch_len = (uint64_t)p->src.shard_count + (uint64_t)c->shuffle_buffer + 1;
    } else {
        if (c->shard_mode == PF_SHARD_DROP && n < (uint64_t)c->world_size)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: %llu samples leave nothing per rank for world_size %d with PF_SHARD_DROP",
                            (unsigned long long)n, (int)c->world_size);
        order_len = pli_shard_length(n, c->world_size, c->shard_mode);
        scratch_len = n + (p->src.kind == PF_SOURCE_PACK ? p->src.chunk_count : 0); /* + the chunk permutation */
    }
    if (c->start_position != 0 && c->start_position >= order_len && !(c->epochs && c->start_epoch == c->epochs))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: config.start_position is %llu; an epoch of this rank has %llu samples",
                        (unsigned long long)c->start_position, (unsigned long long)order_len);
    p->order = malloc((size_t)order_len * sizeof *p->order);
    p->order_scratch = malloc((size_t)scratch_len * sizeof *p->order_scratch);
    if (p->order == NULL || p->order_scratch == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory for the epoch order");
    if (c->readahead > 0) {
        p->ra_fd = malloc((size_t)c->readahead * sizeof *p->ra_fd);
        p->ra_pos = malloc((size_t)c->readahead * sizeof *p->ra_pos);
        if (p->ra_fd == NULL || p->ra_pos == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
        for (int32_t i = 0; i < c->readahead; i++) p->ra_fd[i] = -1;
    }

    if (c->workers == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        c->workers = cpus > 0 ? (int32_t)(cpus < 1024 ? cpus : 1024) : 1;
    }
    p->nworkers = c->workers;
    if (c->prefetch_batches == 0) c->prefetch_batches = 2 + (2 * c->workers + c->batch_size - 1) / c->batch_size;
    if (c->read_queue_depth == 0) c->read_queue_depth = 2 * c->workers < 32 ? 32 : 2 * c->workers;
    if (c->allocator.alloc == NULL) {
        c->allocator.alloc = default_alloc;
        c->allocator.free = default_free;
    }

    p->nbufs = c->prefetch_batches + 2;
    p->bufs = calloc((size_t)p->nbufs, sizeof *p->bufs);
    if (p->bufs == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    bool host_pixels = c->augment_device == NULL; /* device placement: metadata only */
    for (int32_t i = 0; i < p->nbufs; i++) {
        pli_buf *b = &p->bufs[i];
        b->data = host_pixels ? c->allocator.alloc(c->allocator.ctx, p->batch_bytes) : NULL;
        b->labels = calloc((size_t)c->batch_size, sizeof *b->labels);
        b->meta = calloc((size_t)c->batch_size, sizeof *b->meta);
        b->items = calloc((size_t)c->batch_size, sizeof *b->items);
        if ((host_pixels && !b->data) || !b->labels || !b->meta || !b->items)
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory for %d batch buffers of %zu bytes",
                            (int)p->nbufs, p->batch_bytes);
        if (b->data) memset(b->data, 0, p->batch_bytes); /* touch now: RSS is at its cap from the start */
        b->next_free = p->free_list;
        p->free_list = b;
        p->nfree++;
    }
    if (pli_queue_init(&p->read_q, c->read_queue_depth) || pli_queue_init(&p->order_q, p->nbufs + 1) ||
        pli_queue_init(&p->ready_q, p->nbufs + 1))
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    /* the read stage only hands items over: wake it when half the queue
     * has drained, not at every get (one switch per half queue, not per sample) */
    pli_queue_set_producer_wake(&p->read_q, c->read_queue_depth / 2);

    if (c->augment_device != NULL && (st = pli_device_setup(p)) != PF_OK) return st;

    p->worker_state = calloc((size_t)p->nworkers, sizeof *p->worker_state);
    p->worker_args = calloc((size_t)p->nworkers, sizeof *p->worker_args);
    p->file_readers = calloc((size_t)p->nworkers, sizeof *p->file_readers);
    if (p->file_readers)
        for (int32_t w = 0; w < p->nworkers; w++) pli_file_reader_init(&p->file_readers[w]);
    p->workers = calloc((size_t)p->nworkers, sizeof *p->workers);
    if (!p->worker_state || !p->worker_args || !p->workers || !p->file_readers) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    for (int32_t w = 0; w < p->nworkers; w++) {
        p->worker_args[w].p = p;
        p->worker_args[w].index = w;
        if (c->sample_fn.worker_create && p->dev == NULL) { /* the device placement decodes without it */
            pfi_clear_error();
            st = c->sample_fn.worker_create(c->sample_fn.ctx, &c->desc, &c->policy, &p->worker_state[w]);
            if (st != PF_OK) {
                if (pf_last_error()[0] == '\0') pfi_fail(st, "pf_pipeline_create: the sample function's worker_create failed (%s)", pf_status_str(st));
                return st;
            }
        }
    }
    return PF_OK;
}

static pf_status start_threads(pf_pipeline *p) {
    for (int32_t w = 0; w < p->nworkers; w++) {
        if (pthread_create(&p->workers[w], NULL, pli_worker_main, &p->worker_args[w]) != 0)
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: cannot start worker thread %d", (int)w);
        p->workers_started++;
    }
    if (p->dev && pli_device_start(p) != PF_OK) return PF_ERR_OUT_OF_MEMORY;
    if (pthread_create(&p->collator, NULL, pli_collator_main, p) != 0)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: cannot start the collate thread");
    p->collator_started = true;
    if (pthread_create(&p->reader, NULL, pli_reader_main, p) != 0)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: cannot start the read thread");
    p->reader_started = true;
    return PF_OK;
}

pf_status pf_pipeline_create(const pf_pipeline_config *config, pf_pipeline **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: out is NULL");
    *out = NULL;
    if (config == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_create: config is NULL");
    pf_status st = check_config(config);
    if (st != PF_OK) return st;
    pf_pipeline *p = calloc(1, sizeof *p);
    if (p == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    p->cfg = *config;
    p->t_create_ns = pli_now_ns();
    atomic_init(&p->stop, false);
    pthread_mutex_init(&p->pool_mu, NULL);
    pli_cond_init(&p->pool_cv);
    pthread_mutex_init(&p->done_mu, NULL);
    pli_cond_init(&p->done_cv);
    pthread_mutex_init(&p->stats_mu, NULL);
    p->src.cached_fd = -1;
    st = setup(p);
    if (st == PF_OK) st = start_threads(p);
    if (st != PF_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pf_last_error());
        pf_pipeline_destroy(p);
        return pfi_fail(st, "%s", msg);
    }
    *out = p;
    return PF_OK;
}

/* ---------------------------------------------------------- consumer */

pf_status pf_pipeline_next(pf_pipeline *p, const pf_batch **batch, int64_t timeout_ms) {
    pfi_clear_error();
    if (batch == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_next: batch is NULL");
    *batch = NULL;
    if (p == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_next: p is NULL");
    if (p->ended) return PF_OK;
    pf_status fatal = (pf_status)atomic_load(&p->fatal_status);
    if (fatal != PF_OK) return pfi_fail(fatal, "%s", p->fatal_msg);
    void *v = NULL;
    uint64_t waited = 0;
    pli_qresult r = pli_queue_get(&p->ready_q, &v, timeout_ms, &waited);
    p->starve_ns += waited;
    if (r == PLI_Q_TIMEOUT)
        return pfi_fail(PF_ERR_TIMEOUT, "pf_pipeline_next: no batch ready within %lld ms", (long long)timeout_ms);
    if (r == PLI_Q_CLOSED) {
        fatal = (pf_status)atomic_load(&p->fatal_status);
        if (fatal != PF_OK) return pfi_fail(fatal, "%s", p->fatal_msg);
        return pfi_fail(PF_ERR_CANCELLED, "pf_pipeline_next: the pipeline is stopping");
    }
    if (v == &p->end_marker) {
        p->ended = true;
        return PF_OK;
    }
    pli_buf *b = v;
    if (b->fail_status != PF_OK) {
        pf_status st = b->fail_status;
        p->failed_batches++;
        pfi_fail(st, "%s", b->fail_reason);
        pli_pool_release(p, b);
        return st;
    }
    if (p->dev) {
        pf_status st = pli_device_deliver(p, b);
        if (st != PF_OK) {
            p->failed_batches++;
            pli_pool_release(p, b);
            return st;
        }
    }
    p->batches++;
    p->samples += (uint64_t)b->batch.count;
    *batch = &b->batch;
    return PF_OK;
}

void pf_batch_release(pf_pipeline *p, const pf_batch *batch) {
    if (p == NULL || batch == NULL) return;
    pli_buf *b = (pli_buf *)(uintptr_t)batch; /* pf_batch is pli_buf's first member */
    if (p->dev) pli_device_release(p, b);
    pli_pool_release(p, b);
}

/* ------------------------------------------------------------- stats */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void stage(pf_stage_stats *s, const char *name, int32_t threads, pli_stage *src, pli_queue *q) {
    s->name = name;
    s->threads = threads;
    s->items = atomic_load(&src->items);
    s->busy_s = (double)atomic_load(&src->busy_ns) / 1e9;
    s->wait_s = (double)atomic_load(&src->wait_ns) / 1e9;
    s->queue_depth = q ? pli_queue_depth(q) : 0;
    s->queue_capacity = q ? q->capacity : 0;
}

pf_status pf_pipeline_stats_get(const pf_pipeline *cp, pf_pipeline_stats *s) {
    pfi_clear_error();
    if (cp == NULL || s == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_stats_get: %s is NULL", cp ? "stats" : "p");
    pf_pipeline *p = (pf_pipeline *)(uintptr_t)cp; /* locks only */
    memset(s, 0, sizeof *s);
    /* files are pread by the workers (the read thread dispatches and reads
     * ahead); a callback source is read on the read thread */
    stage(&s->stage[0], "read", p->src.kind == PF_SOURCE_CALLBACK ? 1 : p->nworkers, &p->st_read, NULL);
    stage(&s->stage[1], "decode_augment", p->nworkers, &p->st_work, &p->read_q);
    stage(&s->stage[2], "collate", 1, &p->st_collate, &p->order_q);
    pli_device_stats(p, s);
    s->batches = atomic_load(&p->batches);
    s->samples = atomic_load(&p->samples);
    s->skipped = atomic_load(&p->skipped);
    s->failed_batches = atomic_load(&p->failed_batches);
    s->elapsed_s = (double)(pli_now_ns() - p->t_create_ns) / 1e9;
    s->starvation_s = (double)atomic_load(&p->starve_ns) / 1e9;
    double tl_sorted[PLI_LATENCIES];
    pthread_mutex_lock(&p->stats_mu);
    int n = (int)(p->nlatencies < PLI_LATENCIES ? p->nlatencies : PLI_LATENCIES);
    memcpy(tl_sorted, p->latencies_ms, (size_t)n * sizeof *tl_sorted);
    pthread_mutex_unlock(&p->stats_mu);
    if (n > 0) {
        qsort(tl_sorted, (size_t)n, sizeof *tl_sorted, cmp_double);
        s->latency_p50_ms = tl_sorted[(n - 1) / 2];
        s->latency_p99_ms = tl_sorted[(n - 1) * 99 / 100];
    }
    pthread_mutex_lock(&p->pool_mu);
    s->buffers = p->nbufs;
    s->buffers_free = p->nfree;
    pthread_mutex_unlock(&p->pool_mu);
    s->batch_bytes = p->batch_bytes;
    return PF_OK;
}

int pf_pipeline_errors(const pf_pipeline *cp, pf_sample_error out[], int max) {
    if (cp == NULL || out == NULL || max <= 0) return 0;
    pf_pipeline *p = (pf_pipeline *)(uintptr_t)cp;
    pthread_mutex_lock(&p->stats_mu);
    uint64_t kept = p->nerrors < PLI_ERRORS_KEPT ? p->nerrors : PLI_ERRORS_KEPT;
    uint64_t first = p->nerrors - kept;
    int n = 0;
    for (uint64_t i = first; i < p->nerrors && n < max; i++) out[n++] = p->errors[i % PLI_ERRORS_KEPT];
    pthread_mutex_unlock(&p->stats_mu);
    return n;
}

/* ----------------------------------------------------------- destroy */

void pli_fatal(pf_pipeline *p, pf_status status, const char *fmt, ...) {
    pthread_mutex_lock(&p->stats_mu);
    if (atomic_load(&p->fatal_status) == PF_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->fatal_msg, sizeof p->fatal_msg, fmt, ap);
        va_end(ap);
        atomic_store(&p->fatal_status, (int)(status != PF_OK ? status : PF_ERR_INTERNAL));
    }
    pthread_mutex_unlock(&p->stats_mu);
    pli_stop_all(p);
}

void pli_check_source_gone(pf_pipeline *p, const pli_item *it) {
    const char *gone = NULL, *what = NULL;
    if (p->src.kind == PF_SOURCE_FOLDER && access(p->cfg.source.path, F_OK) != 0 && errno == ENOENT) {
        gone = p->cfg.source.path;
        what = "source folder";
    } else if (p->src.kind == PF_SOURCE_TAR) {
        int32_t shard = p->src.entries[it->index].shard;
        if (shard >= 0 && access(p->src.shard_paths[shard], F_OK) != 0 && errno == ENOENT) {
            gone = p->src.shard_paths[shard];
            what = "tar shard";
        }
    }
    if (gone != NULL)
        pli_fatal(p, PF_ERR_IO, "pf_pipeline_next: the %s %s disappeared while the pipeline ran (sample %llu: %s)",
                  what, gone, (unsigned long long)it->index, it->reason);
}

pf_pipeline_state pf_pipeline_state_get(const pf_pipeline *p, pf_status *cause) {
    if (cause) *cause = PF_OK;
    if (p == NULL) {
        if (cause) *cause = PF_ERR_INVALID_ARGUMENT;
        return PF_PIPELINE_FAILED;
    }
    pf_status f = (pf_status)atomic_load(&((pf_pipeline *)(uintptr_t)p)->fatal_status);
    if (f != PF_OK) {
        if (cause) *cause = f;
        return PF_PIPELINE_FAILED;
    }
    return p->ended ? PF_PIPELINE_ENDED : PF_PIPELINE_RUNNING;
}

void pli_stop_all(pf_pipeline *p) {
    atomic_store(&p->stop, true);
    if (p->read_q.ring) pli_queue_close(&p->read_q);
    if (p->order_q.ring) pli_queue_close(&p->order_q);
    if (p->ready_q.ring) pli_queue_close(&p->ready_q);
    pthread_mutex_lock(&p->pool_mu);
    pthread_cond_broadcast(&p->pool_cv);
    pthread_mutex_unlock(&p->pool_mu);
    pthread_mutex_lock(&p->done_mu);
    pthread_cond_broadcast(&p->done_cv);
    pthread_mutex_unlock(&p->done_mu);
    pli_device_wake(p);
}

void pf_pipeline_destroy(pf_pipeline *p) {
    if (p == NULL) return;
    pli_stop_all(p);
    if (p->reader_started) pthread_join(p->reader, NULL);
    if (p->collator_started) pthread_join(p->collator, NULL);
    for (int32_t w = 0; w < p->workers_started; w++) pthread_join(p->workers[w], NULL);
    pli_device_join(p);
    const pf_pipeline_config *c = &p->cfg;
    for (int32_t w = 0; w < p->nworkers && p->worker_state; w++)
        if (c->sample_fn.worker_destroy && p->worker_state[w]) c->sample_fn.worker_destroy(c->sample_fn.ctx, p->worker_state[w]);
    for (int32_t i = 0; i < p->nbufs && p->bufs; i++) {
        pli_buf *b = &p->bufs[i];
        for (int32_t s = 0; b->items && s < c->batch_size; s++) pli_bytes_release(&b->items[s].bytes);
        if (b->data) c->allocator.free(c->allocator.ctx, b->data, p->batch_bytes);
        free(b->labels);
        free(b->meta);
        free(b->items);
    }
    pli_device_free(p); /* before the buffers: it frees their staging arrays */
    free(p->bufs);
    free(p->worker_state);
    free(p->worker_args);
    for (int32_t w = 0; w < p->nworkers && p->file_readers; w++) pli_file_reader_close(&p->file_readers[w]);
    free(p->file_readers);
    free(p->workers);
    free(p->order);
    free(p->order_scratch);
    for (int32_t i = 0; p->ra_fd && i < c->readahead; i++)
        if (p->ra_fd[i] >= 0) close(p->ra_fd[i]);
    free(p->ra_fd);
    free(p->ra_pos);
    pli_queue_free(&p->read_q);
    pli_queue_free(&p->order_q);
    pli_queue_free(&p->ready_q);
    pli_source_close(&p->src);
    pthread_mutex_destroy(&p->pool_mu);
    pthread_cond_destroy(&p->pool_cv);
    pthread_mutex_destroy(&p->done_mu);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->stats_mu);
    free(p);
}
