/* Shared pieces of the photometric ops: batch validation with precise
 * messages, per-sample parameter checks, and the row runners. */
#ifndef PF_CPU_PHOTO_COMMON_H
#define PF_CPU_PHOTO_COMMON_H

#include "cpu/batch_rows.h"
#include "cpu/photo_exec.h"
#include "pixflow/ops.h"

/* What an op accepts (pfi_photo_check flags). */
enum {
    PFI_PH_CHANNELWISE = 1 << 0, /* 1..4 channels, HWC or CHW */
    PFI_PH_COLOR = 1 << 1,       /* 3 channels HWC, or 1 channel (HWC/CHW alike) */
    PFI_PH_RGB_ONLY = 1 << 2,    /* 3 channels HWC only */
    PFI_PH_GRAY_DST = 1 << 3,    /* dst has 1 or 3 channels (grayscale) */
    PFI_PH_ANY_DTYPE = 1 << 4    /* u8, u16, f32 (erase) instead of u8, f32 */
};

/* Validates count, the arrays and every (src[i], dst[i]) pair. */
pf_status pfi_photo_check(const char *op, int count, const pf_image src[], const pf_image dst[],
                          unsigned flags);
/* n must be 1 or count; `what` names the array ("factors"). */
pf_status pfi_photo_check_n(const char *op, const char *what, const void *arr, int n, int count);
/* Every entry finite and within [lo, hi]. */
pf_status pfi_photo_check_range(const char *op, const char *what, const double *v, int n,
                                double lo, double hi);
/* Entry for sample i of an n = 1 or count array. */
static inline int pfi_pick(int n, int i) { return n == 1 ? 0 : i; }

/* dst is the same view as src (in place). */
int pfi_photo_same_view(const pf_image *s, const pf_image *d);

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

/* Runs u8 tables through pf_lut. per_channel == 0: one 256-byte table per
 * sample (count * 256 bytes); 1: a table per channel, PFI_PHOTO_TAB_STRIDE
 * bytes per sample. */
#define PFI_PHOTO_TAB_STRIDE 1024
pf_status pfi_photo_lut(const char *op, pf_stream *stream, int count, const pf_image src[],
                        pf_image dst[], const uint8_t *tables, int per_channel);

#endif
