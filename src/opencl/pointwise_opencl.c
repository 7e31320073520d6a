/* The pointwise device ops on OpenCL (pf_flip so far): the shared job
 * builders (src/gpu/<op>_jobs.c, plain C filling the structs of
 * src/kernels/gpu_<op>.h) write into the stream's parameter arena, and one
 * launch per batch runs the shared body through its OpenCL entry wrapper
 * (src/opencl/kernels/pointwise.cl). */
#include "core/error.h"
#include "core/stream.h"
#include "gpu/flip_jobs.h"
#include "opencl/cl_internal.h"

pf_status pfi_cl_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_flip_code codes[],
                      int ncodes) {
    const char *op = "pf_flip";
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = pfi_cl_ptrs_add_images(&ps, op, count, src, dst, s->device);
    size_t scratch = 0, bytes = pfi_gpu_flip_bytes(count, &scratch);
    pfi_arena a;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    const pfk_flip_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_gpu_flip_build(&a, count, src, dst, codes, ncodes, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_POINTWISE, "pfi_cl_flip", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
