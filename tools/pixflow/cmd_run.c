/* pixflow run SOURCE [--recipe R] [--batch N] [--workers N] [--epochs N]
 * [--seed S] [--out DIR] [--preview PNG] [--device D]: the main job. Runs the data
 * pipeline over a folder (ImageFolder layout), a file list (.txt/.lst) or
 * .tar shards (comma-separated), with a progress line, then prints the
 * stage table, consumer starvation, batch latency and throughput.
 * --metrics ADDR serves the live metrics (include/pixflow/metrics.h) at
 * http://ADDR/metrics while it runs (metrics_http.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "metrics_http.h"
#include "pixflow/pixflow.h"
#include "run_dispatch.h"
#include "run_output.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: pixflow run SOURCE [--recipe imagenet-train|imagenet-eval|yolo] [--batch N]\n"
            "                  [--workers N] [--epochs N] [--seed S] [--out DIR] [--preview PNG]\n"
            "                  [--rank R --world-size W] [--on-error skip|fail]\n"
            "                  [--device cpu|cuda[:N]|opencl[:N]] [--staging-mb N] [--quiet]\n"
            "                  [--metrics [HOST:]PORT [--metrics-linger S]] [--consumer-delay-ms N]\n"
            "                  [--prefetch N] [--devices cpu,opencl:0,...|auto [--dispatch-rules RULES]]\n"
            "  --on-error: skip (default) drops bad samples and lists them at the end; fail ends the\n"
            "            run at the first batch holding one (exit 1, naming the sample)\n"
            "  --device: decode on the CPU workers, augment on that device (the pipeline's device\n"
            "            placement: cpu, CUDA device N, or OpenCL device N as `pixflow info` lists them);\n"
            "            batches are the same bits as without it (--out downloads device batches)\n"
            "  --devices: as --device cpu, with each batch's augment spread over these devices by\n"
            "            measured cost (pf_dispatch); the same bits; prints each device's share\n"
            "  --dispatch-rules: with --devices, op classes on devices over the measured choice:\n"
            "            geometry=opencl:0,pointwise=cpu splits each sample's chain (resampling on one,\n"
            "            colour + normalisation on the other); one class (or both on one device) keeps\n"
            "            the chain whole there; the same bits\n"
            "  --staging-mb: with --device, the cap of the decoded-image staging pool (default: auto)\n"
            "  --metrics: serve Prometheus metrics at http://HOST:PORT/metrics while running (HOST\n"
            "            defaults to 127.0.0.1; PORT 0 picks a free one, printed on stderr);\n"
            "            --metrics-linger keeps serving S seconds after the run so the last values get scraped\n"
            "  --prefetch: batches prepared ahead of the consumer (default: auto)\n"
            "  --consumer-delay-ms: sleep N ms per batch (a slow consumer, for testing backlog alerts)\n"
            "SOURCE: a folder (class sub-folders give labels), a list file (.txt/.lst: path [label]),\n"
            "        or .tar shards (comma-separated; WebDataset layout), or a .pfpack (pixflow pack)\n"
            "Exit status: 0 done, 1 the run failed (the pipeline stopped, a failed batch, nothing\n"
            "decoded), 2 bad arguments.\n");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Splits "a.tar,b.tar" in place. */
static int split_shards(char *list, const char **out, int cap) {
    int n = 0;
    for (char *tok = strtok(list, ","); tok && n < cap; tok = strtok(NULL, ",")) out[n++] = tok;
    return n;
}

static void print_table(const pf_pipeline_stats *s, double wall) {
    printf("\n%-15s %7s %9s %9s %9s %7s %9s\n", "stage", "threads", "items", "busy s", "wait s", "util", "queue");
    for (int i = 0; i < PF_PIPELINE_STAGES; i++) {
        const pf_stage_stats *g = &s->stage[i];
        if (g->threads == 0) continue; /* the device stage without augment_device */
        double util = wall > 0 ? 100.0 * g->busy_s / (wall * g->threads) : 0.0;
        char q[32] = "-";
        if (g->queue_capacity) snprintf(q, sizeof q, "%d/%d", (int)g->queue_depth, (int)g->queue_capacity);
        printf("%-15s %7d %9llu %9.3f %9.3f %6.1f%% %9s\n", g->name, (int)g->threads, (unsigned long long)g->items,
               g->busy_s, g->wait_s, util, q);
    }
    printf("%-15s %7d %9llu %9s %9.3f %7s %9s\n", "consumer", 1, (unsigned long long)s->batches, "-",
           s->starvation_s, "", "");
    printf("\nbatches %llu, samples %llu, skipped %llu, failed batches %llu\n", (unsigned long long)s->batches,
           (unsigned long long)s->samples, (unsigned long long)s->skipped, (unsigned long long)s->failed_batches);
    printf("consumer starvation %.3f s (%.1f%% of %.3f s)\n", s->starvation_s,
           wall > 0 ? 100.0 * s->starvation_s / wall : 0.0, wall);
    printf("batch latency p50 %.2f ms, p99 %.2f ms; batch buffers %d x %.1f MiB\n", s->latency_p50_ms,
           s->latency_p99_ms, (int)s->buffers, (double)s->batch_bytes / 1048576.0);
    printf("throughput %.1f samples/s\n", wall > 0 ? (double)s->samples / wall : 0.0);
}

/* "cpu", "cuda" / "cuda:N" or "opencl" / "opencl:N" (N: the device index,
 * OpenCL devices in the order `pixflow info` lists them). */
static int open_device(const char *name, pf_device **out) {
    static const struct {
        const char *prefix;
        pf_device_kind kind;
    } kinds[] = {{"cuda", PF_DEVICE_CUDA}, {"opencl", PF_DEVICE_OPENCL}};
    pf_device_kind kind = PF_DEVICE_CPU;
    int index = 0, known = strcmp(name, "cpu") == 0;
    for (size_t k = 0; !known && k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t n = strlen(kinds[k].prefix);
        if (strncmp(name, kinds[k].prefix, n) != 0 || (name[n] != '\0' && name[n] != ':')) continue;
        known = 1;
        kind = kinds[k].kind;
        if (name[n] == ':') {
            char *end;
            long v = strtol(name + n + 1, &end, 10);
            if (name[n + 1] == '\0' || *end != '\0' || v < 0 || v > 63) {
                fprintf(stderr, "pixflow run: --device %s: the index must be 0..63\n", name);
                return 1;
            }
            index = (int)v;
        }
    }
    if (!known) {
        fprintf(stderr, "pixflow run: --device %s: use cpu, cuda, cuda:N, opencl or opencl:N\n", name);
        return 1;
    }
    if (pf_device_open(kind, index, out) != PF_OK) {
        fprintf(stderr, "pixflow run: --device %s: %s\n", name, pf_last_error());
        return 1;
    }
    return 0;
}

/* A host copy of a device batch (same fields, tensor packed in *buf). */
static int host_copy(const pf_batch *b, void **buf, size_t *cap, pf_batch *out) {
    const pf_tensor *t = &b->tensor;
    size_t bytes = pf_tensor_packed_size(t->n, t->channels, t->height, t->width, t->dtype);
    if (bytes > *cap) {
        void *nb = realloc(*buf, bytes);
        if (nb == NULL) {
            fprintf(stderr, "pixflow run: out of memory for a host copy of a batch\n");
            return 1;
        }
        *buf = nb;
        *cap = bytes;
    }
    *out = *b;
    out->tensor = t->layout == PF_CHW ? pf_tensor_nchw(*buf, t->n, t->channels, t->height, t->width, t->dtype)
                                      : pf_tensor_nhwc(*buf, t->n, t->channels, t->height, t->width, t->dtype);
    if (pf_tensor_copy_async(NULL, t, &out->tensor) != PF_OK) {
        fprintf(stderr, "pixflow run: copying a batch to the host: %s\n", pf_last_error());
        return 1;
    }
    return 0;
}

int cmd_run(int argc, char **argv) {
    const char *source = NULL, *recipe = "imagenet-train", *out_dir = NULL, *preview = NULL;
    long batch = 32, workers = 0, epochs = 1, rank = 0, world = 1, staging_mb = 0;
    const char *on_error = "skip";
    unsigned long long seed = 0;
    int quiet = 0;
    const char *device = NULL, *metrics_addr = NULL, *devices = NULL, *dispatch_rules = NULL;
    long linger_s = 0, delay_ms = 0, prefetch = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); return 0; }
        if (strcmp(a, "--quiet") == 0) { quiet = 1; continue; }
        if (a[0] == '-' && a[1] == '-' && v == NULL) { fprintf(stderr, "pixflow run: %s needs a value\n", a); usage(stderr); return 2; }
        if (strcmp(a, "--recipe") == 0) recipe = argv[++i];
        else if (strcmp(a, "--batch") == 0) batch = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--workers") == 0) workers = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--epochs") == 0) epochs = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--seed") == 0) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--out") == 0) out_dir = argv[++i];
        else if (strcmp(a, "--preview") == 0) preview = argv[++i];
        else if (strcmp(a, "--rank") == 0) rank = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--world-size") == 0) world = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--device") == 0) device = argv[++i];
        else if (strcmp(a, "--devices") == 0) devices = argv[++i];
        else if (strcmp(a, "--dispatch-rules") == 0) dispatch_rules = argv[++i];
        else if (strcmp(a, "--on-error") == 0) on_error = argv[++i];
        else if (strcmp(a, "--staging-mb") == 0) staging_mb = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--prefetch") == 0) prefetch = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--metrics") == 0) metrics_addr = argv[++i];
        else if (strcmp(a, "--metrics-linger") == 0) linger_s = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "--consumer-delay-ms") == 0) delay_ms = strtol(argv[++i], NULL, 10);
        else if (a[0] == '-') { fprintf(stderr, "pixflow run: unknown option %s\n", a); usage(stderr); return 2; }
        else if (source == NULL) source = a;
        else { fprintf(stderr, "pixflow run: more than one SOURCE (%s)\n", a); usage(stderr); return 2; }
    }
    if (source == NULL) { usage(stderr); return 2; }
    if (strcmp(on_error, "skip") != 0 && strcmp(on_error, "fail") != 0) {
        fprintf(stderr, "pixflow run: --on-error %s: use skip or fail\n", on_error);
        return 2;
    }
    if (device != NULL && devices != NULL) {
        fprintf(stderr, "pixflow run: --device and --devices exclude each other\n");
        return 2;
    }
    if (dispatch_rules != NULL && devices == NULL) {
        fprintf(stderr, "pixflow run: --dispatch-rules needs --devices\n");
        return 2;
    }
    if (staging_mb < 0 || staging_mb > (1L << 20) || (staging_mb > 0 && device == NULL && devices == NULL)) {
        fprintf(stderr, "pixflow run: --staging-mb must be 1..1048576 and needs --device\n");
        return 2;
    }
    if (linger_s < 0 || linger_s > 3600 || (linger_s > 0 && metrics_addr == NULL) || delay_ms < 0 || delay_ms > 60000 ||
        prefetch < 0 || prefetch > 4096) {
        fprintf(stderr, "pixflow run: --metrics-linger must be 0..3600 and needs --metrics; --consumer-delay-ms 0..60000, --prefetch 0..4096\n");
        return 2;
    }
    if (metrics_addr) { /* a malformed address is a usage error, found before any work */
        char host[256], port[16], err[512];
        if (metrics_http_parse(metrics_addr, host, sizeof host, port, sizeof port, err, sizeof err) != 0) {
            fprintf(stderr, "pixflow run: --metrics %s\n", err);
            return 2;
        }
    }
    if (batch < 1 || batch > 65536 || workers < 0 || workers > 1024 || epochs < 1) {
        fprintf(stderr, "pixflow run: --batch must be 1..65536, --workers 0..1024 (0: one per CPU), --epochs >= 1\n");
        return 2;
    }

    pf_pipeline_config c = pf_pipeline_config_defaults();
    if (pf_recipe(recipe, &c.desc, &c.policy) != PF_OK) {
        fprintf(stderr, "pixflow run: %s\n", pf_last_error());
        return 2;
    }
    char *shard_list = NULL;
    const char *shards[4096];
    struct stat sb;
    if (stat(source, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        c.source.kind = PF_SOURCE_FOLDER;
        c.source.path = source;
    } else if (ends_with(source, ".pfpack")) {
        c.source.kind = PF_SOURCE_PACK;
        c.source.path = source;
    } else if (ends_with(source, ".tar") || strstr(source, ".tar,")) {
        shard_list = strdup(source);
        c.source.kind = PF_SOURCE_TAR;
        c.source.shards = shards;
        c.source.shard_count = split_shards(shard_list, shards, 4096);
    } else {
        c.source.kind = PF_SOURCE_FILE_LIST;
        c.source.path = source;
    }
    c.batch_size = (int32_t)batch;
    c.workers = (int32_t)workers;
    c.epochs = (uint64_t)epochs;
    c.seed = seed;
    c.rank = (int32_t)rank;
    c.world_size = (int32_t)world;
    c.on_error = strcmp(on_error, "fail") == 0 ? PF_ON_ERROR_FAIL : PF_ON_ERROR_SKIP;
    c.staging_bytes = (size_t)staging_mb << 20;
    c.prefetch_batches = (int32_t)prefetch;
    if (out_dir && mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "pixflow run: cannot create %s: %s\n", out_dir, strerror(errno));
        free(shard_list);
        return 1;
    }

    pf_device *dev = NULL;
    if (device != NULL && open_device(device, &dev) != 0) {
        free(shard_list);
        return 2;
    }
    c.augment_device = dev;
    pf_dispatch *disp = NULL;
    if (devices != NULL) {
        int drc = run_dispatch_open(devices, dispatch_rules, &c, &dev, &disp);
        if (drc != 0) {
            free(shard_list);
            return drc;
        }
    }

    double t0 = now_s();
    pf_pipeline *p;
    if (pf_pipeline_create(&c, &p) != PF_OK) {
        fprintf(stderr, "pixflow run: %s\n", pf_last_error());
        pf_device_close(dev);
        pf_dispatch_close(disp);
        free(shard_list);
        return 1;
    }
    /* the server reads the pipeline until metrics_http_stop, which comes
     * before pf_pipeline_destroy on every path */
    pf_metrics_sources msrc = {.pipeline = p, .device = device ? device : "cpu"};
    metrics_http *mhttp = NULL;
    if (metrics_addr && metrics_http_start(metrics_addr, &msrc, &mhttp) != 0) {
        pf_pipeline_destroy(p);
        pf_device_close(dev);
        pf_dispatch_close(disp);
        free(shard_list);
        return 1;
    }
    pf_pipeline_stats st;
    pf_pipeline_stats_get(p, &st);
    printf("pixflow run: %s, recipe %s (%dx%d %s), batch %d, %d workers, %llu epoch(s), seed %llu\n", source,
           recipe, (int)c.desc.out_width, (int)c.desc.out_height, pf_dtype_name(c.desc.out_dtype), (int)c.batch_size,
           (int)st.stage[1].threads, (unsigned long long)c.epochs, seed);
    fflush(stdout);

    run_sheet *sheet = preview ? run_sheet_create(&c.desc, 32) : NULL;
    void *host_buf = NULL;
    size_t host_cap = 0;
    int rc = 0, sheet_full = 0;
    uint64_t samples = 0, total_hint = 0, first_epoch_samples = 0, written = 0;
    double last_print = 0.0;
    for (;;) {
        const pf_batch *b;
        pf_status s = pf_pipeline_next(p, &b, -1);
        if (s != PF_OK) {
            /* a dead pipeline (fatal error) or, under --on-error fail, a
             * failed batch: either ends the run */
            pf_status cause;
            int dead = pf_pipeline_state_get(p, &cause) == PF_PIPELINE_FAILED;
            fprintf(stderr, "\npixflow run: %s: %s\n", dead ? "the pipeline stopped" : "a batch failed", pf_last_error());
            rc = 1;
            break;
        }
        if (b == NULL) break;
        samples += (uint64_t)b->count;
        if (b->epoch == 0) first_epoch_samples += (uint64_t)b->count;
        if (b->epoch > 0 && total_hint == 0) total_hint = first_epoch_samples * c.epochs;
        const pf_batch *hb = b;
        pf_batch local;
        if ((out_dir || (sheet && !sheet_full)) && b->tensor.mem != PF_MEM_HOST) {
            /* device tensors: download for the .npy files and the preview */
            if (host_copy(b, &host_buf, &host_cap, &local) != 0) rc = 1;
            hb = &local;
        }
        if (!rc && out_dir) {
            if (run_write_npy(out_dir, hb)) rc = 1;
            else written++;
        }
        if (!rc && sheet && !sheet_full) sheet_full = run_sheet_add(sheet, hb);
        pf_batch_release(p, b);
        if (rc) break;
        if (delay_ms > 0) {
            struct timespec d = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
            nanosleep(&d, NULL);
        }
        double t = now_s();
        if (!quiet && t - last_print > 0.25) {
            last_print = t;
            double rate = (double)samples / (t - t0);
            if (total_hint) {
                double eta = rate > 0 ? (double)(total_hint - (samples < total_hint ? samples : total_hint)) / rate : 0.0;
                fprintf(stderr, "\repoch %llu/%llu  %llu/%llu samples  %.1f items/s  ETA %.1f s   ",
                        (unsigned long long)b->epoch + 1, (unsigned long long)c.epochs, (unsigned long long)samples,
                        (unsigned long long)total_hint, rate, eta);
            } else {
                fprintf(stderr, "\repoch %llu/%llu  %llu samples  %.1f items/s   ", (unsigned long long)b->epoch + 1,
                        (unsigned long long)c.epochs, (unsigned long long)samples, rate);
            }
        }
    }
    double wall = now_s() - t0;
    if (!quiet) fprintf(stderr, "\r%80s\r", "");
    pf_pipeline_stats_get(p, &st);
    print_table(&st, wall);
    pf_sample_error errs[10];
    int ne = pf_pipeline_errors(p, errs, 10);
    for (int i = 0; i < ne; i++)
        printf("skipped: %s (epoch %llu): %s\n", errs[i].name, (unsigned long long)errs[i].epoch, errs[i].reason);
    if (out_dir)
        printf("%llu batch%s written to %s/ as .npy%s\n", (unsigned long long)written, written == 1 ? "" : "es",
               out_dir, rc ? " (the run stopped early)" : "");
    if (sheet) {
        if (run_sheet_write(sheet, preview) == 0) printf("preview: %s (augmented samples, de-normalized)\n", preview);
        else rc = 1;
        run_sheet_destroy(sheet);
    }
    if (mhttp && linger_s > 0) {
        fflush(stdout);
        struct timespec d = {linger_s, 0};
        nanosleep(&d, NULL);
    }
    metrics_http_stop(mhttp);
    pf_pipeline_destroy(p);
    run_dispatch_print(disp); /* its stats: the device stage has stopped */
    pf_dispatch_close(disp);  /* borrowed by the pipeline until here */
    pf_device_close(dev);
    free(host_buf);
    free(shard_list);
    if (st.samples == 0 && rc == 0) {
        fprintf(stderr, "pixflow run: no sample could be decoded\n");
        rc = 1;
    }
    return rc;
}
