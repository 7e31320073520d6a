/*
 * The pinned staging pool the workers decode into (device placement).
 *
 * The pool has a hard cap, so a worker may have to wait for the device
 * stage to upload earlier batches and free their blocks. Waiting is only
 * safe if memory is handed out in sample order: were a later sample to
 * hold the last block while an earlier one waits, the batch of the
 * earlier one could never complete, and nothing would ever be freed. So
 * allocation takes turns by dispatch order (item seq): the blocks held
 * always belong to samples before the waiting one, whose batches complete
 * and get uploaded -- unless the waiting sample's own batch does not fit
 * the cap. That case is detected (no worker decoding, the device stage
 * idle on an empty input, nothing freed for a while) and stops the
 * pipeline with an error naming config.staging_bytes instead of hanging.
 */
#include <errno.h>
#include <stdio.h>

#include "core/error.h"
#include "pipeline/pipeline_device.h"

#define STUCK_POLL_MS 100
#define STUCK_STRIKES 3

void pli_staging_freed(pf_pipeline *p) {
    pli_device *d = p->dev;
    atomic_fetch_add(&d->progress, 1);
    pthread_mutex_lock(&d->stg_mu);
    pthread_cond_broadcast(&d->stg_cv);
    pthread_mutex_unlock(&d->stg_mu);
}

void pli_staging_set_idle(pf_pipeline *p, bool idle) {
    pli_device *d = p->dev;
    pthread_mutex_lock(&d->stg_mu);
    d->device_idle = idle;
    pthread_mutex_unlock(&d->stg_mu);
}

void pli_device_worker_begin(pf_pipeline *p) {
    pli_device *d = p->dev;
    pthread_mutex_lock(&d->stg_mu);
    d->active++;
    pthread_mutex_unlock(&d->stg_mu);
}

void pli_device_worker_end(pf_pipeline *p) {
    pli_device *d = p->dev;
    atomic_fetch_add(&d->progress, 1);
    pthread_mutex_lock(&d->stg_mu);
    d->active--;
    pthread_cond_broadcast(&d->stg_cv);
    pthread_mutex_unlock(&d->stg_mu);
}

static void fatal_stuck(pf_pipeline *p, size_t bytes, const pf_pool_stats *ps) {
    pli_fatal(p, PF_ERR_OUT_OF_MEMORY,
              "pf_pipeline_next: config.staging_bytes (%zu) cannot hold the decoded images of one batch: "
              "%zu bytes in use by its samples and %zu more needed (before rounding to a size class); raise "
              "config.staging_bytes",
              p->dev->staging_cap, ps->in_use, bytes);
}

/* Under stg_mu, with our turn: allocate, waiting for memory. */
static pf_status alloc_waiting(pf_pipeline *p, size_t bytes, void **block) {
    pli_device *d = p->dev;
    int strikes = 0;
    uint64_t seen = atomic_load(&d->progress);
    for (;;) {
        pf_status st = pf_pool_alloc(d->pinned, bytes, NULL, block);
        if (st == PF_OK) return PF_OK;
        if (st != PF_ERR_OUT_OF_MEMORY) return st;
        pf_pool_stats ps;
        pf_pool_stats_get(d->pinned, &ps);
        if (ps.in_use == 0) /* alone it does not fit: this sample fails */
            return pfi_fail(PF_ERR_OUT_OF_MEMORY,
                            "a decoded image of %zu bytes does not fit config.staging_bytes (%zu)", bytes,
                            d->staging_cap);
        if (atomic_load(&p->stop)) return pfi_fail(PF_ERR_CANCELLED, "the pipeline is stopping");
        struct timespec dl = pli_deadline(STUCK_POLL_MS);
        int rc = pthread_cond_timedwait(&d->stg_cv, &d->stg_mu, &dl);
        if (atomic_load(&p->stop)) return pfi_fail(PF_ERR_CANCELLED, "the pipeline is stopping");
        uint64_t now = atomic_load(&d->progress);
        if (rc == ETIMEDOUT && now == seen && d->active == 0 && d->device_idle) {
            if (++strikes >= STUCK_STRIKES) {
                pthread_mutex_unlock(&d->stg_mu);
                fatal_stuck(p, bytes, &ps);
                pthread_mutex_lock(&d->stg_mu);
                return pfi_fail(PF_ERR_CANCELLED, "the pipeline is stopping");
            }
        } else if (now != seen) {
            strikes = 0;
            seen = now;
        }
    }
}

pf_status pli_staging_take(pf_pipeline *p, uint64_t seq, size_t bytes, void **block) {
    pli_device *d = p->dev;
    *block = NULL;
    pthread_mutex_lock(&d->stg_mu);
    d->active--;
    while (d->turn != seq && !atomic_load(&p->stop)) pthread_cond_wait(&d->stg_cv, &d->stg_mu);
    pf_status st = PF_OK;
    if (atomic_load(&p->stop))
        st = pfi_fail(PF_ERR_CANCELLED, "the pipeline is stopping");
    else if (bytes > 0)
        st = alloc_waiting(p, bytes, block);
    if (d->turn == seq) d->turn = seq + 1;
    d->active++;
    pthread_cond_broadcast(&d->stg_cv);
    pthread_mutex_unlock(&d->stg_mu);
    return st;
}
