/* Deterministic epoch orders (see pipeline_order.h). */
#include "pipeline/pipeline_order.h"

#include <stdlib.h>

#include "core/error.h"
#include "kernels/philox.h"

#define TAG_PERM 0x5065726du   /* "Perm" */
#define TAG_SHARDS 0x53687264u /* "Shrd" */
#define TAG_BUFFER 0x53627566u /* "Sbuf" */

/* High 64 bits of a * b without a 128-bit type. */
static uint64_t mulhi64(uint64_t a, uint64_t b) {
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t pli_philox_below(uint64_t seed, uint64_t a, uint64_t b, uint64_t epoch, uint32_t tag,
                          uint64_t bound) {
    uint32_t ctr[4] = {(uint32_t)a, (uint32_t)(a >> 32) ^ (uint32_t)(b << 16), (uint32_t)epoch,
                       tag ^ (uint32_t)(epoch >> 32)};
    pfk_u32x4 r = pfk_philox4x32_10(ctr, (uint32_t)seed, (uint32_t)(seed >> 32));
    uint64_t x = ((uint64_t)r.v[0] << 32) | r.v[1];
    return mulhi64(x, bound);
}

static void permutation_tagged(uint64_t *perm, uint64_t n, uint64_t seed, uint64_t epoch,
                               bool shuffle, uint32_t tag) {
    for (uint64_t i = 0; i < n; i++) perm[i] = i;
    if (!shuffle) return;
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = pli_philox_below(seed, i - 1, 0, epoch, tag, i);
        uint64_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

void pli_permutation(uint64_t *perm, uint64_t n, uint64_t seed, uint64_t epoch, bool shuffle) {
    permutation_tagged(perm, n, seed, epoch, shuffle, TAG_PERM);
}

uint64_t pli_shard_length(uint64_t n, int32_t world, pf_shard_mode mode) {
    uint64_t w = (uint64_t)world;
    return mode == PF_SHARD_DROP ? n / w : (n + w - 1) / w;
}

void pli_shard_samples(const uint64_t *perm, uint64_t n, int32_t rank, int32_t world,
                       pf_shard_mode mode, uint64_t *out) {
    uint64_t len = pli_shard_length(n, world, mode);
    for (uint64_t i = 0; i < len; i++) out[i] = perm[((uint64_t)rank + (uint64_t)world * i) % n];
}

/* One rank's stream through the shuffle buffer; returns its length. When
 * out is NULL only counts. */
static uint64_t rank_stream(const uint64_t *shard_first, const uint64_t *shard_order,
                            int32_t shard_count, uint64_t seed, uint64_t epoch, bool shuffle,
                            int32_t window, int32_t rank, int32_t world, uint64_t *out, uint64_t cap,
                            uint64_t *buf) {
    uint64_t total = 0;
    for (int32_t k = rank; k < shard_count; k += world) {
        uint64_t s = shard_order[k];
        total += shard_first[s + 1] - shard_first[s];
    }
    if (out == NULL) return total;
    /* sequential source: shards in order, samples in file order */
    int32_t k = rank;
    uint64_t next = 0, end = 0;
    uint64_t fill = 0, emitted = 0;
    uint64_t w = shuffle && window > 1 ? (uint64_t)window : 1;
    for (;;) {
        while (fill < w) { /* refill the buffer */
            while (next == end && k < shard_count) {
                uint64_t s = shard_order[k];
                next = shard_first[s];
                end = shard_first[s + 1];
                k += world;
            }
            if (next == end) break;
            buf[fill++] = next++;
        }
        if (fill == 0 || emitted == cap) break;
        uint64_t j = w > 1 ? pli_philox_below(seed, emitted, (uint64_t)rank, epoch, TAG_BUFFER, fill) : 0;
        out[emitted++] = buf[j];
        buf[j] = buf[--fill]; /* order inside the buffer is itself deterministic */
    }
    return emitted;
}

uint64_t pli_tar_order(const uint64_t *shard_first, int32_t shard_count, uint64_t seed,
                       uint64_t epoch, bool shuffle, int32_t window, int32_t rank, int32_t world,
                       pf_shard_mode mode, uint64_t *out, uint64_t *scratch) {
    uint64_t *order = scratch, *buf = scratch + shard_count;
    permutation_tagged(order, (uint64_t)shard_count, seed, epoch, shuffle, TAG_SHARDS);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int32_t r = 0; r < world; r++) {
        uint64_t n = rank_stream(shard_first, order, shard_count, seed, epoch, shuffle, window, r,
                                 world, NULL, 0, buf);
        if (n < lo) lo = n;
        if (n > hi) hi = n;
    }
    uint64_t len = mode == PF_SHARD_DROP ? lo : hi;
    uint64_t got = rank_stream(shard_first, order, shard_count, seed, epoch, shuffle, window, rank,
                               world, out, len, buf);
    for (uint64_t i = got; i < len && got > 0; i++) out[i] = out[i % got]; /* PAD */
    return got > 0 ? len : 0;
}

#define TAG_CHUNKS 0x43686e6bu /* "Chnk" */
#define TAG_INCHUNK 0x496e4368u /* "InCh" */

void pli_pack_order(const uint64_t *chunk_first, uint64_t chunk_count, uint64_t seed, uint64_t epoch,
                    bool shuffle, uint64_t *perm, uint64_t *scratch) {
    permutation_tagged(scratch, chunk_count, seed, epoch, shuffle, TAG_CHUNKS);
    uint64_t at = 0;
    for (uint64_t k = 0; k < chunk_count; k++) {
        uint64_t c = scratch[k], first = chunk_first[c], len = chunk_first[c + 1] - first;
        uint64_t *out = perm + at;
        for (uint64_t i = 0; i < len; i++) out[i] = first + i;
        /* Fisher-Yates inside the chunk, keyed by the chunk's id (not its
         * position), so a chunk's inner order is the same wherever the
         * chunk permutation puts it */
        for (uint64_t i = shuffle ? len : 0; i > 1; i--) {
            uint64_t j = pli_philox_below(seed, i - 1, c, epoch, TAG_INCHUNK, i);
            uint64_t t = out[i - 1];
            out[i - 1] = out[j];
            out[j] = t;
        }
        at += len;
    }
}

/* ------------------------------------------------------ public wrappers */

uint64_t pf_shard_length(uint64_t n, int32_t world_size, pf_shard_mode mode) {
    return world_size < 1 ? 0 : pli_shard_length(n, world_size, mode);
}

pf_status pf_epoch_order(uint64_t n, uint64_t seed, uint64_t epoch, bool shuffle, int32_t rank,
                         int32_t world_size, pf_shard_mode mode, uint64_t *out, uint64_t cap) {
    pfi_clear_error();
    if (world_size < 1 || rank < 0 || rank >= world_size)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_epoch_order: rank %d / world_size %d; need 0 <= rank < world_size",
                        (int)rank, (int)world_size);
    if (mode != PF_SHARD_PAD && mode != PF_SHARD_DROP)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_epoch_order: shard_mode is %d; use PF_SHARD_PAD or PF_SHARD_DROP",
                        (int)mode);
    if (n == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_epoch_order: n is 0");
    uint64_t len = pli_shard_length(n, world_size, mode);
    if (out == NULL || cap < len)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_epoch_order: out holds %llu entries; the order has %llu",
                        (unsigned long long)(out ? cap : 0), (unsigned long long)len);
    if (n > SIZE_MAX / sizeof(uint64_t))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_epoch_order: n = %llu is too large", (unsigned long long)n);
    uint64_t *perm = malloc((size_t)n * sizeof *perm);
    if (perm == NULL)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_epoch_order: out of memory for %llu samples", (unsigned long long)n);
    pli_permutation(perm, n, seed, epoch, shuffle);
    pli_shard_samples(perm, n, rank, world_size, mode, out);
    free(perm);
    return PF_OK;
}
