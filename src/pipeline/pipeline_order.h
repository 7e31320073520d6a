/* Epoch order: which dataset index sits at each position of this rank's
 * epoch. A pure function of (seed, epoch, dataset, rank, world_size), so
 * every worker count, run and resume point sees the same sequence. */
#ifndef PF_PIPELINE_ORDER_H
#define PF_PIPELINE_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "pixflow/pipeline.h"

/* Uniform integer in [0, bound) from Philox4x32-10 keyed by seed with
 * counter (a, b, epoch, tag); multiply-shift of 64 random bits. */
uint64_t pli_philox_below(uint64_t seed, uint64_t a, uint64_t b, uint64_t epoch, uint32_t tag,
                          uint64_t bound);

/* perm[0..n) = a Philox-keyed Fisher-Yates permutation of 0..n-1 (the
 * identity when !shuffle). */
void pli_permutation(uint64_t *perm, uint64_t n, uint64_t seed, uint64_t epoch, bool shuffle);

/* Rank's length for n samples (PAD: ceil, DROP: floor). */
uint64_t pli_shard_length(uint64_t n, int32_t world, pf_shard_mode mode);

/* Sample-level sharding: out[i] = perm-extended[rank + world * i],
 * i < pli_shard_length (PAD wraps to the epoch's first samples). */
void pli_shard_samples(const uint64_t *perm, uint64_t n, int32_t rank, int32_t world,
                       pf_shard_mode mode, uint64_t *out);

/* Shard-file-level order (TAR): shard_first[s] .. shard_first[s+1]-1 are
 * the samples of shard s (shard_count + 1 entries). Shards are permuted per
 * epoch (when shuffle), rank r takes every world-th; its samples stream
 * through a `window`-slot shuffle buffer; lengths are equalized across
 * ranks (PAD repeats the rank's first samples, DROP truncates). Writes at
 * most `cap` entries to out (cap >= the PAD length: the largest rank's
 * count) and returns the length; scratch holds shard_count + window
 * entries. */
uint64_t pli_tar_order(const uint64_t *shard_first, int32_t shard_count, uint64_t seed,
                       uint64_t epoch, bool shuffle, int32_t window, int32_t rank, int32_t world,
                       pf_shard_mode mode, uint64_t *out, uint64_t *scratch);

/* Pack order (PF_SOURCE_PACK): chunk k holds samples chunk_first[k] ..
 * chunk_first[k+1]-1. perm[0..n) = the chunks in a Philox permutation
 * keyed by (seed, epoch), each chunk's samples in a permutation of their
 * own keyed by (seed, epoch, chunk); the identity when !shuffle. n =
 * chunk_first[chunk_count]; scratch holds chunk_count entries. Sharding
 * then deals perm out sample by sample (pli_shard_samples). */
void pli_pack_order(const uint64_t *chunk_first, uint64_t chunk_count, uint64_t seed, uint64_t epoch,
                    bool shuffle, uint64_t *perm, uint64_t *scratch);

#endif
