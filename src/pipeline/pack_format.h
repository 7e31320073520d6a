/* The .pfpack file format (pixflow/pack.h): the layout constants, the
 * checksum, and the parser that checks a mapped file before any sample is
 * touched. One parser for the reader, the index and the fuzz test, so a
 * pack that passes it cannot send a reader outside the file. */
#ifndef PF_PACK_FORMAT_H
#define PF_PACK_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"

#define PLI_PACK_MAGIC "PFPACK\0\0"
#define PLI_PACK_HEADER_SIZE 128u
#define PLI_PACK_ENTRY_SIZE 48u
#define PLI_PACK_PAGE 4096u

/* Header fields (byte offsets; all little-endian). */
enum {
    PLI_H_MAGIC = 0,          /* 8 bytes */
    PLI_H_VERSION = 8,        /* u32 */
    PLI_H_HEADER_SIZE = 12,   /* u32, PLI_PACK_HEADER_SIZE */
    PLI_H_COUNT = 16,         /* u64 samples */
    PLI_H_CHUNK_COUNT = 24,   /* u64 */
    PLI_H_INDEX_OFFSET = 32,  /* u64: count entries of PLI_PACK_ENTRY_SIZE */
    PLI_H_NAMES_OFFSET = 40,  /* u64 */
    PLI_H_NAMES_SIZE = 48,    /* u64 */
    PLI_H_CHUNKS_OFFSET = 56, /* u64: chunk_count + 1 u64 first-sample indices */
    PLI_H_FILE_SIZE = 64,     /* u64 */
    PLI_H_TABLES_SUM = 72,    /* u64 checksum of index, names and chunk table */
    PLI_H_HEADER_SUM = 120    /* u64 checksum of bytes [0, 120) */
};

/* Index entry fields. */
enum {
    PLI_E_OFFSET = 0,   /* u64 */
    PLI_E_SIZE = 8,     /* u64 */
    PLI_E_SUM = 16,     /* u64 checksum of the sample's bytes */
    PLI_E_NAME = 24,    /* u64 offset into the names (NUL-terminated) */
    PLI_E_LABEL = 32,   /* i32 */
    PLI_E_WIDTH = 36,   /* i32 original width */
    PLI_E_HEIGHT = 40,  /* i32 original height */
    PLI_E_FORMAT = 44   /* u32 pf_pack_format */
};

/* 64-bit checksum of n bytes (pack_format.c): four multiply-rotate lanes
 * over 32-byte blocks, fast enough (several GB/s) to check every sample on
 * every read without showing in the loader's profile. Not cryptographic:
 * it catches torn writes and bit rot, not tampering. */
uint64_t pli_pack_checksum(const void *data, size_t n);

static inline uint64_t pli_rd64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static inline uint32_t pli_rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void pli_wr64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static inline void pli_wr32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* A checked view of a pack in memory. */
typedef struct pli_pack_view {
    const unsigned char *base;
    size_t size;
    uint32_t version;
    uint64_t count, chunk_count;
    const unsigned char *index;  /* count entries */
    const char *names;
    uint64_t names_size;
    const unsigned char *chunks; /* chunk_count + 1 u64 */
} pli_pack_view;

/* Checks header, tables and every entry's bounds (offset + size inside the
 * sample area, a known format, a NUL-terminated name, label >= -1,
 * chunks increasing from 0 to count, each chunk's first sample on a page).
 * PF_ERR_CORRUPT_DATA naming `path` and the field ("header.file_size",
 * "index[7].offset", ...); PF_ERR_UNSUPPORTED for a newer version, naming
 * it. Never reads outside [base, base + size). */
pf_status pli_pack_parse(const void *base, size_t size, const char *path, pli_pack_view *out);

static inline const unsigned char *pli_pack_entry(const pli_pack_view *v, uint64_t i) {
    return v->index + (size_t)i * PLI_PACK_ENTRY_SIZE;
}

#endif
