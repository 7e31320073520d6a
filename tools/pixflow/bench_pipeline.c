/* pixflow bench pipeline: the data pipeline on data/ replicated to a few
 * thousand files (symlinks, so the page cache holds one copy), recipe
 * imagenet-train. Reports
 *  - the single-thread rate of the per-sample work alone (the default
 *    decode+augment function called in a loop, no pipeline),
 *  - pipeline throughput at 1 and 2 workers vs that rate x workers,
 *  - consumer starvation when the consumer is slower than the pipeline,
 *  - the device placement (config.augment_device) on the CPU device next
 *    to the default placement: workers decode only, one device thread
 *    copies the staged images and runs the batch preprocess (on a CPU
 *    stream of all cores), so its cost vs the default is the staging copy
 *    and the hand-off. On a GPU the preprocess moves off the CPU.
 * Files the default sample function cannot decode are converted once to
 * PPM (through OpenCV, when the bench is built with it). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#ifdef PF_BENCH_OPENCV
#include "bench_common.h"
#endif

typedef struct photo { char path[4096]; unsigned char *bytes; size_t size; } photo;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *size = (size_t)n;
    return b;
}

/* Can the default sample function turn these bytes into a sample? */
static int decodable(const pf_pipeline_config *c, const unsigned char *b, size_t n, void *state, void *slot_mem) {
    pf_sample_input in = {b, n, 0, 0, 0, -1, "probe"};
    pf_tensor slot = pf_tensor_nchw(slot_mem, 1, 3, c->desc.out_height, c->desc.out_width, c->desc.out_dtype);
    pf_sample_meta meta;
    memset(&meta, 0, sizeof meta);
    return c->sample_fn.process(c->sample_fn.ctx, state, &in, &slot, &meta) == PF_OK;
}

/* Loads the photos of data/ that the sample function can use (converted
 * to PPM under dir when needed). Returns how many. */
static int load_photos(const pf_pipeline_config *c, const char *data, const char *dir, photo *ph, int cap) {
    void *state = NULL;
    if (c->sample_fn.worker_create && c->sample_fn.worker_create(c->sample_fn.ctx, &c->desc, &c->policy, &state) != PF_OK)
        return 0;
    void *slot = malloc(pf_tensor_packed_size(1, 3, c->desc.out_height, c->desc.out_width, c->desc.out_dtype));
    DIR *d = opendir(data);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL && n < cap) {
        const char *dot = strrchr(de->d_name, '.');
        if (!dot || (strcmp(dot, ".jpg") && strcmp(dot, ".png"))) continue;
        photo *p = &ph[n];
        snprintf(p->path, sizeof p->path, "%s/%s", data, de->d_name);
        p->bytes = slurp(p->path, &p->size);
        if (p->bytes && decodable(c, p->bytes, p->size, state, slot)) { n++; continue; }
        free(p->bytes);
        p->bytes = NULL;
#ifdef PF_BENCH_OPENCV
        uint8_t *px;
        int w, h;
        if (bench_load_rgb("pipeline", data, de->d_name, &px, &w, &h) != 0) continue;
        snprintf(p->path, sizeof p->path, "%s/%s.ppm", dir, de->d_name);
        FILE *f = fopen(p->path, "wb");
        if (!f) { free(px); continue; }
        fprintf(f, "P6\n%d %d\n255\n", w, h);
        fwrite(px, 1, (size_t)w * (size_t)h * 3, f);
        fclose(f);
        free(px);
        p->bytes = slurp(p->path, &p->size);
        if (p->bytes) n++;
#else
        (void)dir;
#endif
    }
    if (d) closedir(d);
    free(slot);
    if (c->sample_fn.worker_destroy && state) c->sample_fn.worker_destroy(c->sample_fn.ctx, state);
    return n;
}

/* Single-thread rate of the sample function alone (samples/s); with
 * from_files, each sample's bytes are first read from its file (what the
 * pipeline's read stage does), else they come from memory. */
static double single_rate(const pf_pipeline_config *c, const photo *ph, int nph, int samples, int from_files) {
    void *state = NULL;
    if (c->sample_fn.worker_create) c->sample_fn.worker_create(c->sample_fn.ctx, &c->desc, &c->policy, &state);
    void *slot_mem = malloc(pf_tensor_packed_size(1, 3, c->desc.out_height, c->desc.out_width, c->desc.out_dtype));
    pf_tensor slot = pf_tensor_nchw(slot_mem, 1, 3, c->desc.out_height, c->desc.out_width, c->desc.out_dtype);
    double t0 = now_s();
    for (int i = 0; i < samples; i++) {
        const photo *p = &ph[i % nph];
        size_t size = p->size;
        unsigned char *bytes = from_files ? slurp(p->path, &size) : p->bytes;
        pf_sample_input in = {bytes, size, (uint64_t)i, 0, c->seed, 0, p->path};
        pf_sample_meta meta;
        c->sample_fn.process(c->sample_fn.ctx, state, &in, &slot, &meta);
        if (from_files) free(bytes);
    }
    double dt = now_s() - t0;
    free(slot_mem);
    if (c->sample_fn.worker_destroy && state) c->sample_fn.worker_destroy(c->sample_fn.ctx, state);
    return (double)samples / dt;
}

/* Runs one epoch; the consumer spends consume_s per batch (sleeping, as a
 * trainer waiting on its GPU). *first_wait: time to the first batch (the
 * pipeline filling up), reported apart from steady-state starvation. */
static int run_pipeline(const pf_pipeline_config *c, double consume_s, pf_pipeline_stats *st, double *wall,
                        double *first_wait) {
    pf_pipeline *p;
    if (pf_pipeline_create(c, &p) != PF_OK) {
        fprintf(stderr, "pixflow bench pipeline: %s\n", pf_last_error());
        return 1;
    }
    double t0 = now_s();
    const pf_batch *b;
    *first_wait = -1.0;
    while (pf_pipeline_next(p, &b, -1) == PF_OK && b) {
        if (*first_wait < 0) *first_wait = now_s() - t0;
        if (consume_s > 0) {
            struct timespec ts = {(time_t)consume_s, (long)((consume_s - (double)(time_t)consume_s) * 1e9)};
            nanosleep(&ts, NULL);
        }
        pf_batch_release(p, b);
    }
    *wall = now_s() - t0;
    pf_pipeline_stats_get(p, st);
    pf_pipeline_destroy(p);
    return 0;
}

int bench_pipeline(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 3;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) data = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) rounds = 1;
    }
    if (rounds < 1) rounds = 1;
    int files = rounds >= 3 ? 3000 : 300;
    pf_pipeline_config c = pf_pipeline_config_defaults();
    pf_recipe("imagenet-train", &c.desc, &c.policy);
    c.batch_size = 32;
    c.seed = 7;
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/pixflow_bench_pipeline_%d", (int)getpid());
    mkdir(dir, 0755);
    photo ph[64];
    int nph = load_photos(&c, data, dir, ph, 64);
    if (nph == 0) {
        fprintf(stderr, "pixflow bench pipeline: no photo in %s that the default sample function decodes\n", data);
        return 1;
    }
    /* the dataset: files symlinks in 10 class folders */
    char path[4600], cls[300];
    for (int k = 0; k < 10; k++) {
        snprintf(cls, sizeof cls, "%s/c%d", dir, k);
        mkdir(cls, 0755);
    }
    for (int i = 0; i < files; i++) {
        const photo *p = &ph[i % nph];
        const char *ext = strrchr(p->path, '.');
        snprintf(path, sizeof path, "%s/c%d/%05d%s", dir, i % 10, i, ext);
        char real[4096];
        if (realpath(p->path, real) == NULL || symlink(real, path) != 0) { perror(path); return 1; }
    }
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = dir;
    printf("pixflow bench pipeline: %d files (%d distinct photos from %s), recipe imagenet-train "
           "(RRC 224, f32 NCHW), batch %d; isa %s\n", files, nph, data, (int)c.batch_size,
           pf_isa_name(pf_cpu_active_isa()));
    double r1 = single_rate(&c, ph, nph, files / 3, 0);
    double r1f = single_rate(&c, ph, nph, files / 3, 1);
    printf("single thread, no pipeline: decode+augment r1 = %.1f samples/s; read+decode+augment r1f = %.1f samples/s\n\n",
           r1, r1f);
    printf("%-34s %10s %10s %10s %9s %9s %13s\n", "case", "samples/s", "vs r1 x W", "vs r1f x W", "starve %",
           "1st batch", "p50/p99 ms");
    int rc = 0;
    for (int w = 1; w <= 2; w++) {
        c.workers = w;
        pf_pipeline_stats st;
        double wall, first;
        if (run_pipeline(&c, 0.0, &st, &wall, &first)) { rc = 1; break; }
        double rate = (double)st.samples / wall;
        char label[64];
        snprintf(label, sizeof label, "pipeline, %d worker%s, fast consumer", w, w > 1 ? "s" : "");
        printf("%-34s %10.1f %9.1f%% %9.1f%% %8.1f%% %6.1f ms %6.1f/%-6.1f\n", label, rate, 100.0 * rate / (r1 * w),
               100.0 * rate / (r1f * w), 100.0 * st.starvation_s / wall, first * 1e3, st.latency_p50_ms,
               st.latency_p99_ms);
        {
            /* the same, with the device placement on the CPU device */
            pf_pipeline_config dc = c;
            pf_device *cpu = NULL;
            if (pf_device_open(PF_DEVICE_CPU, 0, &cpu) != PF_OK) { rc = 1; break; }
            dc.augment_device = cpu;
            pf_pipeline_stats ds;
            double dwall, dfirst;
            int drc = run_pipeline(&dc, 0.0, &ds, &dwall, &dfirst);
            pf_device_close(cpu);
            if (drc) { rc = 1; break; }
            double drate = (double)ds.samples / dwall;
            snprintf(label, sizeof label, "device placement (CPU), %d worker%s", w, w > 1 ? "s" : "");
            printf("%-34s %10.1f %9.1f%% %9.1f%% %8.1f%% %6.1f ms %6.1f/%-6.1f  (%.2fx default; device stage busy %.0f%%, staging peak %.1f MiB)\n",
                   label, drate, 100.0 * drate / (r1 * w), 100.0 * drate / (r1f * w), 100.0 * ds.starvation_s / dwall,
                   dfirst * 1e3, ds.latency_p50_ms, ds.latency_p99_ms, drate / rate,
                   100.0 * ds.stage[3].busy_s / dwall, (double)ds.staging_pinned.peak_reserved / (1024.0 * 1024.0));
        }
        if (w == 2) {
            /* a consumer at ~70% of the measured pipeline rate; starvation
             * counted after the first batch (steady state) */
            double consume = 1.0 / (0.7 * rate / c.batch_size);
            if (run_pipeline(&c, consume, &st, &wall, &first)) { rc = 1; break; }
            rate = (double)st.samples / wall;
            double steady = st.starvation_s - first;
            printf("%-34s %10.1f %10s %10s %8.2f%% %6.1f ms %6.1f/%-6.1f\n", "pipeline, 2 workers, slow consumer",
                   rate, "-", "-", 100.0 * (steady > 0 ? steady : 0.0) / (wall - first), first * 1e3,
                   st.latency_p50_ms, st.latency_p99_ms);
        }
    }
    for (int i = 0; i < nph; i++) free(ph[i].bytes);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "pixflow bench pipeline: could not remove %s\n", dir);
    return rc;
}
