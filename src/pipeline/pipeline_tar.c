/* WebDataset-style tar shards: index the ustar headers of every shard once
 * (a pread of each 512-byte header, data skipped), grouping members by key
 * (path up to the first '.' of the last component). A key with an image
 * member is a sample; its ".cls" member (a decimal integer) is the label.
 * GNU long names ('L') and the ustar prefix are understood; pax headers
 * are skipped (their path overrides are not applied). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "pipeline/pipeline_source.h"

#define TAR_BLOCK 512u
#define NAME_MAX_LEN 4096

static int parse_size(const unsigned char *f, uint64_t *out) {
    if (f[0] & 0x80) { /* GNU base-256 */
        uint64_t v = f[0] & 0x7fu;
        for (int i = 1; i < 12; i++) v = (v << 8) | f[i];
        *out = v;
        return 0;
    }
    uint64_t v = 0;
    int i = 0, digits = 0;
    while (i < 12 && (f[i] == ' ' || f[i] == '\0')) i++;
    for (; i < 12 && f[i] >= '0' && f[i] <= '7'; i++, digits++) v = v * 8 + (uint64_t)(f[i] - '0');
    *out = v;
    return digits > 0 ? 0 : -1;
}

static size_t key_len(const char *name) {
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strchr(base, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

typedef struct group {
    char key[NAME_MAX_LEN];
    size_t klen;
    char member[NAME_MAX_LEN];
    uint64_t off, size;
    int has_image;
    int32_t label;
} group;

static pf_status flush(pli_source *src, group *g, int32_t shard, const char *path) {
    pf_status st = PF_OK;
    if (g->has_image) {
        char name[NAME_MAX_LEN * 2 + 2];
        snprintf(name, sizeof name, "%s:%s", path, g->member);
        st = pli_source_add(src, name, g->label, shard, g->off, g->size);
    }
    g->klen = 0;
    g->has_image = 0;
    g->label = -1;
    return st;
}

static pf_status index_shard(pli_source *src, int32_t shard, const char *path, const char *ext) {
    const char *fn = src->fn;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pfi_fail(PF_ERR_IO, "%s: cannot open shard %s: %s", fn, path, strerror(errno));
    off_t end = lseek(fd, 0, SEEK_END);
    group *g = calloc(1, sizeof *g);
    if (g == NULL) { close(fd); return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", src->fn); }
    g->label = -1;
    char longname[NAME_MAX_LEN];
    longname[0] = '\0';
    pf_status st = PF_OK;
    uint64_t off = 0;
    unsigned char h[TAR_BLOCK];
    while (st == PF_OK && off + TAR_BLOCK <= (uint64_t)end) {
        if ((st = pli_pread_all(fd, h, TAR_BLOCK, off, path)) != PF_OK) break;
        int zero = 1;
        for (unsigned i = 0; i < TAR_BLOCK && zero; i++) zero = h[i] == 0;
        if (zero) break; /* end-of-archive marker */
        uint64_t size;
        if (parse_size(h + 124, &size) != 0) {
            st = pfi_fail(PF_ERR_CORRUPT_DATA, "%s: shard %s: bad tar header at byte %llu", fn, path, (unsigned long long)off);
            break;
        }
        uint64_t data = off + TAR_BLOCK;
        uint64_t next = data + (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
        if (data + size > (uint64_t)end) {
            st = pfi_fail(PF_ERR_CORRUPT_DATA, "%s: shard %s: member at byte %llu runs past the end of the file", fn, path, (unsigned long long)off);
            break;
        }
        char type = (char)h[156];
        if (type == 'L') { /* GNU long name for the next member */
            size_t n = size < NAME_MAX_LEN - 1 ? (size_t)size : NAME_MAX_LEN - 1;
            if ((st = pli_pread_all(fd, longname, n, data, path)) != PF_OK) break;
            longname[n] = '\0';
            off = next;
            continue;
        }
        char name[NAME_MAX_LEN];
        if (longname[0]) {
            snprintf(name, sizeof name, "%s", longname);
            longname[0] = '\0';
        } else if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
            snprintf(name, sizeof name, "%.155s/%.100s", (const char *)h + 345, (const char *)h);
        } else {
            snprintf(name, sizeof name, "%.100s", (const char *)h);
        }
        if (type == '0' || type == '\0') { /* regular file */
            size_t kl = key_len(name);
            if (g->klen == 0 || kl != g->klen || strncmp(name, g->key, kl) != 0) {
                if ((st = flush(src, g, shard, path)) != PF_OK) break;
                memcpy(g->key, name, kl);
                g->key[kl] = '\0';
                g->klen = kl;
            }
            const char *dot = name + kl;
            if (strcmp(dot, ".cls") == 0 && size < 32) {
                char txt[32];
                if ((st = pli_pread_all(fd, txt, (size_t)size, data, path)) != PF_OK) break;
                txt[size] = '\0';
                g->label = (int32_t)strtol(txt, NULL, 10);
            } else if (!g->has_image && pli_ext_match(name, ext)) {
                g->has_image = 1;
                snprintf(g->member, sizeof g->member, "%s", name);
                g->off = data;
                g->size = size;
            }
        }
        off = next;
    }
    if (st == PF_OK) st = flush(src, g, shard, path);
    free(g);
    close(fd);
    return st;
}

pf_status pli_tar_index(pli_source *src, const pf_source_desc *desc) {
    if (desc->shards == NULL || desc->shard_count < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.shard_count is %d; PF_SOURCE_TAR needs >= 1 shard paths in %s.shards", src->fn, src->arg, (int)desc->shard_count, src->arg);
    src->shard_paths = calloc((size_t)desc->shard_count, sizeof *src->shard_paths);
    src->shard_first = calloc((size_t)desc->shard_count + 1, sizeof *src->shard_first);
    if (src->shard_paths == NULL || src->shard_first == NULL)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", src->fn);
    src->shard_count = desc->shard_count;
    for (int32_t s = 0; s < desc->shard_count; s++) {
        if (desc->shards[s] == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.shards[%d] is NULL", src->fn, src->arg, (int)s);
        if ((src->shard_paths[s] = strdup(desc->shards[s])) == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", src->fn);
        src->shard_first[s] = src->count;
        pf_status st = index_shard(src, s, desc->shards[s], desc->extensions);
        if (st != PF_OK) return st;
    }
    src->shard_first[desc->shard_count] = src->count;
    return PF_OK;
}
