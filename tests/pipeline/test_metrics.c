/* include/pixflow/metrics.h: the snapshot of a real pipeline run and a real
 * pool, the exposition text (names, counters matching the stats, histogram
 * buckets cumulative and consistent), label escaping, sizing and the
 * argument errors. The format itself is also checked by prometheus_client's
 * parser and promtool (tests/python/test_metrics.py, tests/metrics/).
 * The dispatcher's series: a CPU dispatcher scraped by a thread while it
 * runs batches (TSan runs this test), counters as its stats say. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline_fixtures.h"
#include "pixflow/metrics.h"
#include "pixflow/pixflow.h"

/* The value of the first line starting with `prefix` (name + labels), or -1. */
static double value_of(const char *text, const char *prefix) {
    size_t n = strlen(prefix);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, prefix, n) == 0 && l[n] == ' ') return strtod(l + n + 1, NULL);
    return -1.0;
}

static char *render(const pf_metrics_snapshot *s) {
    size_t len = 0;
    CHECK_STATUS(pf_metrics_write_text(s, NULL, 0, &len), PF_ERR_OUT_OF_MEMORY);
    CHECK_MSG("cap");
    char *t = malloc(len + 1);
    size_t len2 = 0;
    CHECK_STATUS(pf_metrics_write_text(s, t, len + 1, &len2), PF_OK);
    CHECK(len2 == len && strlen(t) == len);
    /* one byte short fails and says so */
    char *short_buf = malloc(len);
    CHECK_STATUS(pf_metrics_write_text(s, short_buf, len, &len2), PF_ERR_OUT_OF_MEMORY);
    CHECK(len2 == len);
    free(short_buf);
    return t;
}

static void test_escape(void) {
    char out[64];
    size_t n = pf_metrics_escape_label("a\\b\"c\nd", out, sizeof out);
    CHECK(strcmp(out, "a\\\\b\\\"c\\nd") == 0);
    CHECK(n == strlen("a\\\\b\\\"c\\nd"));
    n = pf_metrics_escape_label("\"\"\"", out, 4); /* cut, but the full length is told */
    CHECK(n == 6 && strlen(out) == 3);
    CHECK(pf_metrics_escape_label(NULL, out, sizeof out) == 0 && out[0] == '\0');
}

static void test_args(void) {
    pf_metrics_snapshot *s = calloc(1, sizeof *s);
    pf_metrics_sources src = {0};
    size_t len;
    CHECK_STATUS(pf_metrics_snapshot_take(NULL, s), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src");
    CHECK_STATUS(pf_metrics_snapshot_take(&src, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out");
    src.npools = PF_METRICS_MAX_POOLS + 1;
    CHECK_STATUS(pf_metrics_snapshot_take(&src, s), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("npools");
    pf_metrics_pool nameless = {NULL, NULL, NULL};
    src.pools = &nameless;
    src.npools = 1;
    CHECK_STATUS(pf_metrics_snapshot_take(&src, s), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pools[0]");
    CHECK_STATUS(pf_pipeline_histograms_get(NULL, s->hist), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("p");
    CHECK_STATUS(pf_metrics_write_text(NULL, NULL, 0, &len), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("snap");
    CHECK_STATUS(pf_metrics_write_text(s, NULL, 10, &len), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("buf");
    free(s);
}

static void test_buckets(void) {
    const double *b = pf_metrics_bucket_bounds();
    for (int k = 1; k < PF_METRICS_BUCKETS; k++) CHECK(b[k] > b[k - 1]);
    CHECK(b[0] > 0 && b[PF_METRICS_BUCKETS - 1] >= 1.0);
}

/* argv[1] (optional): where to write the pipeline + pool exposition, for
 * promtool check metrics and prometheus_client's parser (tests/metrics/) */
static const char *dump_path;

static void test_pipeline_and_pool(void) {
    char dir[512];
    fx_tmpdir(dir, sizeof dir, "metrics");
    fx_make_folder(dir, 40, 3);
    fx_add_broken(dir);
    pf_pipeline_config c = pf_pipeline_config_defaults();
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = dir;
    CHECK_STATUS(pf_recipe("imagenet-eval", &c.desc, &c.policy), PF_OK);
    c.desc.out_width = c.desc.out_height = 32;
    c.batch_size = 8;
    c.workers = 2;
    c.epochs = 2;
    pf_pipeline *p = NULL;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    if (p == NULL) return;
    uint64_t samples = 0;
    const pf_batch *b;
    while (pf_pipeline_next(p, &b, -1) == PF_OK && b) {
        samples += (uint64_t)b->count;
        pf_batch_release(p, b);
    }
    pf_device *cpu = NULL;
    pf_pool *pool = NULL;
    void *mem = NULL, *mem2 = NULL;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &cpu), PF_OK);
    CHECK_STATUS(pf_pool_create(cpu, PF_ALLOC_DEVICE, 1 << 20, &pool), PF_OK);
    CHECK_STATUS(pf_pool_alloc(pool, 4096, NULL, &mem), PF_OK);
    CHECK_STATUS(pf_pool_alloc(pool, 4096, NULL, &mem2), PF_OK);
    CHECK_STATUS(pf_pool_free(pool, mem2, NULL), PF_OK); /* cached, handed to nobody */

    pf_metrics_pool mp = {"my \"pool\"\n", NULL, pool};
    pf_metrics_sources src = {.pipeline = p, .device = "cpu", .pools = &mp, .npools = 1};
    pf_metrics_snapshot *s = calloc(1, sizeof *s);
    CHECK_STATUS(pf_metrics_snapshot_take(&src, s), PF_OK);
    CHECK(s->has_pipeline && !s->has_video && !s->has_infer && s->npools == 1);
    CHECK(s->pipeline.samples == samples && samples == 80);
    char *t = render(s);
    CHECK(value_of(t, "pixflow_samples_total{device=\"cpu\"}") == (double)samples);
    CHECK(value_of(t, "pixflow_batches_total{device=\"cpu\"}") == (double)s->pipeline.batches);
    CHECK(value_of(t, "pixflow_skipped_samples_total{device=\"cpu\"}") == 6.0); /* 3 broken files x 2 epochs */
    CHECK(value_of(t, "pixflow_backlog_batches{device=\"cpu\"}") >= 0.0);
    CHECK(value_of(t, "pixflow_consumer_wait_seconds_total{device=\"cpu\"}") >= 0.0);
    CHECK(value_of(t, "pixflow_device_workers{device=\"cpu\"}") == 2.0);
    double ratio = value_of(t, "pixflow_device_busy_ratio{device=\"cpu\"}");
    CHECK(ratio >= 0.0 && ratio <= 1.0);
    /* decode_augment saw every sample once (broken ones too): the
     * histogram's count, its +Inf bucket and its _sum agree with the stats */
    double inf = value_of(t, "pixflow_stage_latency_seconds_bucket{stage=\"decode_augment\",le=\"+Inf\"}");
    double cnt = value_of(t, "pixflow_stage_latency_seconds_count{stage=\"decode_augment\"}");
    CHECK(inf == 86.0 && cnt == 86.0);
    CHECK(s->hist[1].count == s->pipeline.stage[1].items);
    double sum = value_of(t, "pixflow_stage_latency_seconds_sum{stage=\"decode_augment\"}");
    CHECK(sum > 0.0 && sum - s->pipeline.stage[1].busy_s < 1e-9 && s->pipeline.stage[1].busy_s - sum < 1e-9);
    /* buckets are cumulative */
    double prev = 0.0;
    for (int k = 0; k < PF_METRICS_BUCKETS; k++) {
        char key[160], le[32];
        snprintf(le, sizeof le, "%g", pf_metrics_bucket_bounds()[k]);
        snprintf(key, sizeof key, "pixflow_stage_latency_seconds_bucket{stage=\"decode_augment\",le=\"%s\"}", le);
        double v = value_of(t, key);
        CHECK(v >= prev && v <= inf);
        prev = v;
    }
    CHECK(value_of(t, "pixflow_stage_latency_seconds_count{stage=\"collate\"}") >= (double)s->pipeline.batches);
    CHECK(strstr(t, "stage=\"device\"") == NULL); /* no device placement: no device stage */
    CHECK(strstr(t, "# TYPE pixflow_stage_latency_seconds histogram\n") != NULL);
    CHECK(strstr(t, "# TYPE pixflow_samples_total counter\n") != NULL);
    /* the pool: escaped name, bytes, fragmentation 4096 / 8192 */
    CHECK(value_of(t, "pixflow_pool_in_use_bytes{pool=\"my \\\"pool\\\"\\n\",device=\"cpu\"}") == 4096.0);
    double frag = value_of(t, "pixflow_pool_fragmentation_ratio{pool=\"my \\\"pool\\\"\\n\",device=\"cpu\"}");
    CHECK(frag > 0.49 && frag < 0.51);
    /* every line is a comment or "name{...} value" with no raw newline in a label */
    for (const char *l = t; *l; l = strchr(l, '\n') + 1) {
        CHECK(strncmp(l, "# ", 2) == 0 || strncmp(l, "pixflow_", 8) == 0);
        if (!strchr(l, '\n')) break;
    }
    if (dump_path) {
        FILE *f = fopen(dump_path, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(t, f);
            fclose(f);
        }
    }
    free(t);

    /* the infer stats are copied as they are */
    pf_infer_stats inf_stats;
    memset(&inf_stats, 0, sizeof inf_stats);
    inf_stats.batches = 7;
    inf_stats.frames = 28;
    inf_stats.infer.busy_s = 0.5;
    pf_metrics_sources src2 = {.infer = &inf_stats};
    CHECK_STATUS(pf_metrics_snapshot_take(&src2, s), PF_OK);
    t = render(s);
    CHECK(value_of(t, "pixflow_infer_frames_total") == 28.0);
    CHECK(value_of(t, "pixflow_infer_stage_busy_seconds_total{stage=\"infer\"}") == 0.5);
    CHECK(strstr(t, "pixflow_samples_total") == NULL);
    free(t);
    free(s);
    pf_pool_free(pool, mem, NULL);
    pf_pool_destroy(pool);
    pf_device_close(cpu);
    pf_pipeline_destroy(p);
    fx_rm_rf(dir);
}

typedef struct dscraper {
    const pf_dispatch *d;
    atomic_int stop, scrapes, failures;
    int went_back;
} dscraper;

static void *dispatch_scrape(void *arg) {
    dscraper *sc = arg;
    pf_metrics_snapshot *snap = malloc(sizeof *snap);
    char *text = malloc(1 << 15);
    uint64_t last = 0;
    while (snap && text && !atomic_load(&sc->stop)) {
        pf_metrics_sources src = {.dispatch = sc->d};
        size_t len = 0;
        if (pf_metrics_snapshot_take(&src, snap) != PF_OK || pf_metrics_write_text(snap, text, 1 << 15, &len) != PF_OK ||
            snap->dispatch_ndev != 1) {
            atomic_fetch_add(&sc->failures, 1);
            break;
        }
        if (snap->dispatch_dev[0].samples < last) sc->went_back++;
        last = snap->dispatch_dev[0].samples;
        atomic_fetch_add(&sc->scrapes, 1);
    }
    free(snap);
    free(text);
    return NULL;
}

static void test_dispatch(void) {
    enum { NS = 6, BATCHES = 20 };
    static uint8_t pix[NS][32 * 24 * 3];
    pf_image imgs[NS];
    int32_t ws[NS], hs[NS];
    uint64_t r = 7;
    for (int i = 0; i < NS; i++) {
        for (size_t k = 0; k < sizeof pix[i]; k++) pix[i][k] = (uint8_t)pft_rand(&r);
        imgs[i] = pf_image_hwc(pix[i], 32, 24, 3, PF_U8, 0);
        ws[i] = 32;
        hs[i] = 24;
    }
    pf_preprocess_desc desc;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &desc, &pol), PF_OK);
    desc.out_width = desc.out_height = 16;
    pf_aug_params prm[NS];
    CHECK_STATUS(pf_aug_sample(&pol, 3, 0, 0, NS, ws, hs, prm), PF_OK);
    float *out = malloc(pf_tensor_packed_size(NS, 3, 16, 16, PF_F32));
    pf_tensor t = pf_tensor_nchw(out, NS, 3, 16, 16, PF_F32);
    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu";
    c.cpu_threads = 1;
    pf_dispatch *d = NULL;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
    if (d == NULL || out == NULL) return;
    dscraper sc = {.d = d};
    atomic_init(&sc.stop, 0);
    atomic_init(&sc.scrapes, 0);
    atomic_init(&sc.failures, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, dispatch_scrape, &sc) == 0);
    /* the batches run while the scraper does (it has scraped once) */
    while (atomic_load(&sc.scrapes) == 0 && atomic_load(&sc.failures) == 0) sched_yield();
    for (int b = 0; b < BATCHES; b++) CHECK_STATUS(pf_dispatch_run(d, &desc, NS, imgs, prm, &t, NULL), PF_OK);
    atomic_store(&sc.stop, 1);
    pthread_join(th, NULL);
    CHECK(atomic_load(&sc.failures) == 0 && sc.went_back == 0 && atomic_load(&sc.scrapes) > 0);

    pf_metrics_snapshot *s = calloc(1, sizeof *s);
    pf_metrics_sources src = {.dispatch = d};
    CHECK_STATUS(pf_metrics_snapshot_take(&src, s), PF_OK);
    CHECK(s->has_dispatch && s->dispatch_ndev == 1 && !s->has_pipeline);
    char *text = render(s);
    CHECK(value_of(text, "pixflow_dispatch_samples_total{device=\"cpu\"}") == NS * BATCHES);
    CHECK(value_of(text, "pixflow_dispatch_batches_total") == BATCHES);
    CHECK(value_of(text, "pixflow_dispatch_share_ratio{device=\"cpu\"}") == 1.0);
    CHECK(value_of(text, "pixflow_dispatch_dropped{device=\"cpu\"}") == 0.0);
    CHECK(value_of(text, "pixflow_dispatch_failures_total{device=\"cpu\"}") == 0.0);
    CHECK(value_of(text, "pixflow_dispatch_transfer_bytes_total{device=\"cpu\",direction=\"upload\"}") >= 0.0);
    CHECK(value_of(text, "pixflow_dispatch_overhead_seconds_total") >= 0.0);
    /* one device: nothing split, nothing moved (the split's values: tests/opencl/test_hetero_rules.c) */
    CHECK(value_of(text, "pixflow_dispatch_split_batches_total") == 0.0);
    CHECK(value_of(text, "pixflow_dispatch_moved_bytes_total") == 0.0);
    double busy = value_of(text, "pixflow_dispatch_busy_seconds_total{device=\"cpu\"}");
    CHECK(busy > 0 && busy <= value_of(text, "pixflow_dispatch_wall_seconds_total") + 1e-9);
    printf("  dispatcher: %d scrapes during %d batches; %d samples on cpu\n", atomic_load(&sc.scrapes), BATCHES,
           NS * BATCHES);
    free(text);
    free(s);
    free(out);
    pf_dispatch_close(d);
}

int main(int argc, char **argv) {
    dump_path = argc > 1 ? argv[1] : NULL;
    test_escape();
    test_args();
    test_buckets();
    test_pipeline_and_pool();
    test_dispatch();
    return pft_summary("metrics");
}
