/* pf_source_index: entry i is the pipeline's sample i (name, label, and for
 * tar the member's bytes), checked against a pipeline run in file order
 * over the same folder, list and tar sources; and every bad argument is
 * refused with a message naming it. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline/pipeline_fixtures.h"
#include "pixflow/pipeline.h"
#include "test_util.h"

#define MAXN 64

static char g_dir[4096];

typedef struct seen {
    int n;
    uint64_t index[MAXN];
    int32_t label[MAXN];
    char name[MAXN][512];
} seen;

/* One epoch in dataset order (no shuffle): the pipeline's own view of the
 * index, through the batch metadata. */
static int pipeline_order(const pf_source_desc *src, seen *out) {
    pf_pipeline_config c = fx_config();
    c.source = *src;
    c.shuffle = false;
    c.epochs = 1;
    c.workers = 1;
    c.on_error = PF_ON_ERROR_SKIP;
    pf_pipeline *p;
    if (pf_pipeline_create(&c, &p) != PF_OK) {
        fprintf(stderr, "create: %s\n", pf_last_error());
        return -1;
    }
    out->n = 0;
    for (;;) {
        const pf_batch *b;
        pf_status st = pf_pipeline_next(p, &b, 20000);
        if (st != PF_OK) { fprintf(stderr, "next: %s\n", pf_last_error()); out->n = -1; break; }
        if (b == NULL) break;
        for (int i = 0; i < b->count && out->n < MAXN; i++, out->n++) {
            out->index[out->n] = b->meta[i].index;
            out->label[out->n] = b->meta[i].label;
            snprintf(out->name[out->n], sizeof out->name[0], "%s", b->meta[i].name);
        }
        pf_batch_release(p, b);
    }
    pf_pipeline_destroy(p);
    return out->n;
}

/* The index equals the pipeline's order; returns the index's count. */
static uint64_t check_against_pipeline(const pf_source_desc *src, const char *what) {
    pf_source_index *ix = NULL;
    CHECK_STATUS(pf_source_index_open(src, &ix), PF_OK);
    if (ix == NULL) return 0;
    uint64_t n = pf_source_index_count(ix);
    seen s;
    int got = pipeline_order(src, &s);
    CHECK(got >= 0 && (uint64_t)got == n);
    int same = got >= 0 && (uint64_t)got == n;
    for (int i = 0; same && i < got; i++) {
        pf_source_entry e;
        CHECK_STATUS(pf_source_index_get(ix, (uint64_t)i, &e), PF_OK);
        if (s.index[i] != (uint64_t)i || e.label != s.label[i] || strcmp(e.name, s.name[i]) != 0) {
            fprintf(stderr, "%s: entry %d is (%s, %d), the pipeline's sample %d is #%llu (%s, %d)\n", what, i,
                    e.name, (int)e.label, i, (unsigned long long)s.index[i], s.name[i], (int)s.label[i]);
            same = 0;
        }
    }
    CHECK(same);
    pf_source_index_close(ix);
    return n;
}

static void put(const char *dir, const char *rel, int seed) {
    char path[4600];
    size_t size;
    unsigned char *b = fx_ppm(20 + seed, 22, (uint64_t)seed, &size);
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    fx_write(path, b, size);
    free(b);
}

static void test_folder(void) {
    char dir[4200], sub[4400];
    snprintf(dir, sizeof dir, "%s_folder", g_dir);
    fx_make_folder(dir, 9, 3);
    /* a file in the root (label -1), a nested folder (its top folder's
     * label), an upper-case extension, a hidden file and folder, a
     * non-image: the rules of PF_SOURCE_FOLDER */
    put(dir, "loose.ppm", 1);
    snprintf(sub, sizeof sub, "%s/class_1/deeper", dir);
    mkdir(sub, 0755);
    put(dir, "class_1/deeper/nested.PPM", 2);
    put(dir, "class_0/.hidden.ppm", 3);
    snprintf(sub, sizeof sub, "%s/.cache", dir);
    mkdir(sub, 0755);
    put(dir, ".cache/c.ppm", 4);
    put(dir, "class_2/notes.txt", 5);
    pf_source_desc src = {.kind = PF_SOURCE_FOLDER, .path = dir};
    CHECK(check_against_pipeline(&src, "folder") == 11);

    pf_source_index *ix;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_OK);
    pf_source_entry e;
    char want[4600];
    /* sorted by path: class_0/img_0000 first, loose.ppm last */
    CHECK_STATUS(pf_source_index_get(ix, 0, &e), PF_OK);
    snprintf(want, sizeof want, "%s/class_0/img_0000.ppm", dir);
    CHECK(strcmp(e.name, want) == 0 && e.path == e.name && e.member == NULL && e.label == 0 && e.shard == -1 &&
          e.offset == 0 && e.size == 0);
    CHECK_STATUS(pf_source_index_get(ix, 10, &e), PF_OK);
    snprintf(want, sizeof want, "%s/loose.ppm", dir);
    CHECK(strcmp(e.name, want) == 0 && e.label == -1);
    int nested_label = -2;
    for (uint64_t i = 0; i < pf_source_index_count(ix); i++) {
        CHECK_STATUS(pf_source_index_get(ix, i, &e), PF_OK);
        if (strstr(e.name, "nested.PPM")) nested_label = e.label;
    }
    CHECK(nested_label == 1);
    pf_source_index_close(ix);

    /* extensions: only the .PPM one (case-insensitive) */
    src.extensions = "ppm";
    CHECK(check_against_pipeline(&src, "folder ppm") == 11);
    src.extensions = "png";
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_OK);
    CHECK(pf_source_index_count(ix) == 0); /* an empty index is valid */
    CHECK_STATUS(pf_source_index_get(ix, 0, &e), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("i = 0");
    pf_source_index_close(ix);
    fx_rm_rf(dir);
}

static void test_list(void) {
    char dir[4200], path[4400];
    snprintf(dir, sizeof dir, "%s_list", g_dir);
    mkdir(dir, 0755);
    put(dir, "a.ppm", 1);
    put(dir, "b c.ppm", 2); /* a space in the name, then a label */
    put(dir, "d.ppm", 3);
    snprintf(path, sizeof path, "%s/list.txt", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "# header\n\na.ppm 4\n  b c.ppm 7  \nd.ppm\n%s/a.ppm 2\n", dir);
    fclose(f);
    pf_source_desc src = {.kind = PF_SOURCE_FILE_LIST, .path = path};
    CHECK(check_against_pipeline(&src, "list") == 4);
    pf_source_index *ix;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_OK);
    pf_source_entry e;
    char want[4600];
    CHECK_STATUS(pf_source_index_get(ix, 1, &e), PF_OK);
    snprintf(want, sizeof want, "%s/b c.ppm", dir);
    CHECK(strcmp(e.name, want) == 0 && e.label == 7);
    CHECK_STATUS(pf_source_index_get(ix, 2, &e), PF_OK);
    CHECK(e.label == -1);
    pf_source_index_close(ix);

    /* a label out of range: the list's line is named */
    f = fopen(path, "w");
    fprintf(f, "a.ppm 1\na.ppm -5\n");
    fclose(f);
    ix = (pf_source_index *)&src; /* must be reset to NULL on failure */
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK(ix == NULL);
    CHECK_MSG("line 2");
    CHECK_MSG("pf_source_index_open");
    fx_rm_rf(dir);
}

static void test_tar(void) {
    char dir[4200], paths[2][4096];
    snprintf(dir, sizeof dir, "%s_tar", g_dir);
    fx_make_tars(dir, 2, 5, paths);
    const char *shards[2] = {paths[0], paths[1]};
    pf_source_desc src = {.kind = PF_SOURCE_TAR, .shards = shards, .shard_count = 2};
    CHECK(check_against_pipeline(&src, "tar") == 10);
    pf_source_index *ix;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_OK);
    int ok = 1;
    for (uint64_t i = 0; i < 10; i++) {
        pf_source_entry e;
        CHECK_STATUS(pf_source_index_get(ix, i, &e), PF_OK);
        int s = (int)(i / 5), k = (int)(i % 5);
        char member[64], name[4200];
        snprintf(member, sizeof member, "data/s%d_%04d.ppm", s, k);
        snprintf(name, sizeof name, "%s:%s", paths[s], member);
        ok &= e.shard == s && strcmp(e.path, paths[s]) == 0 && strcmp(e.member, member) == 0 &&
              strcmp(e.name, name) == 0 && e.label == (int32_t)i && e.offset % 512 == 0;
        /* the member's bytes are the PPM the fixture wrote */
        size_t size;
        unsigned char *want = fx_ppm(20 + (int)i % 30, 20 + ((int)i * 3) % 30, i, &size);
        unsigned char *got = malloc(size + 1);
        int fd = open(e.path, O_RDONLY);
        ok &= e.size == size && fd >= 0 && pread(fd, got, size, (off_t)e.offset) == (ssize_t)size &&
              memcmp(got, want, size) == 0;
        if (fd >= 0) close(fd);
        free(got);
        free(want);
    }
    CHECK(ok);
    pf_source_index_close(ix);

    /* a shard cut inside a member */
    char cut[4400];
    snprintf(cut, sizeof cut, "%s/cut.tar", dir);
    FILE *in = fopen(paths[0], "rb"), *out = fopen(cut, "wb");
    unsigned char buf[1700]; /* the .cls member, the image's header and part of its data */
    size_t got = fread(buf, 1, sizeof buf, in);
    fwrite(buf, 1, got, out);
    fclose(in);
    fclose(out);
    const char *bad[1] = {cut};
    src.shards = bad;
    src.shard_count = 1;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("cut.tar");
    fx_rm_rf(dir);
}

static uint64_t cb_count(void *ctx) { (void)ctx; return 3; }
static pf_status cb_read(void *ctx, uint64_t i, pf_sample_bytes *out) {
    (void)ctx;
    (void)i;
    (void)out;
    return PF_ERR_IO;
}

static void test_bad_arguments(void) {
    pf_source_index *ix = NULL;
    pf_source_desc src = {.kind = PF_SOURCE_FOLDER, .path = "/nonexistent/pixflow"};
    CHECK_STATUS(pf_source_index_open(&src, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out is NULL");
    CHECK_STATUS(pf_source_index_open(NULL, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("source is NULL");
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_IO);
    CHECK_MSG("/nonexistent/pixflow");
    CHECK(ix == NULL);
    src.path = NULL;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("source.path is NULL");
    src.kind = PF_SOURCE_FILE_LIST;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("source.path is NULL");
    src.kind = PF_SOURCE_TAR;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("source.shard_count is 0");
    const char *shards[2] = {"/nonexistent/a.tar", NULL};
    src.shards = shards;
    src.shard_count = 2;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_IO);
    CHECK_MSG("/nonexistent/a.tar");
    shards[0] = NULL;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("source.shards[0] is NULL");
    src.kind = PF_SOURCE_CALLBACK;
    src.callbacks.count = cb_count;
    src.callbacks.read = cb_read;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_UNSUPPORTED);
    CHECK_MSG("PF_SOURCE_CALLBACK");
    src.kind = (pf_source_kind)9;
    CHECK_STATUS(pf_source_index_open(&src, &ix), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("source.kind is 9");
    CHECK(ix == NULL);

    pf_source_entry e;
    CHECK_STATUS(pf_source_index_get(NULL, 0, &e), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("index is NULL");
    CHECK(e.name == NULL);
    CHECK(pf_source_index_count(NULL) == 0);
    pf_source_index_close(NULL);

    /* a valid index: get's own arguments */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s_args", g_dir);
    fx_make_folder(dir, 2, 1);
    pf_source_desc ok = {.kind = PF_SOURCE_FOLDER, .path = dir};
    CHECK_STATUS(pf_source_index_open(&ok, &ix), PF_OK);
    CHECK_STATUS(pf_source_index_get(ix, 0, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out is NULL");
    CHECK_STATUS(pf_source_index_get(ix, 2, &e), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("i = 2 is out of range; the index has 2 entries");
    pf_source_index_close(ix);
    fx_rm_rf(dir);
}

int main(void) {
    fx_tmpdir(g_dir, sizeof g_dir, "source_index");
    test_folder();
    test_list();
    test_tar();
    test_bad_arguments();
    return pft_summary("source_index");
}
