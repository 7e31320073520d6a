/*
 * pf_infer_run (include/pixflow/infer.h): a user engine as a stage behind a
 * pf_video, on clips the ffmpeg CLI generates at test time:
 *   - every frame of 2 streams reaches infer() and then post() exactly once,
 *     in the source's order; post() sees the output infer() wrote for that
 *     very batch (the "engine" computes each sample's mean; post recomputes
 *     it from the batch tensor);
 *   - stats: batch and frame counts, p50 <= p99 <= max per stage;
 *   - pinning: infer() runs on the CPU it was pinned to;
 *   - a failing callback stops the run with its status and a message naming
 *     the stage and the batch, and every batch is released (the video gives
 *     batches_in_flight more afterwards);
 *   - bad configs are errors naming the field;
 *   - live metrics: a scraper thread takes pf_metrics_snapshot_take of the
 *     video throughout a run (TSan runs this test): counters never go
 *     back, and at the end each stream's counts are its own and sum to the
 *     source's (pf_video_stream_stats_get, the stream="i" series);
 *   - variants: with an injected per-batch delay (the engine sleeps), a
 *     chooser calling pf_infer_ladder steps down within a window, back up
 *     when the delay is removed, never switches twice within a window, and
 *     the stats count every switch; an out-of-range choice or a budget <= 0
 *     stops the run with a message naming it.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pixflow/infer.h"
#include "pixflow/metrics.h"
#include "pixflow/pixflow.h"
#include "skip_policy.h"
#include "test_util.h"

#ifndef PF_FFMPEG_CLI
#  define PF_FFMPEG_CLI ""
#endif

static char g_clip[1200];

typedef struct engine {
    int64_t batches_in, batches_out, frames_out;
    int64_t next_index[2];  /* per stream: the frame_index post expects next */
    int order_errors, value_errors;
    int want_cpu, wrong_cpu;
    int64_t fail_at;        /* infer fails on this batch (-1: never) */
    int64_t post_fail_at;
} engine;

/* the mean of one NCHW float sample, through the tensor's strides */
static double sample_mean(const pf_tensor *t, int i) {
    double s = 0;
    for (int c = 0; c < t->channels; c++)
        for (int y = 0; y < t->height; y++) {
            const float *row = (const float *)(const void *)((const char *)t->data + (ptrdiff_t)i * t->sample_stride +
                                               (ptrdiff_t)c * t->plane_stride + (ptrdiff_t)y * t->row_stride);
            for (int x = 0; x < t->width; x++) s += (double)row[x];
        }
    return s / ((double)t->channels * (double)t->height * (double)t->width);
}

static pf_status eng_infer(void *user, const pf_video_batch *b, void *out) {
    engine *e = user;
    if (e->want_cpu >= 0 && sched_getcpu() != e->want_cpu) e->wrong_cpu++;
    if (e->batches_in++ == e->fail_at) return PF_ERR_DEVICE;
    double *o = out;
    for (int i = 0; i < b->count; i++) o[i] = sample_mean(&b->tensor, i);
    return PF_OK;
}

static pf_status eng_post(void *user, const pf_video_batch *b, const void *out) {
    engine *e = user;
    if (e->batches_out++ == e->post_fail_at) return PF_ERR_INTERNAL;
    const double *o = out;
    for (int i = 0; i < b->count; i++) {
        const pf_video_frame *f = &b->frames[i];
        if (f->stream < 0 || f->stream > 1 || f->frame_index != e->next_index[f->stream]) e->order_errors++;
        else e->next_index[f->stream]++;
        if (o[i] != sample_mean(&b->tensor, i)) e->value_errors++;
        e->frames_out++;
    }
    return PF_OK;
}

static pf_video *open_video_b(int in_flight, int batch) {
    const char *paths[2] = {g_clip, g_clip};
    pf_video_config c = pf_video_config_defaults();
    c.sources = paths;
    c.nsources = 2;
    c.batch = batch;
    c.batches_in_flight = in_flight;
    c.desc.out_width = c.desc.out_height = 64;
    pf_video *v = NULL;
    CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
    return v;
}

static pf_video *open_video(int in_flight) { return open_video_b(in_flight, 4); }

static engine new_engine(void) {
    engine e;
    memset(&e, 0, sizeof e);
    e.want_cpu = -1;
    e.fail_at = -1;
    e.post_fail_at = -1;
    return e;
}

static void full_run(void) {
    pf_video *v = open_video(4);
    if (v == NULL) return;
    engine e = new_engine();
    pf_infer_config c = pf_infer_config_defaults();
    c.infer = eng_infer;
    c.post = eng_post;
    c.user = &e;
    c.output_bytes = 4 * sizeof(double);
    c.max_in_flight = 4;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int k = 0; k < CPU_SETSIZE; k++)
            if (CPU_ISSET(k, &set)) { c.infer_core = e.want_cpu = k; break; }
    }
    pf_infer_stats s;
    CHECK_STATUS(pf_infer_run(v, &c, &s), PF_OK);
    CHECK(e.frames_out == 2 * 24);
    CHECK(e.next_index[0] == 24 && e.next_index[1] == 24);
    CHECK(e.order_errors == 0 && e.value_errors == 0);
    CHECK(e.wrong_cpu == 0);
    CHECK(s.frames == 48 && s.batches == 12);
    CHECK(s.infer.batches == 12 && s.post.batches == 12 && s.source.batches == 13);  /* + the end */
    CHECK(s.infer.p50_ms <= s.infer.p99_ms && s.infer.p99_ms <= s.infer.max_ms);
    CHECK(s.post.p50_ms <= s.post.p99_ms && s.post.p99_ms <= s.post.max_ms);
    CHECK(s.frames_per_s > 0 && s.wall_s > 0);
    printf("  full run: %lld frames, %.1f frames/s; infer p50 %.3f p99 %.3f ms, post p50 %.3f p99 %.3f ms\n",
           (long long)s.frames, s.frames_per_s, s.infer.p50_ms, s.infer.p99_ms, s.post.p50_ms, s.post.p99_ms);
    pf_video_close(v);
}

static void failing_callbacks(void) {
    for (int which = 0; which < 2; which++) {
        pf_video *v = open_video(3);
        if (v == NULL) return;
        engine e = new_engine();
        if (which == 0) e.fail_at = 3;
        else e.post_fail_at = 2;
        pf_infer_config c = pf_infer_config_defaults();
        c.infer = eng_infer;
        c.post = eng_post;
        c.user = &e;
        c.output_bytes = 4 * sizeof(double);
        c.max_in_flight = 3;
        CHECK_STATUS(pf_infer_run(v, &c, NULL), which == 0 ? PF_ERR_DEVICE : PF_ERR_INTERNAL);
        CHECK_MSG(which == 0 ? "infer callback failed on batch 3" : "post callback failed on batch 2");
        /* nothing is still held: the video hands out batches_in_flight (3) more */
        pf_video_batch *b[3] = {NULL, NULL, NULL};
        int got = 0;
        for (int k = 0; k < 3; k++)
            if (pf_video_next(v, &b[k], -1) == PF_OK && b[k] != NULL) got++;
        CHECK(got == 3);
        for (int k = 0; k < 3; k++)
            if (b[k]) pf_video_batch_release(v, b[k]);
        pf_video_close(v);
    }
}

static void bad_configs(void) {
    pf_video *v = open_video(2);
    if (v == NULL) return;
    engine e = new_engine();
    pf_infer_config c = pf_infer_config_defaults();
    c.user = &e;
    c.output_bytes = 8;
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.infer");
    c.infer = eng_infer;
    c.output_bytes = 0;
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.output_bytes");
    c.output_bytes = 8;
    c.depth = 0;
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.depth");
    c.depth = 1;
    c.post_core = 1 << 20;
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.post_core");
    c.post_core = -1;
    c.n_variants = 2;
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.infer_variant");
    c.n_variants = PF_INFER_MAX_VARIANTS + 1;
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.n_variants");
    c.n_variants = 0;
    CHECK_STATUS(pf_infer_run(NULL, &c, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("video");
    pf_video_close(v);
}

typedef struct scraper {
    pf_video *v;
    atomic_int stop;
    int scrapes, failures, went_back;
} scraper;

/* Scrapes like an HTTP metrics thread would, while the consumer runs. */
static void *scrape_loop(void *arg) {
    scraper *sc = arg;
    pf_metrics_snapshot *snap = malloc(sizeof *snap);
    char *text = malloc(1 << 16);
    int64_t last[2] = {0, 0};
    while (snap && text && !atomic_load(&sc->stop)) {
        pf_metrics_sources src = {.video = sc->v, .video_name = "clip"};
        size_t len = 0;
        if (pf_metrics_snapshot_take(&src, snap) != PF_OK || snap->video_nstreams != 2 ||
            pf_metrics_write_text(snap, text, 1 << 16, &len) != PF_OK) {
            sc->failures++;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (snap->video_streams[i].frames_delivered < last[i]) sc->went_back++;
            last[i] = snap->video_streams[i].frames_delivered;
        }
        sc->scrapes++;
        sched_yield();
    }
    if (snap == NULL || text == NULL) sc->failures++;
    free(snap);
    free(text);
    return NULL;
}

static void live_metrics(void) {
    pf_video *v = open_video(4);
    if (v == NULL) return;
    engine e = new_engine();
    pf_infer_config c = pf_infer_config_defaults();
    c.infer = eng_infer;
    c.post = eng_post;
    c.user = &e;
    c.output_bytes = 4 * sizeof(double);
    scraper sc = {.v = v};
    atomic_init(&sc.stop, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, scrape_loop, &sc) == 0);
    CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_OK);
    atomic_store(&sc.stop, 1);
    pthread_join(th, NULL);
    CHECK(sc.failures == 0 && sc.went_back == 0 && sc.scrapes > 0);

    CHECK(pf_video_stream_count(v) == 2 && pf_video_stream_count(NULL) == 0);
    pf_video_stats all;
    CHECK_STATUS(pf_video_stats_get(v, &all), PF_OK);
    int64_t decoded = 0, delivered = 0;
    for (int i = 0; i < 2; i++) {
        pf_video_stream_stats s;
        CHECK_STATUS(pf_video_stream_stats_get(v, i, &s), PF_OK);
        CHECK(s.frames_decoded == 24 && s.frames_delivered == 24 && s.frames_dropped == 0);
        CHECK(s.ended == 1 && s.failed == 0 && s.decode_ms > 0);
        CHECK(s.latency_p50_ms > 0 && s.latency_p50_ms <= s.latency_p99_ms && s.latency_p99_ms <= s.latency_max_ms);
        decoded += s.frames_decoded;
        delivered += s.frames_delivered;
    }
    CHECK(decoded == all.frames_decoded && delivered == all.frames_delivered);
    pf_video_stream_stats s;
    CHECK_STATUS(pf_video_stream_stats_get(v, 2, &s), PF_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pf_last_error(), "stream is 2") != NULL);
    CHECK_STATUS(pf_video_stream_stats_get(v, -1, &s), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_video_stream_stats_get(NULL, 0, &s), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_video_stream_stats_get(v, 0, NULL), PF_ERR_INVALID_ARGUMENT);

    pf_metrics_snapshot *snap = malloc(sizeof *snap);
    char *text = malloc(1 << 16);
    size_t len = 0;
    pf_metrics_sources src = {.video = v, .video_name = "clip"};
    CHECK(snap != NULL && text != NULL);
    if (snap && text) {
        CHECK_STATUS(pf_metrics_snapshot_take(&src, snap), PF_OK);
        CHECK_STATUS(pf_metrics_write_text(snap, text, 1 << 16, &len), PF_OK);
        CHECK(strstr(text, "pixflow_video_stream_frames_delivered_total{source=\"clip\",stream=\"1\"} 24\n") != NULL);
        CHECK(strstr(text, "pixflow_video_stream_ended{source=\"clip\",stream=\"0\"} 1\n") != NULL);
        CHECK(strstr(text, "# TYPE pixflow_video_stream_latency_p99_seconds gauge\n") != NULL);
    }
    printf("  live metrics: %d scrapes during the run, per-stream counts 24 + 24 = %lld delivered\n", sc.scrapes,
           (long long)delivered);
    free(snap);
    free(text);
    pf_video_close(v);
}

/* ---- variants: an "engine" whose variant v costs cost_ms[v] per batch, plus an injected delay */
typedef struct ladder_engine {
    double cost_ms[3], delay_ms;
    int64_t delay_until;        /* batches [0, delay_until) get delay_ms more */
    int64_t n;
    int ran[64];                /* the variant of each batch */
    double budget;
    int bad_choice;             /* the chooser returns this when >= 0 */
} ladder_engine;

static void sleep_ms(double ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6)};
    nanosleep(&ts, NULL);
}

static pf_status ladder_infer(void *user, const pf_video_batch *b, int variant, void *out) {
    ladder_engine *e = user;
    (void)b;
    (void)out;
    if (e->n < 64) e->ran[e->n] = variant;
    sleep_ms(e->cost_ms[variant] + (e->n < e->delay_until ? e->delay_ms : 0.0));
    e->n++;
    return PF_OK;
}

static int ladder_choose(void *user, const pf_infer_choice *c) {
    ladder_engine *e = user;
    if (e->bad_choice >= 0) return e->bad_choice;
    return pf_infer_ladder(c, e->budget, 0.5);
}

static void variants_ladder(void) {
    pf_video *v = open_video_b(4, 1);   /* 2 streams x 24 frames, batches of 1: 48 batches */
    if (v == NULL) return;
    ladder_engine e = {{6, 4, 2}, 40, 16, 0, {0}, 20, -1};
    pf_infer_config c = pf_infer_config_defaults();
    c.n_variants = 3;
    c.infer_variant = ladder_infer;
    c.choose = ladder_choose;
    c.user = &e;
    c.output_bytes = 8;
    c.window = 4;
    pf_infer_stats s;
    CHECK_STATUS(pf_infer_run(v, &c, &s), PF_OK);
    CHECK(e.n == 48 && s.batches == 48);
    /* the switches, as batch indices where the variant changed */
    int at[16], to[16], k = 0;
    for (int i = 1; i < 48 && k < 16; i++)
        if (e.ran[i] != e.ran[i - 1]) { at[k] = i; to[k] = e.ran[i]; k++; }
    CHECK(k == 4 && s.switches == 4);
    if (k == 4) {
        CHECK(to[0] == 1 && to[1] == 2 && to[2] == 1 && to[3] == 0);
        CHECK(at[0] == 4);                              /* down within one window of the delay */
        CHECK(at[2] >= 16 + 4);                         /* up only after a clean window */
        for (int j = 1; j < k; j++) CHECK(at[j] - at[j - 1] >= 4);   /* one switch per window at most */
    }
    CHECK(s.last_variant == 0 && e.ran[47] == 0);
    CHECK(s.variant_batches[0] + s.variant_batches[1] + s.variant_batches[2] == 48);
    printf("  ladder: switches at batches %d %d %d %d; batches per variant %lld %lld %lld\n", at[0], at[1], at[2],
           at[3], (long long)s.variant_batches[0], (long long)s.variant_batches[1], (long long)s.variant_batches[2]);
    pf_video_close(v);

    /* a choice out of range, and a budget <= 0, stop the run naming it */
    for (int which = 0; which < 2; which++) {
        v = open_video_b(4, 4);
        if (v == NULL) return;
        ladder_engine b = {{0, 0, 0}, 0, 0, 0, {0}, which ? 0.0 : 20, which ? -1 : 3};
        c.user = &b;
        CHECK_STATUS(pf_infer_run(v, &c, NULL), PF_ERR_INVALID_ARGUMENT);
        CHECK_MSG("config.choose returned");
        CHECK_MSG(which ? "budget must be > 0" : "0..2");
        pf_video_close(v);
    }
    CHECK(pf_infer_ladder(NULL, 10, 0.5) == -1);
    pf_infer_choice ch = {0, 1, 3, 0, 30, 1};
    CHECK(pf_infer_ladder(&ch, 20, 0.5) == 2 && pf_infer_ladder(&ch, 100, 0.5) == 0 &&
          pf_infer_ladder(&ch, 40, 0.5) == 1 && pf_infer_ladder(&ch, 20, 1.0) == -1);
    ch.window_full = 0;
    CHECK(pf_infer_ladder(&ch, 20, 0.5) == 1);
}

int main(void) {
    if (PF_FFMPEG_CLI[0] == '\0' || access(PF_FFMPEG_CLI, X_OK) != 0) {
        return pft_skip("infer_stage", "no ffmpeg CLI to generate the test clip (apt-get install ffmpeg)");
    }
    char cmd[4096];
    snprintf(g_clip, sizeof g_clip, "%s/infer_%d.mp4", PF_VIDEO_TEST_DIR, (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' -hide_banner -loglevel error -nostdin -y -f lavfi "
             "-i testsrc2=size=160x120:rate=24 -frames:v 24 -pix_fmt yuv420p -c:v mpeg4 '%s'",
             PF_VIDEO_TEST_DIR, PF_FFMPEG_CLI, g_clip);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not make %s\n", g_clip);
        return 1;
    }
    full_run();
    failing_callbacks();
    bad_configs();
    live_metrics();
    variants_ladder();
    remove(g_clip);
    return pft_summary("infer_stage");
}
