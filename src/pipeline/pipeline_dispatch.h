/* The device stage's preprocess call, with or without the device
 * dispatcher (config.augment_dispatch, pipeline_dispatch.c). */
#ifndef PF_PIPELINE_DISPATCH_H
#define PF_PIPELINE_DISPATCH_H

#include "pipeline/pipeline_internal.h"

/* pf_preprocess_run(plan, stream, ...) or, with config.augment_dispatch,
 * pf_dispatch_run of the pipeline's desc over the dispatcher's devices
 * (host views and a host tensor: the CPU device's placement). */
pf_status pli_augment_batch(pf_pipeline *p, pf_preprocess_plan *plan, pf_stream *stream, int32_t n,
                            const pf_image views[], const pf_aug_params params[], pf_tensor *dst,
                            pf_letterbox_info info[]);

#endif
