/*
 * pf_pack_write (pixflow/pack.h): N threads read, decode, resize and
 * encode samples; the calling thread writes them in the source's order
 * (sample i of the pack is sample i of the source), so the output does not
 * depend on the thread count. Workers run at most `window` samples ahead
 * of the writer: memory stays bounded by window encoded samples.
 *
 * Crash safety: everything goes to "<out>.tmp.<pid>", the header last
 * (until then the file has no magic and no reader accepts it), then
 * fsync, rename over <out>, fsync of the folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "pipeline/pack_format.h"
#include "pipeline/pipeline_pnm.h"
#include "pipeline/pipeline_source.h"
#include "pixflow/codec.h"
#include "pixflow/ops.h"
#include "pixflow/pack.h"

#define FN "pf_pack_write"

pf_pack_opts pf_pack_opts_defaults(void) {
    pf_pack_opts o;
    memset(&o, 0, sizeof o);
    o.max_side = 320;
    o.quality = 90;
    o.chunk_kib = 1024;
    return o;
}

typedef struct slot {
    void *bytes;
    size_t size;
    uint64_t in_size;
    int32_t width, height;
    uint32_t format;
    int kind; /* 0 re-encoded, 1 kept, 2 raw */
    int done;
    pf_status st;
    char reason[768];
} slot;

typedef struct packer {
    pli_source src;
    pf_pack_opts o;
    slot *slots;
    uint64_t window;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t next_claim, next_write; /* under mu */
    int stop;                        /* under mu */
} packer;

/* Binary PPM of u8 RGB pixels: the pipeline's own raw format. */
static pf_status make_ppm(const unsigned char *px, int32_t w, int32_t h, void **out, size_t *out_size) {
    char head[48];
    int hl = snprintf(head, sizeof head, "P6\n%d %d\n255\n", (int)w, (int)h);
    size_t n = (size_t)hl + (size_t)w * (size_t)h * 3;
    unsigned char *b = malloc(n);
    if (b == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory for a %dx%d raw sample", (int)w, (int)h);
    memcpy(b, head, (size_t)hl);
    memcpy(b + hl, px, (size_t)w * (size_t)h * 3);
    *out = b;
    *out_size = n;
    return PF_OK;
}

/* Longer side to max_side, aspect kept (rounded, >= 1). */
static void fit(int32_t w, int32_t h, int32_t max_side, int32_t *ow, int32_t *oh) {
    int32_t m = w > h ? w : h;
    if (m <= max_side) {
        *ow = w;
        *oh = h;
        return;
    }
    double s = (double)max_side / (double)m;
    *ow = w >= h ? max_side : (int32_t)(w * s + 0.5);
    *oh = h >= w ? max_side : (int32_t)(h * s + 0.5);
    if (*ow < 1) *ow = 1;
    if (*oh < 1) *oh = 1;
}

/* img (u8 HWC, 1 or 3 channels) -> resized to max side -> JPEG. */
static pf_status encode_fit(const packer *pk, const pf_image *img, slot *s) {
    int32_t ow, oh;
    fit(img->width, img->height, pk->o.max_side, &ow, &oh);
    pf_status st;
    if (ow == img->width && oh == img->height) return pf_encode_jpeg(img, pk->o.quality, &s->bytes, &s->size);
    unsigned char *r = malloc((size_t)ow * (size_t)oh * (size_t)img->channels);
    if (r == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory resizing to %dx%d", (int)ow, (int)oh);
    pf_image dst = pf_image_hwc(r, ow, oh, img->channels, PF_U8, 0);
    pf_resize_opts ro = pf_resize_opts_defaults();
    ro.interp = PF_INTERP_AREA; /* a downscale: area averaging keeps detail without aliasing */
    st = pf_resize(NULL, 1, img, &dst, &ro);
    if (st == PF_OK) st = pf_encode_jpeg(&dst, pk->o.quality, &s->bytes, &s->size);
    free(r);
    return st;
}

static pf_status pack_one(packer *pk, pf_decoder *dec, pli_file_reader *rd, uint64_t i, slot *s) {
    size_t n = 0;
    pf_status st = pli_source_read_file(&pk->src, rd, i, -1, &n);
    if (st != PF_OK) return st;
    s->in_size = n;
    const unsigned char *data = rd->buf;
    if (!pli_is_codec_format(data, n)) { /* PPM/PGM: the pipeline's own formats */
        int32_t w, h, c;
        size_t off;
        if ((st = pli_pnm_header(data, n, &w, &h, &c, &off)) != PF_OK) return st;
        s->width = w;
        s->height = h;
        if ((w > h ? w : h) < pk->o.raw_below) { /* stored as they are: exact */
            if ((s->bytes = malloc(n)) == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory");
            memcpy(s->bytes, data, n);
            s->size = n;
            s->format = PF_PACK_RAW;
            s->kind = 2;
            return PF_OK;
        }
        pf_image img = pf_image_hwc((void *)(uintptr_t)(data + off), w, h, c, PF_U8, 0);
        s->format = PF_PACK_JPEG;
        return encode_fit(pk, &img, s);
    }
    /* decoded as the pipeline's default sample function decodes: RGB, the
     * stored orientation (pf_decode_opts defaults) */
    pf_decode_opts o = pf_decode_opts_defaults();
    pf_decode_result r;
    if ((st = pf_decode_query(data, n, &o, &r)) != PF_OK) return st;
    unsigned char *px = malloc((size_t)r.width * (size_t)r.height * 3);
    if (px == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory for a %dx%d image", (int)r.width, (int)r.height);
    pf_image img = pf_image_hwc(px, r.width, r.height, 3, PF_U8, 0);
    st = pf_decode(dec, data, n, &o, &img, NULL);
    s->width = r.width;
    s->height = r.height;
    int32_t m = r.width > r.height ? r.width : r.height;
    if (st != PF_OK) {
        /* fall through to free */
    } else if (m < pk->o.raw_below) {
        st = make_ppm(px, r.width, r.height, &s->bytes, &s->size);
        s->format = PF_PACK_RAW;
        s->kind = 2;
    } else if (r.format == PF_FORMAT_JPEG && m <= pk->o.max_side) {
        /* already at training size: re-encoding would only lose more */
        if ((s->bytes = malloc(n)) == NULL) st = pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory");
        else {
            memcpy(s->bytes, data, n);
            s->size = n;
        }
        s->format = PF_PACK_JPEG;
        s->kind = 1;
    } else {
        s->format = PF_PACK_JPEG;
        st = encode_fit(pk, &img, s);
    }
    free(px);
    return st;
}

static void *worker_main(void *arg) {
    packer *pk = arg;
    pf_decoder *dec = NULL;
    pli_file_reader rd;
    pli_file_reader_init(&rd);
    pf_status dst = pf_decoder_create(&dec);
    for (;;) {
        pthread_mutex_lock(&pk->mu);
        while (!pk->stop && pk->next_claim < pk->src.count && pk->next_claim >= pk->next_write + pk->window)
            pthread_cond_wait(&pk->cv, &pk->mu);
        if (pk->stop || pk->next_claim >= pk->src.count) {
            pthread_mutex_unlock(&pk->mu);
            break;
        }
        uint64_t i = pk->next_claim++;
        pthread_mutex_unlock(&pk->mu);
        slot *s = &pk->slots[i % pk->window];
        pfi_clear_error();
        pf_status st = dst != PF_OK ? dst : pack_one(pk, dec, &rd, i, s);
        pthread_mutex_lock(&pk->mu);
        s->st = st;
        if (st != PF_OK)
            snprintf(s->reason, sizeof s->reason, "%s", pf_last_error()[0] ? pf_last_error() : pf_status_str(st));
        s->done = 1;
        pthread_cond_broadcast(&pk->cv);
        pthread_mutex_unlock(&pk->mu);
    }
    pf_decoder_destroy(dec);
    pli_file_reader_close(&rd);
    return NULL;
}

static pf_status write_all(int fd, const void *buf, size_t n, const char *path) {
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return pfi_fail(PF_ERR_IO, FN ": write %s: %s", path, strerror(errno));
        p += w;
        n -= (size_t)w;
    }
    return PF_OK;
}

static pf_status pad_to(int fd, uint64_t *pos, uint64_t to, const char *path) {
    static const unsigned char zeros[PLI_PACK_PAGE];
    while (*pos < to) {
        size_t k = (size_t)(to - *pos < sizeof zeros ? to - *pos : sizeof zeros);
        pf_status st = write_all(fd, zeros, k, path);
        if (st != PF_OK) return st;
        *pos += k;
    }
    return PF_OK;
}

/* The tables (index | names | chunk table) and the header, after the samples. */
typedef struct tables {
    unsigned char *index;
    char *names;
    size_t names_len, names_cap;
    uint64_t *chunks;
    uint64_t nchunks;
} tables;

static pf_status finish(int fd, uint64_t pos, const packer *pk, tables *t, const char *path, pf_pack_stats *stats) {
    uint64_t n = pk->src.count;
    size_t tail = (size_t)n * PLI_PACK_ENTRY_SIZE + t->names_len + (size_t)(t->nchunks + 1) * 8;
    unsigned char *buf = malloc(tail);
    if (buf == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory for the index");
    memcpy(buf, t->index, (size_t)n * PLI_PACK_ENTRY_SIZE);
    memcpy(buf + (size_t)n * PLI_PACK_ENTRY_SIZE, t->names, t->names_len);
    unsigned char *ct = buf + (size_t)n * PLI_PACK_ENTRY_SIZE + t->names_len;
    for (uint64_t k = 0; k < t->nchunks; k++) pli_wr64(ct + k * 8, t->chunks[k]);
    pli_wr64(ct + t->nchunks * 8, n);
    unsigned char h[PLI_PACK_HEADER_SIZE];
    memset(h, 0, sizeof h);
    memcpy(h + PLI_H_MAGIC, PLI_PACK_MAGIC, 8);
    pli_wr32(h + PLI_H_VERSION, PF_PACK_VERSION);
    pli_wr32(h + PLI_H_HEADER_SIZE, PLI_PACK_HEADER_SIZE);
    pli_wr64(h + PLI_H_COUNT, n);
    pli_wr64(h + PLI_H_CHUNK_COUNT, t->nchunks);
    pli_wr64(h + PLI_H_INDEX_OFFSET, pos);
    pli_wr64(h + PLI_H_NAMES_OFFSET, pos + (uint64_t)n * PLI_PACK_ENTRY_SIZE);
    pli_wr64(h + PLI_H_NAMES_SIZE, t->names_len);
    pli_wr64(h + PLI_H_CHUNKS_OFFSET, pos + (uint64_t)n * PLI_PACK_ENTRY_SIZE + t->names_len);
    pli_wr64(h + PLI_H_FILE_SIZE, pos + tail);
    pli_wr64(h + PLI_H_TABLES_SUM, pli_pack_checksum(buf, tail));
    pli_wr64(h + PLI_H_HEADER_SUM, pli_pack_checksum(h, PLI_H_HEADER_SUM));
    pf_status st = write_all(fd, buf, tail, path);
    free(buf);
    if (st != PF_OK) return st;
    if (pwrite(fd, h, sizeof h, 0) != (ssize_t)sizeof h)
        return pfi_fail(PF_ERR_IO, FN ": write the header of %s: %s", path, strerror(errno));
    if (fsync(fd) != 0) return pfi_fail(PF_ERR_IO, FN ": fsync %s: %s", path, strerror(errno));
    if (stats) {
        stats->chunks = t->nchunks;
        stats->output_bytes = pos + tail;
    }
    return PF_OK;
}

/* The writer loop: sample i in order, chunking on pages. */
static pf_status write_samples(packer *pk, int fd, const char *tmp, tables *t, uint64_t *pos_out, pf_pack_stats *stats) {
    uint64_t n = pk->src.count, pos = 0, chunk_start = 0;
    uint64_t chunk_bytes = (uint64_t)pk->o.chunk_kib * 1024u;
    pf_status st = pad_to(fd, &pos, PLI_PACK_HEADER_SIZE, tmp); /* the header's place, written last */
    for (uint64_t i = 0; i < n && st == PF_OK; i++) {
        slot *s = &pk->slots[i % pk->window];
        pthread_mutex_lock(&pk->mu);
        while (!s->done) pthread_cond_wait(&pk->cv, &pk->mu);
        pthread_mutex_unlock(&pk->mu);
        if (s->st != PF_OK) {
            st = pfi_fail(s->st, FN ": sample %llu (%s) of source: %s", (unsigned long long)i, pli_source_name(&pk->src, i),
                          s->reason);
            break;
        }
        if (t->nchunks == 0 || pos - chunk_start + s->size > chunk_bytes) { /* a new chunk, on a page */
            st = pad_to(fd, &pos, (pos + PLI_PACK_PAGE - 1) / PLI_PACK_PAGE * PLI_PACK_PAGE, tmp);
            chunk_start = pos;
            t->chunks[t->nchunks++] = i;
        }
        unsigned char *e = t->index + (size_t)i * PLI_PACK_ENTRY_SIZE;
        pli_wr64(e + PLI_E_OFFSET, pos);
        pli_wr64(e + PLI_E_SIZE, s->size);
        pli_wr64(e + PLI_E_SUM, pli_pack_checksum(s->bytes, s->size));
        pli_wr64(e + PLI_E_NAME, t->names_len);
        pli_wr32(e + PLI_E_LABEL, (uint32_t)pli_source_label(&pk->src, i));
        pli_wr32(e + PLI_E_WIDTH, (uint32_t)s->width);
        pli_wr32(e + PLI_E_HEIGHT, (uint32_t)s->height);
        pli_wr32(e + PLI_E_FORMAT, s->format);
        const char *name = pli_source_name(&pk->src, i);
        size_t nl = strlen(name) + 1;
        if (t->names_len + nl > t->names_cap) {
            size_t cap = (t->names_cap + nl) * 2;
            char *nn = realloc(t->names, cap);
            if (nn == NULL) st = pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory for the names");
            else {
                t->names = nn;
                t->names_cap = cap;
            }
        }
        if (st == PF_OK) {
            memcpy(t->names + t->names_len, name, nl);
            t->names_len += nl;
            st = write_all(fd, s->bytes, s->size, tmp);
            pos += s->size;
        }
        if (stats) {
            stats->samples++;
            stats->input_bytes += s->in_size;
            if (s->kind == 0) stats->jpeg_reencoded++;
            else if (s->kind == 1) stats->jpeg_kept++;
            else stats->raw++;
        }
        free(s->bytes);
        memset(s, 0, sizeof *s);
        pthread_mutex_lock(&pk->mu);
        pk->next_write = i + 1;
        pthread_cond_broadcast(&pk->cv);
        pthread_mutex_unlock(&pk->mu);
        if (st == PF_OK && pk->o.progress) pk->o.progress(pk->o.progress_ctx, i + 1, n);
    }
    *pos_out = pos;
    return st;
}

static pf_status check_opts(const pf_pack_opts *o) {
    if (o->max_side < 1) return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": opts.max_side is %d; it must be >= 1", (int)o->max_side);
    if (o->quality < 1 || o->quality > 100)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": opts.quality is %d; use 1..100", (int)o->quality);
    if (o->raw_below < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": opts.raw_below is %d; it must be >= 0", (int)o->raw_below);
    if (o->threads < 0 || o->threads > 1024)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": opts.threads is %d; use 0 (the CPU count) .. 1024", (int)o->threads);
    if (o->chunk_kib < 4 || o->chunk_kib > 1048576)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": opts.chunk_kib is %d; use 4..1048576", (int)o->chunk_kib);
    return PF_OK;
}

static void fsync_dir_of(const char *path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd); /* best effort: the rename is durable once the folder is */
        close(fd);
    }
}

static pf_status run(packer *pk, const char *out_path, pf_pack_stats *stats) {
    uint64_t n = pk->src.count;
    int32_t threads = pk->o.threads;
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (int32_t)(c < 1024 ? c : 1024) : 1;
    }
    if ((uint64_t)threads > n) threads = (int32_t)n;
    pk->window = (uint64_t)threads * 4;
    tables t;
    memset(&t, 0, sizeof t);
    pk->slots = calloc((size_t)pk->window, sizeof *pk->slots);
    t.index = calloc((size_t)n, PLI_PACK_ENTRY_SIZE);
    t.chunks = malloc((size_t)n * sizeof *t.chunks);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!pk->slots || !t.index || !t.chunks || !tid) {
        free(pk->slots);
        free(t.index);
        free(t.chunks);
        free(tid);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory for %llu samples", (unsigned long long)n);
    }
    size_t tl = strlen(out_path) + 32;
    char *tmp = malloc(tl);
    pf_status st = PF_OK;
    int fd = -1;
    if (tmp == NULL) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory");
    } else {
        snprintf(tmp, tl, "%s.tmp.%ld", out_path, (long)getpid());
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) st = pfi_fail(PF_ERR_IO, FN ": cannot create %s (next to out_path): %s", tmp, strerror(errno));
    }
    int32_t started = 0;
    for (; st == PF_OK && started < threads; started++)
        if (pthread_create(&tid[started], NULL, worker_main, pk) != 0) {
            st = pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": cannot start thread %d of %d", (int)started, (int)threads);
            break;
        }
    uint64_t pos = 0;
    if (st == PF_OK) st = write_samples(pk, fd, tmp, &t, &pos, stats);
    pthread_mutex_lock(&pk->mu);
    pk->stop = 1;
    pthread_cond_broadcast(&pk->cv);
    pthread_mutex_unlock(&pk->mu);
    for (int32_t k = 0; k < started; k++) pthread_join(tid[k], NULL);
    if (st == PF_OK) st = finish(fd, pos, pk, &t, tmp, stats);
    if (fd >= 0 && close(fd) != 0 && st == PF_OK) st = pfi_fail(PF_ERR_IO, FN ": close %s: %s", tmp, strerror(errno));
    if (st == PF_OK && rename(tmp, out_path) != 0)
        st = pfi_fail(PF_ERR_IO, FN ": rename %s to out_path %s: %s", tmp, out_path, strerror(errno));
    if (st == PF_OK) fsync_dir_of(out_path);
    else if (fd >= 0) unlink(tmp);
    for (uint64_t k = 0; k < pk->window; k++) free(pk->slots[k].bytes);
    free(pk->slots);
    free(t.index);
    free(t.names);
    free(t.chunks);
    free(tid);
    free(tmp);
    return st;
}

pf_status pf_pack_write(const pf_source_desc *source, const char *out_path, const pf_pack_opts *opts, pf_pack_stats *stats) {
    pfi_clear_error();
    if (stats) memset(stats, 0, sizeof *stats);
    if (source == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": source is NULL");
    if (out_path == NULL || out_path[0] == '\0') return pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": out_path is NULL or empty");
    if (source->kind == PF_SOURCE_CALLBACK || source->kind == PF_SOURCE_PACK)
        return pfi_fail(PF_ERR_UNSUPPORTED, FN ": source.kind is %s; pack a folder, a file list or tar shards",
                        source->kind == PF_SOURCE_PACK ? "PF_SOURCE_PACK" : "PF_SOURCE_CALLBACK");
    packer *pk = calloc(1, sizeof *pk);
    if (pk == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, FN ": out of memory");
    pk->o = opts ? *opts : pf_pack_opts_defaults();
    pf_status st = check_opts(&pk->o);
    if (st == PF_OK) st = pli_source_open(source, &pk->src, FN, "source");
    if (st == PF_OK && pk->src.count == 0)
        st = pfi_fail(PF_ERR_INVALID_ARGUMENT, FN ": source has no samples (path %s, extensions %s)",
                      source->path ? source->path : "-", source->extensions ? source->extensions : "default");
    if (st == PF_OK) {
        pthread_mutex_init(&pk->mu, NULL);
        pthread_cond_init(&pk->cv, NULL);
        st = run(pk, out_path, stats);
        pthread_cond_destroy(&pk->cv);
        pthread_mutex_destroy(&pk->mu);
    }
    pli_source_close(&pk->src);
    free(pk);
    return st;
}
