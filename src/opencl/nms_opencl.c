/* pf_nms on OpenCL (entry nms of the backend table): the shared job
 * builder (src/gpu/post_jobs.c) fills the stream's parameter arena once,
 * then the launches of src/kernels/gpu_nms.h's sequence are queued in
 * order on the stream's in-order queue (src/opencl/kernels/nms.cl):
 * filter, segments, rank sort, gather, select (a work-group per sample),
 * output, offsets, compact. The options the GPU path lacks (soft-NMS, the
 * torch sort order, the automatic class offset) are refused by
 * pfi_gpu_nms_supported, naming the option, as on CUDA. */
#include "core/error.h"
#include "core/stream.h"
#include "gpu/post_jobs.h"
#include "opencl/cl_internal.h"

static pf_status add_ptr(pfi_cl_ptrs *ps, const char *name, int index, const void *p, int device) {
    return p == NULL ? PF_OK : pfi_cl_ptrs_add_view(ps, "pf_nms", name, index, p, device);
}

/* items 0 .. len-1 of each of n samples: x + X * y over 8 rows */
static pfi_grid items(int64_t len, int32_t n) {
    pfi_grid g = {(int32_t)((len + 7) / 8), 8, n};
    return g;
}

pf_status pfi_cl_nms(pf_stream *s, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                     int64_t offsets[], int32_t keep[], float updated_scores[]) {
    static const char op[] = "pf_nms";
    pf_status st = pfi_gpu_nms_supported(op, opts);
    if (st != PF_OK) return st;
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    for (int i = 0; i < count && st == PF_OK; i++) {
        st = add_ptr(&ps, "samples.boxes", i, samples[i].boxes, s->device);
        if (st == PF_OK) st = add_ptr(&ps, "samples.scores", i, samples[i].scores, s->device);
        if (st == PF_OK) st = add_ptr(&ps, "samples.classes", i, samples[i].classes, s->device);
    }
    if (st == PF_OK) st = add_ptr(&ps, "offsets", 0, offsets, s->device);
    if (st == PF_OK) st = add_ptr(&ps, "keep", 0, keep, s->device);
    if (st == PF_OK) st = add_ptr(&ps, "updated_scores", 0, updated_scores, s->device);
    size_t scratch = 0, bytes = pfi_gpu_nms_bytes(count, samples, opts, 0, &scratch);
    pfi_arena a;
    const pfk_nms_batch *db = NULL;
    pfk_nms_batch *hb;
    void *sort_temp;
    pfi_gpu_nms_plan plan;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK)
        st = pfi_gpu_nms_build(&a, count, samples, opts, offsets, keep, updated_scores, 0, &db, &hb, &sort_temp,
                               &plan);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    const pfi_cl_prog_id P = PFI_CL_PROG_NMS;
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_filter", db, items(plan.max_n, count), &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_segments", db, items(count, 1), &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_rank", db, items(plan.max_n, count), &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_gather", db, items(plan.max_n, count), &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_select", db, (pfi_grid){32, 8, count}, &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_output", db, items(plan.max_bound, count), &a, &ps);
    /* also for count 0: offsets[0] = 0 */
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_offsets", db, (pfi_grid){1, 1, 1}, &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, P, "pfi_cl_nms_compact", db, items(plan.max_bound, count), &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
