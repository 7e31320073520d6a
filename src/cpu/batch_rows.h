/*
 * Row-parallel execution of a batch: the pointwise ops (colour, convert,
 * normalize, reformat, LUT) have no dependency between rows, so a batch is
 * cut into (sample, band of rows) tasks spread over the stream's threads.
 * Each output row is computed by exactly one task from its inputs alone,
 * so results never depend on the thread count.
 */
#ifndef PF_CPU_BATCH_ROWS_H
#define PF_CPU_BATCH_ROWS_H

#include "pixflow/core.h"

/* fn(ctx, sample, y0, y1): process rows [y0, y1) of sample `sample`. */
typedef void (*pfi_rows_fn)(void *ctx, int sample, int32_t y0, int32_t y1);

/* Runs fn over rows [0, rows[i]) of every sample i in [0, count). Bands
 * start at multiples of row_align (>= 1; e.g. 2 for 4:2:0 frames, whose
 * chroma rows serve two luma rows). px_per_row[i] (or NULL: 1) sizes the
 * bands so each task has a few tens of thousands of pixels. */
void pfi_run_rows(pf_stream *stream, int count, const int32_t *rows, const int32_t *px_per_row,
                  int32_t row_align, pfi_rows_fn fn, void *ctx);

#endif
