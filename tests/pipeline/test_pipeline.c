/* pf_pipeline: determinism (workers 1/2/4), exact resume, sharding
 * coverage, skip/fail error policies with counts and reasons, tar shards,
 * callback sources, timeouts and argument checks. */
#include <errno.h>
#include <time.h>

#include "pipeline_fixtures.h"

#define N_FILES 47
#define MAXB 256

static char g_dir[2000];

static pf_pipeline_config folder_config(void) {
    pf_pipeline_config c = fx_config();
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = g_dir;
    return c;
}

static void test_scan_and_labels(void) {
    pf_pipeline_config c = folder_config();
    c.shuffle = false;
    c.epochs = 1;
    fx_batch *b = calloc(MAXB, sizeof *b);
    int n = fx_run(&c, b, MAXB, NULL);
    CHECK(n == (N_FILES + 4) / 5);
    /* sorted by path: class_0/img_0000, class_0/img_0003, ... then class_1 */
    int k = 0, ok = 1;
    uint64_t expect[N_FILES];
    for (int cls = 0; cls < 3; cls++)
        for (int i = cls; i < N_FILES; i += 3) expect[k++] = (uint64_t)i;
    k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < b[i].count; j++, k++) {
            /* the dataset index is the sorted position; the label is the class */
            if (b[i].index[j] != (uint64_t)k) ok = 0;
            int file = (int)expect[k];
            if (b[i].label[j] != file % 3) ok = 0;
        }
    CHECK(ok);
    CHECK(k == N_FILES);
    CHECK(b[n - 1].count == N_FILES % 5);
    free(b);
}

static void test_workers_identical(void) {
    fx_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    pf_pipeline_config c = folder_config();
    c.workers = 1;
    int nref = fx_run(&c, ref, MAXB, NULL);
    CHECK(nref == 2 * ((N_FILES + 4) / 5));
    /* epochs differ (shuffle keyed by epoch) */
    CHECK(ref[0].hash != ref[nref / 2].hash);
    int ws[] = {2, 4};
    for (int i = 0; i < 2; i++) {
        memset(got, 0, MAXB * sizeof *got);
        c.workers = ws[i];
        c.prefetch_batches = i == 0 ? 1 : 0;
        int n = fx_run(&c, got, MAXB, NULL);
        CHECK(fx_same(ref, nref, got, n));
    }
    /* a different seed gives different batches */
    c.seed = 99;
    int n = fx_run(&c, got, MAXB, NULL);
    CHECK(n == nref && got[0].hash != ref[0].hash);
    free(ref);
    free(got);
}

/* Stops after k batches, resumes from the last batch's cursor: the
 * concatenation equals the uninterrupted run. */
static void resume_case(pf_pipeline_config c, int stop_after) {
    fx_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    int nref = fx_run(&c, ref, MAXB, NULL);
    int n1 = fx_run(&c, got, stop_after, NULL);
    CHECK(n1 == stop_after);
    pf_pipeline_config r = c;
    r.start_epoch = got[n1 - 1].next_epoch;
    r.start_position = got[n1 - 1].next_position;
    r.workers = 3;
    int n2 = fx_run(&r, got + n1, MAXB - n1, NULL);
    CHECK(n2 >= 0 && fx_same(ref, nref, got, n1 + n2));
    free(ref);
    free(got);
}

static void test_resume(void) {
    pf_pipeline_config c = folder_config();
    resume_case(c, 1);
    resume_case(c, 7);  /* mid epoch 0 */
    resume_case(c, 10); /* the epoch's last batch: resumes at (1, 0) */
    resume_case(c, 13); /* mid epoch 1 */
}

static void test_sharding(void) {
    /* 48 samples over 3 ranks: every sample exactly once per epoch */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s_48", g_dir);
    fx_make_folder(dir, 48, 4);
    for (int mode = 0; mode < 2; mode++) {
        for (int nfiles = 48; nfiles <= 49; nfiles++) {
            if (nfiles == 49) { /* 49: PAD repeats, DROP leaves one out */
                size_t size;
                unsigned char *b = fx_ppm(30, 30, 777, &size);
                char path[4300];
                snprintf(path, sizeof path, "%s/class_0/zz_extra.ppm", dir);
                fx_write(path, b, size);
                free(b);
            }
            int seen[2][64];
            memset(seen, 0, sizeof seen);
            int lens[3];
            for (int rank = 0; rank < 3; rank++) {
                pf_pipeline_config c = fx_config();
                c.source.path = dir;
                c.world_size = 3;
                c.rank = rank;
                c.shard_mode = mode ? PF_SHARD_DROP : PF_SHARD_PAD;
                fx_batch *b = calloc(MAXB, sizeof *b);
                int n = fx_run(&c, b, MAXB, NULL);
                lens[rank] = 0;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < b[i].count; j++) {
                        seen[b[i].epoch][b[i].index[j]]++;
                        if (b[i].epoch == 0) lens[rank]++;
                    }
                /* pf_epoch_order is this order, sample for sample */
                for (uint64_t e = 0; e < 2; e++) {
                    uint64_t order[64];
                    CHECK_STATUS(pf_epoch_order((uint64_t)nfiles, c.seed, e, c.shuffle, rank, 3, c.shard_mode, order, 64),
                                 PF_OK);
                    uint64_t k = 0;
                    int same = 1;
                    for (int i = 0; i < n; i++)
                        for (int j = 0; j < b[i].count && b[i].epoch == e; j++) same &= k < 64 && b[i].index[j] == order[k++];
                    CHECK(same && k == pf_shard_length((uint64_t)nfiles, 3, c.shard_mode));
                }
                free(b);
            }
            CHECK(lens[0] == lens[1] && lens[1] == lens[2]);
            for (int e = 0; e < 2; e++) {
                int once = 0, twice = 0, never = 0;
                for (int i = 0; i < nfiles; i++) {
                    once += seen[e][i] == 1;
                    twice += seen[e][i] == 2;
                    never += seen[e][i] == 0;
                }
                if (nfiles == 48) CHECK(once == 48);
                else if (mode == 0) CHECK(once == 47 && twice == 2 && lens[0] == 17); /* pad: 51 = 49 + 2 */
                else CHECK(once == 48 && never == 1 && lens[0] == 16);
            }
        }
        char path[4300];
        snprintf(path, sizeof path, "%s/class_0/zz_extra.ppm", dir);
        unlink(path);
    }
    uint64_t small[4];
    CHECK_STATUS(pf_epoch_order(10, 0, 0, true, 3, 3, PF_SHARD_PAD, small, 4), PF_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pf_last_error(), "rank") != NULL);
    CHECK_STATUS(pf_epoch_order(10, 0, 0, true, 0, 2, PF_SHARD_PAD, small, 4), PF_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pf_last_error(), "out holds 4") != NULL);
    CHECK_STATUS(pf_epoch_order(0, 0, 0, true, 0, 2, PF_SHARD_PAD, small, 4), PF_ERR_INVALID_ARGUMENT);
    fx_rm_rf(dir);
}

static void test_errors_skip(void) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s_bad", g_dir);
    fx_make_folder(dir, 30, 3);
    fx_add_broken(dir);
    pf_pipeline_config c = fx_config();
    c.source.path = dir;
    c.workers = 1;
    fx_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    int nref = fx_run(&c, ref, MAXB, NULL);
    /* 33 entries, 3 fail per epoch: 30 good = 6 full batches per epoch */
    CHECK(nref == 12);
    int full = 1;
    for (int i = 0; i < nref; i++) full &= ref[i].count == 5;
    CHECK(full);
    for (int w = 2; w <= 4; w += 2) {
        c.workers = w;
        memset(got, 0, MAXB * sizeof *got);
        CHECK(fx_same(ref, nref, got, fx_run(&c, got, MAXB, NULL)));
    }
    /* resume across the shifted samples */
    resume_case(c, 3);
    resume_case(c, 8);
    /* counts and reasons */
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    int batches = 0, skipped = 0;
    while (pf_pipeline_next(p, &b, 20000) == PF_OK && b) {
        batches++;
        skipped += b->skipped;
        pf_batch_release(p, b);
    }
    pf_pipeline_stats s;
    CHECK_STATUS(pf_pipeline_stats_get(p, &s), PF_OK);
    CHECK(s.skipped == 6 && batches == 12 && s.batches == 12 && s.samples == 60);
    CHECK(skipped == 6);
    pf_sample_error errs[16];
    int ne = pf_pipeline_errors(p, errs, 16);
    CHECK(ne == 6);
    int link = 0, trunc = 0, text = 0;
    for (int i = 0; i < ne; i++) {
        if (strstr(errs[i].name, "broken_link") && strstr(errs[i].reason, "No such file")) link++;
        if (strstr(errs[i].name, "broken_truncated") && strstr(errs[i].reason, "truncated")) trunc++;
        if (strstr(errs[i].name, "broken_text") && errs[i].status == PF_ERR_UNSUPPORTED) text++;
    }
    CHECK(link == 2 && trunc == 2 && text == 2);
    pf_pipeline_destroy(p);

    /* fail policy: the batches holding a bad sample fail, the others arrive */
    c.on_error = PF_ON_ERROR_FAIL;
    c.epochs = 1;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    int ok = 0, failed = 0, named = 0;
    for (;;) {
        pf_status st = pf_pipeline_next(p, &b, 20000);
        if (st == PF_OK && b == NULL) break;
        if (st == PF_OK) { ok++; pf_batch_release(p, b); continue; }
        failed++;
        named += strstr(pf_last_error(), "broken_") != NULL;
        if (st == PF_ERR_TIMEOUT) break;
    }
    CHECK(ok + failed == 7 && failed >= 1 && failed <= 3 && named == failed);
    CHECK_STATUS(pf_pipeline_stats_get(p, &s), PF_OK);
    CHECK(s.failed_batches == (uint64_t)failed && s.skipped == 3);
    pf_pipeline_destroy(p);
    fx_rm_rf(dir);
    free(ref);
    free(got);
}

static void test_tar(void) {
    char dir[4200], paths[6][4096];
    snprintf(dir, sizeof dir, "%s_tar", g_dir);
    fx_make_tars(dir, 6, 9, paths);
    const char *shards[6];
    for (int i = 0; i < 6; i++) shards[i] = paths[i];
    pf_pipeline_config c = fx_config();
    c.source.kind = PF_SOURCE_TAR;
    c.source.shards = shards;
    c.source.shard_count = 6;
    c.shuffle_buffer = 7;
    c.workers = 1;
    fx_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    int nref = fx_run(&c, ref, MAXB, NULL);
    CHECK(nref == 2 * 11);
    /* labels come from .cls (= global id); each sample once per epoch */
    int seen[2][54];
    memset(seen, 0, sizeof seen);
    int labels_ok = 1;
    for (int i = 0; i < nref; i++)
        for (int j = 0; j < ref[i].count; j++) {
            seen[ref[i].epoch][ref[i].label[j]]++;
            labels_ok &= ref[i].label[j] >= 0 && ref[i].label[j] < 54;
        }
    CHECK(labels_ok);
    int once = 1;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 54; i++) once &= seen[e][i] == 1;
    CHECK(once);
    /* shuffled: not the file order */
    CHECK(!(ref[0].label[0] == 0 && ref[0].label[1] == 1 && ref[0].label[2] == 2));
    c.workers = 4;
    CHECK(fx_same(ref, nref, got, fx_run(&c, got, MAXB, NULL)));
    resume_case(c, 4);
    /* world 3 over 6 shards: every sample once per epoch */
    memset(seen, 0, sizeof seen);
    for (int rank = 0; rank < 3; rank++) {
        c.world_size = 3;
        c.rank = rank;
        int n = fx_run(&c, got, MAXB, NULL);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < got[i].count; j++) seen[got[i].epoch][got[i].label[j]]++;
    }
    once = 1;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 54; i++) once &= seen[e][i] == 1;
    CHECK(once);
    fx_rm_rf(dir);
    free(ref);
    free(got);
}

/* Callback source: 4 raw bytes per sample (the index) + a custom sample
 * function that fills the slot with them; sample 11 fails to read. */
typedef struct cb_ctx {
    int slow_ms;
    uint32_t values[23];
    _Atomic int reads, releases;
} cb_ctx;

static uint64_t cb_count(void *ctx) { (void)ctx; return 23; }
static void cb_release(void *ctx, const void *data) {
    (void)data;
    ((cb_ctx *)ctx)->releases++;
}
static pf_status cb_read(void *ctx, uint64_t index, pf_sample_bytes *out) {
    cb_ctx *c = ctx;
    if (c->slow_ms) {
        struct timespec ts = {0, c->slow_ms * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (index == 11) return PF_ERR_IO;
    c->reads++;
    out->data = &c->values[index];
    out->size = 4;
    out->label = (int32_t)(index % 5);
    out->release = cb_release;
    out->release_ctx = c;
    return PF_OK;
}
static pf_status raw_process(void *ctx, void *state, const pf_sample_input *in, pf_tensor *slot,
                             pf_sample_meta *meta) {
    (void)ctx;
    (void)state;
    if (in->size != 4) return PF_ERR_CORRUPT_DATA;
    uint32_t v;
    memcpy(&v, in->data, 4);
    float *dst = slot->data;
    size_t n = (size_t)slot->channels * (size_t)slot->height * (size_t)slot->width;
    for (size_t i = 0; i < n; i++) dst[i] = (float)v + (float)in->epoch * 1000.0f;
    meta->width = meta->height = 1;
    return PF_OK;
}

static pf_pipeline_config callback_config(cb_ctx *cc) {
    pf_pipeline_config c = fx_config();
    for (uint32_t i = 0; i < 23; i++) cc->values[i] = i;
    c.source.kind = PF_SOURCE_CALLBACK;
    c.source.callbacks.ctx = cc;
    c.source.callbacks.count = cb_count;
    c.source.callbacks.read = cb_read;
    c.sample_fn.worker_create = NULL;
    c.sample_fn.worker_destroy = NULL;
    c.sample_fn.process = raw_process;
    c.desc.out_dtype = PF_F32;
    return c;
}

static void test_callback(void) {
    cb_ctx cc;
    memset(&cc, 0, sizeof cc);
    pf_pipeline_config c = callback_config(&cc);
    c.shuffle = false;
    c.batch_size = 4;
    c.epochs = 1;
    c.drop_last = true;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    uint32_t expect = 0;
    int ok = 1, batches = 0;
    while (pf_pipeline_next(p, &b, 20000) == PF_OK && b) {
        for (int i = 0; i < b->count; i++) {
            if (expect == 11) expect++;
            float v0;
            memcpy(&v0, (const char *)b->tensor.data + (size_t)i * (size_t)b->tensor.sample_stride, sizeof v0);
            ok &= v0 == (float)expect && b->labels[i] == (int32_t)(expect % 5) && b->meta[i].index == expect;
            ok &= b->meta[i].name == NULL;
            expect++;
        }
        batches++;
        pf_batch_release(p, b);
    }
    CHECK(ok && batches == 5); /* 22 good samples, drop_last: 5 x 4 */
    pf_pipeline_destroy(p);
    CHECK(cc.reads == cc.releases && cc.reads == 22);

    /* timeouts: a slow source, a non-blocking next */
    memset(&cc, 0, sizeof cc);
    c = callback_config(&cc);
    cc.slow_ms = 20;
    c.workers = 1;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    CHECK_STATUS(pf_pipeline_next(p, &b, 0), PF_ERR_TIMEOUT);
    CHECK(b == NULL);
    CHECK_STATUS(pf_pipeline_next(p, &b, 1), PF_ERR_TIMEOUT);
    CHECK_STATUS(pf_pipeline_next(p, &b, 20000), PF_OK);
    CHECK(b != NULL && b->count == 5);
    pf_pipeline_stats s;
    CHECK_STATUS(pf_pipeline_stats_get(p, &s), PF_OK);
    CHECK(s.starvation_s > 0.02 && s.batches == 1);
    CHECK(strcmp(s.stage[0].name, "read") == 0 && s.stage[1].threads == 1);
    pf_batch_release(p, b);
    pf_pipeline_destroy(p); /* mid-epoch, reader sleeping in the callback */
    CHECK(cc.reads == cc.releases);
}

static void test_args(void) {
    pf_pipeline *p = (pf_pipeline *)&p;
    pf_pipeline_config c = folder_config();
    CHECK_STATUS(pf_pipeline_create(NULL, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK(p == NULL);
    c.batch_size = 0;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.batch_size");
    c = folder_config();
    c.rank = 3;
    c.world_size = 3;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.rank");
    c = folder_config();
    c.source.path = "/nonexistent/pixflow";
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_IO);
    CHECK_MSG("/nonexistent/pixflow");
    c = folder_config();
    c.source.extensions = "xyz";
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("no samples");
    c = folder_config();
    c.start_position = 10;
    c.shuffle = true;
    c.start_position = 1000;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.start_position");
    c = folder_config();
    c.source.kind = PF_SOURCE_TAR;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("shard_count");
    c = folder_config();
    c.desc.out_width = 0;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.desc");
    c = folder_config();
    c.sample_fn.process = NULL;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("sample_fn");
    const pf_batch *b;
    CHECK_STATUS(pf_pipeline_next(NULL, &b, 0), PF_ERR_INVALID_ARGUMENT);
    pf_pipeline_destroy(NULL);
    pf_batch_release(NULL, NULL);
    /* file list: relative paths, labels, comments */
    char list[4200];
    snprintf(list, sizeof list, "%s/list.txt", g_dir);
    FILE *f = fopen(list, "w");
    fprintf(f, "# comment\nclass_1/img_0001.ppm 7\n\nclass_0/img_0000.ppm\n%s/class_2/img_0002.ppm  2\n", g_dir);
    fclose(f);
    c = folder_config();
    c.source.kind = PF_SOURCE_FILE_LIST;
    c.source.path = list;
    c.shuffle = false;
    c.epochs = 1;
    fx_batch *out = calloc(4, sizeof *out);
    CHECK(fx_run(&c, out, 4, NULL) == 1);
    CHECK(out[0].count == 3 && out[0].label[0] == 7 && out[0].label[1] == -1 && out[0].label[2] == 2);
    free(out);
    unlink(list);
}

int main(void) {
    fx_tmpdir(g_dir, sizeof g_dir, "pipeline");
    fx_make_folder(g_dir, N_FILES, 3);
    test_scan_and_labels();
    test_workers_identical();
    test_resume();
    test_sharding();
    test_errors_skip();
    test_tar();
    test_callback();
    test_args();
    fx_rm_rf(g_dir);
    return pft_summary("pipeline");
}
