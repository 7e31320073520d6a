/* The pixel-parallel post-processing ops on OpenCL (pf_masks_from_logits,
 * pf_composite): the shared job builders (src/gpu/post_jobs.c) fill the
 * stream's parameter arena and one launch per call runs the shared body
 * (src/kernels/gpu_post.h) through its entry wrapper
 * (src/opencl/kernels/post.cl). Arguments were validated by the
 * front-ends (src/post), which routed here because every array they name
 * is memory of the stream's OpenCL device. */
#include "core/error.h"
#include "core/stream.h"
#include "gpu/post_jobs.h"
#include "opencl/cl_internal.h"

pf_status pfi_cl_masks_from_logits(pf_stream *s, const float *logits, int32_t n, int32_t channels, int32_t height,
                                   int32_t width, uint8_t *masks, const pf_mask_opts *opts) {
    static const char op[] = "pf_masks_from_logits";
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = pfi_cl_ptrs_add_view(&ps, op, "logits", 0, logits, s->device);
    if (st == PF_OK) st = pfi_cl_ptrs_add_view(&ps, op, "masks", 0, masks, s->device);
    size_t scratch = 0, bytes = pfi_gpu_logits_bytes(&scratch);
    pfi_arena a;
    const pfk_logits_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_logits_build(&a, logits, n, channels, height, width, masks, opts, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_POST, "pfi_cl_logits", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}

pf_status pfi_cl_composite(pf_stream *s, int count, const pf_image fg[], const pf_image bg[], const pf_image mask[],
                           pf_image dst[]) {
    static const char op[] = "pf_composite";
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = PF_OK;
    for (int i = 0; i < count && st == PF_OK; i++) {
        st = pfi_cl_ptrs_add_view(&ps, op, "fg", i, fg[i].data, s->device);
        if (st == PF_OK) st = pfi_cl_ptrs_add_view(&ps, op, "bg", i, bg[i].data, s->device);
        if (st == PF_OK) st = pfi_cl_ptrs_add_view(&ps, op, "dst", i, dst[i].data, s->device);
        if (st == PF_OK) st = pfi_cl_ptrs_add_view(&ps, op, "mask", i, mask[i].data, s->device);
    }
    size_t scratch = 0, bytes = pfi_gpu_composite_bytes(count, &scratch);
    pfi_arena a;
    const pfk_composite_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_composite_build(&a, count, fg, bg, mask, dst, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_POST, "pfi_cl_composite", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
