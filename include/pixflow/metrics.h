/*
 * pixflow metrics: one snapshot of a running pipeline, video source, infer
 * run and memory pools, and a writer of the Prometheus text exposition
 * format (version 0.0.4) for it, so a long job can be watched while it
 * runs (`pixflow run --metrics ADDR` serves it over HTTP; see
 * docs/observability.md and deploy/prometheus/pixflow.rules.yml).
 *
 * Typical use (any thread; the sources must outlive the call):
 *   pf_metrics_sources src = {.pipeline = p, .device = "cpu"};
 *   pf_metrics_snapshot *snap = malloc(sizeof *snap);
 *   pf_metrics_snapshot_take(&src, snap);
 *   size_t len; pf_metrics_write_text(snap, NULL, 0, &len);  // size it
 *   char *text = malloc(len + 1); pf_metrics_write_text(snap, text, len + 1, &len);
 *
 * The names (all `pixflow_`, base units, counters end in `_total`):
 *  pipeline (labels: device = sources.device, "cpu" when NULL)
 *   pixflow_samples_total, pixflow_batches_total          counters: delivered
 *   pixflow_skipped_samples_total                         counter: samples that
 *        failed to read or decode (the pipeline cannot tell them apart:
 *        both are "skipped files")
 *   pixflow_failed_batches_total                          counter
 *   pixflow_stage_latency_seconds{stage}                  histogram: one
 *        observation per busy interval of a stage (a sample for read and
 *        decode_augment, a batch for collate and device), with the fixed
 *        buckets of pf_metrics_bucket_bounds; _sum is the stage's busy time
 *   pixflow_stage_busy_seconds_total{stage}, pixflow_stage_wait_seconds_total{stage}
 *   pixflow_stage_threads{stage}                          gauge
 *   pixflow_queue_depth{stage}, pixflow_queue_capacity{stage}   gauges: the
 *        stage's input queue now
 *   pixflow_backlog_batches                               gauge: batches ready
 *        and waiting for the consumer
 *   pixflow_consumer_wait_seconds_total                   counter: time
 *        pf_pipeline_next blocked (the "starving" signal: its rate is the
 *        fraction of time the consumer waited)
 *   pixflow_device_busy_seconds_total{device}             counter: the busy
 *        time of the stage doing the preprocess (device placement: the
 *        device stage; otherwise the decode_augment workers, summed)
 *   pixflow_device_workers{device}                        gauge: threads
 *        summed into the counter above (rate / workers = utilization)
 *   pixflow_device_busy_ratio{device}                     gauge: busy /
 *        (workers * elapsed) since the pipeline was created
 *   pixflow_batch_latency_p50_seconds, pixflow_batch_latency_p99_seconds
 *        gauges: first read to batch ready, over the last 1024 batches
 *   pixflow_elapsed_seconds                               gauge
 *  pools (labels: pool, device); the pipeline's own staging pools (device
 *  placement) are added as pool="staging_pinned" and "staging_device"
 *   pixflow_pool_in_use_bytes, pixflow_pool_reserved_bytes,
 *   pixflow_pool_peak_reserved_bytes, pixflow_pool_cap_bytes   gauges
 *   pixflow_pool_fragmentation_ratio  gauge: (reserved - in_use) / reserved,
 *        memory held from the backend but handed to nobody (0 when empty)
 *   pixflow_pool_allocs_total, pixflow_pool_reuses_total  counters
 *  video (label: source = sources.video_name, "video" when NULL)
 *   pixflow_video_frames_decoded_total, _delivered_total, _dropped_total,
 *   pixflow_video_decode_errors_total, pixflow_video_batches_total  counters
 *   pixflow_video_consumer_wait_seconds_total, pixflow_video_decode_seconds_total
 *   pixflow_video_streams_ended, pixflow_video_streams_failed  gauges
 *   pixflow_video_latency_p50_seconds, _p99_seconds, _max_seconds  gauges:
 *        capture to tensor over the last 4096 frames
 *  video, per stream (labels: source, stream = the index into
 *  config.sources; pf_video_stream_stats_get)
 *   pixflow_video_stream_frames_decoded_total, _delivered_total,
 *   _dropped_total, pixflow_video_stream_decode_errors_total  counters
 *   pixflow_video_stream_decode_seconds_total  counter
 *   pixflow_video_stream_ended, pixflow_video_stream_failed  gauges (0/1)
 *   pixflow_video_stream_latency_p99_seconds  gauge: capture to tensor over
 *        the stream's last PF_VIDEO_STREAM_LAT_WINDOW frames
 *  infer (a pf_infer_stats the caller filled: pf_infer_run writes it when it
 *  returns, so these are final values, not live ones)
 *   pixflow_infer_batches_total, pixflow_infer_frames_total
 *   pixflow_infer_stage_busy_seconds_total{stage="source"|"infer"|"post"}
 *
  dispatcher (sources.dispatch: pf_dispatch, include/pixflow/dispatch.h;
 *  label device = the dispatcher's device name, as of its last batch)
 *   pixflow_dispatch_samples_total{device}, pixflow_dispatch_failures_total{device}  counters
 *   pixflow_dispatch_busy_seconds_total{device}, pixflow_dispatch_transfer_bytes_total{device,direction}
 *   pixflow_dispatch_share_ratio{device}: its share of the last batch, 0..1
 *   pixflow_dispatch_utilization_ratio{device}: busy / the dispatcher's wall time
 *   pixflow_dispatch_cost_seconds{device}: the cost model's time per sample
 *   pixflow_dispatch_dropped{device}: 1 when the cost model gives it nothing
 *   pixflow_dispatch_batches_total, pixflow_dispatch_overhead_seconds_total,
 *   pixflow_dispatch_wall_seconds_total  counters (no label)
 */
#ifndef PIXFLOW_METRICS_H
#define PIXFLOW_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"
#include "pixflow/dispatch.h"
#include "pixflow/infer.h"
#include "pixflow/pipeline.h"
#include "pixflow/runtime.h"
#include "pixflow/video.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stage latency histograms' finite upper bounds, in seconds, ascending
 * (50 us .. 2.5 s); a last, implicit bucket is +Inf. */
#define PF_METRICS_BUCKETS 15
PF_API const double *pf_metrics_bucket_bounds(void);

typedef struct pf_stage_histogram {
    uint64_t counts[PF_METRICS_BUCKETS + 1]; /* non-cumulative; [PF_METRICS_BUCKETS]: above the last bound */
    uint64_t count;                          /* sum of counts */
    double sum_s;                            /* == the stage's busy_s */
} pf_stage_histogram;

/* The pipeline's per-stage latency histograms, in the order of
 * pf_pipeline_stats.stage (read, decode_augment, collate, device). Any
 * thread, while the pipeline lives. */
PF_API pf_status pf_pipeline_histograms_get(const pf_pipeline *p, pf_stage_histogram out[PF_PIPELINE_STAGES]);

typedef struct pf_metrics_pool {
    const char *name;   /* label pool= (required) */
    const char *device; /* label device= ("cpu" when NULL) */
    pf_pool *pool;
} pf_metrics_pool;

#define PF_METRICS_MAX_POOLS 16
#define PF_METRICS_MAX_DISPATCH_DEVICES 16 /* a dispatcher has at most 16 devices */
#define PF_METRICS_LABEL 64 /* label values are cut to 63 bytes */

/* What to snapshot; every member may be NULL / 0. */
typedef struct pf_metrics_sources {
    const pf_pipeline *pipeline;
    const char *device;          /* the pipeline's device label, e.g. "cpu", "cuda:0" */
    const pf_video *video;       /* needs a build with video (else PF_ERR_UNSUPPORTED) */
    const char *video_name;
    const pf_infer_stats *infer; /* copied as is */
    const pf_dispatch *dispatch; /* its stats as of its last finished batch; NULL: the
                                    pipeline's config.augment_dispatch, if any */
    const pf_metrics_pool *pools;
    int32_t npools;              /* 0..PF_METRICS_MAX_POOLS */
} pf_metrics_sources;

typedef struct pf_metrics_snapshot {
    bool has_pipeline;
    char device[PF_METRICS_LABEL];
    pf_pipeline_stats pipeline;
    pf_stage_histogram hist[PF_PIPELINE_STAGES];
    int32_t backlog_batches;
    bool has_video;
    char video_name[PF_METRICS_LABEL];
    pf_video_stats video;
    int32_t video_nstreams;
    pf_video_stream_stats video_streams[PF_VIDEO_MAX_SOURCES];
    bool has_infer;
    pf_infer_stats infer;
    bool has_dispatch;
    pf_dispatch_stats dispatch;
    int32_t dispatch_ndev;
    pf_dispatch_device_stats dispatch_dev[PF_METRICS_MAX_DISPATCH_DEVICES];
    int32_t npools; /* the caller's pools, then the pipeline's staging pools */
    struct {
        char name[PF_METRICS_LABEL], device[PF_METRICS_LABEL];
        pf_pool_stats stats;
    } pools[PF_METRICS_MAX_POOLS + 2];
} pf_metrics_snapshot;

/* Reads every source into *out (a few microseconds; takes the same locks
 * as the *_stats_get calls). Fails naming the argument: NULL src/out, a
 * pool entry without name or pool, npools out of range, a video source in
 * a build without video. */
PF_API pf_status pf_metrics_snapshot_take(const pf_metrics_sources *src, pf_metrics_snapshot *out);

/* Writes the snapshot as Prometheus text exposition (# HELP, # TYPE, one
 * sample a line; label values escaped: backslash, double quote and newline)
 * into buf[0..cap), NUL-terminated. *len gets the text's length without
 * the NUL, also when it does not fit: then the call fails with
 * PF_ERR_OUT_OF_MEMORY naming cap and buf holds nothing useful; buf may be
 * NULL with cap 0 to size it. */
PF_API pf_status pf_metrics_write_text(const pf_metrics_snapshot *snap, char *buf, size_t cap, size_t *len);

/* Escapes a label value per the exposition format (\\ \" \n) into
 * out[0..cap), NUL-terminated; returns the escaped length (without the NUL),
 * as snprintf does when it does not fit. */
PF_API size_t pf_metrics_escape_label(const char *value, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_METRICS_H */
