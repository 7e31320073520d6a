/*
 * pixflow infer: the user's inference engine as a stage of the video
 * pipeline, for C users who bring their own engine (TensorRT, ONNX Runtime's
 * C API, an NPU runtime). pf_infer_run pulls batches from a pf_video, hands
 * each batch's tensor to infer() on an inference thread and the batch with
 * infer()'s output to post() on a post-process thread. The threads are
 * joined by bounded hand-offs, may be pinned to cores, and each stage
 * reports its per-batch latency (p50/p99).
 *
 *   static pf_status my_infer(void *user, const pf_video_batch *b, void *out) {
 *       return engine_run(user, b->tensor.data, b->count, out) ? PF_OK : PF_ERR_DEVICE;
 *   }
 *   static pf_status my_post(void *user, const pf_video_batch *b, const void *out) {
 *       // pf_yolo_decode(..., out, b->count, ...); pf_boxes_unmap with b->frames[i].letterbox
 *       return PF_OK;
 *   }
 *   pf_infer_config c = pf_infer_config_defaults();
 *   c.infer = my_infer; c.post = my_post; c.user = engine; c.output_bytes = 16 * 22 * 2100 * 4;
 *   pf_infer_stats s;
 *   pf_status st = pf_infer_run(video, &c, &s);   // until every stream ends, or the first error
 */
#ifndef PIXFLOW_INFER_H
#define PIXFLOW_INFER_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"
#include "pixflow/video.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the model on batch->tensor (samples [0, batch->count)) and writes
 * its outputs into output (config.output_bytes bytes, owned by pixflow and
 * reused). A status other than PF_OK stops the run; pf_last_error() of the
 * calling thread, when set, becomes part of pf_infer_run's message. */
typedef pf_status (*pf_infer_fn)(void *user, const pf_video_batch *batch, void *output);
/* Turns one batch's outputs into results (boxes, masks); batches arrive in
 * the source's order. May be NULL (infer() does everything). */
typedef pf_status (*pf_infer_post_fn)(void *user, const pf_video_batch *batch, const void *output);

/* Model variants (e.g. one engine built at FP32, FP16 and INT8): with
 * config.n_variants > 0, infer_variant runs each batch instead of infer,
 * with the variant the batch runs on (0 = the most accurate, higher =
 * cheaper). Before each batch pixflow calls config.choose (when set) with
 * what it measured on the inference thread, and the batch runs on the
 * variant it returns. pixflow measures and records; the user's chooser
 * decides (pf_infer_ladder below is the detect app's rule, ready to call
 * from it). Which variants exist, and whether each is accurate enough, is
 * the user's business: pixflow never builds or checks engines. */
#define PF_INFER_MAX_VARIANTS 8
typedef struct pf_infer_choice {
    int64_t batch;              /* index of the batch about to run */
    int variant;                /* the variant of the previous batch (config.variant before the first) */
    int n_variants;
    double last_ms;             /* per-frame infer latency of the previous batch (batch time / count); 0 first */
    double p90_ms;              /* p90 of the per-frame latency over the last config.window batches that ran
                                 * on `variant` since it was chosen; 0 while fewer than window have */
    int window_full;            /* 1 when p90_ms covers config.window batches */
} pf_infer_choice;
/* Returns the variant of the next batch, 0..n_variants-1; any other value
 * stops the run with PF_ERR_INVALID_ARGUMENT (pf_last_error(), when the
 * chooser set it, becomes part of the message). */
typedef int (*pf_infer_choose_fn)(void *user, const pf_infer_choice *choice);
typedef pf_status (*pf_infer_variant_fn)(void *user, const pf_video_batch *batch, int variant, void *output);

/* The ladder of `python -m pixflow detect --latency-budget`, without the
 * app's back-off after an undone step up (this one keeps no state): once the window
 * is full, one variant down (cheaper) when p90_ms > budget_ms, one up when
 * p90_ms < budget_ms * up_frac (hysteresis, 0 < up_frac < 1), else stay.
 * pixflow empties the window at each switch, so at most one switch per
 * window. Returns the variant, or -1 (pf_last_error names the argument) for
 * a NULL choice, budget_ms <= 0 or up_frac outside (0, 1). */
PF_API int pf_infer_ladder(const pf_infer_choice *choice, double budget_ms, double up_frac);

typedef struct pf_infer_config {
    pf_infer_fn infer;          /* required unless n_variants > 0 */
    pf_infer_post_fn post;      /* optional */
    void *user;                 /* passed to both */
    size_t output_bytes;        /* per batch, > 0 */
    /* batches handed between two stages at most; default 1. The run holds
     * at most 2 * depth + 2 batches: the video must be opened with
     * batches_in_flight at least that (checked at the first batch). */
    int depth;
    int max_in_flight;          /* the video's batches_in_flight; default 4 */
    int infer_core, post_core;  /* pin the stage's thread to this CPU; -1 (default): not pinned */
    /* variants (above): 0 (default) = none, infer runs every batch; else
     * 1..PF_INFER_MAX_VARIANTS, infer_variant required */
    int n_variants;
    pf_infer_variant_fn infer_variant;
    pf_infer_choose_fn choose;  /* NULL: every batch runs on config.variant */
    int variant;                /* the first batch's; default 0 */
    int window;                 /* batches in choice.p90_ms, 1..64; default 8 */
} pf_infer_config;

PF_API pf_infer_config pf_infer_config_defaults(void);

typedef struct pf_infer_stage_stats {
    int64_t batches;            /* batches through the stage */
    double p50_ms, p99_ms, max_ms, mean_ms;   /* per-batch latency of the stage's work */
    double busy_s;              /* total time in the callback (or in pf_video_next for "source") */
} pf_infer_stage_stats;

typedef struct pf_infer_stats {
    int64_t batches, frames;
    double wall_s;              /* from the call to the last batch released */
    double frames_per_s;
    pf_infer_stage_stats source, infer, post;   /* source: waits in pf_video_next */
    int64_t variant_batches[PF_INFER_MAX_VARIANTS];   /* batches run on each variant (n_variants > 0) */
    int64_t switches;           /* times the chooser changed the variant */
    int last_variant;           /* the variant of the last batch */
} pf_infer_stats;

/* Runs until every stream of video has ended and every batch went through
 * infer and post, or until the first error: a callback's status (the
 * message names the stage and the batch), the video's, or a pinning
 * failure. Every batch taken is released on every path. stats may be NULL. */
PF_API pf_status pf_infer_run(pf_video *video, const pf_infer_config *config, pf_infer_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_INFER_H */
