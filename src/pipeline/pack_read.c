/* PF_SOURCE_PACK: a .pfpack mapped read-only (pixflow/pack.h). The
 * header and index are checked once at open (pack_format.c); each sample's
 * checksum is checked when it is read, so a flipped bit in the data fails
 * that sample only (the error policy skips and counts it). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "pipeline/pipeline_source.h"
#include "pixflow/pack.h"

static pf_status map_file(pli_source *src, const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pfi_fail(PF_ERR_IO, "%s: cannot open %s.path %s: %s", src->fn, src->arg, path, strerror(errno));
    struct stat sb;
    pf_status st = PF_OK;
    if (fstat(fd, &sb) != 0) st = pfi_fail(PF_ERR_IO, "%s: stat %s: %s", src->fn, path, strerror(errno));
    else if (!S_ISREG(sb.st_mode)) st = pfi_fail(PF_ERR_IO, "%s: %s.path %s is not a regular file", src->fn, src->arg, path);
    else if ((uint64_t)sb.st_size > (uint64_t)SIZE_MAX)
        st = pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s is too large to map here", src->fn, path);
    else if (sb.st_size < (off_t)PLI_PACK_HEADER_SIZE)
        st = pfi_fail(PF_ERR_CORRUPT_DATA, "%s: %s has %lld bytes, shorter than a pack header (%u): truncated or not a pack",
                      src->fn, path, (long long)sb.st_size, PLI_PACK_HEADER_SIZE);
    if (st == PF_OK) {
        void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) st = pfi_fail(PF_ERR_IO, "%s: mmap %s: %s", src->fn, path, strerror(errno));
        else {
            src->pack_map = m;
            src->pack_size = (size_t)sb.st_size;
        }
    }
    close(fd); /* the mapping keeps the file */
    return st;
}

pf_status pli_pack_open(pli_source *src, const pf_source_desc *desc) {
    if (desc->path == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s.path is NULL (PF_SOURCE_PACK needs a .pfpack file)", src->fn, src->arg);
    if ((src->pack_path = strdup(desc->path)) == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", src->fn);
    pf_status st = map_file(src, desc->path);
    if (st != PF_OK) return st;
    st = pli_pack_parse(src->pack_map, src->pack_size, desc->path, &src->pack);
    if (st != PF_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pf_last_error());
        return pfi_fail(st, "%s: %s", src->fn, msg); /* the parser named the file and the field */
    }
    const pli_pack_view *v = &src->pack;
    src->chunk_count = v->chunk_count;
    src->chunk_first = malloc((size_t)(v->chunk_count + 1) * sizeof *src->chunk_first);
    if (src->chunk_first == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for the chunk table", src->fn);
    for (uint64_t k = 0; k <= v->chunk_count; k++) src->chunk_first[k] = pli_rd64(v->chunks + k * 8);
    for (uint64_t i = 0; i < v->count; i++) {
        const unsigned char *e = pli_pack_entry(v, i);
        st = pli_source_add(src, v->names + pli_rd64(e + PLI_E_NAME), (int32_t)pli_rd32(e + PLI_E_LABEL), -1,
                            pli_rd64(e + PLI_E_OFFSET), pli_rd64(e + PLI_E_SIZE));
        if (st != PF_OK) return st;
    }
    /* no MADV_SEQUENTIAL: it lets the kernel drop pages behind the reader,
     * and a pack that fits the page cache must stay there across epochs;
     * the reader thread asks for each sample's pages ahead instead */
    return PF_OK;
}

void pli_pack_close(pli_source *src) {
    if (src->pack_map) munmap(src->pack_map, src->pack_size);
    free(src->pack_path);
    free(src->chunk_first);
    src->pack_map = NULL;
    src->pack_path = NULL;
    src->chunk_first = NULL;
}

pf_status pli_pack_sample(const pli_source *src, uint64_t index, const void **data, size_t *size) {
    const pli_entry *e = &src->entries[index];
    const unsigned char *p = (const unsigned char *)src->pack_map + e->offset;
    uint64_t want = pli_rd64(pli_pack_entry(&src->pack, index) + PLI_E_SUM);
    *data = NULL;
    *size = 0;
    if (pli_pack_checksum(p, (size_t)e->size) != want)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: sample %llu (%s): its bytes do not match index[%llu].checksum (corrupt pack data)",
                        src->pack_path, (unsigned long long)index, src->names + e->name_off, (unsigned long long)index);
    *data = p;
    *size = (size_t)e->size;
    return PF_OK;
}

/* Advises a window of PLI_PACK_ADVISE bytes from the sample on, and skips
 * samples inside the last window: the pack order reads chunk by chunk, so
 * this is about one madvise per chunk, not a system call per sample. */
#define PLI_PACK_ADVISE (2u << 20)

void pli_pack_readahead(pli_source *src, uint64_t index) {
    const pli_entry *e = &src->entries[index];
    if (e->offset >= src->pack_advised_lo && e->offset + e->size <= src->pack_advised_hi) return;
    uint64_t lo = e->offset & ~(uint64_t)(PLI_PACK_PAGE - 1);
    uint64_t hi = e->offset + e->size > lo + PLI_PACK_ADVISE ? e->offset + e->size : lo + PLI_PACK_ADVISE;
    if (hi > src->pack_size) hi = src->pack_size;
    madvise((char *)src->pack_map + lo, (size_t)(hi - lo), MADV_WILLNEED);
    src->pack_advised_lo = lo;
    src->pack_advised_hi = hi;
}
