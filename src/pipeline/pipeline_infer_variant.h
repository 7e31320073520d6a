/* The variant window of pf_infer_run (include/pixflow/infer.h): the
 * per-frame latencies of the last `window` batches on the current variant,
 * and the choice handed to config.choose. Used by the inference thread only
 * (no lock). */
#ifndef PIXFLOW_PIPELINE_INFER_VARIANT_H
#define PIXFLOW_PIPELINE_INFER_VARIANT_H

#include "pixflow/infer.h"

#define PLI_VARIANT_WINDOW_MAX 64

typedef struct pli_variant_window {
    double ms[PLI_VARIANT_WINDOW_MAX];   /* ring */
    int n, cap;
    int variant;
    double last_ms;
} pli_variant_window;

void pli_variant_window_init(pli_variant_window *w, int cap, int variant);
/* one batch of `count` frames took batch_ms on w->variant */
void pli_variant_window_add(pli_variant_window *w, double batch_ms, int count);
/* what the chooser sees before batch `index` */
pf_infer_choice pli_variant_choice(const pli_variant_window *w, int64_t index, int n_variants);
/* the next batch runs on `variant`: a change empties the window (one switch per window at most) */
void pli_variant_window_set(pli_variant_window *w, int variant);

#endif
