/* Sources: folder scan (recursive, sorted, ImageFolder labels), file
 * lists, callbacks; reading bytes with pread. Tar shards: pipeline_tar.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "pipeline/pipeline_source.h"

#define DEFAULT_EXTENSIONS "jpg,jpeg,png,webp,ppm,pgm"
#define MAX_DEPTH 64

int pli_ext_match(const char *name, const char *extensions) {
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strrchr(base, '.');
    if (dot == NULL || dot[1] == '\0') return 0;
    const char *ext = dot + 1;
    size_t elen = strlen(ext);
    const char *p = extensions ? extensions : DEFAULT_EXTENSIONS;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == elen && strncasecmp(p, ext, len) == 0) return 1;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

pf_status pli_source_add(pli_source *src, const char *name, int32_t label, int32_t shard,
                         uint64_t offset, uint64_t size) {
    if (src->count == src->entries_cap) {
        uint64_t cap = src->entries_cap ? src->entries_cap * 2 : 256;
        pli_entry *e = realloc(src->entries, (size_t)cap * sizeof *e);
        if (e == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory indexing the source", src->fn);
        src->entries = e;
        src->entries_cap = cap;
    }
    size_t len = strlen(name) + 1;
    if (src->names_len + len > src->names_cap) {
        size_t cap = src->names_cap ? src->names_cap * 2 : 4096;
        while (cap < src->names_len + len) cap *= 2;
        char *n = realloc(src->names, cap);
        if (n == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory indexing the source", src->fn);
        src->names = n;
        src->names_cap = cap;
    }
    memcpy(src->names + src->names_len, name, len);
    pli_entry *e = &src->entries[src->count++];
    e->name_off = src->names_len;
    e->label = label;
    e->shard = shard;
    e->offset = offset;
    e->size = size;
    src->names_len += len;
    return PF_OK;
}

/* ------------------------------------------------------------- folder */

typedef struct strvec { char **v; size_t n, cap; } strvec;

static int strvec_push(strvec *s, const char *str) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        char **v = realloc(s->v, cap * sizeof *v);
        if (v == NULL) return -1;
        s->v = v;
        s->cap = cap;
    }
    if ((s->v[s->n] = strdup(str)) == NULL) return -1;
    s->n++;
    return 0;
}
static void strvec_free(strvec *s) {
    for (size_t i = 0; i < s->n; i++) free(s->v[i]);
    free(s->v);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static pf_status walk(const char *fn, const char *dir, int depth, const char *ext, strvec *files, strvec *classes) {
    if (depth > MAX_DEPTH) return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s is nested deeper than %d folders (a link loop?)", fn, dir, MAX_DEPTH);
    DIR *d = opendir(dir);
    if (d == NULL) return pfi_fail(PF_ERR_IO, "%s: cannot open folder %s: %s", fn, dir, strerror(errno));
    pf_status st = PF_OK;
    struct dirent *de;
    while (st == PF_OK && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue; /* ".", "..", hidden files */
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *path = malloc(len);
        if (path == NULL) { st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", fn); break; }
        snprintf(path, len, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) == 0) {
            if (S_ISDIR(sb.st_mode)) {
                if (depth == 0 && strvec_push(classes, de->d_name) != 0)
                    st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
                if (st == PF_OK) st = walk(fn, path, depth + 1, ext, files, classes);
            } else if (pli_ext_match(path, ext)) {
                if (strvec_push(files, path) != 0) st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
            }
        } else if (pli_ext_match(path, ext)) {
            /* a dangling link or unreadable entry: keep it, the read fails and is counted */
            if (strvec_push(files, path) != 0) st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        }
        free(path);
    }
    closedir(d);
    return st;
}

static pf_status open_folder(const pf_source_desc *desc, pli_source *src) {
    strvec files = {0}, classes = {0};
    size_t rootlen = strlen(desc->path);
    while (rootlen > 1 && desc->path[rootlen - 1] == '/') rootlen--;
    char *root = strndup(desc->path, rootlen);
    if (root == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", src->fn);
    pf_status st = walk(src->fn, root, 0, desc->extensions, &files, &classes);
    if (st == PF_OK) {
        if (files.n) qsort(files.v, files.n, sizeof *files.v, cmp_str);
        if (classes.n) qsort(classes.v, classes.n, sizeof *classes.v, cmp_str);
        for (size_t i = 0; i < files.n && st == PF_OK; i++) {
            /* label: the first path component under the root, if a folder */
            const char *rel = files.v[i] + rootlen + 1;
            const char *slash = strchr(rel, '/');
            int32_t label = -1;
            if (slash) {
                char cls[4096];
                size_t n = (size_t)(slash - rel) < sizeof cls - 1 ? (size_t)(slash - rel) : sizeof cls - 1;
                memcpy(cls, rel, n);
                cls[n] = '\0';
                const char *key = cls;
                char **hit = classes.n == 0 ? NULL : bsearch(&key, classes.v, classes.n, sizeof *classes.v, cmp_str);
                if (hit) label = (int32_t)(hit - classes.v);
            }
            st = pli_source_add(src, files.v[i], label, -1, 0, 0);
        }
    }
    free(root);
    strvec_free(&files);
    strvec_free(&classes);
    return st;
}

/* ---------------------------------------------------------- file list */

static pf_status open_list(const pf_source_desc *desc, pli_source *src) {
    FILE *f = fopen(desc->path, "r");
    if (f == NULL) return pfi_fail(PF_ERR_IO, "%s: cannot open list %s: %s", src->fn, desc->path, strerror(errno));
    const char *slash = strrchr(desc->path, '/');
    size_t dirlen = slash ? (size_t)(slash - desc->path) : 0;
    char line[8192], path[8192 + 4096];
    pf_status st = PF_OK;
    long lineno = 0;
    while (st == PF_OK && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t')) line[--len] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0' || *p == '#') continue;
        int32_t label = -1;
        char *sp = strrchr(p, ' ');
        if (sp == NULL) sp = strrchr(p, '\t');
        if (sp) {
            char *end;
            long v = strtol(sp + 1, &end, 10);
            if (*end == '\0' && end != sp + 1) {
                if (v < -1 || v > INT32_MAX) { st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s line %ld: label %ld out of range", src->fn, desc->path, lineno, v); break; }
                label = (int32_t)v;
                *sp = '\0';
                while (sp > p && (sp[-1] == ' ' || sp[-1] == '\t')) *--sp = '\0';
            }
        }
        if (p[0] == '/' || dirlen == 0) snprintf(path, sizeof path, "%s", p);
        else snprintf(path, sizeof path, "%.*s/%s", (int)dirlen, desc->path, p);
        st = pli_source_add(src, path, label, -1, 0, 0);
    }
    fclose(f);
    return st;
}

/* ------------------------------------------------------------- common */

pf_status pli_source_open(const pf_source_desc *desc, pli_source *src, const char *fn, const char *arg) {
    memset(src, 0, sizeof *src);
    src->fn = fn;
    src->arg = arg;
    src->kind = desc->kind;
    src->cached_fd = -1;
    src->cached_shard = -1;
    switch (desc->kind) {
    case PF_SOURCE_FOLDER:
        if (desc->path == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.path is NULL (PF_SOURCE_FOLDER needs a folder)", fn, arg);
        return open_folder(desc, src);
    case PF_SOURCE_FILE_LIST:
        if (desc->path == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.path is NULL (PF_SOURCE_FILE_LIST needs a list file)", fn, arg);
        return open_list(desc, src);
    case PF_SOURCE_TAR:
        return pli_tar_index(src, desc);
    case PF_SOURCE_PACK:
        return pli_pack_open(src, desc);
    case PF_SOURCE_CALLBACK:
        if (desc->callbacks.count == NULL || desc->callbacks.read == NULL)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.callbacks.count and .read are required for PF_SOURCE_CALLBACK", fn, arg);
        src->cb = desc->callbacks;
        src->count = src->cb.count(src->cb.ctx);
        return PF_OK;
    }
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.kind is %d; it must be a pf_source_kind", fn, arg, (int)desc->kind);
}

void pli_source_close(pli_source *src) {
    if (src->kind == PF_SOURCE_CALLBACK && src->cb.destroy) src->cb.destroy(src->cb.ctx);
    if (src->cached_fd >= 0) close(src->cached_fd);
    pli_pack_close(src);
    for (int32_t i = 0; i < src->shard_count; i++) free(src->shard_paths ? src->shard_paths[i] : NULL);
    free(src->shard_paths);
    free(src->shard_first);
    free(src->entries);
    free(src->names);
    memset(src, 0, sizeof *src);
    src->cached_fd = -1;
}

const char *pli_source_name(const pli_source *src, uint64_t index) {
    if (src->kind == PF_SOURCE_CALLBACK) return src->cb.name ? src->cb.name(src->cb.ctx, index) : NULL;
    return src->names + src->entries[index].name_off;
}

int32_t pli_source_label(const pli_source *src, uint64_t index) {
    return src->kind == PF_SOURCE_CALLBACK ? -1 : src->entries[index].label;
}

pf_status pli_pread_all(int fd, void *buf, size_t n, uint64_t off, const char *name) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return pfi_fail(PF_ERR_IO, "read %s: %s", name, strerror(errno));
        if (r == 0) return pfi_fail(PF_ERR_IO, "read %s: file ended after %zu of %zu bytes", name, got, n);
        got += (size_t)r;
    }
    return PF_OK;
}

static int shard_fd(pli_source *src, int32_t shard) {
    if (src->cached_shard == shard) return src->cached_fd;
    if (src->cached_fd >= 0) close(src->cached_fd);
    src->cached_fd = open(src->shard_paths[shard], O_RDONLY | O_CLOEXEC);
    src->cached_shard = src->cached_fd >= 0 ? shard : -1;
    return src->cached_fd;
}

pf_status pli_source_read(pli_source *src, uint64_t index, pli_bytes *out) {
    memset(out, 0, sizeof *out);
    pf_sample_bytes b;
    memset(&b, 0, sizeof b);
    pfi_clear_error();
    pf_status st = src->cb.read(src->cb.ctx, index, &b);
    if (st != PF_OK) {
        if (pf_last_error()[0] == '\0') pfi_fail(st, "the source callback failed (%s)", pf_status_str(st));
        return st;
    }
    out->cb = b;
    out->size = b.size;
    return PF_OK;
}

void pli_file_reader_init(pli_file_reader *r) {
    r->fd = -1;
    r->shard = -1;
    r->buf = NULL;
    r->cap = 0;
    r->pack_data = NULL;
}

void pli_file_reader_close(pli_file_reader *r) {
    if (r->fd >= 0) close(r->fd);
    free(r->buf);
    pli_file_reader_init(r);
}

static pf_status reserve(pli_file_reader *r, uint64_t size, const char *name) {
    if (size <= r->cap) return PF_OK;
    if (size > (uint64_t)SIZE_MAX / 2) return pfi_fail(PF_ERR_UNSUPPORTED, "read %s: %llu bytes is too large", name, (unsigned long long)size);
    size_t cap = (size_t)size + (size_t)size / 4 + 4096;
    void *nb = realloc(r->buf, cap);
    if (nb == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "read %s: out of memory for %llu bytes", name, (unsigned long long)size);
    r->buf = nb;
    r->cap = cap;
    return PF_OK;
}

pf_status pli_source_read_file(const pli_source *src, pli_file_reader *r, uint64_t index, int fd, size_t *size) {
    const pli_entry *e = &src->entries[index];
    const char *name = src->names + e->name_off;
    *size = 0;
    if (fd >= 0 && src->kind != PF_SOURCE_FOLDER && src->kind != PF_SOURCE_FILE_LIST) {
        close(fd); /* only plain files are read through a handed-over descriptor */
        fd = -1;
    }
    if (src->kind == PF_SOURCE_PACK) { /* a copy, for callers that own the bytes; the pipeline reads in place */
        const void *p;
        size_t n;
        pf_status st = pli_pack_sample(src, index, &p, &n);
        if (st == PF_OK) st = reserve(r, n, name);
        if (st == PF_OK) {
            memcpy(r->buf, p, n);
            *size = n;
        }
        return st;
    }
    if (src->kind == PF_SOURCE_TAR) {
        if (r->shard != e->shard) {
            if (r->fd >= 0) close(r->fd);
            r->fd = open(src->shard_paths[e->shard], O_RDONLY | O_CLOEXEC);
            r->shard = r->fd >= 0 ? e->shard : -1;
            if (r->fd < 0) return pfi_fail(PF_ERR_IO, "open %s: %s", src->shard_paths[e->shard], strerror(errno));
        }
        pf_status st = reserve(r, e->size, name);
        if (st == PF_OK) st = pli_pread_all(r->fd, r->buf, (size_t)e->size, e->offset, name);
        if (st == PF_OK) *size = (size_t)e->size;
        return st;
    }
    if (fd < 0) fd = open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pfi_fail(PF_ERR_IO, "open %s: %s", name, strerror(errno));
    struct stat sb;
    pf_status st = PF_OK;
    if (fstat(fd, &sb) != 0) st = pfi_fail(PF_ERR_IO, "stat %s: %s", name, strerror(errno));
    else if (!S_ISREG(sb.st_mode)) st = pfi_fail(PF_ERR_IO, "read %s: not a regular file", name);
    else if ((st = reserve(r, (uint64_t)sb.st_size, name)) == PF_OK &&
             (st = pli_pread_all(fd, r->buf, (size_t)sb.st_size, 0, name)) == PF_OK)
        *size = (size_t)sb.st_size;
    close(fd);
    return st;
}

void pli_bytes_release(pli_bytes *b) {
    if (b->cb.release) b->cb.release(b->cb.release_ctx, b->cb.data);
    if (b->open_fd > 0) close(b->open_fd - 1);
    memset(b, 0, sizeof *b);
}

int pli_source_readahead(pli_source *src, uint64_t index) {
    if (src->kind == PF_SOURCE_CALLBACK) return -1;
    if (src->kind == PF_SOURCE_PACK) {
        pli_pack_readahead(src, index);
        return -1;
    }
    const pli_entry *e = &src->entries[index];
    if (src->kind == PF_SOURCE_TAR) {
        int fd = shard_fd(src, e->shard);
        if (fd >= 0) posix_fadvise(fd, (off_t)e->offset, (off_t)e->size, POSIX_FADV_WILLNEED);
        return -1;
    }
    int fd = open(src->names + e->name_off, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1; /* the read opens it again and reports why */
    posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
    return fd;
}
