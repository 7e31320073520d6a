/* Pieces every `pixflow bench <op>` shares on the OpenCV side: loading a
 * bundled photo, the banner, and timing one case at 1 and 2 threads. */
#ifndef PIXFLOW_TOOL_BENCH_COMMON_H
#define PIXFLOW_TOOL_BENCH_COMMON_H

#include <stdint.h>

#include "pixflow/pixflow.h"
#include "timing.h"

/* data/<file> as interleaved u8 RGB (*px malloc'ed). Returns 0, or prints
 * "pixflow bench <bench>: cannot read <path>" and returns 1. */
int bench_load_rgb(const char *bench, const char *data, const char *file, uint8_t **px, int *w, int *h);

/* "pixflow <v> vs OpenCV <v>; isa <isa>; median of <n> rounds, ms per call" */
void bench_print_banner(int rounds);

/* Times pf against cv at 1 thread (NULL stream, cv::setNumThreads(1)) and
 * at 2 threads (s2, cv::setNumThreads(2)), printing one row each; the
 * stream the pixflow side must use is written to *stream_slot first. */
void bench_rows_1_2(const char *label, pf_stream *s2, pf_stream **stream_slot, bench_fn pf, bench_fn cv,
                    void *ctx, int rounds, const char *verdict);

#endif
