/* Terminal states of the data pipeline: a fatal error ends it for good
 * (pf_pipeline_state_get says FAILED, every later pf_pipeline_next repeats
 * the cause), a failed batch under PF_ON_ERROR_FAIL does not, and the end
 * of the last epoch is ENDED. Every wait here is bounded, so a pipeline
 * that never stops fails the test instead of hanging it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_fixtures.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

#define WAIT_MS 20000

/* A folder of n files that are no image at all. */
static void make_junk_folder(const char *dir, int n) {
    char path[4200];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%.2000s/class_0", dir);
    mkdir(path, 0755);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%.2000s/class_0/junk_%03d.ppm", dir, i);
        fx_write(path, "this is not an image\n", 21);
    }
}

static pf_pipeline_config folder_config(const char *dir) {
    pf_pipeline_config c = fx_config();
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = dir;
    return c;
}

/* Calls pf_pipeline_next until it returns non-OK or the end; returns that
 * status and how many batches came before it. */
static pf_status drain(pf_pipeline *p, int max_batches, int *batches) {
    *batches = 0;
    for (int i = 0; i < max_batches; i++) {
        const pf_batch *b;
        pf_status st = pf_pipeline_next(p, &b, WAIT_MS);
        if (st != PF_OK || b == NULL) return st;
        (*batches)++;
        pf_batch_release(p, b);
    }
    return PF_ERR_INTERNAL; /* did not stop */
}

static void expect_failed(pf_pipeline *p, pf_status want, const char *needle) {
    pf_status cause = PF_OK;
    CHECK(pf_pipeline_state_get(p, &cause) == PF_PIPELINE_FAILED);
    CHECK(cause == want);
    const pf_batch *b = (const pf_batch *)1;
    for (int i = 0; i < 3; i++) { /* terminal: the same cause every time, at once */
        CHECK_STATUS(pf_pipeline_next(p, &b, 0), want);
        CHECK(b == NULL);
        CHECK_MSG(needle);
    }
}

/* Skip policy, endless epochs, nothing decodable: without the rule the
 * pipeline would skip forever and never deliver a batch. */
static void test_all_fail_skip(const char *junk) {
    pf_pipeline_config c = folder_config(junk);
    c.epochs = 0;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    /* the workers start at create: on a loaded machine they may have
     * failed every junk file (and the pipeline) before this line, so
     * FAILED is a legal state here; ENDED never is (epochs = 0) */
    pf_pipeline_state s0 = pf_pipeline_state_get(p, NULL);
    CHECK(s0 == PF_PIPELINE_RUNNING || s0 == PF_PIPELINE_FAILED);
    int n;
    pf_status st = drain(p, 1000, &n);
    CHECK(st == PF_ERR_UNSUPPORTED && n == 0);
    CHECK_MSG("every sample failed");
    CHECK_MSG("unknown image format");
    expect_failed(p, PF_ERR_UNSUPPORTED, "every sample failed");
    pf_pipeline_destroy(p);
}

/* Fail policy, every file bad: batches fail one by one (RUNNING after
 * each), then the pipeline fails once a whole epoch of samples failed. */
static void test_all_fail_fail_policy(const char *junk, int nfiles) {
    pf_pipeline_config c = folder_config(junk);
    c.epochs = 0;
    c.on_error = PF_ON_ERROR_FAIL;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    int failed_batches = 0, dead = 0;
    for (int i = 0; i < 1000 && !dead; i++) {
        const pf_batch *b;
        pf_status st = pf_pipeline_next(p, &b, WAIT_MS);
        CHECK(st != PF_OK && st != PF_ERR_TIMEOUT);
        if (st == PF_OK || st == PF_ERR_TIMEOUT) break;
        pf_status cause;
        if (pf_pipeline_state_get(p, &cause) == PF_PIPELINE_FAILED) dead = 1;
        else {
            failed_batches++;
            CHECK_MSG("failed: sample");
        }
    }
    CHECK(dead);
    /* the batches of one epoch at most were delivered as failures first */
    CHECK(failed_batches <= (nfiles + c.batch_size - 1) / c.batch_size);
    expect_failed(p, PF_ERR_UNSUPPORTED, "every sample failed");
    pf_pipeline_destroy(p);
}

/* One bad file among good ones, fail policy: its batch fails, the
 * pipeline goes on (RUNNING) and ends normally (ENDED). */
static void test_one_bad_batch(const char *good) {
    pf_pipeline_config c = folder_config(good);
    c.epochs = 1;
    c.on_error = PF_ON_ERROR_FAIL;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    int ok = 0, failed = 0;
    for (int i = 0; i < 1000; i++) {
        const pf_batch *b;
        pf_status st = pf_pipeline_next(p, &b, WAIT_MS);
        if (st == PF_OK && b == NULL) break;
        if (st == PF_OK) {
            ok++;
            pf_batch_release(p, b);
            continue;
        }
        CHECK(st != PF_ERR_TIMEOUT);
        if (st == PF_ERR_TIMEOUT) break;
        failed++;
        CHECK(pf_pipeline_state_get(p, NULL) == PF_PIPELINE_RUNNING);
    }
    CHECK(ok > 0 && failed >= 1);
    pf_status cause = PF_ERR_INTERNAL;
    CHECK(pf_pipeline_state_get(p, &cause) == PF_PIPELINE_ENDED && cause == PF_OK);
    pf_pipeline_destroy(p);
}

/* The source folder is removed while the pipeline runs: the first sample
 * that cannot be read ends the pipeline naming the folder. */
static void test_source_disappears(const char *tmp) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/vanishing", tmp);
    fx_make_folder(dir, 400, 3);
    pf_pipeline_config c = folder_config(dir);
    c.epochs = 0;
    c.workers = 1;
    c.batch_size = 2;
    c.prefetch_batches = 1;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    CHECK_STATUS(pf_pipeline_next(p, &b, WAIT_MS), PF_OK);
    CHECK(b != NULL);
    pf_batch_release(p, b);
    fx_rm_rf(dir);
    int n;
    pf_status st = drain(p, 10000, &n);
    CHECK(st == PF_ERR_IO);
    CHECK_MSG("disappeared");
    CHECK_MSG(dir);
    expect_failed(p, PF_ERR_IO, "disappeared");
    pf_pipeline_destroy(p);
}

/* A tar shard deleted and replaced by a truncated copy mid-epoch fails
 * samples (not the pipeline: the path still exists); one removed while
 * unopened ends it naming the shard. */
static void test_shard_disappears(const char *tmp) {
    char dir[4200], paths[3][4096];
    snprintf(dir, sizeof dir, "%s/shards", tmp);
    fx_make_tars(dir, 3, 60, paths);
    const char *sp[3] = {paths[0], paths[1], paths[2]};
    pf_pipeline_config c = fx_config();
    c.source.kind = PF_SOURCE_TAR;
    c.source.shards = sp;
    c.source.shard_count = 3;
    c.shuffle = false; /* shards in order: shard 2 is opened last */
    c.workers = 1;
    c.batch_size = 2;
    c.prefetch_batches = 1;
    c.epochs = 1;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    CHECK_STATUS(pf_pipeline_next(p, &b, WAIT_MS), PF_OK);
    pf_batch_release(p, b);
    CHECK(unlink(paths[2]) == 0);
    int n;
    pf_status st = drain(p, 10000, &n);
    CHECK(st == PF_ERR_IO);
    CHECK_MSG("tar shard");
    CHECK_MSG(paths[2]);
    expect_failed(p, PF_ERR_IO, "disappeared");
    pf_pipeline_destroy(p);
    fx_rm_rf(dir);
}

/* One bad file next to one good one, skip policy, shuffled epochs read
 * ahead: the bad file ends some epochs and starts the next, so two
 * failures come in a row although every epoch has a good sample. That is
 * no dead source: all epochs are delivered and the pipeline ENDS (a rule
 * counting failures in a row across epochs killed it; the Python Loader,
 * which reads ahead into the next epoch, hit it). */
static void test_bad_file_straddles_epochs(const char *tmp) {
    char dir[4300], path[4400];
    snprintf(dir, sizeof dir, "%.4000s/straddle", tmp);
    fx_make_folder(dir, 1, 1);
    snprintf(path, sizeof path, "%.4200s/class_0/zz_broken.ppm", dir);
    fx_write(path, "this is not an image\n", 21);
    pf_pipeline_config c = folder_config(dir);
    c.batch_size = 1;
    c.workers = 1;
    c.epochs = 40;  /* P(no straddle in 39 boundaries) = (3/4)^39, about 1e-5 */
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    int n;
    pf_status st = drain(p, 1000, &n);
    CHECK_STATUS(st, PF_OK); /* the end: PF_OK and no batch */
    CHECK(n == 40);
    CHECK(pf_pipeline_state_get(p, NULL) == PF_PIPELINE_ENDED);
    pf_pipeline_destroy(p);
}

int main(void) {
    char tmp[4096], junk[4200], good[4200];
    fx_tmpdir(tmp, sizeof tmp, "fatal");
    mkdir(tmp, 0755);
    snprintf(junk, sizeof junk, "%s/junk", tmp);
    snprintf(good, sizeof good, "%s/good", tmp);
    make_junk_folder(junk, 12);
    fx_make_folder(good, 23, 3);
    fx_add_broken(good);
    test_all_fail_skip(junk);
    test_all_fail_fail_policy(junk, 12);
    test_one_bad_batch(good);
    test_bad_file_straddles_epochs(tmp);
    test_source_disappears(tmp);
    test_shard_disappears(tmp);
    CHECK(pf_pipeline_state_get(NULL, NULL) == PF_PIPELINE_FAILED);
    fx_rm_rf(tmp);
    return pft_summary("test_pipeline_fatal");
}
