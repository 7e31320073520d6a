/* The .pfpack checksum and the parser of a mapped pack (pack_format.h). */
#include "pipeline/pack_format.h"

#include <string.h>

#include "core/error.h"
#include "pixflow/pack.h"

#define K1 0x9E3779B97F4A7C15ull
#define K2 0xC2B2AE3D27D4EB4Full
#define K3 0x165667B19E3779F9ull

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* A little-endian word whatever the host's order, via memcpy (unaligned
 * reads are fine: a sample starts anywhere). */
static inline uint64_t word(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint64_t lane(uint64_t acc, uint64_t w) { return rotl(acc ^ (w * K2), 29) * K1; }

uint64_t pli_pack_checksum(const void *data, size_t n) {
    const unsigned char *p = data;
    uint64_t a = K1 ^ n, b = K2 ^ n, c = K3 ^ n, d = (K1 + K2) ^ n;
    size_t i = 0;
    /* four independent lanes: the multiplies overlap in the pipeline */
    for (; i + 32 <= n; i += 32) {
        a = lane(a, word(p + i));
        b = lane(b, word(p + i + 8));
        c = lane(c, word(p + i + 16));
        d = lane(d, word(p + i + 24));
    }
    for (; i + 8 <= n; i += 8) a = lane(a, word(p + i));
    if (i < n) {
        unsigned char tail[8] = {0};
        memcpy(tail, p + i, n - i);
        b = lane(b, word(tail));
    }
    uint64_t h = a ^ rotl(b, 17) ^ rotl(c, 31) ^ rotl(d, 47);
    h ^= h >> 33;
    h *= K2;
    h ^= h >> 29;
    h *= K3;
    h ^= h >> 32;
    return h;
}

/* [off, off + len) lies inside [lo, size) without overflow. */
static int inside(uint64_t off, uint64_t len, uint64_t lo, uint64_t size) {
    return off >= lo && off <= size && len <= size - off;
}

pf_status pli_pack_parse(const void *base, size_t size, const char *path, pli_pack_view *out) {
    const unsigned char *b = base;
    memset(out, 0, sizeof *out);
    if (size < PLI_PACK_HEADER_SIZE)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: %zu bytes is shorter than a pack header (%u bytes): truncated or not a pack",
                        path, size, PLI_PACK_HEADER_SIZE);
    if (memcmp(b + PLI_H_MAGIC, PLI_PACK_MAGIC, 8) != 0)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.magic is not \"PFPACK\": not a .pfpack file", path);
    uint32_t version = pli_rd32(b + PLI_H_VERSION);
    /* the version before the header checksum: a newer writer may lay the
     * header out differently, and the message must say why we stop */
    if (version > PF_PACK_VERSION)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: header.version is %u; this pixflow reads pack versions 1..%d (written by a newer pixflow)",
                        path, (unsigned)version, PF_PACK_VERSION);
    if (version == 0) return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.version is 0", path);
    if (pli_rd64(b + PLI_H_HEADER_SUM) != pli_pack_checksum(b, PLI_H_HEADER_SUM))
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.checksum does not match the header", path);
    if (pli_rd32(b + PLI_H_HEADER_SIZE) != PLI_PACK_HEADER_SIZE)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.header_size is %u; version 1 has %u", path,
                        (unsigned)pli_rd32(b + PLI_H_HEADER_SIZE), PLI_PACK_HEADER_SIZE);
    uint64_t file_size = pli_rd64(b + PLI_H_FILE_SIZE);
    if (file_size != (uint64_t)size)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.file_size is %llu but the file has %zu bytes (%s)", path,
                        (unsigned long long)file_size, size, file_size > size ? "truncated" : "trailing bytes");
    uint64_t count = pli_rd64(b + PLI_H_COUNT), chunks = pli_rd64(b + PLI_H_CHUNK_COUNT);
    uint64_t ioff = pli_rd64(b + PLI_H_INDEX_OFFSET), noff = pli_rd64(b + PLI_H_NAMES_OFFSET);
    uint64_t nsize = pli_rd64(b + PLI_H_NAMES_SIZE), coff = pli_rd64(b + PLI_H_CHUNKS_OFFSET);
    if (count > size / PLI_PACK_ENTRY_SIZE || !inside(ioff, count * PLI_PACK_ENTRY_SIZE, PLI_PACK_HEADER_SIZE, size))
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.index_offset %llu with header.count %llu runs past the file (%zu bytes)",
                        path, (unsigned long long)ioff, (unsigned long long)count, size);
    if (!inside(noff, nsize, PLI_PACK_HEADER_SIZE, size))
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.names_offset %llu + names_size %llu runs past the file", path,
                        (unsigned long long)noff, (unsigned long long)nsize);
    if (chunks > size / 8 || (count > 0 && chunks == 0) || chunks > count ||
        !inside(coff, (chunks + 1) * 8, PLI_PACK_HEADER_SIZE, size))
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.chunk_count %llu at header.chunks_offset %llu does not fit the file (%llu samples)",
                        path, (unsigned long long)chunks, (unsigned long long)coff, (unsigned long long)count);
    /* the tables are contiguous: index, names, chunks (the writer's order) */
    if (noff != ioff + count * PLI_PACK_ENTRY_SIZE || coff != noff + nsize || coff + (chunks + 1) * 8 != size)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.index_offset, names_offset and chunks_offset are not the contiguous tail of the file",
                        path);
    if (pli_rd64(b + PLI_H_TABLES_SUM) != pli_pack_checksum(b + ioff, (size_t)(size - ioff)))
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: header.tables_checksum does not match the index (corrupt index, names or chunk table)",
                        path);
    const char *names = (const char *)b + noff;
    if (nsize > 0 && names[nsize - 1] != '\0')
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: the names table does not end with a NUL", path);
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *e = b + ioff + i * PLI_PACK_ENTRY_SIZE;
        uint64_t off = pli_rd64(e + PLI_E_OFFSET), len = pli_rd64(e + PLI_E_SIZE);
        if (!inside(off, len, PLI_PACK_HEADER_SIZE, ioff))
            return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: index[%llu].offset %llu + size %llu lies outside the sample area [%u, %llu)",
                            path, (unsigned long long)i, (unsigned long long)off, (unsigned long long)len,
                            PLI_PACK_HEADER_SIZE, (unsigned long long)ioff);
        uint32_t fmt = pli_rd32(e + PLI_E_FORMAT);
        if (fmt != PF_PACK_JPEG && fmt != PF_PACK_RAW)
            return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: index[%llu].format is %u; known: 1 (JPEG), 2 (raw)", path,
                            (unsigned long long)i, (unsigned)fmt);
        if (pli_rd64(e + PLI_E_NAME) >= nsize)
            return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: index[%llu].name %llu is past the names table (%llu bytes)", path,
                            (unsigned long long)i, (unsigned long long)pli_rd64(e + PLI_E_NAME), (unsigned long long)nsize);
        if ((int32_t)pli_rd32(e + PLI_E_LABEL) < -1)
            return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: index[%llu].label is %d; labels are >= -1", path,
                            (unsigned long long)i, (int)(int32_t)pli_rd32(e + PLI_E_LABEL));
    }
    const unsigned char *ct = b + coff;
    if (pli_rd64(ct) != 0 || pli_rd64(ct + chunks * 8) != count)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: the chunk table does not run from sample 0 to header.count", path);
    for (uint64_t k = 0; k < chunks; k++) {
        uint64_t first = pli_rd64(ct + k * 8), next = pli_rd64(ct + (k + 1) * 8);
        if (next <= first || next > count)
            return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: chunks[%llu] = %llu .. %llu is not an increasing range of samples", path,
                            (unsigned long long)k, (unsigned long long)first, (unsigned long long)next);
        if (pli_rd64(b + ioff + first * PLI_PACK_ENTRY_SIZE + PLI_E_OFFSET) % PLI_PACK_PAGE != 0)
            return pfi_fail(PF_ERR_CORRUPT_DATA, "%s: chunks[%llu] starts at index[%llu] whose offset is not on a %u-byte page",
                            path, (unsigned long long)k, (unsigned long long)first, PLI_PACK_PAGE);
    }
    out->base = b;
    out->size = size;
    out->version = version;
    out->count = count;
    out->chunk_count = chunks;
    out->index = b + ioff;
    out->names = names;
    out->names_size = nsize;
    out->chunks = ct;
    return PF_OK;
}
