/* The sample table of a source: one entry per sample (name, label, where
 * its bytes are), built once at create; bytes are read on demand. */
#ifndef PF_PIPELINE_SOURCE_H
#define PF_PIPELINE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/pack_format.h"
#include "pixflow/pipeline.h"

typedef struct pli_entry {
    uint64_t offset, size;  /* TAR: member data in its shard file */
    size_t name_off;        /* into pli_source.names */
    int32_t label;
    int32_t shard;          /* TAR: shard index; else -1 */
} pli_entry;

typedef struct pli_source {
    pf_source_kind kind;
    /* Who opened it, for messages: "pf_pipeline_create" and "config.source",
     * or "pf_source_index_open" and "source" (the public index). */
    const char *fn, *arg;
    uint64_t count;
    pli_entry *entries;
    char *names;            /* NUL-terminated names, one arena */
    size_t names_len, names_cap;
    uint64_t entries_cap;
    /* TAR */
    char **shard_paths;
    int32_t shard_count;
    uint64_t *shard_first;  /* shard_count + 1 entries */
    int cached_fd;          /* dispatch thread's cache of the last shard opened (readahead) */
    int32_t cached_shard;
    /* CALLBACK */
    pf_source_callbacks cb;
    /* PACK (pack_read.c): the mapping, its checked view, the chunk table */
    void *pack_map;
    size_t pack_size;
    pli_pack_view pack;
    char *pack_path;
    uint64_t *chunk_first;  /* chunk_count + 1 entries */
    uint64_t chunk_count;
    uint64_t pack_advised_lo, pack_advised_hi; /* dispatch thread's last readahead window */
} pli_source;

/* Bytes of one sample, owned by the pipeline until pli_bytes_release. */
typedef struct pli_bytes {
    void *data;            /* unused (files are read into the worker buffers) */
    size_t size;
    pf_sample_bytes cb;    /* CALLBACK: the callback's bytes and release */
    int open_fd;           /* FOLDER / FILE_LIST: the file as the readahead opened it, + 1 (0: none);
                            * the worker reads through it, so each file is opened once, not twice */
} pli_bytes;

/* Builds the table (scan folder, parse list, index tar, ask the callback).
 * fn and arg name the caller and the desc argument in error messages
 * (static strings). On failure the caller still calls pli_source_close. */
pf_status pli_source_open(const pf_source_desc *desc, pli_source *src, const char *fn, const char *arg);
void pli_source_close(pli_source *src);
const char *pli_source_name(const pli_source *src, uint64_t index);
int32_t pli_source_label(const pli_source *src, uint64_t index);
/* CALLBACK: asks the callback for sample `index` (dispatch thread only). */
pf_status pli_source_read(pli_source *src, uint64_t index, pli_bytes *out);

/* Files and tar members are read by the workers, each with its own
 * reader: a shard fd cache and a buffer that grows to the largest sample
 * read (bounded by the dataset, reused: no allocation per sample). */
typedef struct pli_file_reader {
    int fd;
    int32_t shard;
    void *buf;
    size_t cap;
    const void *pack_data;  /* PACK: the last sample's bytes in the mapping (else NULL) */
} pli_file_reader;

void pli_file_reader_init(pli_file_reader *r);
void pli_file_reader_close(pli_file_reader *r);
/* Reads sample `index` of a FOLDER/FILE_LIST/TAR source into r->buf. fd:
 * the sample's file already open (pli_source_readahead's), which the call
 * reads and closes on every path; -1: it opens the file by name. */
pf_status pli_source_read_file(const pli_source *src, pli_file_reader *r, uint64_t index, int fd, size_t *size);
/* Releases the callback's bytes and closes an unread readahead descriptor. */
void pli_bytes_release(pli_bytes *b);
/* posix_fadvise(WILLNEED) on a sample's bytes: the kernel reads ahead.
 * FOLDER / FILE_LIST: returns the file's open descriptor, the caller's to
 * pass to pli_source_read_file or close (-1 if it did not open); else -1. */
int pli_source_readahead(pli_source *src, uint64_t index);

/* Shared helpers (pipeline_source.c) for the tar indexer. */
pf_status pli_source_add(pli_source *src, const char *name, int32_t label, int32_t shard,
                         uint64_t offset, uint64_t size);
int pli_ext_match(const char *name, const char *extensions);
/* Reads exactly n bytes at off; PF_OK or PF_ERR_IO with a message. */
pf_status pli_pread_all(int fd, void *buf, size_t n, uint64_t off, const char *name);
/* pipeline_tar.c */
pf_status pli_tar_index(pli_source *src, const pf_source_desc *desc);
/* pack_read.c: maps and checks the pack, fills the table (names, labels,
 * offset/size in the file) and the chunk table; pli_pack_close unmaps. */
pf_status pli_pack_open(pli_source *src, const pf_source_desc *desc);
void pli_pack_close(pli_source *src);
/* Sample `index`'s bytes inside the mapping (no copy), after checking its
 * checksum: PF_ERR_CORRUPT_DATA naming the pack and the sample when it does
 * not match. Any thread. */
pf_status pli_pack_sample(const pli_source *src, uint64_t index, const void **data, size_t *size);
/* madvise(WILLNEED) ahead of a sample (dispatch thread only: it keeps
 * the last advised window in src). */
void pli_pack_readahead(pli_source *src, uint64_t index);

#endif
