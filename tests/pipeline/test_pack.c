/* pixflow pack (pixflow/pack.h) and PF_SOURCE_PACK: the pack keeps the
 * source's indices, names and labels; the writer's output does not depend
 * on its thread count; the order is a chunk-then-sample shuffle that is
 * deterministic, covers every sample once per epoch across shards and
 * resumes exactly; a raw pack gives the source's batches bit for bit; a
 * truncated, corrupt or newer pack is refused at open naming the field, a
 * corrupt sample is skipped and counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline/pack_format.h"
#include "pipeline/pipeline_fixtures.h"
#include "pipeline/pipeline_order.h"
#include "pixflow/codec.h"
#include "pixflow/pack.h"

#ifndef PF_DATA_DIR
#error "PF_DATA_DIR must name the repository's data/ folder"
#endif

static char g_dir[4096];

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) len = 0;
    fclose(f);
    *n = (size_t)len;
    return b;
}

static pf_source_desc folder(const char *path) {
    pf_source_desc d;
    memset(&d, 0, sizeof d);
    d.kind = PF_SOURCE_FOLDER;
    d.path = path;
    return d;
}

static pf_source_desc pack_src(const char *path) {
    pf_source_desc d;
    memset(&d, 0, sizeof d);
    d.kind = PF_SOURCE_PACK;
    d.path = path;
    return d;
}

static int g_progress_calls;
static uint64_t g_progress_last;
static void on_progress(void *ctx, uint64_t done, uint64_t total) {
    (void)ctx;
    (void)total;
    g_progress_calls++;
    g_progress_last = done;
}

/* Entry i of the pack = entry i of the source (name, label); paths differ. */
static void test_index_matches_source(const char *src_dir, const char *pack) {
    pf_source_desc s = folder(src_dir), p = pack_src(pack);
    pf_source_index *a = NULL, *b = NULL;
    CHECK_STATUS(pf_source_index_open(&s, &a), PF_OK);
    CHECK_STATUS(pf_source_index_open(&p, &b), PF_OK);
    if (!a || !b) return;
    CHECK(pf_source_index_count(a) == pf_source_index_count(b));
    for (uint64_t i = 0; i < pf_source_index_count(a); i++) {
        pf_source_entry ea, eb;
        pf_source_index_get(a, i, &ea);
        pf_source_index_get(b, i, &eb);
        CHECK(strcmp(ea.name, eb.name) == 0);
        CHECK(ea.label == eb.label);
        CHECK(strcmp(eb.path, pack) == 0);
        CHECK(eb.size > 0 && eb.offset >= PLI_PACK_HEADER_SIZE);
    }
    pf_source_index_close(a);
    pf_source_index_close(b);
}

static void test_write_and_threads(const char *src_dir) {
    char p1[4200], p3[4200];
    snprintf(p1, sizeof p1, "%s/t1.pfpack", g_dir);
    snprintf(p3, sizeof p3, "%s/t3.pfpack", g_dir);
    pf_source_desc s = folder(src_dir);
    pf_pack_opts o = pf_pack_opts_defaults();
    o.max_side = 32;
    o.chunk_kib = 4;
    o.threads = 1;
    o.progress = on_progress;
    pf_pack_stats st;
    g_progress_calls = 0;
    CHECK_STATUS(pf_pack_write(&s, p1, &o, &st), PF_OK);
    CHECK(st.samples == 60 && st.jpeg_reencoded + st.raw + st.jpeg_kept == 60);
    CHECK(st.chunks > 3); /* 4 KiB chunks: many of them */
    CHECK(g_progress_calls == 60 && g_progress_last == 60);
    o.threads = 3;
    o.progress = NULL;
    CHECK_STATUS(pf_pack_write(&s, p3, &o, NULL), PF_OK);
    size_t n1 = 0, n3 = 0;
    unsigned char *b1 = slurp(p1, &n1), *b3 = slurp(p3, &n3);
    CHECK(b1 && b3 && n1 == n3 && n1 == st.output_bytes && memcmp(b1, b3, n1) == 0); /* thread count does not matter */
    free(b1);
    free(b3);
    /* no temporary file left behind */
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", p3, (long)getpid());
    CHECK(access(tmp, F_OK) != 0);
    test_index_matches_source(src_dir, p1);
}

/* pli_pack_order: a permutation, chunks contiguous, identity unshuffled. */
static void test_order_function(void) {
    uint64_t first[] = {0, 3, 4, 9, 15, 16, 22};
    uint64_t nch = 6, n = 22, perm[22], scratch[6], again[22];
    for (uint64_t e = 0; e < 3; e++) {
        pli_pack_order(first, nch, 77, e, true, perm, scratch);
        int seen[22] = {0};
        for (uint64_t i = 0; i < n; i++) seen[perm[i]]++;
        for (uint64_t i = 0; i < n; i++) CHECK(seen[i] == 1);
        /* each chunk's samples sit together */
        for (uint64_t i = 0; i < n;) {
            uint64_t k = 0;
            while (!(perm[i] >= first[k] && perm[i] < first[k + 1])) k++;
            uint64_t len = first[k + 1] - first[k];
            for (uint64_t j = 0; j < len; j++) CHECK(perm[i + j] >= first[k] && perm[i + j] < first[k + 1]);
            i += len;
        }
        pli_pack_order(first, nch, 77, e, true, again, scratch);
        CHECK(memcmp(perm, again, sizeof perm) == 0);
    }
    uint64_t e0[22], e1[22];
    pli_pack_order(first, nch, 77, 0, true, e0, scratch);
    pli_pack_order(first, nch, 77, 1, true, e1, scratch);
    CHECK(memcmp(e0, e1, sizeof e0) != 0); /* epochs differ */
    pli_pack_order(first, nch, 77, 0, false, perm, scratch);
    for (uint64_t i = 0; i < n; i++) CHECK(perm[i] == i);
}

static pf_pipeline_config pack_config(const char *pack) {
    pf_pipeline_config c = fx_config();
    c.source = pack_src(pack);
    return c;
}

/* Every sample exactly once per epoch across ranks (DROP and PAD), worker
 * count does not matter, resume is exact. */
static void test_pipeline_order(const char *pack) {
    enum { MAXB = 64 };
    static fx_batch a[MAXB], b[MAXB], r[MAXB];
    pf_pipeline_config c = pack_config(pack);
    c.workers = 1;
    int na = fx_run(&c, a, MAXB, NULL);
    c.workers = 3;
    int nb = fx_run(&c, b, MAXB, NULL);
    CHECK(na == 24 && fx_same(a, na, b, nb)); /* 60 samples, batch 5, 2 epochs */
    int seen[2][60];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < na; i++)
        for (int k = 0; k < a[i].count; k++) seen[a[i].epoch][a[i].index[k]]++;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 60; i++) CHECK(seen[e][i] == 1);
    /* resume from the middle of epoch 1 */
    c.start_epoch = a[15].next_epoch;
    c.start_position = a[15].next_position;
    int nr = fx_run(&c, r, MAXB, NULL);
    CHECK(nr == na - 16 && fx_same(a + 16, na - 16, r, nr));
    /* sharding: world 4 (60 = 4 x 15) with DROP, and world 7 with PAD */
    for (int w = 0; w < 2; w++) {
        int world = w == 0 ? 4 : 7;
        int count[60];
        memset(count, 0, sizeof count);
        int total = 0;
        for (int rank = 0; rank < world; rank++) {
            pf_pipeline_config s = pack_config(pack);
            s.epochs = 1;
            s.world_size = world;
            s.rank = rank;
            s.shard_mode = w == 0 ? PF_SHARD_DROP : PF_SHARD_PAD;
            int ns = fx_run(&s, r, MAXB, NULL);
            CHECK(ns > 0);
            for (int i = 0; i < ns; i++)
                for (int k = 0; k < r[i].count; k++) {
                    count[r[i].index[k]]++;
                    total++;
                }
        }
        for (int i = 0; i < 60; i++) CHECK(count[i] >= 1);
        CHECK(total == (w == 0 ? 60 : 7 * 9)); /* PAD: ceil(60 / 7) = 9 per rank */
    }
}

/* Raw pack of real photos (JPEG, PNG, a gray JPEG): decoded pixels equal the
 * original's decode, and unshuffled batches equal the source's bit for bit. */
static void test_raw_exact(void) {
    char list[4200], pack[4200];
    snprintf(list, sizeof list, "%s/photos.txt", g_dir);
    snprintf(pack, sizeof pack, "%s/raw.pfpack", g_dir);
    const char *files[] = {"chelsea_333x251.jpg", "chelsea_rgba_320x240.png", "camera_gray_512x512.jpg",
                           "ladybird_375x500.jpg"};
    FILE *f = fopen(list, "w");
    for (int i = 0; i < 4; i++) fprintf(f, "%s/%s %d\n", PF_DATA_DIR, files[i], i);
    fclose(f);
    pf_source_desc s;
    memset(&s, 0, sizeof s);
    s.kind = PF_SOURCE_FILE_LIST;
    s.path = list;
    pf_pack_opts o = pf_pack_opts_defaults();
    o.raw_below = 1 << 30;
    o.threads = 2;
    pf_pack_stats st;
    CHECK_STATUS(pf_pack_write(&s, pack, &o, &st), PF_OK);
    CHECK(st.raw == 4);
    pf_source_desc p = pack_src(pack);
    pf_source_index *ix = NULL;
    CHECK_STATUS(pf_source_index_open(&p, &ix), PF_OK);
    size_t pn = 0;
    unsigned char *pb = slurp(pack, &pn);
    for (int i = 0; ix && pb && i < 4; i++) {
        pf_source_entry e;
        pf_source_index_get(ix, (uint64_t)i, &e);
        CHECK(e.label == i);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", PF_DATA_DIR, files[i]);
        size_t n = 0;
        unsigned char *orig = slurp(path, &n);
        pf_decode_opts d = pf_decode_opts_defaults();
        pf_decode_result r;
        CHECK_STATUS(pf_decode_query(orig, n, &d, &r), PF_OK);
        size_t px = (size_t)r.width * (size_t)r.height * 3;
        unsigned char *dec = malloc(px);
        pf_image img = pf_image_hwc(dec, r.width, r.height, 3, PF_U8, 0);
        CHECK_STATUS(pf_decode(NULL, orig, n, &d, &img, NULL), PF_OK);
        char head[48];
        int hl = snprintf(head, sizeof head, "P6\n%d %d\n255\n", (int)r.width, (int)r.height);
        CHECK(e.size == (uint64_t)hl + px);
        CHECK(memcmp(pb + e.offset, head, (size_t)hl) == 0 && memcmp(pb + e.offset + hl, dec, px) == 0);
        free(dec);
        free(orig);
    }
    free(pb);
    pf_source_index_close(ix);
    /* the pipeline: unshuffled, the same batches from the list and the pack */
    static fx_batch a[8], b[8];
    pf_pipeline_config c = fx_config();
    pf_recipe("imagenet-eval", &c.desc, &c.policy);
    c.desc.out_width = c.desc.out_height = 32;
    c.shuffle = false;
    c.batch_size = 2;
    c.source = s;
    int na = fx_run(&c, a, 8, NULL);
    c.source = p;
    int nb = fx_run(&c, b, 8, NULL);
    CHECK(na == 4 && fx_same(a, na, b, nb));
    /* shuffled, the training recipe: sample i's output is the same whatever
     * its position (compared by index) */
    pf_pipeline_config t = fx_config();
    t.shuffle = true;
    t.batch_size = 1;
    t.epochs = 1;
    t.source = s;
    na = fx_run(&t, a, 8, NULL);
    t.source = p;
    nb = fx_run(&t, b, 8, NULL);
    CHECK(na == 4 && nb == 4);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (a[i].index[0] == b[j].index[0]) CHECK(a[i].hash == b[j].hash);
}

/* A re-encoded pack of real photos: JPEGs at max side, close to the resized
 * original (PSNR), sizes recorded. */
static void test_reencode_quality(void) {
    char list[4200], pack[4200];
    snprintf(list, sizeof list, "%s/photo1.txt", g_dir);
    snprintf(pack, sizeof pack, "%s/q.pfpack", g_dir);
    FILE *f = fopen(list, "w");
    fprintf(f, "%s/coffee_500x375.jpg 3\n%s/chelsea_333x251.jpg 4\n", PF_DATA_DIR, PF_DATA_DIR);
    fclose(f);
    pf_source_desc s;
    memset(&s, 0, sizeof s);
    s.kind = PF_SOURCE_FILE_LIST;
    s.path = list;
    pf_pack_opts o = pf_pack_opts_defaults();
    o.max_side = 200;
    pf_pack_stats st;
    CHECK_STATUS(pf_pack_write(&s, pack, &o, &st), PF_OK);
    CHECK(st.jpeg_reencoded == 2);
    pf_source_desc p = pack_src(pack);
    pf_source_index *ix = NULL;
    CHECK_STATUS(pf_source_index_open(&p, &ix), PF_OK);
    size_t pn = 0;
    unsigned char *pb = slurp(pack, &pn);
    pf_source_entry e;
    if (ix && pb && pf_source_index_get(ix, 0, &e) == PF_OK) {
        pf_image_info info;
        CHECK_STATUS(pf_image_probe(pb + e.offset, (size_t)e.size, &info), PF_OK);
        CHECK(info.format == PF_FORMAT_JPEG && info.width == 200 && info.height == 150);
        CHECK(e.label == 3);
    }
    free(pb);
    pf_source_index_close(ix);
}

static void test_encode_jpeg(void) {
    size_t n = 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/astronaut_500x375.jpg", PF_DATA_DIR);
    unsigned char *orig = slurp(path, &n);
    pf_decode_result r;
    pf_decode_opts d = pf_decode_opts_defaults();
    CHECK_STATUS(pf_decode_query(orig, n, &d, &r), PF_OK);
    unsigned char *px = malloc((size_t)r.width * r.height * 3), *back = malloc((size_t)r.width * r.height * 3);
    pf_image img = pf_image_hwc(px, r.width, r.height, 3, PF_U8, 0);
    CHECK_STATUS(pf_decode(NULL, orig, n, &d, &img, NULL), PF_OK);
    void *jpg = NULL;
    size_t jn = 0;
    CHECK_STATUS(pf_encode_jpeg(&img, 90, &jpg, &jn), PF_OK);
    pf_image bimg = pf_image_hwc(back, r.width, r.height, 3, PF_U8, 0);
    CHECK_STATUS(pf_decode(NULL, jpg, jn, &d, &bimg, NULL), PF_OK);
    double se = 0;
    size_t total = (size_t)r.width * r.height * 3;
    for (size_t i = 0; i < total; i++) se += ((double)px[i] - back[i]) * ((double)px[i] - back[i]);
    double mse = se / (double)total;
    CHECK(mse > 0 && mse < 30.0); /* q90: PSNR well above 33 dB on a photo */
    free(jpg);
    CHECK_STATUS(pf_encode_jpeg(&img, 0, &jpg, &jn), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("quality");
    pf_image four = pf_image_hwc(px, 10, 10, 4, PF_U8, 0);
    CHECK_STATUS(pf_encode_jpeg(&four, 90, &jpg, &jn), PF_ERR_UNSUPPORTED);
    CHECK_MSG("channels");
    free(px);
    free(back);
    free(orig);
}

static void write_file(const char *path, const unsigned char *b, size_t n) { fx_write(path, b, n); }

static pf_status open_pack(const char *path) {
    pf_source_desc p = pack_src(path);
    pf_source_index *ix = NULL;
    pf_status st = pf_source_index_open(&p, &ix);
    pf_source_index_close(ix);
    return st;
}

/* Re-seals the header checksum (and the tables' when asked), so a change
 * reaches the checks behind them. */
static void reseal(unsigned char *b, size_t n, int tables) {
    if (tables) {
        uint64_t ioff = pli_rd64(b + PLI_H_INDEX_OFFSET);
        if (ioff < n) pli_wr64(b + PLI_H_TABLES_SUM, pli_pack_checksum(b + ioff, n - ioff));
    }
    pli_wr64(b + PLI_H_HEADER_SUM, pli_pack_checksum(b, PLI_H_HEADER_SUM));
}

static void test_bad_packs(const char *pack) {
    size_t n = 0;
    unsigned char *good = slurp(pack, &n);
    unsigned char *b = malloc(n);
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/bad.pfpack", g_dir);
    /* truncated */
    write_file(bad, good, n - 1);
    CHECK_STATUS(open_pack(bad), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("header.file_size");
    CHECK_MSG("truncated");
    CHECK_MSG(bad);
    write_file(bad, good, 100);
    CHECK_STATUS(open_pack(bad), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("shorter than a pack header");
    /* a newer version */
    memcpy(b, good, n);
    pli_wr32(b + PLI_H_VERSION, 7);
    write_file(bad, b, n);
    CHECK_STATUS(open_pack(bad), PF_ERR_UNSUPPORTED);
    CHECK_MSG("header.version is 7");
    /* not a pack */
    memcpy(b, good, n);
    b[0] = 'X';
    write_file(bad, b, n);
    CHECK_STATUS(open_pack(bad), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("header.magic");
    /* a flipped header byte */
    memcpy(b, good, n);
    b[PLI_H_COUNT] ^= 1;
    write_file(bad, b, n);
    CHECK_STATUS(open_pack(bad), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("header.checksum");
    /* a flipped index byte */
    memcpy(b, good, n);
    uint64_t ioff = pli_rd64(good + PLI_H_INDEX_OFFSET);
    b[ioff + 5 * PLI_PACK_ENTRY_SIZE + PLI_E_SIZE + 5] ^= 0x40; /* size + 2^46 */
    write_file(bad, b, n);
    CHECK_STATUS(open_pack(bad), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("tables_checksum");
    /* ... and re-sealed: the bounds check names the entry and the field */
    reseal(b, n, 1);
    write_file(bad, b, n);
    pf_status st = open_pack(bad);
    CHECK(st == PF_ERR_CORRUPT_DATA);
    if (st == PF_ERR_CORRUPT_DATA) CHECK_MSG("index[5].offset");
    /* a corrupt sample: open works, the pipeline skips and counts it */
    memcpy(b, good, n);
    uint64_t off7 = pli_rd64(good + ioff + 7 * PLI_PACK_ENTRY_SIZE + PLI_E_OFFSET);
    b[off7 + 20] ^= 0xff;
    write_file(bad, b, n);
    CHECK_STATUS(open_pack(bad), PF_OK);
    pf_pipeline_config c = pack_config(bad);
    c.epochs = 1;
    pf_pipeline *p = NULL;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    int samples = 0;
    const pf_batch *bt;
    while (p && pf_pipeline_next(p, &bt, 20000) == PF_OK && bt) {
        for (int i = 0; i < bt->count; i++) CHECK(bt->meta[i].index != 7);
        samples += bt->count;
        pf_batch_release(p, bt);
    }
    pf_pipeline_stats ps;
    if (p) {
        pf_pipeline_stats_get(p, &ps);
        CHECK(ps.skipped == 1 && samples == 59);
        pf_sample_error errs[4];
        int ne = pf_pipeline_errors(p, errs, 4);
        CHECK(ne == 1 && errs[0].index == 7 && strstr(errs[0].reason, "checksum") != NULL);
    }
    pf_pipeline_destroy(p);
    free(b);
    free(good);
}

/* Random corruptions of a small pack never crash the parser (run under
 * ASan in the suite) and never let a parsed view point outside the file. */
static void test_parser_fuzz(const char *pack) {
    size_t n = 0;
    unsigned char *good = slurp(pack, &n);
    uint64_t rng = 0x1234567ull;
    int ok = 0, rejected = 0;
    for (int it = 0; it < 3000; it++) {
        size_t len = n;
        int mode = (int)(pft_rand(&rng) % 5);
        if (mode == 0) len = (size_t)(pft_rand(&rng) % (n + 1)); /* truncation */
        unsigned char *b = malloc(len ? len : 1);                /* exact size: ASan sees any overread */
        memcpy(b, good, len);
        int flips = 1 + (int)(pft_rand(&rng) % 8);
        for (int k = 0; k < flips && len > 0; k++) {
            size_t at;
            uint64_t ioff = pli_rd64(good + PLI_H_INDEX_OFFSET);
            if (mode >= 2 && ioff < len) at = (size_t)(ioff + pft_rand(&rng) % (len - ioff)); /* the tables */
            else at = (size_t)(pft_rand(&rng) % (len < 160 ? len : 160));                       /* the header */
            if (pft_rand(&rng) & 1) b[at] ^= (unsigned char)(1u << (pft_rand(&rng) % 8));
            else b[at] = (unsigned char)pft_rand(&rng);
        }
        /* re-seal most of the time: the deeper checks must hold on their own */
        if (len >= PLI_PACK_HEADER_SIZE && mode != 1) reseal(b, len, mode >= 2);
        pli_pack_view v;
        pf_status st = pli_pack_parse(b, len, "fuzz.pfpack", &v);
        if (st == PF_OK) {
            ok++;
            uint64_t sum = 0;
            for (uint64_t i = 0; i < v.count; i++) {
                const unsigned char *e = pli_pack_entry(&v, i);
                uint64_t off = pli_rd64(e + PLI_E_OFFSET), sz = pli_rd64(e + PLI_E_SIZE);
                CHECK(off + sz <= len);
                sum += pli_pack_checksum(b + off, (size_t)sz); /* touches every sample byte */
                CHECK(strlen(v.names + pli_rd64(e + PLI_E_NAME)) < v.names_size);
            }
            (void)sum;
        } else {
            rejected++;
            CHECK(st == PF_ERR_CORRUPT_DATA || st == PF_ERR_UNSUPPORTED);
            if (st != PF_ERR_CORRUPT_DATA && st != PF_ERR_UNSUPPORTED) fprintf(stderr, "%s: %s\n", pf_status_str(st), pf_last_error());
            CHECK(strstr(pf_last_error(), "fuzz.pfpack") != NULL);
        }
        free(b);
    }
    CHECK(rejected > 2000);
    printf("parser fuzz: %d accepted, %d rejected\n", ok, rejected);
    free(good);
}

static void test_writer_errors(const char *src_dir) {
    char out[4200];
    snprintf(out, sizeof out, "%s/err.pfpack", g_dir);
    pf_source_desc s = folder(src_dir);
    pf_pack_opts o = pf_pack_opts_defaults();
    o.quality = 0;
    CHECK_STATUS(pf_pack_write(&s, out, &o, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.quality");
    o = pf_pack_opts_defaults();
    o.chunk_kib = 1;
    CHECK_STATUS(pf_pack_write(&s, out, &o, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.chunk_kib");
    CHECK_STATUS(pf_pack_write(&s, NULL, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out_path");
    pf_source_desc pk = pack_src(out);
    CHECK_STATUS(pf_pack_write(&pk, out, NULL, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("PF_SOURCE_PACK");
    /* a broken file in the source fails the pack naming it; nothing is left */
    char bdir[4200];
    snprintf(bdir, sizeof bdir, "%s/broken_src", g_dir);
    fx_make_folder(bdir, 6, 3);
    char bp[4300];
    snprintf(bp, sizeof bp, "%s/class_1/zz_broken.ppm", bdir);
    fx_write(bp, "P6\n10 10\n255\nabc", 16);
    pf_source_desc bs = folder(bdir);
    CHECK_STATUS(pf_pack_write(&bs, out, NULL, NULL), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("zz_broken.ppm");
    CHECK(access(out, F_OK) != 0);
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out, (long)getpid());
    CHECK(access(tmp, F_OK) != 0);
    /* the old file survives a failed write */
    fx_write(out, "old", 3);
    CHECK_STATUS(pf_pack_write(&bs, out, NULL, NULL), PF_ERR_CORRUPT_DATA);
    size_t on = 0;
    unsigned char *ob = slurp(out, &on);
    CHECK(on == 3 && ob && memcmp(ob, "old", 3) == 0);
    free(ob);
    /* an empty pack source, and a folder of no samples */
    char edir[4200];
    snprintf(edir, sizeof edir, "%s/empty", g_dir);
    mkdir(edir, 0755);
    pf_source_desc es = folder(edir);
    CHECK_STATUS(pf_pack_write(&es, out, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("no samples");
}

/* Tar shards pack like a folder: the same entries (member names, .cls labels). */
static void test_tar_source(void) {
    char dir[4200], pack[4200], paths[2][4096];
    snprintf(dir, sizeof dir, "%s/tars", g_dir);
    snprintf(pack, sizeof pack, "%s/tars.pfpack", g_dir);
    fx_make_tars(dir, 2, 7, paths);
    const char *shards[2] = {paths[0], paths[1]};
    pf_source_desc s;
    memset(&s, 0, sizeof s);
    s.kind = PF_SOURCE_TAR;
    s.shards = shards;
    s.shard_count = 2;
    pf_pack_opts o = pf_pack_opts_defaults();
    o.raw_below = 1 << 30;
    CHECK_STATUS(pf_pack_write(&s, pack, &o, NULL), PF_OK);
    pf_source_desc p = pack_src(pack);
    pf_source_index *a = NULL, *b = NULL;
    CHECK_STATUS(pf_source_index_open(&s, &a), PF_OK);
    CHECK_STATUS(pf_source_index_open(&p, &b), PF_OK);
    CHECK(pf_source_index_count(a) == 14 && pf_source_index_count(b) == 14);
    for (uint64_t i = 0; a && b && i < pf_source_index_count(a); i++) {
        pf_source_entry ea, eb;
        pf_source_index_get(a, i, &ea);
        pf_source_index_get(b, i, &eb);
        CHECK(strcmp(ea.name, eb.name) == 0 && ea.label == eb.label && ea.label == (int32_t)i);
    }
    pf_source_index_close(a);
    pf_source_index_close(b);
}

int main(void) {
    fx_tmpdir(g_dir, sizeof g_dir, "pack");
    mkdir(g_dir, 0755);
    char src[4200], pack[4200];
    snprintf(src, sizeof src, "%s/src", g_dir);
    snprintf(pack, sizeof pack, "%s/t1.pfpack", g_dir);
    fx_make_folder(src, 60, 3);
    test_write_and_threads(src);
    test_order_function();
    test_pipeline_order(pack);
    test_raw_exact();
    test_reencode_quality();
    test_encode_jpeg();
    test_bad_packs(pack);
    test_parser_fuzz(pack);
    test_writer_errors(src);
    test_tar_source();
    fx_rm_rf(g_dir);
    return pft_summary("pack");
}
