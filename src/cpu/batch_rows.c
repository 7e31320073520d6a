/* Splits a batch into (sample, row band) tasks; see batch_rows.h. */
#include <stdlib.h>

#include "core/stream.h"
#include "cpu/batch_rows.h"

/* A task of at least this many pixels amortizes the pool hand-off (a few
 * microseconds) while leaving enough tasks to balance threads. */
#define PFI_TASK_PIXELS 65536

typedef struct band { int sample; int32_t y0, y1; } band;

typedef struct job {
    const band *bands;
    pfi_rows_fn fn;
    void *ctx;
} job;

static void run_band(void *ctx, int task, int worker) {
    (void)worker;
    const job *j = ctx;
    const band *b = &j->bands[task];
    j->fn(j->ctx, b->sample, b->y0, b->y1);
}

static int32_t band_rows(int32_t rows, int32_t px_per_row, int32_t align) {
    int64_t per = px_per_row > 0 ? PFI_TASK_PIXELS / px_per_row : rows;
    if (per < 1) per = 1;
    per = (per + align - 1) / align * align;
    return per > rows ? rows : (int32_t)per;
}

void pfi_run_rows(pf_stream *stream, int count, const int32_t *rows, const int32_t *px_per_row,
                  int32_t row_align, pfi_rows_fn fn, void *ctx) {
    if (row_align < 1) row_align = 1;
    if (pf_stream_threads(stream) <= 1) {
        for (int i = 0; i < count; i++)
            if (rows[i] > 0) fn(ctx, i, 0, rows[i]);
        return;
    }
    size_t ntasks = 0;
    for (int i = 0; i < count; i++) {
        if (rows[i] <= 0) continue;
        int32_t per = band_rows(rows[i], px_per_row ? px_per_row[i] : 1, row_align);
        ntasks += (size_t)((rows[i] + per - 1) / per);
    }
    /* Waking the pool costs tens of microseconds on a busy machine; below
     * ~4 tasks of work the calling thread alone finishes sooner. */
    if (ntasks < 4) {
        for (int i = 0; i < count; i++)
            if (rows[i] > 0) fn(ctx, i, 0, rows[i]);
        return;
    }
    band *bands = malloc(ntasks * sizeof *bands);
    if (bands == NULL || ntasks > (size_t)INT32_MAX) {
        /* No memory for the task list: run inline; same results, one thread. */
        free(bands);
        for (int i = 0; i < count; i++)
            if (rows[i] > 0) fn(ctx, i, 0, rows[i]);
        return;
    }
    size_t k = 0;
    for (int i = 0; i < count; i++) {
        if (rows[i] <= 0) continue;
        int32_t per = band_rows(rows[i], px_per_row ? px_per_row[i] : 1, row_align);
        for (int32_t y = 0; y < rows[i]; y += per) {
            bands[k].sample = i;
            bands[k].y0 = y;
            bands[k].y1 = y + per < rows[i] ? y + per : rows[i];
            k++;
        }
    }
    job j = {bands, fn, ctx};
    pfi_stream_parallel(stream, (int)ntasks, run_band, &j);
    free(bands);
}
