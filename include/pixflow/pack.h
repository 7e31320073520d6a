/*
 * pixflow pack: a dataset stored once at training resolution in one file
 * (.pfpack), read by the pipeline through mmap (PF_SOURCE_PACK in
 * pixflow/pipeline.h) without a system call per sample.
 *
 * Typical use:
 *   pf_source_desc src = {.kind = PF_SOURCE_FOLDER, .path = "data/train"};
 *   pf_pack_opts o = pf_pack_opts_defaults();   // max side 320, quality 90
 *   pf_pack_stats s;
 *   pf_pack_write(&src, "train.pfpack", &o, &s);
 *   // then: c.source.kind = PF_SOURCE_PACK; c.source.path = "train.pfpack";
 *
 * What a pack holds, per sample, in the source's order (sample i of the
 * pack is sample i of the source: the same dataset index, name and label,
 * so the augmentation key (seed, epoch, index) is unchanged):
 *   - a JPEG re-encoded at `quality` after a resize whose longer side is
 *     max_side (cv::resize INTER_AREA; images already within max_side are
 *     not resized; a JPEG within max_side is kept byte for byte), or
 *   - raw RGB pixels (a binary PPM, decoded exactly as the pipeline decodes
 *     the original) when the image's longer side is below raw_below.
 * Re-encoding is lossy (docs/performance.md, "Packed datasets", gives the
 * PSNR per quality); raw samples are exact: the pipeline's batches from a
 * raw pack equal those from the source, sample for sample.
 *
 * File layout (little-endian; docs/architecture.md "Packed datasets"):
 * a 128-byte header (magic "PFPACK\0\0", version, counts, the offsets and
 * sizes of the parts below, the file size, a checksum of the index parts
 * and of the header itself), the samples in chunks that start on 4096-byte
 * boundaries, the index (48 bytes per sample: offset, size, checksum,
 * name offset, label, original width and height, format), the names and
 * the chunk table (first sample of each chunk). Each sample's bytes carry
 * a 64-bit checksum, checked when the pipeline reads the sample.
 *
 * Decoding the sources needs the image codec: pf_pack_write is absent from
 * a -DPIXFLOW_CODEC=OFF build (reading a pack is not).
 */
#ifndef PIXFLOW_PACK_H
#define PIXFLOW_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"
#include "pixflow/pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The format version this pixflow writes and the newest it reads. */
#define PF_PACK_VERSION 1

/* How a packed sample is stored (pf_pack_index_entry.format). */
typedef enum pf_pack_format {
    PF_PACK_JPEG = 1, /* JPEG bytes (re-encoded, or the original when small enough) */
    PF_PACK_RAW = 2   /* binary PPM (P6): u8 RGB pixels */
} pf_pack_format;

/* Called on the writing thread after each sample is written. */
typedef void (*pf_pack_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct pf_pack_opts {
    int32_t max_side;    /* longer side of a stored JPEG; default 320; >= 1 */
    int32_t quality;     /* JPEG quality 1..100; default 90 */
    int32_t raw_below;   /* images whose longer side is < raw_below are stored raw;
                            default 0 (none); a huge value stores every sample raw
                            (at its original size: max_side does not apply) */
    int32_t threads;     /* decode/resize/encode threads; 0 (default): the CPU count */
    int32_t chunk_kib;   /* samples are grouped in chunks of about this many KiB, each
                            starting on a page; the reader shuffles whole chunks, then
                            samples within a chunk; default 1024; 4..1048576 */
    pf_pack_progress_fn progress; /* may be NULL */
    void *progress_ctx;
} pf_pack_opts;

PF_API pf_pack_opts pf_pack_opts_defaults(void);

/* What pf_pack_write did. */
typedef struct pf_pack_stats {
    uint64_t samples;    /* written (every sample of the source) */
    uint64_t jpeg_reencoded, jpeg_kept, raw;
    uint64_t chunks;
    uint64_t input_bytes, output_bytes; /* the source's sample bytes; the pack's file size */
} pf_pack_stats;

/*
 * Packs every sample of `source` (PF_SOURCE_FOLDER, PF_SOURCE_FILE_LIST or
 * PF_SOURCE_TAR, indexed exactly as the pipeline indexes it) into
 * out_path. The file is written to "<out_path>.tmp.<pid>" in the same
 * folder, flushed (fsync) and renamed over out_path, so out_path is
 * either the old file or the complete new one, never a partial pack; on
 * failure the temporary file is removed. opts NULL: defaults; stats may
 * be NULL.
 *
 * A sample that cannot be read or decoded fails the whole call naming the
 * sample (a pack is a dataset fixed once: a silent hole would shift what
 * the user trains on). Errors name the argument: "source", "out_path",
 * "opts.quality", ...; an empty source is PF_ERR_INVALID_ARGUMENT.
 * Not supported: PF_SOURCE_CALLBACK and PF_SOURCE_PACK as the source.
 */
PF_API pf_status pf_pack_write(const pf_source_desc *source, const char *out_path, const pf_pack_opts *opts,
                               pf_pack_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_PACK_H */
