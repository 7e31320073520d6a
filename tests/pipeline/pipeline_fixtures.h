/* Synthetic datasets for the pipeline tests: PPM files in class folders,
 * broken entries, tar shards written by hand (ustar), and helpers that run
 * a pipeline to the end and fingerprint every batch. */
#ifndef PF_TEST_PIPELINE_FIXTURES_H
#define PF_TEST_PIPELINE_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pixflow/pipeline.h"
#include "test_util.h"

/* A PPM of w x h with pixels from a seed. Returns malloc'ed bytes. */
static inline unsigned char *fx_ppm(int w, int h, uint64_t seed, size_t *size) {
    char hdr[64];
    int n = snprintf(hdr, sizeof hdr, "P6\n# pixflow test\n%d %d\n255\n", w, h);
    size_t total = (size_t)n + (size_t)w * (size_t)h * 3;
    unsigned char *b = malloc(total);
    memcpy(b, hdr, (size_t)n);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = (size_t)n; i < total; i++) b[i] = (unsigned char)(pft_rand(&s) >> 56);
    *size = total;
    return b;
}

static inline void fx_write(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(2); }
    fwrite(data, 1, size, f);
    fclose(f);
}

/* dir/class_<k>/img_<i>.ppm for i < n (class i % classes), sizes 24..70. */
static inline void fx_make_folder(const char *dir, int n, int classes) {
    char path[4096];
    mkdir(dir, 0755);
    for (int k = 0; k < classes; k++) {
        snprintf(path, sizeof path, "%.2000s/class_%d", dir, k);
        mkdir(path, 0755);
    }
    for (int i = 0; i < n; i++) {
        size_t size;
        unsigned char *b = fx_ppm(24 + (i * 7) % 47, 24 + (i * 13) % 41, (uint64_t)i, &size);
        snprintf(path, sizeof path, "%.2000s/class_%d/img_%04d.ppm", dir, i % classes, i);
        fx_write(path, b, size);
        free(b);
    }
}

/* In dir (made by fx_make_folder with at least 3 classes): a truncated PPM
 * (class_1/broken_truncated.ppm), a non-image with a .ppm name
 * (class_2/broken_text.ppm) and a dangling link (class_0/broken_link.ppm). */
static inline void fx_add_broken(const char *dir) {
    char path[4300];
    size_t size;
    unsigned char *b = fx_ppm(40, 40, 5, &size);
    snprintf(path, sizeof path, "%.2000s/class_1/broken_truncated.ppm", dir);
    fx_write(path, b, size / 2);
    free(b);
    snprintf(path, sizeof path, "%.2000s/class_2/broken_text.ppm", dir);
    fx_write(path, "hello", 5);
    snprintf(path, sizeof path, "%.2000s/class_0/broken_link.ppm", dir);
    if (symlink("/nonexistent/pixflow/file.ppm", path) != 0) perror("symlink");
}

static inline void fx_rm_rf(const char *dir) {
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
}

/* A temp folder name unique to this process. */
static inline void fx_tmpdir(char *out, size_t cap, const char *tag) {
    const char *base = getenv("TMPDIR");
    snprintf(out, cap, "%s/pixflow_%s_%d", base && base[0] ? base : "/tmp", tag, (int)getpid());
    fx_rm_rf(out);
}

/* ustar member header + data + padding. */
static inline void fx_tar_member(FILE *f, const char *name, const void *data, size_t size) {
    unsigned char h[512];
    memset(h, 0, sizeof h);
    snprintf((char *)h, 100, "%.99s", name);
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011o", (unsigned)size);
    snprintf((char *)h + 136, 12, "%011o", 0);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++) sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    fwrite(h, 1, 512, f);
    fwrite(data, 1, size, f);
    static const unsigned char zeros[512];
    if (size % 512) fwrite(zeros, 1, 512 - size % 512, f);
}

/* shards tar files, per_shard samples each: key s<shard>_<i>, .ppm + .cls. */
static inline void fx_make_tars(const char *dir, int shards, int per_shard, char paths[][4096]) {
    mkdir(dir, 0755);
    for (int s = 0; s < shards; s++) {
        snprintf(paths[s], 4096, "%.2000s/shard-%03d.tar", dir, s);
        FILE *f = fopen(paths[s], "wb");
        for (int i = 0; i < per_shard; i++) {
            int id = s * per_shard + i;
            char name[128], cls[16];
            size_t size;
            unsigned char *b = fx_ppm(20 + id % 30, 20 + (id * 3) % 30, (uint64_t)id, &size);
            snprintf(name, sizeof name, "data/s%d_%04d.cls", s, i);
            int n = snprintf(cls, sizeof cls, "%d", id);
            fx_tar_member(f, name, cls, (size_t)n);
            snprintf(name, sizeof name, "data/s%d_%04d.ppm", s, i);
            fx_tar_member(f, name, b, size);
            free(b);
        }
        static const unsigned char zeros[1024];
        fwrite(zeros, 1, 1024, f);
        fclose(f);
    }
}

/* Small, fast training-style config over a source. */
static inline pf_pipeline_config fx_config(void) {
    pf_pipeline_config c = pf_pipeline_config_defaults();
    pf_recipe("imagenet-train", &c.desc, &c.policy);
    c.desc.out_width = 20;
    c.desc.out_height = 16;
    c.policy.color_jitter = true;
    c.seed = 1234;
    c.batch_size = 5;
    c.workers = 2;
    c.epochs = 2;
    return c;
}

/* One delivered batch, fingerprinted. */
typedef struct fx_batch {
    uint64_t epoch, hash, next_epoch, next_position;
    int32_t count;
    uint64_t index[64];
    int32_t label[64];
} fx_batch;

static inline uint64_t fx_hash(const void *p, size_t n, uint64_t h) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static inline void fx_take(const pf_batch *b, fx_batch *out) {
    out->epoch = b->epoch;
    out->count = b->count;
    out->next_epoch = b->next_epoch;
    out->next_position = b->next_position;
    size_t bytes = (size_t)b->count * (size_t)b->tensor.sample_stride;
    out->hash = fx_hash(b->tensor.data, bytes, 14695981039346656037ull);
    for (int i = 0; i < b->count && i < 64; i++) {
        out->index[i] = b->meta[i].index;
        out->label[i] = b->labels[i];
    }
}

/* Runs to the end (or max batches); returns the number of batches taken,
 * -1 on a create/next failure. Failed batches (PF_ON_ERROR_FAIL) count in
 * *failed. */
static inline int fx_run(const pf_pipeline_config *c, fx_batch *out, int max, int *failed) {
    pf_pipeline *p;
    if (pf_pipeline_create(c, &p) != PF_OK) {
        fprintf(stderr, "create: %s\n", pf_last_error());
        return -1;
    }
    int n = 0;
    if (failed) *failed = 0;
    while (n < max) {
        const pf_batch *b;
        pf_status st = pf_pipeline_next(p, &b, 20000);
        if (st != PF_OK) {
            if (failed && st != PF_ERR_TIMEOUT) { (*failed)++; continue; }
            fprintf(stderr, "next: %s %s\n", pf_status_str(st), pf_last_error());
            n = -1;
            break;
        }
        if (b == NULL) break;
        fx_take(b, &out[n++]);
        pf_batch_release(p, b);
    }
    pf_pipeline_destroy(p);
    return n;
}

static inline int fx_same(const fx_batch *a, int na, const fx_batch *b, int nb) {
    if (na != nb) { fprintf(stderr, "batch count %d vs %d\n", na, nb); return 0; }
    for (int i = 0; i < na; i++) {
        if (a[i].hash != b[i].hash || a[i].count != b[i].count || a[i].epoch != b[i].epoch ||
            memcmp(a[i].index, b[i].index, sizeof a[i].index) != 0) {
            fprintf(stderr, "batch %d differs (count %d/%d, epoch %llu/%llu)\n", i, a[i].count, b[i].count,
                    (unsigned long long)a[i].epoch, (unsigned long long)b[i].epoch);
            return 0;
        }
    }
    return 1;
}

#endif
