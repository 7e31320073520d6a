/*
 * The video source's life cycle: configuration defaults and checks, open
 * (every stream's demuxer and decoder first, then the batch slots, the
 * preprocess plan and stream, then the decoder threads), statistics and
 * close (stop flag, wake everyone, join, free).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/video_internal.h"
#include "core/error.h"

#define OP "pf_video_open"
#define MAX_BATCH 4096

pf_video_config pf_video_config_defaults(void) {
    pf_video_config c;
    memset(&c, 0, sizeof c);
    c.batch = 1;
    c.batch_timeout_ms = -1;
    c.queue_depth = 4;
    pf_recipe("yolo", &c.desc, NULL);
    c.color_from_stream = true;
    c.color = pf_color_opts_defaults();
    c.threads = 1;
    c.batches_in_flight = 2;
    return c;
}

static pf_status check_config(const pf_video_config *c) {
    if (c->nsources < 1 || c->nsources > PF_VIDEO_MAX_SOURCES)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->nsources is %d; it must be in [1, %d]", c->nsources,
                        PF_VIDEO_MAX_SOURCES);
    if (c->sources == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->sources is NULL");
    for (int i = 0; i < c->nsources; i++)
        if (c->sources[i] == NULL || c->sources[i][0] == '\0')
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->sources[%d] is %s", i,
                            c->sources[i] ? "empty" : "NULL");
    if (c->batch < 1 || c->batch > MAX_BATCH)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->batch is %d; it must be in [1, %d]", c->batch,
                        MAX_BATCH);
    if (c->batch_timeout_ms < -1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->batch_timeout_ms is %d; use -1 (none) or >= 0",
                        c->batch_timeout_ms);
    if (c->queue_depth < 1 || c->queue_depth > 1024)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->queue_depth is %d; it must be in [1, 1024]",
                        c->queue_depth);
    if (c->decode_threads < 0 || c->decode_threads > 64)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->decode_threads is %d; it must be in [0, 64]",
                        c->decode_threads);
    if (c->threads < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->threads is %d; it must be >= 0", c->threads);
    if (c->batches_in_flight < 1 || c->batches_in_flight > 64)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->batches_in_flight is %d; it must be in [1, 64]",
                        c->batches_in_flight);
    if (c->color.yuv_matrix != PF_YUV_BT601 && c->color.yuv_matrix != PF_YUV_BT709)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->color.yuv_matrix is %d; use PF_YUV_BT601 or PF_YUV_BT709",
                        (int)c->color.yuv_matrix);
    if (c->color.yuv_range != PF_YUV_LIMITED && c->color.yuv_range != PF_YUV_FULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config->color.yuv_range is %d; use PF_YUV_LIMITED or PF_YUV_FULL",
                        (int)c->color.yuv_range);
    if (c->convert != PF_VIDEO_CONVERT_FUSED && c->convert != PF_VIDEO_CONVERT_SWSCALE)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": config->convert is %d; use PF_VIDEO_CONVERT_FUSED or PF_VIDEO_CONVERT_SWSCALE",
                        (int)c->convert);
    return PF_OK;
}

/* Batch slots: tensor storage (64-byte aligned) and frame records. */
static pf_status make_slots(pf_video *v) {
    const pf_preprocess_desc *d = &v->hub.cfg.desc;
    int nb = v->hub.cfg.batch;
    size_t bytes = pf_tensor_packed_size(nb, d->out_channels, d->out_height, d->out_width, d->out_dtype);
    if (bytes == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": the batch tensor's size overflows");
    v->slots = calloc((size_t)v->hub.cfg.batches_in_flight, sizeof *v->slots);
    if (v->slots == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for batch slots");
    for (int k = 0; k < v->hub.cfg.batches_in_flight; k++) {
        pfi_vslot *s = &v->slots[k];
        s->mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
        s->frames = calloc((size_t)nb, sizeof *s->frames);
        s->held = calloc((size_t)nb, sizeof *s->held);
        if (s->mem == NULL || s->frames == NULL || s->held == NULL)
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for a %zu-byte batch tensor", bytes);
        s->batch.tensor = d->out_layout == PF_CHW
                              ? pf_tensor_nchw(s->mem, nb, d->out_channels, d->out_height, d->out_width, d->out_dtype)
                              : pf_tensor_nhwc(s->mem, nb, d->out_channels, d->out_height, d->out_width, d->out_dtype);
        s->batch.frames = s->frames;
    }
    return PF_OK;
}

static void release_slot(pfi_vslot *s) {
    for (int k = 0; k < s->nheld; k++) pfi_vframe_clear(&s->held[k]);
    s->nheld = 0;
    s->busy = 0;
}

pf_status pf_video_open(const pf_video_config *config, pf_video **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": out is NULL");
    *out = NULL;
    if (config == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config is NULL");
    pf_status st = check_config(config);
    if (st != PF_OK) return st;
    pf_video *v = calloc(1, sizeof *v);
    if (v == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory");
    v->hub.cfg = *config;
    v->hub.cfg.sources = NULL; /* the caller's array need not outlive the call */
    v->hub.n = config->nsources;
    atomic_init(&v->hub.stop, 0);
    if (pthread_mutex_init(&v->hub.mu, NULL) != 0) {
        free(v);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": cannot create a mutex");
    }
    if (pfi_video_cond_init(&v->hub.ready) != PF_OK) {
        pthread_mutex_destroy(&v->hub.mu);
        free(v);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": cannot create a condition variable");
    }
    v->streams = calloc((size_t)v->hub.n, sizeof *v->streams);
    if (v->streams == NULL) {
        pf_video_close(v);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d streams", config->nsources);
    }
    /* the cheap checks of the description before any file is opened */
    /* swscale's frames are BGR: the plan swaps so that swap_rb keeps its meaning */
    pf_preprocess_desc desc = v->hub.cfg.desc;
    if (v->hub.cfg.convert == PF_VIDEO_CONVERT_SWSCALE) desc.swap_rb = !desc.swap_rb;
    if ((st = pf_preprocess_plan_create(&desc, &v->plan)) != PF_OK ||
        (st = pf_stream_create_cpu(v->hub.cfg.threads, &v->pstream)) != PF_OK || (st = make_slots(v)) != PF_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", pf_last_error());
        pf_video_close(v);
        return pfi_fail(st, "%s%s", strncmp(msg, OP, strlen(OP)) == 0 ? "" : OP ": config->desc: ", msg);
    }
    for (int i = 0; i < v->hub.n; i++) {
        pfi_vstream *s = &v->streams[i];
        s->id = i;
        s->url = strdup(config->sources[i]);
        if (s->url == NULL) st = pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory");
        else st = pfi_vstream_open(&v->hub, s);
        if (st != PF_OK) {
            pf_video_close(v);
            return st;
        }
    }
    for (int i = 0; i < v->hub.n; i++) {
        if (pthread_create(&v->streams[i].thread, NULL, pfi_vstream_main, &v->streams[i]) != 0) {
            pf_video_close(v);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": cannot start the decoder thread of sources[%d]", i);
        }
        v->streams[i].started = 1;
    }
    *out = v;
    return PF_OK;
}

void pf_video_close(pf_video *v) {
    if (v == NULL) return;
    atomic_store(&v->hub.stop, 1);
    pthread_mutex_lock(&v->hub.mu);
    pthread_cond_broadcast(&v->hub.ready);
    for (int i = 0; v->streams && i < v->hub.n; i++)
        if (v->streams[i].space_ok) pthread_cond_broadcast(&v->streams[i].space);
    pthread_mutex_unlock(&v->hub.mu);
    for (int i = 0; v->streams && i < v->hub.n; i++)
        if (v->streams[i].started) pthread_join(v->streams[i].thread, NULL);
    for (int i = 0; v->streams && i < v->hub.n; i++) {
        pfi_vstream_free(&v->streams[i]);
        free(v->streams[i].url);
    }
    free(v->streams);
    for (int k = 0; v->slots && k < v->hub.cfg.batches_in_flight; k++) {
        release_slot(&v->slots[k]);
        free(v->slots[k].mem);
        free(v->slots[k].frames);
        free(v->slots[k].held);
    }
    free(v->slots);
    pf_preprocess_plan_destroy(v->plan);
    pf_stream_destroy(v->pstream);
    pthread_cond_destroy(&v->hub.ready);
    pthread_mutex_destroy(&v->hub.mu);
    free(v);
}

void pf_video_batch_release(pf_video *v, pf_video_batch *batch) {
    if (v == NULL || batch == NULL) return;
    for (int k = 0; k < v->hub.cfg.batches_in_flight; k++)
        if (&v->slots[k].batch == batch && v->slots[k].busy) release_slot(&v->slots[k]);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank p50/p99/max of v[0..n) (sorted in place); zeros when n = 0. */
static void latency_percentiles(double *v, int64_t n, double *p50, double *p99, double *max) {
    if (n <= 0) return;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *p50 = v[(n * 50 + 99) / 100 - 1];
    *p99 = v[(n * 99 + 99) / 100 - 1];
    *max = v[n - 1];
}

pf_status pf_video_stats_get(const pf_video *v, pf_video_stats *out) {
    pfi_clear_error();
    if (v == NULL || out == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_video_stats_get: %s is NULL", v ? "out" : "video");
    memset(out, 0, sizeof *out);
    pf_video *mv = (pf_video *)v; /* the mutex, not the state, changes */
    pthread_mutex_lock(&mv->hub.mu);
    for (int i = 0; i < v->hub.n; i++) {
        const pfi_vstream *s = &v->streams[i];
        out->frames_decoded += s->decoded;
        out->frames_dropped += s->dropped;
        out->decode_errors += s->decode_errors;
        out->decode_ms += s->busy_s * 1e3;
        out->streams_ended += s->ended;
        out->streams_failed += s->error != NULL;
    }
    out->frames_delivered = v->delivered;
    out->batches = v->batches;
    out->partial_batches = v->partial;
    out->preprocess_ms = v->preprocess_s * 1e3;
    out->wait_ms = v->wait_s * 1e3;
    double *tmp = NULL;
    int64_t n = v->lat_count < PFI_VIDEO_LAT_RING ? v->lat_count : PFI_VIDEO_LAT_RING;
    if (n > 0 && (tmp = malloc((size_t)n * sizeof *tmp)) != NULL) memcpy(tmp, v->lat_ms, (size_t)n * sizeof *tmp);
    pthread_mutex_unlock(&mv->hub.mu);
    if (n > 0 && tmp == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_video_stats_get: out of memory");
    latency_percentiles(tmp, n, &out->latency_p50_ms, &out->latency_p99_ms, &out->latency_max_ms);
    free(tmp);
    return PF_OK;
}

int32_t pf_video_stream_count(const pf_video *v) { return v ? v->hub.n : 0; }

pf_status pf_video_stream_stats_get(const pf_video *v, int32_t stream, pf_video_stream_stats *out) {
    pfi_clear_error();
    if (v == NULL || out == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_video_stream_stats_get: %s is NULL", v ? "out" : "video");
    if (stream < 0 || stream >= v->hub.n)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_video_stream_stats_get: stream is %d; the video has %d (0..%d)",
                        (int)stream, v->hub.n, v->hub.n - 1);
    memset(out, 0, sizeof *out);
    double tmp[PF_VIDEO_STREAM_LAT_WINDOW];
    pf_video *mv = (pf_video *)v; /* the mutex, not the state, changes */
    pthread_mutex_lock(&mv->hub.mu);
    const pfi_vstream *s = &v->streams[stream];
    out->frames_decoded = s->decoded;
    out->frames_delivered = s->delivered;
    out->frames_dropped = s->dropped;
    out->decode_errors = s->decode_errors;
    out->ended = s->ended != 0;
    out->failed = s->error != NULL;
    out->decode_ms = s->busy_s * 1e3;
    int64_t n = s->lat_count < PF_VIDEO_STREAM_LAT_WINDOW ? s->lat_count : PF_VIDEO_STREAM_LAT_WINDOW;
    memcpy(tmp, s->lat_ms, (size_t)n * sizeof *tmp);
    pthread_mutex_unlock(&mv->hub.mu);
    latency_percentiles(tmp, n, &out->latency_p50_ms, &out->latency_p99_ms, &out->latency_max_ms);
    return PF_OK;
}

const char *pf_video_stream_error(const pf_video *v, int stream) {
    if (v == NULL || stream < 0 || stream >= v->hub.n) return NULL;
    pf_video *mv = (pf_video *)v;
    pthread_mutex_lock(&mv->hub.mu);
    const char *e = v->streams[stream].error;
    pthread_mutex_unlock(&mv->hub.mu);
    return e;
}
