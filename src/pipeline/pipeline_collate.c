/*
 * The collate stage: provisional batches arrive in dispatch order; their
 * samples are placed, in epoch order, into output batches of batch_size.
 *
 * Workers write each sample straight into its provisional slot (buffer q,
 * slot s for position q*B + s), so with no failures an output batch IS its
 * provisional buffer and nothing is copied. When a sample is skipped,
 * every later sample of the epoch moves one slot down (a memcpy of the
 * sample into the output buffer being filled, which is the same or an
 * earlier buffer whose slot is already consumed), so batches are exactly
 * "the successful samples in order, B at a time": the same for any worker
 * count or timing. At most two buffers are held here: the output being
 * filled and the provisional one being read; a provisional buffer whose
 * samples all moved elsewhere goes straight back to the pool.
 */
#include <stdio.h>
#include <string.h>

#include "pipeline/pipeline_internal.h"

typedef struct collator {
    pf_pipeline *p;
    pli_buf *out;
    int32_t out_fill, out_skipped;
    uint64_t epoch, batch_index;
    bool have_epoch;
    /* the epoch whose outcomes are being counted, how many of its samples
     * failed, and whether any succeeded */
    uint64_t count_epoch, failed_in_epoch;
    bool counting, epoch_had_ok;
} collator;

/* Counts a sample's outcome. When every sample of one epoch has failed, no
 * batch can ever be made (each was tried and failed): the pipeline fails
 * with the last failure, instead of skipping (or failing batches) forever.
 * Counted per epoch, not as a run of failures: a Loader's pipeline reads
 * ahead into the next epoch, and one bad file that ends epoch e and starts
 * epoch e + 1 of a shuffled order is no dead source. Counted in epoch
 * order here, so the verdict does not depend on worker timing. Returns
 * false then. */
static bool count_outcome(collator *c, uint64_t epoch, const pli_item *it) {
    if (!c->counting || epoch != c->count_epoch) {
        c->counting = true;
        c->count_epoch = epoch;
        c->failed_in_epoch = 0;
        c->epoch_had_ok = false;
    }
    if (it->status == PF_OK) {
        c->epoch_had_ok = true;
        return true;
    }
    uint64_t L = atomic_load(&c->p->epoch_len);
    if (c->epoch_had_ok || ++c->failed_in_epoch < (L > 0 ? L : 1)) return true;
    pli_fatal(c->p, it->status,
              "pf_pipeline_next: every sample failed: all %llu of epoch %llu; the last: sample %llu (%s): %s",
              (unsigned long long)c->failed_in_epoch, (unsigned long long)epoch, (unsigned long long)it->index,
              it->meta.name ? it->meta.name : "?", it->reason);
    return false;
}

static void record_latency(pf_pipeline *p, uint64_t t_start) {
    double ms = (double)(pli_now_ns() - t_start) / 1e6;
    pthread_mutex_lock(&p->stats_mu);
    p->latencies_ms[p->nlatencies % PLI_LATENCIES] = ms;
    p->nlatencies++;
    pthread_mutex_unlock(&p->stats_mu);
}

/* Hands `b` (count samples) to the consumer. Returns false when stopping. */
static bool emit(collator *c, pli_buf *b, int32_t count, uint64_t next_epoch, uint64_t next_pos) {
    pf_pipeline *p = c->p;
    pf_batch *bt = &b->batch;
    bt->tensor = p->slot_proto;
    bt->tensor.data = b->data;
    bt->tensor.n = count;
    bt->count = count;
    bt->labels = b->labels;
    bt->meta = b->meta;
    bt->epoch = c->epoch;
    bt->batch_index = c->batch_index++;
    bt->skipped = c->out_skipped;
    bt->next_epoch = next_epoch;
    bt->next_position = next_pos;
    c->out_skipped = 0;
    record_latency(p, b->t_start_ns);
    p->st_collate.items++;
    /* device placement: the device stage uploads and preprocesses it first */
    return pli_queue_put(p->dev ? &p->dev_q : &p->ready_q, b, -1, NULL) == PLI_Q_OK;
}

static void place(collator *c, pli_buf *from, const pli_item *it) {
    pf_pipeline *p = c->p;
    pli_buf *to = c->out;
    int32_t d = c->out_fill++;
    if (p->dev) { /* device placement: the staged image moves (its block with it) */
        if (to != from || d != it->slot) {
            to->staged[d] = from->staged[it->slot];
            from->staged[it->slot].block = NULL;
        }
    } else if (to != from || d != it->slot) {
        memcpy((char *)to->data + (size_t)d * p->sample_bytes,
               (const char *)from->data + (size_t)it->slot * p->sample_bytes, p->sample_bytes);
    }
    to->meta[d] = it->meta;
    to->labels[d] = it->meta.label;
}

static bool wait_done(pf_pipeline *p, pli_buf *b) {
    pthread_mutex_lock(&p->done_mu);
    while (b->done < b->n_items && !atomic_load(&p->stop)) pthread_cond_wait(&p->done_cv, &p->done_mu);
    pthread_mutex_unlock(&p->done_mu);
    return !atomic_load(&p->stop);
}

/* PF_ON_ERROR_FAIL: a provisional batch is an output batch as is; one bad
 * sample fails it. */
static bool collate_fail_policy(collator *c, pli_buf *b) {
    pf_pipeline *p = c->p;
    int32_t bad = 0;
    for (int32_t s = 0; s < b->n_items; s++) {
        const pli_item *it = &b->items[s];
        b->meta[s] = it->meta;
        b->labels[s] = it->meta.label;
        if (it->status == PF_OK) {
            count_outcome(c, b->epoch, it);
            continue;
        }
        pli_record_error(p, it);
        p->skipped++;
        if (!count_outcome(c, b->epoch, it)) return false;
        if (bad++ == 0) {
            b->fail_status = it->status;
            snprintf(b->fail_reason, sizeof b->fail_reason,
                     "pf_pipeline_next: batch %llu of epoch %llu failed: sample %llu (%s): %s",
                     (unsigned long long)c->batch_index, (unsigned long long)b->epoch,
                     (unsigned long long)it->index, it->meta.name ? it->meta.name : "?", it->reason);
        }
    }
    uint64_t ne = b->last_of_epoch ? b->epoch + 1 : b->epoch;
    uint64_t np = b->last_of_epoch ? 0 : b->first + (uint64_t)b->n_items;
    if (b->last_of_epoch && p->cfg.drop_last && b->n_items < p->cfg.batch_size && bad == 0) {
        pli_pool_release(p, b);
        return true;
    }
    c->out_skipped = bad;
    return emit(c, b, b->n_items, ne, np);
}

static bool collate_skip_policy(collator *c, pli_buf *b) {
    pf_pipeline *p = c->p;
    int32_t B = p->cfg.batch_size;
    /* b's fields are read into locals, and b's fate is decided from local
     * state: once emitted, b may already be back in the pool and refilled
     * by the reader */
    const int32_t n_items = b->n_items;
    const bool last_of_epoch = b->last_of_epoch;
    const uint64_t epoch = b->epoch;
    bool b_is_output = false;
    for (int32_t s = 0; s < n_items; s++) {
        const pli_item *it = &b->items[s];
        if (it->status != PF_OK) {
            pli_record_error(p, it);
            p->skipped++;
            c->out_skipped++;
            if (!count_outcome(c, epoch, it)) return false;
            continue;
        }
        count_outcome(c, epoch, it);
        if (c->out == NULL) {
            c->out = b;
            c->out_fill = 0;
            b_is_output = true;
        }
        place(c, b, it);
        if (c->out_fill == B) {
            bool end = last_of_epoch && s == n_items - 1;
            uint64_t next_pos = it->position + 1;
            pli_buf *o = c->out;
            c->out = NULL;
            if (!emit(c, o, B, end ? epoch + 1 : epoch, end ? 0 : next_pos)) return false;
        }
    }
    if (last_of_epoch && c->out != NULL) {
        pli_buf *o = c->out;
        c->out = NULL;
        if (c->out_fill > 0 && !p->cfg.drop_last) {
            if (!emit(c, o, c->out_fill, epoch + 1, 0)) return false;
        } else {
            pli_pool_release(p, o);
        }
    }
    /* every sample of b moved into another buffer: b is free again */
    if (!b_is_output) pli_pool_release(p, b);
    return true;
}

void *pli_collator_main(void *arg) {
    collator c;
    memset(&c, 0, sizeof c);
    c.p = arg;
    pf_pipeline *p = c.p;
    for (;;) {
        void *v;
        uint64_t waited = 0;
        if (pli_queue_get(&p->order_q, &v, -1, &waited) != PLI_Q_OK) return NULL;
        p->st_collate.wait_ns += waited;
        if (v == NULL) { /* end of the last epoch */
            pli_queue_put(p->dev ? &p->dev_q : &p->ready_q, &p->end_marker, -1, NULL);
            return NULL;
        }
        pli_buf *b = v;
        uint64_t t0 = pli_now_ns();
        if (!wait_done(p, b)) return NULL;
        uint64_t t1 = pli_now_ns();
        p->st_collate.wait_ns += t1 - t0;
        if (!c.have_epoch || b->epoch != c.epoch) {
            c.have_epoch = true;
            c.epoch = b->epoch;
            c.batch_index = 0;
        }
        bool ok = p->cfg.on_error == PF_ON_ERROR_FAIL ? collate_fail_policy(&c, b) : collate_skip_policy(&c, b);
        pli_stage_observe(&p->st_collate, pli_now_ns() - t1);
        if (!ok) return NULL;
    }
}
