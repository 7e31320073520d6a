/* The Prometheus text exposition writer (include/pixflow/metrics.h): a
 * snapshot in, text out. Sizing and writing are one pass (the length is
 * counted past the end of the buffer, as snprintf does), so the names live
 * in one place. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "pixflow/metrics.h"

size_t pf_metrics_escape_label(const char *v, char *out, size_t cap) {
    size_t n = 0;
    for (const char *c = v ? v : ""; *c; c++) {
        char e[2] = {*c, 0};
        size_t k = 1;
        if (*c == '\\' || *c == '"' || *c == '\n') { /* the format's three escapes */
            e[0] = '\\';
            e[1] = *c == '\n' ? 'n' : *c;
            k = 2;
        }
        for (size_t j = 0; j < k; j++, n++)
            if (n + 1 < cap) out[n] = e[j];
    }
    if (cap > 0) out[n < cap ? n : cap - 1] = '\0';
    return n;
}

typedef struct wr {
    char *buf;
    size_t cap, len;
} wr;

static void put(wr *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(wr *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = w->len < w->cap ? w->cap - w->len : 0;
    int n = vsnprintf(room ? w->buf + w->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) w->len += (size_t)n;
}

static void head(wr *w, const char *name, const char *type, const char *help) {
    put(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A value as the format wants it: integers exactly, the rest with 17
 * significant digits, non-finite as +Inf/-Inf/NaN. */
static void num(wr *w, double v) {
    if (isnan(v)) put(w, "NaN");
    else if (isinf(v)) put(w, v > 0 ? "+Inf" : "-Inf");
    else if (v == floor(v) && fabs(v) < 9e15) put(w, "%.0f", v);
    else put(w, "%.17g", v);
}

/* name{k1="v1",k2="v2"} value: values escaped; NULL key ends the list. */
static void sample(wr *w, const char *name, double v, const char *k1, const char *v1, const char *k2, const char *v2) {
    char e1[2 * PF_METRICS_LABEL + 8], e2[2 * PF_METRICS_LABEL + 8];
    put(w, "%s", name);
    if (k1) {
        pf_metrics_escape_label(v1, e1, sizeof e1);
        put(w, "{%s=\"%s\"", k1, e1);
        if (k2) {
            pf_metrics_escape_label(v2, e2, sizeof e2);
            put(w, ",%s=\"%s\"", k2, e2);
        }
        put(w, "}");
    }
    put(w, " ");
    num(w, v);
    put(w, "\n");
}

static void one(wr *w, const char *name, const char *type, const char *help, double v, const char *k, const char *kv) {
    head(w, name, type, help);
    sample(w, name, v, k, kv, NULL, NULL);
}

static void pipeline_text(wr *w, const pf_metrics_snapshot *s) {
    const pf_pipeline_stats *p = &s->pipeline;
    const char *dev = s->device;
    one(w, "pixflow_samples_total", "counter", "Samples in batches delivered to the consumer.", (double)p->samples,
        "device", dev);
    one(w, "pixflow_batches_total", "counter", "Batches delivered to the consumer.", (double)p->batches, "device", dev);
    one(w, "pixflow_skipped_samples_total", "counter", "Samples that failed to read or decode (skipped files).",
        (double)p->skipped, "device", dev);
    one(w, "pixflow_failed_batches_total", "counter", "Batches failed under on_error=fail.", (double)p->failed_batches,
        "device", dev);
    one(w, "pixflow_consumer_wait_seconds_total", "counter",
        "Time the consumer blocked waiting for a batch (starvation).", p->starvation_s, "device", dev);
    one(w, "pixflow_backlog_batches", "gauge", "Batches ready and waiting for the consumer.",
        (double)s->backlog_batches, "device", dev);
    one(w, "pixflow_elapsed_seconds", "gauge", "Time since the pipeline was created.", p->elapsed_s, "device", dev);

    const double *b = pf_metrics_bucket_bounds();
    head(w, "pixflow_stage_latency_seconds", "histogram", "Duration of one busy interval of a stage.");
    for (int i = 0; i < PF_PIPELINE_STAGES; i++) {
        if (p->stage[i].threads == 0) continue;
        const pf_stage_histogram *h = &s->hist[i];
        uint64_t cum = 0;
        char le[32];
        for (int k = 0; k <= PF_METRICS_BUCKETS; k++) {
            cum += h->counts[k];
            if (k < PF_METRICS_BUCKETS) snprintf(le, sizeof le, "%g", b[k]);
            else snprintf(le, sizeof le, "+Inf");
            sample(w, "pixflow_stage_latency_seconds_bucket", (double)cum, "stage", p->stage[i].name, "le", le);
        }
        sample(w, "pixflow_stage_latency_seconds_sum", h->sum_s, "stage", p->stage[i].name, NULL, NULL);
        sample(w, "pixflow_stage_latency_seconds_count", (double)h->count, "stage", p->stage[i].name, NULL, NULL);
    }
    static const struct {
        const char *name, *type, *help;
    } per_stage[] = {
        {"pixflow_stage_busy_seconds_total", "counter", "Busy time of a stage, summed over its threads."},
        {"pixflow_stage_wait_seconds_total", "counter", "Time a stage blocked on input or output, summed."},
        {"pixflow_stage_threads", "gauge", "Threads of a stage."},
        {"pixflow_queue_depth", "gauge", "Items waiting in a stage's input queue."},
        {"pixflow_queue_capacity", "gauge", "Capacity of a stage's input queue."},
    };
    for (size_t m = 0; m < sizeof per_stage / sizeof per_stage[0]; m++) {
        head(w, per_stage[m].name, per_stage[m].type, per_stage[m].help);
        for (int i = 0; i < PF_PIPELINE_STAGES; i++) {
            const pf_stage_stats *g = &p->stage[i];
            if (g->threads == 0) continue;
            double v = m == 0 ? g->busy_s : m == 1 ? g->wait_s : m == 2 ? g->threads : m == 3 ? g->queue_depth
                                                                                             : g->queue_capacity;
            if (m >= 3 && g->queue_capacity == 0) continue; /* a stage without an input queue */
            sample(w, per_stage[m].name, v, "stage", g->name, NULL, NULL);
        }
    }
    /* the preprocess runs on the device stage with device placement, else
     * on the decode_augment workers */
    const pf_stage_stats *g = p->stage[3].threads > 0 ? &p->stage[3] : &p->stage[1];
    one(w, "pixflow_device_busy_seconds_total", "counter", "Busy time of the stage running the preprocess.", g->busy_s,
        "device", dev);
    one(w, "pixflow_device_workers", "gauge", "Threads summed into pixflow_device_busy_seconds_total.",
        (double)g->threads, "device", dev);
    double denom = p->elapsed_s * (g->threads > 0 ? g->threads : 1);
    one(w, "pixflow_device_busy_ratio", "gauge", "Busy fraction of the preprocess stage since the pipeline started.",
        denom > 0 ? g->busy_s / denom : 0.0, "device", dev);
    /* gauges, not a summary: the percentiles come from a window of the
     * last batches, with no _sum/_count to go with them */
    one(w, "pixflow_batch_latency_p50_seconds", "gauge", "Median batch latency (first read to ready), last 1024 batches.",
        p->latency_p50_ms / 1e3, "device", dev);
    one(w, "pixflow_batch_latency_p99_seconds", "gauge", "99th percentile batch latency, last 1024 batches.",
        p->latency_p99_ms / 1e3, "device", dev);
}

static void pools_text(wr *w, const pf_metrics_snapshot *s) {
    static const struct {
        const char *name, *type, *help;
    } m[] = {
        {"pixflow_pool_in_use_bytes", "gauge", "Bytes handed out and not freed."},
        {"pixflow_pool_reserved_bytes", "gauge", "Bytes held from the backend (in use + cached)."},
        {"pixflow_pool_peak_reserved_bytes", "gauge", "Peak of pixflow_pool_reserved_bytes."},
        {"pixflow_pool_cap_bytes", "gauge", "Hard cap of the pool."},
        {"pixflow_pool_fragmentation_ratio", "gauge", "(reserved - in use) / reserved: held but handed to nobody."},
        {"pixflow_pool_allocs_total", "counter", "Allocations served."},
        {"pixflow_pool_reuses_total", "counter", "Allocations served without growing the pool."},
    };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        head(w, m[k].name, m[k].type, m[k].help);
        for (int32_t i = 0; i < s->npools; i++) {
            const pf_pool_stats *st = &s->pools[i].stats;
            double frag = st->reserved > 0 ? (double)(st->reserved - (st->in_use < st->reserved ? st->in_use : st->reserved)) /
                                                 (double)st->reserved
                                           : 0.0;
            double v = k == 0 ? (double)st->in_use : k == 1 ? (double)st->reserved : k == 2 ? (double)st->peak_reserved
                     : k == 3 ? (double)st->cap : k == 4 ? frag : k == 5 ? (double)st->allocs : (double)st->reuses;
            sample(w, m[k].name, v, "pool", s->pools[i].name, "device", s->pools[i].device);
        }
    }
}

static void video_text(wr *w, const pf_metrics_snapshot *s) {
    const pf_video_stats *v = &s->video;
    const char *src = s->video_name;
    one(w, "pixflow_video_frames_decoded_total", "counter", "Frames out of the decoders.", (double)v->frames_decoded,
        "source", src);
    one(w, "pixflow_video_frames_delivered_total", "counter", "Frames written into batches.",
        (double)v->frames_delivered, "source", src);
    one(w, "pixflow_video_frames_dropped_total", "counter", "Real-time mode: frames replaced by a newer one.",
        (double)v->frames_dropped, "source", src);
    one(w, "pixflow_video_decode_errors_total", "counter", "Packets the decoders rejected.", (double)v->decode_errors,
        "source", src);
    one(w, "pixflow_video_batches_total", "counter", "Video batches delivered.", (double)v->batches, "source", src);
    one(w, "pixflow_video_consumer_wait_seconds_total", "counter", "Time pf_video_next waited for frames.",
        v->wait_ms / 1e3, "source", src);
    one(w, "pixflow_video_decode_seconds_total", "counter", "Decoder threads' busy time, summed.", v->decode_ms / 1e3,
        "source", src);
    one(w, "pixflow_video_streams_ended", "gauge", "Streams at their end.", (double)v->streams_ended, "source", src);
    one(w, "pixflow_video_streams_failed", "gauge", "Streams stopped by an error.", (double)v->streams_failed, "source",
        src);
    one(w, "pixflow_video_latency_p50_seconds", "gauge", "Median capture-to-tensor latency, last 4096 frames.",
        v->latency_p50_ms / 1e3, "source", src);
    one(w, "pixflow_video_latency_p99_seconds", "gauge", "99th percentile capture-to-tensor latency, last 4096 frames.",
        v->latency_p99_ms / 1e3, "source", src);
    one(w, "pixflow_video_latency_max_seconds", "gauge", "Largest capture-to-tensor latency, last 4096 frames.",
        v->latency_max_ms / 1e3, "source", src);
}

/* One family over the video's streams (labels source, stream); get reads
 * the member. */
typedef double (*stream_get)(const pf_video_stream_stats *);
static void per_stream(wr *w, const pf_metrics_snapshot *s, const char *name, const char *type, const char *help,
                       stream_get get) {
    head(w, name, type, help);
    for (int32_t i = 0; i < s->video_nstreams; i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%d", (int)i);
        sample(w, name, get(&s->video_streams[i]), "source", s->video_name, "stream", idx);
    }
}

static double st_decoded(const pf_video_stream_stats *t) { return (double)t->frames_decoded; }
static double st_delivered(const pf_video_stream_stats *t) { return (double)t->frames_delivered; }
static double st_dropped(const pf_video_stream_stats *t) { return (double)t->frames_dropped; }
static double st_errors(const pf_video_stream_stats *t) { return (double)t->decode_errors; }
static double st_decode_s(const pf_video_stream_stats *t) { return t->decode_ms / 1e3; }
static double st_p99_s(const pf_video_stream_stats *t) { return t->latency_p99_ms / 1e3; }
static double st_ended(const pf_video_stream_stats *t) { return (double)t->ended; }
static double st_failed(const pf_video_stream_stats *t) { return (double)t->failed; }

static void video_streams_text(wr *w, const pf_metrics_snapshot *s) {
    per_stream(w, s, "pixflow_video_stream_frames_decoded_total", "counter", "Frames out of a stream's decoder.",
               st_decoded);
    per_stream(w, s, "pixflow_video_stream_frames_delivered_total", "counter",
               "A stream's frames written into batches.", st_delivered);
    per_stream(w, s, "pixflow_video_stream_frames_dropped_total", "counter",
               "Real-time mode: a stream's frames replaced by a newer one.", st_dropped);
    per_stream(w, s, "pixflow_video_stream_decode_errors_total", "counter", "Packets a stream's decoder rejected.",
               st_errors);
    per_stream(w, s, "pixflow_video_stream_decode_seconds_total", "counter", "A stream's decoder thread busy time.",
               st_decode_s);
    per_stream(w, s, "pixflow_video_stream_latency_p99_seconds", "gauge",
               "99th percentile capture-to-tensor latency of a stream's last frames.", st_p99_s);
    per_stream(w, s, "pixflow_video_stream_ended", "gauge", "1 once a stream delivered its last frame.", st_ended);
    per_stream(w, s, "pixflow_video_stream_failed", "gauge", "1 when a stream stopped on an error.", st_failed);
}

/* One family over the dispatcher's devices (label device). */
typedef double (*ddev_get)(const pf_dispatch_device_stats *);
static void per_ddev(wr *w, const pf_metrics_snapshot *s, const char *name, const char *type, const char *help,
                     ddev_get get) {
    head(w, name, type, help);
    for (int32_t i = 0; i < s->dispatch_ndev; i++)
        sample(w, name, get(&s->dispatch_dev[i]), "device", s->dispatch_dev[i].name, NULL, NULL);
}

static double dd_samples(const pf_dispatch_device_stats *t) { return (double)t->samples; }
static double dd_failures(const pf_dispatch_device_stats *t) { return (double)t->failures; }
static double dd_busy_s(const pf_dispatch_device_stats *t) { return t->busy_ms / 1e3; }
static double dd_share(const pf_dispatch_device_stats *t) { return t->last_share; }
static double dd_util(const pf_dispatch_device_stats *t) { return t->utilization; }
static double dd_cost_s(const pf_dispatch_device_stats *t) { return t->cost_ms / 1e3; }
static double dd_dropped(const pf_dispatch_device_stats *t) { return t->dropped ? 1.0 : 0.0; }

static void dispatch_text(wr *w, const pf_metrics_snapshot *s) {
    per_ddev(w, s, "pixflow_dispatch_samples_total", "counter", "Samples a device ran for the dispatcher.",
             dd_samples);
    per_ddev(w, s, "pixflow_dispatch_failures_total", "counter", "Chunks that failed on a device (re-run elsewhere).",
             dd_failures);
    per_ddev(w, s, "pixflow_dispatch_busy_seconds_total", "counter", "Time a device spent on its chunks.", dd_busy_s);
    head(w, "pixflow_dispatch_transfer_bytes_total", "counter", "Bytes a device's chunks copied, by direction.");
    for (int32_t i = 0; i < s->dispatch_ndev; i++) {
        const pf_dispatch_device_stats *t = &s->dispatch_dev[i];
        sample(w, "pixflow_dispatch_transfer_bytes_total", (double)t->upload_bytes, "device", t->name, "direction",
               "upload");
        sample(w, "pixflow_dispatch_transfer_bytes_total", (double)t->download_bytes, "device", t->name, "direction",
               "download");
    }
    per_ddev(w, s, "pixflow_dispatch_share_ratio", "gauge", "A device's share of the last batch.", dd_share);
    per_ddev(w, s, "pixflow_dispatch_utilization_ratio", "gauge", "A device's busy time over the dispatcher's wall time.",
             dd_util);
    per_ddev(w, s, "pixflow_dispatch_cost_seconds", "gauge", "The cost model's time per sample on a device.",
             dd_cost_s);
    per_ddev(w, s, "pixflow_dispatch_dropped", "gauge", "1 when the cost model gives a device no samples.",
             dd_dropped);
    one(w, "pixflow_dispatch_batches_total", "counter", "Batches the dispatcher ran.", (double)s->dispatch.batches,
        NULL, NULL);
    one(w, "pixflow_dispatch_wall_seconds_total", "counter", "Wall time of the dispatcher's batches.",
        s->dispatch.wall_ms / 1e3, NULL, NULL);
    one(w, "pixflow_dispatch_overhead_seconds_total", "counter",
        "The dispatcher's own time: placement, chunk grabs, threads, cost updates.", s->dispatch.overhead_ms / 1e3,
        NULL, NULL);
    one(w, "pixflow_dispatch_split_batches_total", "counter",
        "Batches whose chains ran split (geometry on one device, pointwise on another).",
        (double)s->dispatch.split_batches, NULL, NULL);
    one(w, "pixflow_dispatch_moved_bytes_total", "counter",
        "Bytes of u8 images split chains moved between devices.", (double)s->dispatch.moved_bytes, NULL, NULL);
}

static void infer_text(wr *w, const pf_metrics_snapshot *s) {
    const pf_infer_stats *f = &s->infer;
    one(w, "pixflow_infer_batches_total", "counter", "Batches through pf_infer_run.", (double)f->batches, NULL, NULL);
    one(w, "pixflow_infer_frames_total", "counter", "Frames through pf_infer_run.", (double)f->frames, NULL, NULL);
    head(w, "pixflow_infer_stage_busy_seconds_total", "counter", "Time in an infer run's stage.");
    sample(w, "pixflow_infer_stage_busy_seconds_total", f->source.busy_s, "stage", "source", NULL, NULL);
    sample(w, "pixflow_infer_stage_busy_seconds_total", f->infer.busy_s, "stage", "infer", NULL, NULL);
    sample(w, "pixflow_infer_stage_busy_seconds_total", f->post.busy_s, "stage", "post", NULL, NULL);
}

pf_status pf_metrics_write_text(const pf_metrics_snapshot *s, char *buf, size_t cap, size_t *len) {
    pfi_clear_error();
    if (s == NULL || len == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_metrics_write_text: %s is NULL", s ? "len" : "snap");
    if (buf == NULL && cap != 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_metrics_write_text: buf is NULL with cap %zu", cap);
    if (s->npools < 0 || s->npools > PF_METRICS_MAX_POOLS + 2)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_metrics_write_text: snap->npools %d out of range", (int)s->npools);
    wr w = {buf, cap, 0};
    if (s->has_pipeline) pipeline_text(&w, s);
    if (s->npools > 0) pools_text(&w, s);
    if (s->has_video) {
        video_text(&w, s);
        video_streams_text(&w, s);
    }
    if (s->has_dispatch) dispatch_text(&w, s);
    if (s->has_infer) infer_text(&w, s);
    *len = w.len;
    if (w.len >= cap) {
        if (cap > 0) buf[0] = '\0';
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_metrics_write_text: cap %zu holds less than the %zu bytes of text",
                        cap, w.len + 1);
    }
    return PF_OK;
}
