/* CUDA device ops of the post-processing functions (entries nms,
 * masks_from_logits, composite of the backend table): build the batch
 * into the stream's parameter arena (one upload) and queue the launches
 * (src/cuda/post_kernels.cu). Arguments were validated by the front-ends
 * (src/post), which routed here because every array they name is device
 * memory of the stream's device. */
#include <cuda_runtime_api.h>

#include "core/error.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"
#include "gpu/post_jobs.h"
#include "cuda/post_launch.h"

pf_status pfi_cuda_nms(pf_stream *s, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                       int64_t offsets[], int32_t keep[], float updated_scores[]) {
    static const char op[] = "pf_nms";
    pf_status st = pfi_gpu_nms_supported(op, opts);
    if (st != PF_OK) return st;
    if (count == 0) /* no launch writes offsets[0] */
        return pfi_cuda_launched(s, op, (int)cudaMemsetAsync(offsets, 0, sizeof *offsets, pfi_cuda_stream(s)));
    int64_t total = 0;
    for (int i = 0; i < count; i++) total += samples[i].n;
    int err = 0;
    size_t sort_bytes = pfi_cu_nms_sort_bytes((long long)total, count > 0 ? count : 1, &err);
    if (sort_bytes == 0) return pfi_cuda_launched(s, op, err);
    size_t scratch, bytes = pfi_gpu_nms_bytes(count, samples, opts, sort_bytes, &scratch);
    pfi_arena a;
    if ((st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a)) != PF_OK) return st;
    const pfk_nms_batch *db;
    pfk_nms_batch *hb;
    void *sort_temp;
    pfi_gpu_nms_plan plan;
    st = pfi_gpu_nms_build(&a, count, samples, opts, offsets, keep, updated_scores, sort_bytes, &db, &hb, &sort_temp,
                           &plan);
    if (st != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_nms(pfi_cuda_stream(s), db, hb, &plan, sort_temp, sort_bytes));
}

pf_status pfi_cuda_masks_from_logits(pf_stream *s, const float *logits, int32_t n, int32_t channels, int32_t height,
                                     int32_t width, uint8_t *masks, const pf_mask_opts *opts) {
    static const char op[] = "pf_masks_from_logits";
    size_t scratch, bytes = pfi_gpu_logits_bytes(&scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_logits_batch *b;
    pfi_grid g;
    if ((st = pfi_gpu_logits_build(&a, logits, n, channels, height, width, masks, opts, &b, &g)) != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_logits(pfi_cuda_stream(s), b, g));
}

pf_status pfi_cuda_composite(pf_stream *s, int count, const pf_image fg[], const pf_image bg[], const pf_image mask[],
                             pf_image dst[]) {
    static const char op[] = "pf_composite";
    size_t scratch, bytes = pfi_gpu_composite_bytes(count, &scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_composite_batch *b;
    pfi_grid g;
    if ((st = pfi_gpu_composite_build(&a, count, fg, bg, mask, dst, &b, &g)) != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_composite(pfi_cuda_stream(s), b, g));
}
