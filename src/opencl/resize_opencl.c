/* pf_resize on OpenCL: the shared job builder (src/gpu/resize_jobs.c: the
 * CPU plan's tap tables copied into the launch arena) and one launch per
 * batch of the shared body (src/kernels/gpu_resize.h). Every mode the
 * CUDA backend has, through the same tables and body. */
#include "core/error.h"
#include "core/stream.h"
#include "gpu/resize_jobs.h"
#include "opencl/cl_internal.h"

pf_status pfi_cl_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_resize_opts *opts) {
    const char *op = "pf_resize";
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = pfi_cl_ptrs_add_images(&ps, op, count, src, dst, s->device);
    size_t scratch = 0, bytes = st == PF_OK ? pfi_gpu_resize_bytes(count, src, dst, opts, &scratch) : 0;
    pfi_arena a;
    const pfk_resize_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_resize_build(&a, count, src, dst, opts, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_RESIZE, "pfi_cl_resize", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
