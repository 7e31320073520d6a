/* pf_preprocess_run on OpenCL device views: the shared job builder
 * (src/gpu/preprocess_jobs.c, as for CUDA) fills the batch into the
 * stream's parameter arena (one upload), then one launch of the shared
 * body (src/kernels/gpu_preprocess.h through src/opencl/kernels/
 * preprocess.cl), preceded by the contrast pre-pass when some sample has
 * contrast. Arguments arrive validated by pf_preprocess_run
 * (pfi_pp_check_device + routing).
 *
 * The pre-pass adds 64-bit sums atomically: a device without
 * cl_khr_int64_base_atomics gets PF_ERR_UNSUPPORTED naming it for a
 * batch with contrast (never a different mean); batches without contrast
 * run there. */
#include "augment/preprocess_plan.h"
#include "core/error.h"
#include "core/stream.h"
#include "gpu/preprocess_jobs.h"
#include "opencl/cl_internal.h"

#define INT64_ATOMICS "cl_khr_int64_base_atomics"

static pf_status add_views(pfi_cl_ptrs *ps, const char *op, int count, const pf_image src[], const pf_tensor *dst,
                           int device) {
    for (int i = 0; i < count; i++) {
        pf_status st = pfi_cl_ptrs_add_view(ps, op, "src", i, src[i].data, device);
        if (st != PF_OK) return st;
    }
    return pfi_cl_ptrs_add_view(ps, op, "dst", 0, dst->data, device);
}

pf_status pfi_cl_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                            const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    const char *op = PFI_PP_OP;
    if (count == 0) return PF_OK;
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = add_views(&ps, op, count, src, dst, s->device);
    size_t scratch = 0, bytes = st == PF_OK ? pfi_gpu_preprocess_bytes(plan, count, src, params, &scratch) : 0;
    pfi_arena a;
    const pfk_pp_batch *b = NULL;
    pfi_grid grid, sum_grid = {0, 0, 0};
    int cheap = 0;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK)
        st = pfi_gpu_preprocess_build(&a, plan, count, src, params, dst, info, &b, &grid, &sum_grid, &cheap);
    if (st == PF_OK && sum_grid.n > 0 && !pfi_cl_device_has_extension(s->device, INT64_ATOMICS))
        st = pfi_fail(PF_ERR_UNSUPPORTED,
                      "%s: some sample has contrast, whose mean the OpenCL pre-pass sums with 64-bit atomics, and "
                      "OpenCL device %d lacks " INT64_ATOMICS "; run contrast batches on the CPU or CUDA",
                      op, s->device);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    /* the queue is in order: the main pass reads the sums the pre-pass wrote */
    if (st == PF_OK && sum_grid.n > 0)
        st = pfi_cl_launch(s, op, PFI_CL_PROG_PREPROCESS, "pfi_cl_pp_sum", b, sum_grid, &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_PREPROCESS, "pfi_cl_pp", b, grid, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
