/* The device stage's preprocess through the device dispatcher: with
 * config.augment_dispatch the CPU device placement's batch (the decoded
 * crops, host views, and the host batch tensor) is handed to
 * pf_dispatch_run, which spreads its samples over the dispatcher's
 * devices with the same bytes; everything around it (staging, order,
 * events, delivery) stays the device placement's. */
#include "pipeline/pipeline_dispatch.h"

pf_status pli_augment_batch(pf_pipeline *p, pf_preprocess_plan *plan, pf_stream *stream, int32_t n,
                            const pf_image views[], const pf_aug_params params[], pf_tensor *dst,
                            pf_letterbox_info info[]) {
    if (p->cfg.augment_dispatch == NULL) return pf_preprocess_run(plan, stream, n, views, params, dst, info);
    /* the CPU device's stream ran the uploads (host copies) synchronously */
    return pf_dispatch_run(p->cfg.augment_dispatch, &p->cfg.desc, n, views, params, dst, info);
}
