/* pf_preprocess_run on OpenCL device views: the shared job builder
 * (src/gpu/preprocess_jobs.c, as for CUDA) fills the batch into the
 * stream's parameter arena (one upload), then one launch of the shared
 * body (src/kernels/gpu_preprocess.h through src/opencl/kernels/
 * preprocess.cl), preceded by the contrast pre-pass when some sample has
 * contrast. Arguments arrive validated by pf_preprocess_run
 * (pfi_pp_check_device + routing). pf_preprocess_run_yuv adds, as on
 * CUDA, a conversion pass before it for the samples whose sampler is not
 * cheap (their decoded rectangles live in the arena's SVM scratch); the
 * others convert their taps on the fly.
 *
 * The pre-pass adds 64-bit sums atomically: a device without
 * cl_khr_int64_base_atomics gets PF_ERR_UNSUPPORTED naming it for a
 * batch with contrast (never a different mean); batches without contrast
 * run there. */
#include "augment/preprocess_plan.h"
#include "core/error.h"
#include "core/stream.h"
#include "gpu/preprocess_jobs.h"
#include "gpu/preprocess_yuv_jobs.h"
#include "opencl/cl_internal.h"

#define INT64_ATOMICS "cl_khr_int64_base_atomics"

static pf_status contrast_ok(const char *op, const pfi_grid *sum_grid, int device) {
    if (sum_grid->n == 0 || pfi_cl_device_has_extension(device, INT64_ATOMICS)) return PF_OK;
    return pfi_fail(PF_ERR_UNSUPPORTED,
                    "%s: some sample has contrast, whose mean the OpenCL pre-pass sums with 64-bit atomics, and "
                    "OpenCL device %d lacks " INT64_ATOMICS "; run contrast batches on the CPU or CUDA",
                    op, device);
}

/* The pre-pass (when some sample has contrast) and the main pass; the
 * queue is in order, so the main pass reads the sums the pre-pass wrote. */
static pf_status launch(pf_stream *s, const char *op, const pfk_pp_batch *b, pfi_grid grid, pfi_grid sum_grid,
                        const pfi_arena *a, pfi_cl_ptrs *ps) {
    pf_status st = PF_OK;
    if (sum_grid.n > 0) st = pfi_cl_launch(s, op, PFI_CL_PROG_PREPROCESS, "pfi_cl_pp_sum", b, sum_grid, a, ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_PREPROCESS, "pfi_cl_pp", b, grid, a, ps);
    return st;
}

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
    if (st == PF_OK) st = contrast_ok(op, &sum_grid, s->device);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = launch(s, op, b, grid, sum_grid, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}

pf_status pfi_cl_preprocess_yuv(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                const pf_color_code codes[], const pf_color_opts opts[],
                                const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    const char *op = "pf_preprocess_run_yuv";
    if (count == 0) return PF_OK;
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = PF_OK;
    for (int i = 0; i < count && st == PF_OK; i++) {
        const pf_image *planes[4] = {&src[i].y, &src[i].uv, &src[i].u, &src[i].v};
        static const char *const names[4] = {"src.y", "src.uv", "src.u", "src.v"};
        for (int p = 0; p < 4 && st == PF_OK; p++)
            if (planes[p]->data != NULL) st = pfi_cl_ptrs_add_view(&ps, op, names[p], i, planes[p]->data, s->device);
    }
    if (st == PF_OK) st = pfi_cl_ptrs_add_view(&ps, op, "dst", 0, dst->data, s->device);
    size_t scratch = 0;
    size_t bytes = st == PF_OK ? pfi_gpu_preprocess_yuv_bytes(plan, count, src, codes, params, &scratch) : 0;
    pfi_arena a;
    const pfk_yuv_crop_batch *yb = NULL;
    const pfk_pp_batch *pb = NULL;
    pfi_grid yg = {0, 0, 0}, grid, sum_grid = {0, 0, 0};
    int cheap = 0;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK)
        st = pfi_gpu_preprocess_yuv_build(&a, plan, count, src, codes, opts, params, dst, info, &yb, &yg, &pb, &grid,
                                          &sum_grid, &cheap);
    if (st == PF_OK) st = contrast_ok(op, &sum_grid, s->device);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    /* the conversion pass (yg.w 0: no sample needs it) before the preprocess, in queue order */
    if (st == PF_OK && yg.w > 0)
        st = pfi_cl_launch(s, op, PFI_CL_PROG_PREPROCESS, "pfi_cl_pp_yuv_crop", yb, yg, &a, &ps);
    if (st == PF_OK) st = launch(s, op, pb, grid, sum_grid, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
