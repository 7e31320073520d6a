/* pf_warp_affine / pf_warp_perspective on OpenCL: the shared job builder
 * (src/gpu/warp_jobs.c: matrices inverted and checked there, as for CUDA)
 * and one launch per batch of the shared body (src/kernels/gpu_warp.h). */
#include "core/error.h"
#include "core/stream.h"
#include "gpu/warp_jobs.h"
#include "opencl/cl_internal.h"

static pf_status warp(pf_stream *s, const char *op, int perspective, int count, const pf_image src[],
                      pf_image dst[], const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    pf_warp_opts o = opts ? *opts : pf_warp_opts_defaults();
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = pfi_cl_ptrs_add_images(&ps, op, count, src, dst, s->device);
    size_t scratch = 0, bytes = pfi_gpu_warp_bytes(count, &scratch);
    pfi_arena a;
    const pfk_warp_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_warp_build(&a, op, perspective, count, src, dst, matrices, nmatrices, &o, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_WARP, "pfi_cl_warp", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}

pf_status pfi_cl_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                             int nmatrices, const pf_warp_opts *opts) {
    return warp(s, "pf_warp_affine", 0, count, src, dst, matrices, nmatrices, opts);
}

pf_status pfi_cl_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                  const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    return warp(s, "pf_warp_perspective", 1, count, src, dst, matrices, nmatrices, opts);
}
