/* The photometric ops on the CPU: per-sample tasks and the row runners
 * they share (photo_rows.c). */
#ifndef PF_CPU_PHOTO_CPU_H
#define PF_CPU_PHOTO_CPU_H

#include "cpu/batch_rows.h"
#include "cpu/photo_exec.h"
#include "ops/op_args.h"
#include "pixflow/ops.h"

/* One sample of a pixel-kernel run: its constants, the optimized kernel
 * for whole PFI_PHOTO_PX_BLOCK blocks (may equal ref) and the reference
 * for the tail. */
typedef struct pfi_photo_task {
    pfi_photo_k k;
    pfi_photo_row_fn fast, ref;
} pfi_photo_task;

/* The table entry of `slot` at the stream's ISA, or ref when slot < 0. */
pfi_photo_row_fn pfi_photo_kernel(pf_stream *stream, int slot, pfi_photo_row_fn ref);

/* Runs each sample's pixel kernel over its 3-channel HWC rows (n = width
 * pixels per row; dst pixels are dst[i].channels wide). */
void pfi_photo_run_px(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                      const pfi_photo_task *tasks);

/* Rows [y0, y1) of s and d (both HWC or 1 channel, row bytes s_row and
 * d_row) lie back to back in memory: the band can run as one long row.
 * The pixel count must fit a kernel's int32 n. */
static inline int pfi_photo_rows_packed(const pf_image *s, const pf_image *d, size_t s_row, size_t d_row,
                                        int32_t y0, int32_t y1, int32_t n) {
    return (s->layout == PF_HWC || s->channels == 1) && (d->layout == PF_HWC || d->channels == 1) &&
           s->row_stride == (ptrdiff_t)s_row && d->row_stride == (ptrdiff_t)d_row && y1 - y0 > 1 &&
           (int64_t)(y1 - y0) * n <= INT32_MAX;
}

/* Runs fn over every row of every sample (bands sized by width *
 * channels), without allocating for small batches. */
void pfi_photo_rows(pf_stream *stream, int count, const pf_image src[], pfi_rows_fn fn, void *ctx);

/* Copies src to dst (any layout), repeating a 1-channel src into dst's
 * channels when dst has more; a no-op for the same view. */
void pfi_photo_copy(pf_stream *stream, int count, const pf_image src[], pf_image dst[]);

/* Runs u8 tables through the CPU's pf_lut executor (pfi_cpu_lut, at the
 * stream's ISA; the photometric front-end already checked the views).
 * per_channel == 0: one 256-byte table per sample (count * 256 bytes); 1:
 * a table per channel, PFI_PHOTO_TAB_STRIDE bytes per sample. */
#define PFI_PHOTO_TAB_STRIDE 1024
pf_status pfi_photo_lut(const char *op, pf_stream *stream, int count, const pf_image src[],
                        pf_image dst[], const uint8_t *tables, int per_channel);

#endif
