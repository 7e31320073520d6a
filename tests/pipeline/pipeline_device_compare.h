/* The device placement's comparison harness, shared by
 * tests/pipeline/test_pipeline_device.c (the CPU device, and CUDA where a
 * GPU is present) and tests/opencl/test_opencl_pipeline.c (an OpenCL
 * device): run a config to the end, fingerprint everything the consumer
 * sees (tensor bytes, downloaded first for device tensors; labels, meta,
 * order, resume points, skipped samples and errors), and compare the
 * default placement with the device placement on a device for 1, 2 and
 * 4 workers. */
#ifndef PF_TEST_PIPELINE_DEVICE_COMPARE_H
#define PF_TEST_PIPELINE_DEVICE_COMPARE_H

#include "pipeline_fixtures.h"
#include "pixflow/runtime.h"

#define MAXB 128

/* One delivered batch: everything the consumer sees, hashed. */
typedef struct dev_batch {
    uint64_t epoch, batch_index, next_epoch, next_position;
    int32_t count, skipped;
    uint64_t tensor_hash, meta_hash;
} dev_batch;

static inline uint64_t meta_hash(const pf_batch *b) {
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < b->count; i++) {
        const pf_sample_meta *m = &b->meta[i];
        h = fx_hash(&m->index, sizeof m->index, h);
        h = fx_hash(&m->position, sizeof m->position, h);
        h = fx_hash(&m->label, sizeof m->label, h);
        h = fx_hash(&b->labels[i], sizeof b->labels[i], h);
        h = fx_hash(&m->width, sizeof m->width, h);
        h = fx_hash(&m->height, sizeof m->height, h);
        h = fx_hash(&m->letterbox, sizeof m->letterbox, h);
        h = fx_hash(&m->warnings, sizeof m->warnings, h);
        h = fx_hash(m->name, strlen(m->name), h);
    }
    return h;
}

/* Host bytes of a batch's tensor (copied back first for a CUDA tensor). */
static inline uint64_t tensor_hash(const pf_batch *b, pf_stream *s) {
    size_t bytes = (size_t)b->count * (size_t)b->tensor.sample_stride;
    if (b->tensor.mem == PF_MEM_HOST) return fx_hash(b->tensor.data, bytes, 14695981039346656037ull);
    void *host = malloc(bytes);
    uint64_t h = 0;
    if (pf_memcpy_async(s, host, b->tensor.data, bytes) == PF_OK && pf_stream_synchronize(s) == PF_OK)
        h = fx_hash(host, bytes, 14695981039346656037ull);
    free(host);
    return h;
}

typedef struct run_result {
    int n, failed;
    uint64_t skipped;
    pf_pipeline_stats stats;
    pf_sample_error errors[64];
    int nerrors;
    pf_status create_status;
} run_result;

static inline int run(const pf_pipeline_config *c, dev_batch *out, int max, run_result *r) {
    memset(r, 0, sizeof *r);
    pf_pipeline *p;
    r->create_status = pf_pipeline_create(c, &p);
    if (r->create_status != PF_OK) {
        fprintf(stderr, "create: %s\n", pf_last_error());
        return r->n = -1;
    }
    while (r->n < max) {
        const pf_batch *b;
        pf_status st = pf_pipeline_next(p, &b, 20000);
        if (st != PF_OK) {
            if (st == PF_ERR_TIMEOUT || st == PF_ERR_CANCELLED || st == PF_ERR_OUT_OF_MEMORY) {
                fprintf(stderr, "next: %s %s\n", pf_status_str(st), pf_last_error());
                r->n = -1;
                break;
            }
            r->failed++;
            continue;
        }
        if (b == NULL) break;
        dev_batch *o = &out[r->n++];
        o->epoch = b->epoch;
        o->batch_index = b->batch_index;
        o->next_epoch = b->next_epoch;
        o->next_position = b->next_position;
        o->count = b->count;
        o->skipped = b->skipped;
        o->tensor_hash = tensor_hash(b, c->consumer_stream);
        o->meta_hash = meta_hash(b);
        pf_batch_release(p, b);
    }
    pf_pipeline_stats_get(p, &r->stats);
    r->skipped = r->stats.skipped;
    r->nerrors = pf_pipeline_errors(p, r->errors, 64);
    pf_pipeline_destroy(p);
    return r->n;
}

static inline int same(const dev_batch *a, const run_result *ra, const dev_batch *b, const run_result *rb) {
    if (ra->n != rb->n || ra->n < 0) {
        fprintf(stderr, "batch count %d vs %d\n", ra->n, rb->n);
        return 0;
    }
    if (ra->skipped != rb->skipped || ra->failed != rb->failed || ra->nerrors != rb->nerrors) {
        fprintf(stderr, "skipped %llu/%llu failed %d/%d errors %d/%d\n", (unsigned long long)ra->skipped,
                (unsigned long long)rb->skipped, ra->failed, rb->failed, ra->nerrors, rb->nerrors);
        return 0;
    }
    for (int i = 0; i < ra->nerrors; i++)
        if (ra->errors[i].index != rb->errors[i].index || ra->errors[i].status != rb->errors[i].status ||
            strcmp(ra->errors[i].name, rb->errors[i].name) != 0) {
            fprintf(stderr, "error %d differs: %s vs %s\n", i, ra->errors[i].name, rb->errors[i].name);
            return 0;
        }
    for (int i = 0; i < ra->n; i++)
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) {
            fprintf(stderr, "batch %d differs (count %d/%d, tensor %d, meta %d)\n", i, a[i].count, b[i].count,
                    a[i].tensor_hash == b[i].tensor_hash, a[i].meta_hash == b[i].meta_hash);
            return 0;
        }
    return 1;
}

/* The default placement, then the device placement on `dev` with each
 * worker count: all identical. */
static inline void compare(pf_pipeline_config c, pf_device *dev, pf_stream *cs, const char *what) {
    dev_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    run_result rr, rg;
    c.workers = 2;
    run(&c, ref, MAXB, &rr);
    CHECK(rr.n > 0);
    CHECK(rr.stats.stage[3].threads == 0 && strcmp(rr.stats.stage[3].name, "device") == 0);
    int ws[] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        pf_pipeline_config d = c;
        d.augment_device = dev;
        d.consumer_stream = cs;
        d.workers = ws[i];
        memset(got, 0, MAXB * sizeof *got);
        run(&d, got, MAXB, &rg);
        int ok = same(ref, &rr, got, &rg);
        if (getenv("PFT_VERBOSE")) printf("%s, %d workers: %d batches, %d failed, %llu skipped, peak staging %zu / %zu\n", what, ws[i], rg.n, rg.failed, (unsigned long long)rg.skipped, rg.stats.staging_pinned.peak_reserved, rg.stats.staging_pinned.cap);
        if (!ok) fprintf(stderr, "  %s, %d workers\n", what, ws[i]);
        CHECK(ok);
        CHECK(rg.stats.stage[3].threads == 1 && rg.stats.stage[3].items == (uint64_t)(rg.n + rg.failed));
        CHECK(rg.stats.staging_pinned.peak_reserved <= rg.stats.staging_pinned.cap);
        CHECK(rg.stats.staging_device.peak_reserved <= rg.stats.staging_device.cap);
        CHECK(rg.stats.device_tensors == 3 && rg.stats.device_tensors_free == 3);
    }
    free(ref);
    free(got);
}

static inline pf_pipeline_config folder_config(const char *dir) {
    pf_pipeline_config c = fx_config();
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = dir;
    return c;
}

#endif
