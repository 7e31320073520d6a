/* The read stage (one thread: epoch order -> pread -> provisional batch
 * slots) and the decode+augment workers (N threads). */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "pipeline/pipeline_internal.h"
#include "pipeline/pipeline_order.h"

/* This rank's order for an epoch; returns its length. */
static uint64_t epoch_order(pf_pipeline *p, uint64_t epoch) {
    const pf_pipeline_config *c = &p->cfg;
    if (p->src.kind == PF_SOURCE_PACK) {
        pli_pack_order(p->src.chunk_first, p->src.chunk_count, c->seed, epoch, c->shuffle, p->order_scratch,
                       p->order_scratch + p->src.count);
        pli_shard_samples(p->order_scratch, p->src.count, c->rank, c->world_size, c->shard_mode, p->order);
        return pli_shard_length(p->src.count, c->world_size, c->shard_mode);
    }
    if (p->src.kind == PF_SOURCE_TAR)
        return pli_tar_order(p->src.shard_first, p->src.shard_count, c->seed, epoch, c->shuffle,
                             c->shuffle_buffer, c->rank, c->world_size, c->shard_mode, p->order,
                             p->order_scratch);
    pli_permutation(p->order_scratch, p->src.count, c->seed, epoch, c->shuffle);
    pli_shard_samples(p->order_scratch, p->src.count, c->rank, c->world_size, c->shard_mode, p->order);
    return pli_shard_length(p->src.count, c->world_size, c->shard_mode);
}

/* CALLBACK sources: the dispatch thread asks the callback (it promised
 * single-threaded calls). Files are read by the workers. */
static void read_item(pf_pipeline *p, pli_item *it) {
    it->status = PF_OK;
    it->reason[0] = '\0';
    memset(&it->bytes, 0, sizeof it->bytes);
    if (p->src.kind != PF_SOURCE_CALLBACK) return;
    pfi_clear_error();
    pf_status st = pli_source_read(&p->src, it->index, &it->bytes);
    if (st != PF_OK) {
        pli_bytes_release(&it->bytes);
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s", pf_last_error());
    }
}

/* Readahead of the sample at `pos`, keeping the descriptor it opened (if
 * any) for that position's item. */
static void readahead_at(pf_pipeline *p, uint64_t pos) {
    int32_t k = (int32_t)(pos % (uint64_t)p->cfg.readahead);
    if (p->ra_fd[k] >= 0) close(p->ra_fd[k]); /* never taken (not expected: positions are taken in order) */
    p->ra_fd[k] = pli_source_readahead(&p->src, p->order[pos]);
    p->ra_pos[k] = pos;
}

/* The descriptor readahead_at(pos) kept, + 1 (0: none). */
static int take_readahead_fd(pf_pipeline *p, uint64_t pos) {
    if (p->cfg.readahead <= 0) return 0;
    int32_t k = (int32_t)(pos % (uint64_t)p->cfg.readahead);
    if (p->ra_fd[k] < 0 || p->ra_pos[k] != pos) return 0;
    int fd = p->ra_fd[k];
    p->ra_fd[k] = -1;
    return fd + 1;
}

void *pli_reader_main(void *arg) {
    pf_pipeline *p = arg;
    const pf_pipeline_config *c = &p->cfg;
    int32_t B = c->batch_size;
    uint64_t pos0 = c->start_position;
    for (uint64_t e = c->start_epoch; c->epochs == 0 || e < c->epochs; e++) {
        uint64_t L = epoch_order(p, e);
        atomic_store(&p->epoch_len, L);
        uint64_t pos = e == c->start_epoch ? pos0 : 0;
        for (uint64_t i = pos; c->readahead > 0 && i < pos + (uint64_t)c->readahead && i < L; i++)
            readahead_at(p, i);
        while (pos < L) {
            uint64_t waited = 0;
            pli_buf *b = pli_pool_acquire(p, &waited);
            p->st_read.wait_ns += waited;
            if (b == NULL) return NULL; /* stopping */
            b->epoch = e;
            b->first = pos;
            b->n_items = (int32_t)(L - pos < (uint64_t)B ? L - pos : (uint64_t)B);
            b->done = 0;
            b->last_of_epoch = pos + (uint64_t)b->n_items == L;
            b->fail_status = PF_OK;
            b->t_start_ns = pli_now_ns();
            if (pli_queue_put(&p->order_q, b, -1, &waited) != PLI_Q_OK) return NULL;
            p->st_read.wait_ns += waited;
            for (int32_t s = 0; s < b->n_items; s++) {
                if (atomic_load(&p->stop)) return NULL;
                uint64_t t0 = pli_now_ns();
                pli_item *it = &b->items[s];
                it->buf = b;
                it->slot = s;
                it->position = pos + (uint64_t)s;
                it->index = p->order[it->position];
                it->seq = p->next_seq++;
                read_item(p, it);
                it->bytes.open_fd = take_readahead_fd(p, it->position); /* before its slot is reused below */
                uint64_t ahead = it->position + (uint64_t)c->readahead;
                if (c->readahead > 0 && ahead < L) readahead_at(p, ahead);
                if (p->src.kind == PF_SOURCE_CALLBACK) {
                    pli_stage_observe(&p->st_read, pli_now_ns() - t0);
                    p->st_read.items++;
                }
                if (pli_queue_put(&p->read_q, it, -1, &waited) != PLI_Q_OK) return NULL;
                p->st_read.wait_ns += waited;
            }
            pos += (uint64_t)b->n_items;
        }
    }
    pli_queue_put(&p->order_q, NULL, -1, NULL); /* end of the last epoch */
    return NULL;
}

static void pin_to_cpu(int32_t index) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)(index % n), &set);
    sched_setaffinity(0, sizeof set, &set); /* best effort: a restricted cpuset just keeps the default */
}

static void process_item(pf_pipeline *p, int32_t worker, void *state, pli_file_reader *rd, pli_item *it,
                         uint64_t *read_ns) {
    const pf_pipeline_config *c = &p->cfg;
    pf_sample_meta *m = &it->meta;
    memset(m, 0, sizeof *m);
    m->index = it->index;
    m->position = it->position;
    m->label = pli_source_label(&p->src, it->index);
    m->name = pli_source_name(&p->src, it->index);
    if (it->status != PF_OK) {
        if (p->dev) pli_device_decode(p, worker, it, NULL);
        return;
    }
    if (p->src.kind == PF_SOURCE_CALLBACK) m->label = it->bytes.cb.label;
    pf_sample_input in;
    if (p->src.kind == PF_SOURCE_CALLBACK) {
        in.data = it->bytes.cb.data;
        in.size = it->bytes.size;
    } else { /* the read stage, on this worker: pread into its buffer */
        uint64_t t0 = pli_now_ns();
        pfi_clear_error();
        pf_status rst;
        if (p->src.kind == PF_SOURCE_PACK) { /* in place in the mapping: no copy, no system call */
            const void *bytes = NULL;
            rst = pli_pack_sample(&p->src, it->index, &bytes, &in.size);
            rd->pack_data = bytes;
        } else {
            int fd = it->bytes.open_fd - 1;
            it->bytes.open_fd = 0; /* the read closes it */
            rst = pli_source_read_file(&p->src, rd, it->index, fd, &in.size);
            rd->pack_data = NULL;
        }
        *read_ns = pli_now_ns() - t0;
        pli_stage_observe(&p->st_read, *read_ns);
        p->st_read.items++;
        if (rst != PF_OK) {
            it->status = rst;
            snprintf(it->reason, sizeof it->reason, "%s", pf_last_error());
            pli_check_source_gone(p, it);
            if (p->dev) pli_device_decode(p, worker, it, NULL);
            return;
        }
        in.data = rd->pack_data ? rd->pack_data : rd->buf;
    }
    in.index = it->index;
    in.epoch = it->buf->epoch;
    in.seed = c->seed;
    in.label = m->label;
    in.name = m->name;
    if (p->dev) { /* device placement: decode only, into staging */
        pli_device_decode(p, worker, it, &in);
        return;
    }
    pf_tensor slot = p->slot_proto;
    slot.data = (char *)it->buf->data + (size_t)it->slot * p->sample_bytes;
    pfi_clear_error();
    pf_status st = c->sample_fn.process(c->sample_fn.ctx, state, &in, &slot, m);
    if (st != PF_OK) {
        it->status = st;
        if (pf_last_error()[0]) snprintf(it->reason, sizeof it->reason, "%s", pf_last_error());
        else snprintf(it->reason, sizeof it->reason, "the sample function returned %s", pf_status_str(st));
    }
}

void *pli_worker_main(void *arg) {
    struct pli_worker_arg *wa = arg;
    pf_pipeline *p = wa->p;
    void *state = p->worker_state[wa->index];
    if (p->cfg.pin_workers) pin_to_cpu(wa->index);
    for (;;) {
        void *v;
        uint64_t waited = 0;
        if (pli_queue_get(&p->read_q, &v, -1, &waited) != PLI_Q_OK) return NULL;
        p->st_work.wait_ns += waited;
        uint64_t t0 = pli_now_ns();
        pli_item *it = v;
        uint64_t read_ns = 0;
        if (p->dev) pli_device_worker_begin(p);
        process_item(p, wa->index, state, &p->file_readers[wa->index], it, &read_ns);
        pli_bytes_release(&it->bytes);
        pli_stage_observe(&p->st_work, pli_now_ns() - t0 - read_ns); /* the read is the read stage's */
        p->st_work.items++;
        pli_buf *b = it->buf;
        pthread_mutex_lock(&p->done_mu);
        if (++b->done == b->n_items) pthread_cond_broadcast(&p->done_cv);
        pthread_mutex_unlock(&p->done_mu);
        if (p->dev) pli_device_worker_end(p);
    }
}
