/* The pipeline's stage latency histograms and the metrics snapshot
 * (include/pixflow/metrics.h): everything a scrape reads, gathered in one
 * place from the public *_stats_get calls plus the two things only the
 * pipeline's internals know (the histograms and the ready queue's depth). */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_internal.h"
#include "pixflow/metrics.h"

static const uint64_t bounds_ns[PLI_HIST_BUCKETS] = PLI_HIST_BOUNDS_NS;
static const double bounds_s[PF_METRICS_BUCKETS] = {50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3,
                                                   25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1.0, 2.5};
_Static_assert(PLI_HIST_BUCKETS == PF_METRICS_BUCKETS, "the internal and public bucket counts must agree");

const double *pf_metrics_bucket_bounds(void) { return bounds_s; }

void pli_stage_observe(pli_stage *s, uint64_t ns) {
    int k = 0;
    while (k < PLI_HIST_BUCKETS && ns > bounds_ns[k]) k++; /* Prometheus buckets are "le": <= bound */
    atomic_fetch_add_explicit(&s->hist[k], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->busy_ns, ns, memory_order_relaxed);
}

static void read_hist(pli_stage *s, pf_stage_histogram *h) {
    memset(h, 0, sizeof *h);
    for (int k = 0; k <= PLI_HIST_BUCKETS; k++) {
        h->counts[k] = atomic_load_explicit(&s->hist[k], memory_order_relaxed);
        h->count += h->counts[k];
    }
    h->sum_s = (double)atomic_load(&s->busy_ns) / 1e9;
}

pf_status pf_pipeline_histograms_get(const pf_pipeline *cp, pf_stage_histogram out[PF_PIPELINE_STAGES]) {
    pfi_clear_error();
    if (cp == NULL || out == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pipeline_histograms_get: %s is NULL", cp ? "out" : "p");
    pf_pipeline *p = (pf_pipeline *)(uintptr_t)cp; /* atomics only */
    read_hist(&p->st_read, &out[0]);
    read_hist(&p->st_work, &out[1]);
    read_hist(&p->st_collate, &out[2]);
    read_hist(&p->st_device, &out[3]);
    return PF_OK;
}

static void label_copy(char dst[PF_METRICS_LABEL], const char *src, const char *fallback) {
    snprintf(dst, PF_METRICS_LABEL, "%s", src ? src : fallback);
}

static void add_pool(pf_metrics_snapshot *o, const char *name, const char *device, const pf_pool_stats *st) {
    label_copy(o->pools[o->npools].name, name, "");
    label_copy(o->pools[o->npools].device, device, "cpu");
    o->pools[o->npools].stats = *st;
    o->npools++;
}

pf_status pf_metrics_snapshot_take(const pf_metrics_sources *src, pf_metrics_snapshot *o) {
    pfi_clear_error();
    if (src == NULL || o == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_metrics_snapshot_take: %s is NULL", src ? "out" : "src");
    if (src->npools < 0 || src->npools > PF_METRICS_MAX_POOLS || (src->npools > 0 && src->pools == NULL))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_metrics_snapshot_take: src->npools %d must be 0..%d with src->pools set",
                        (int)src->npools, PF_METRICS_MAX_POOLS);
    for (int32_t i = 0; i < src->npools; i++)
        if (src->pools[i].name == NULL || src->pools[i].pool == NULL)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_metrics_snapshot_take: src->pools[%d] needs a name and a pool",
                            (int)i);
#ifndef PF_HAVE_VIDEO
    if (src->video != NULL)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_metrics_snapshot_take: src->video given, but this build has no video");
#endif
    memset(o, 0, sizeof *o);
    for (int32_t i = 0; i < src->npools; i++) {
        pf_pool_stats st;
        pf_status s = pf_pool_stats_get(src->pools[i].pool, &st);
        if (s != PF_OK) return s;
        add_pool(o, src->pools[i].name, src->pools[i].device, &st);
    }
    if (src->pipeline) {
        pf_status s = pf_pipeline_stats_get(src->pipeline, &o->pipeline);
        if (s == PF_OK) s = pf_pipeline_histograms_get(src->pipeline, o->hist);
        if (s != PF_OK) return s;
        o->has_pipeline = true;
        label_copy(o->device, src->device, "cpu");
        pf_pipeline *p = (pf_pipeline *)(uintptr_t)src->pipeline; /* the queue's lock only */
        o->backlog_batches = pli_queue_depth(&p->ready_q);
        if (o->pipeline.stage[3].threads > 0) { /* device placement: its staging pools */
            add_pool(o, "staging_pinned", "cpu", &o->pipeline.staging_pinned);
            add_pool(o, "staging_device", o->device, &o->pipeline.staging_device);
        }
    }
#ifdef PF_HAVE_VIDEO
    if (src->video) {
        pf_status s = pf_video_stats_get(src->video, &o->video);
        if (s != PF_OK) return s;
        o->video_nstreams = pf_video_stream_count(src->video);
        for (int32_t i = 0; i < o->video_nstreams; i++)
            if ((s = pf_video_stream_stats_get(src->video, i, &o->video_streams[i])) != PF_OK) return s;
        o->has_video = true;
        label_copy(o->video_name, src->video_name, "video");
    }
#endif
    if (src->infer) {
        o->infer = *src->infer;
        o->has_infer = true;
    }
    /* a pipeline whose augment runs through a dispatcher reports it too */
    const pf_dispatch *disp = src->dispatch;
    if (disp == NULL && src->pipeline) disp = src->pipeline->cfg.augment_dispatch;
    if (disp) {
        pf_status s = pf_dispatch_stats_get(disp, &o->dispatch);
        if (s != PF_OK) return s;
        int n = pf_dispatch_device_count(disp);
        o->dispatch_ndev = n < PF_METRICS_MAX_DISPATCH_DEVICES ? n : PF_METRICS_MAX_DISPATCH_DEVICES;
        for (int32_t i = 0; i < o->dispatch_ndev; i++)
            if ((s = pf_dispatch_device_stats_get(disp, i, &o->dispatch_dev[i])) != PF_OK) return s;
        o->has_dispatch = true;
    }
    return PF_OK;
}
