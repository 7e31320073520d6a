/*
 * The device placement's device stage and its resources (see pipeline.h,
 * "Device placement"). One thread takes collated batches in order; per
 * batch it
 *   1. allocates one block of the device pool for all the batch's decoded
 *      images and queues their copies on the upload stream (one
 *      pf_image_copy_async each), records `uploaded`, and returns the
 *      pinned staging blocks to their pool in upload-stream order;
 *   2. takes a free device tensor, makes the compute stream wait for the
 *      consumer's release of it and for the upload, runs pf_preprocess_run
 *      with device views on the compute stream, records the tensor's
 *      `ready` event, and returns the device image block in compute-stream
 *      order;
 *   3. hands the batch to the consumer.
 * Nothing here waits for the device: the upload of batch k+1 is queued
 * while the preprocess of batch k may still run (two streams), and the
 * pools reuse blocks only once the stream work that used them is done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_device.h"
#include "pipeline/pipeline_dispatch.h"
#ifdef PF_HAVE_CODEC
#include "pixflow/codec.h"
#endif

#define DEVICE_ALIGN 256
#define MIB ((size_t)1 << 20)

/* ------------------------------------------------------------- setup */

static pf_status fail_setup(pf_status st, const char *what) {
    char why[512];
    snprintf(why, sizeof why, "%s", pf_last_error());
    return pfi_fail(st, "pf_pipeline_create: %s for config.augment_device failed: %s", what, why);
}

pf_status pli_device_setup(pf_pipeline *p) {
    const pf_pipeline_config *c = &p->cfg;
    pli_device *d = calloc(1, sizeof *d);
    if (d == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    p->dev = d;
    pthread_mutex_init(&d->dt_mu, NULL);
    pli_cond_init(&d->dt_cv);
    pthread_mutex_init(&d->stg_mu, NULL);
    pli_cond_init(&d->stg_cv);
    atomic_init(&d->progress, 0);
    pf_device_props props;
    pf_status st = pf_device_props_get(c->augment_device, &props);
    if (st != PF_OK) return fail_setup(st, "reading the device");
    if ((st = pf_device_open(props.kind, props.index, &d->dev)) != PF_OK) return fail_setup(st, "opening the device");
    /* the views of the device's memory: CUDA device memory, OpenCL SVM
     * (the pools and pf_malloc of an OpenCL device hand out SVM pointers
     * that its fused preprocess takes), or host memory on the CPU device */
    d->mem = props.kind == PF_DEVICE_CUDA ? PF_MEM_CUDA : props.kind == PF_DEVICE_OPENCL ? PF_MEM_OPENCL : PF_MEM_HOST;
    d->index = props.kind != PF_DEVICE_CPU ? props.index : 0;
    d->staging_cap = c->staging_bytes;
    if (d->staging_cap == 0) {
        d->staging_cap = (size_t)c->batch_size * MIB * (size_t)(c->prefetch_batches + 2);
        if (d->staging_cap < 64 * MIB) d->staging_cap = 64 * MIB;
    }
    /* on the CPU device the upload is a plain copy: a one-thread stream
     * (pf_stream_create would start a thread per core for nothing) */
    st = props.kind == PF_DEVICE_CPU ? pf_stream_create_cpu(1, &d->upload) : pf_stream_create(d->dev, &d->upload);
    if (st != PF_OK) return fail_setup(st, "creating the upload stream");
    if ((st = pf_stream_create(d->dev, &d->compute)) != PF_OK) return fail_setup(st, "creating the compute stream");
    if ((st = pf_event_create(d->dev, &d->uploaded)) != PF_OK) return fail_setup(st, "creating an event");
    if ((st = pf_pool_create(d->dev, PF_ALLOC_PINNED, d->staging_cap, &d->pinned)) != PF_OK)
        return fail_setup(st, "creating the pinned staging pool");
    if ((st = pf_pool_create(d->dev, PF_ALLOC_DEVICE, d->staging_cap, &d->device_pool)) != PF_OK)
        return fail_setup(st, "creating the device image pool");
    if ((st = pf_preprocess_plan_create(&c->desc, &d->plan)) != PF_OK) return st;
    /* the policy is checked now, as the default sample function's
     * worker_create does */
    int32_t one = 64;
    pf_aug_params probe;
    if ((st = pf_aug_sample(&c->policy, 0, 0, 0, 1, &one, &one, &probe)) != PF_OK) return st;
    for (int i = 0; i < PLI_DTENSORS; i++) {
        pli_dtensor *t = &d->dt[i];
        if ((st = pf_malloc(d->dev, PF_ALLOC_DEVICE, p->batch_bytes, &t->data)) != PF_OK)
            return fail_setup(st, "allocating a device batch tensor");
        if ((st = pf_event_create(d->dev, &t->ready)) != PF_OK || (st = pf_event_create(d->dev, &t->released)) != PF_OK)
            return fail_setup(st, "creating an event");
        t->next_free = d->dt_free;
        d->dt_free = t;
        d->ndt_free++;
    }
    int32_t B = c->batch_size;
    d->cap_samples = B;
    d->hviews = calloc((size_t)B, sizeof *d->hviews);
    d->dviews = calloc((size_t)B, sizeof *d->dviews);
    d->params = calloc((size_t)B, sizeof *d->params);
    d->info = calloc((size_t)B, sizeof *d->info);
    d->offsets = calloc((size_t)B, sizeof *d->offsets);
    if (!d->hviews || !d->dviews || !d->params || !d->info || !d->offsets)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    for (int32_t i = 0; i < p->nbufs; i++) {
        p->bufs[i].staged = calloc((size_t)B, sizeof *p->bufs[i].staged);
        if (p->bufs[i].staged == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    }
#ifdef PF_HAVE_CODEC
    d->decoders = calloc((size_t)p->nworkers, sizeof *d->decoders);
    if (d->decoders == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    for (int32_t w = 0; w < p->nworkers; w++) {
        pf_decoder *dec;
        if ((st = pf_decoder_create(&dec)) != PF_OK) return st;
        d->decoders[w] = dec;
        d->ndecoders = w + 1;
    }
#endif
    if (pli_queue_init(&p->dev_q, p->nbufs + 1)) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: out of memory");
    return PF_OK;
}

/* ------------------------------------------------------ device stage */

void pli_staged_release(pf_pipeline *p, pli_buf *b) {
    if (p->dev == NULL || b->staged == NULL) return;
    bool any = false;
    for (int32_t s = 0; s < p->cfg.batch_size; s++)
        if (b->staged[s].block) {
            pf_pool_free(p->dev->pinned, b->staged[s].block, NULL);
            b->staged[s].block = NULL;
            any = true;
        }
    if (any) pli_staging_freed(p);
}

static pli_dtensor *take_dtensor(pf_pipeline *p, uint64_t *waited_ns) {
    pli_device *d = p->dev;
    uint64_t t0 = 0;
    pthread_mutex_lock(&d->dt_mu);
    while (d->dt_free == NULL && !atomic_load(&p->stop)) {
        if (t0 == 0) t0 = pli_now_ns();
        pthread_cond_wait(&d->dt_cv, &d->dt_mu);
    }
    pli_dtensor *t = NULL;
    if (!atomic_load(&p->stop)) {
        t = d->dt_free;
        d->dt_free = t->next_free;
        d->ndt_free--;
    }
    pthread_mutex_unlock(&d->dt_mu);
    *waited_ns = t0 ? pli_now_ns() - t0 : 0;
    return t;
}

static void give_dtensor(pf_pipeline *p, pli_dtensor *t) {
    pli_device *d = p->dev;
    pthread_mutex_lock(&d->dt_mu);
    t->next_free = d->dt_free;
    d->dt_free = t;
    d->ndt_free++;
    pthread_cond_signal(&d->dt_cv);
    pthread_mutex_unlock(&d->dt_mu);
}

static pf_status batch_fail(pli_buf *b, pf_status st, const char *step) {
    b->fail_status = st;
    snprintf(b->fail_reason, sizeof b->fail_reason, "pf_pipeline_next: batch %llu of epoch %llu failed in the device stage (%s): %.300s",
             (unsigned long long)b->batch.batch_index, (unsigned long long)b->batch.epoch, step, pf_last_error());
    return st;
}

/* Step 1: the batch's decoded images -> one device block. */
static pf_status upload(pf_pipeline *p, pli_buf *b, int32_t n, void **dblock) {
    pli_device *d = p->dev;
    size_t total = 0;
    for (int32_t i = 0; i < n; i++) {
        const pli_staged *sg = &b->staged[i];
        d->offsets[i] = total;
        d->hviews[i] = pf_image_hwc(sg->block, sg->width, sg->height, sg->channels, PF_U8, 0);
        size_t bytes = (size_t)sg->width * (size_t)sg->height * (size_t)sg->channels;
        total += (bytes + DEVICE_ALIGN - 1) / DEVICE_ALIGN * DEVICE_ALIGN;
    }
    pf_status st = pf_pool_alloc(d->device_pool, total, d->upload, dblock);
    if (st != PF_OK) return batch_fail(b, st, "device image pool");
    for (int32_t i = 0; i < n; i++) {
        d->dviews[i] = d->hviews[i];
        d->dviews[i].data = (char *)*dblock + d->offsets[i];
        d->dviews[i].mem = d->mem;
        d->dviews[i].device = d->index;
        st = pf_image_copy_async(d->upload, &d->hviews[i], &d->dviews[i]);
        if (st != PF_OK) return batch_fail(b, st, "upload");
    }
    if ((st = pf_event_record(d->uploaded, d->upload)) != PF_OK) return batch_fail(b, st, "upload event");
    /* the staging blocks are free once the copies ran */
    for (int32_t i = 0; i < n; i++) {
        pf_pool_free(d->pinned, b->staged[i].block, d->upload);
        b->staged[i].block = NULL;
    }
    pli_staging_freed(p);
    return PF_OK;
}

/* Step 2: the preprocess into a device tensor. */
static pf_status preprocess(pf_pipeline *p, pli_buf *b, int32_t n, pli_dtensor *t) {
    pli_device *d = p->dev;
    pf_status st = PF_OK;
    if (t->released_recorded && (st = pf_stream_wait_event(d->compute, t->released)) != PF_OK)
        return batch_fail(b, st, "waiting for the consumer's release");
    t->released_recorded = false;
    if ((st = pf_stream_wait_event(d->compute, d->uploaded)) != PF_OK) return batch_fail(b, st, "waiting for the upload");
    for (int32_t i = 0; i < n; i++) d->params[i] = b->staged[i].params;
    pf_tensor dst = p->slot_proto;
    dst.data = t->data;
    dst.n = n;
    dst.mem = d->mem;
    dst.device = d->index;
    if ((st = pli_augment_batch(p, d->plan, d->compute, n, d->dviews, d->params, &dst, d->info)) != PF_OK)
        return batch_fail(b, st, "pf_preprocess_run");
    if ((st = pf_event_record(t->ready, d->compute)) != PF_OK) return batch_fail(b, st, "ready event");
    b->batch.tensor = dst;
    for (int32_t i = 0; i < n; i++) { /* as pf_decode_augment maps it back to the source */
        pf_letterbox_info li = d->info[i];
        li.crop_x += b->staged[i].roi_x;
        li.crop_y += b->staged[i].roi_y;
        b->meta[i].letterbox = li;
    }
    return PF_OK;
}

/* *waited_ns: time spent waiting for a free device tensor. */
static void device_batch(pf_pipeline *p, pli_buf *b, uint64_t *waited_ns) {
    pli_device *d = p->dev;
    int32_t n = b->batch.count;
    void *dblock = NULL;
    pf_status st = upload(p, b, n, &dblock);
    pli_dtensor *t = NULL;
    if (st == PF_OK) {
        t = take_dtensor(p, waited_ns);
        if (t == NULL) st = batch_fail(b, PF_ERR_CANCELLED, "stopping");
        else st = preprocess(p, b, n, t);
    }
    if (st == PF_OK) {
        b->dt = t;
        pf_pool_free(d->device_pool, dblock, d->compute);
        return;
    }
    /* a failed batch: let the streams drain so nothing queued still uses
     * the blocks, then return everything */
    (void)pf_stream_synchronize(d->upload);
    (void)pf_stream_synchronize(d->compute);
    if (dblock) pf_pool_free(d->device_pool, dblock, NULL);
    if (t) give_dtensor(p, t);
    pli_staged_release(p, b);
}

static void *device_main(void *arg) {
    pf_pipeline *p = arg;
    for (;;) {
        void *v;
        uint64_t waited = 0;
        pli_staging_set_idle(p, true);
        pli_qresult r = pli_queue_get(&p->dev_q, &v, -1, &waited);
        pli_staging_set_idle(p, false);
        p->st_device.wait_ns += waited;
        if (r != PLI_Q_OK) return NULL;
        if (v == &p->end_marker) {
            pli_queue_put(&p->ready_q, v, -1, NULL);
            return NULL;
        }
        pli_buf *b = v;
        uint64_t t0 = pli_now_ns(), dt_wait = 0;
        b->dt = NULL;
        if (b->fail_status == PF_OK) device_batch(p, b, &dt_wait);
        else pli_staged_release(p, b);
        pli_stage_observe(&p->st_device, pli_now_ns() - t0 - dt_wait);
        p->st_device.wait_ns += dt_wait;
        p->st_device.items++;
        if (pli_queue_put(&p->ready_q, b, -1, NULL) != PLI_Q_OK) return NULL;
    }
}

pf_status pli_device_start(pf_pipeline *p) {
    if (pthread_create(&p->dev->thread, NULL, device_main, p) != 0)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pipeline_create: cannot start the device thread");
    p->dev->started = true;
    return PF_OK;
}

/* ---------------------------------------------------------- consumer */

pf_status pli_device_deliver(pf_pipeline *p, pli_buf *b) {
    pli_device *d = p->dev;
    pf_status st = p->cfg.consumer_stream ? pf_stream_wait_event(p->cfg.consumer_stream, b->dt->ready)
                                          : pf_event_synchronize(b->dt->ready);
    if (st != PF_OK) {
        char why[400];
        snprintf(why, sizeof why, "%s", pf_last_error());
        (void)pf_stream_synchronize(d->compute);
        give_dtensor(p, b->dt);
        b->dt = NULL;
        return pfi_fail(st, "pf_pipeline_next: batch %llu of epoch %llu: the device work failed: %s",
                        (unsigned long long)b->batch.batch_index, (unsigned long long)b->batch.epoch, why);
    }
    return PF_OK;
}

void pli_device_release(pf_pipeline *p, pli_buf *b) {
    pli_dtensor *t = b->dt;
    if (t == NULL) return;
    b->dt = NULL;
    pf_stream *cs = p->cfg.consumer_stream;
    t->released_recorded = false;
    if (cs != NULL) {
        if (pf_event_record(t->released, cs) == PF_OK)
            t->released_recorded = true;
        else
            (void)pf_stream_synchronize(cs); /* cannot order it: wait instead */
    }
    give_dtensor(p, t);
}

void pli_device_stats(pf_pipeline *p, pf_pipeline_stats *s) {
    pli_device *d = p->dev;
    pf_stage_stats *g = &s->stage[3];
    g->name = "device";
    if (d == NULL) return;
    g->threads = 1;
    g->items = atomic_load(&p->st_device.items);
    g->busy_s = (double)atomic_load(&p->st_device.busy_ns) / 1e9;
    g->wait_s = (double)atomic_load(&p->st_device.wait_ns) / 1e9;
    g->queue_depth = pli_queue_depth(&p->dev_q);
    g->queue_capacity = p->dev_q.capacity;
    pf_pool_stats_get(d->pinned, &s->staging_pinned);
    pf_pool_stats_get(d->device_pool, &s->staging_device);
    pthread_mutex_lock(&d->dt_mu);
    s->device_tensors = PLI_DTENSORS;
    s->device_tensors_free = d->ndt_free;
    pthread_mutex_unlock(&d->dt_mu);
}

/* ----------------------------------------------------------- teardown */

void pli_device_wake(pf_pipeline *p) {
    pli_device *d = p->dev;
    if (d == NULL) return;
    if (p->dev_q.ring) pli_queue_close(&p->dev_q);
    pthread_mutex_lock(&d->dt_mu);
    pthread_cond_broadcast(&d->dt_cv);
    pthread_mutex_unlock(&d->dt_mu);
    pthread_mutex_lock(&d->stg_mu);
    pthread_cond_broadcast(&d->stg_cv);
    pthread_mutex_unlock(&d->stg_mu);
}

void pli_device_join(pf_pipeline *p) {
    if (p->dev && p->dev->started) pthread_join(p->dev->thread, NULL);
}

void pli_device_free(pf_pipeline *p) {
    pli_device *d = p->dev;
    if (d == NULL) return;
    if (d->upload) (void)pf_stream_synchronize(d->upload);
    if (d->compute) (void)pf_stream_synchronize(d->compute);
    if (p->cfg.consumer_stream) (void)pf_stream_synchronize(p->cfg.consumer_stream);
    for (int i = 0; i < PLI_DTENSORS; i++) {
        pf_free(d->dev, PF_ALLOC_DEVICE, d->dt[i].data);
        pf_event_destroy(d->dt[i].ready);
        pf_event_destroy(d->dt[i].released);
    }
    for (int32_t i = 0; i < p->nbufs && p->bufs; i++) {
        free(p->bufs[i].staged); /* blocks: the pool frees them */
        p->bufs[i].staged = NULL;
    }
#ifdef PF_HAVE_CODEC
    for (int32_t w = 0; w < d->ndecoders; w++) pf_decoder_destroy(d->decoders[w]);
#endif
    free(d->decoders);
    pf_pool_destroy(d->pinned);
    pf_pool_destroy(d->device_pool);
    pf_preprocess_plan_destroy(d->plan);
    pf_event_destroy(d->uploaded);
    pf_stream_destroy(d->upload);
    pf_stream_destroy(d->compute);
    free(d->hviews);
    free(d->dviews);
    free(d->params);
    free(d->info);
    free(d->offsets);
    pli_queue_free(&p->dev_q);
    pthread_mutex_destroy(&d->dt_mu);
    pthread_cond_destroy(&d->dt_cv);
    pthread_mutex_destroy(&d->stg_mu);
    pthread_cond_destroy(&d->stg_cv);
    pf_device_close(d->dev);
    free(d);
    p->dev = NULL;
}
