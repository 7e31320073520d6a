/* The element map of pf_convert / pf_reformat / pf_normalize on OpenCL:
 * the CPU engine's per-sample decisions (src/ops/convert_args.c), the
 * shared job builder (src/gpu/convert_jobs.c) and one launch of the shared
 * body (src/kernels/gpu_convert.h) per batch. PF_NORM_MINMAX runs the
 * per-image reduction of src/kernels/gpu_minmax.h before the map, as
 * src/cuda/pointwise_cuda.c does (the same job builders and bodies; the
 * work-group reduction is the entry wrapper's, src/opencl/kernels/
 * convert.cl). */
#include <stdlib.h>

#include "core/error.h"
#include "core/stream.h"
#include "gpu/convert_jobs.h"
#include "gpu/gpu_check.h"
#include "ops/convert_args.h"
#include "opencl/cl_internal.h"

/* u16/f32 elements are moved as words by the bodies: aligned views only,
 * as on CUDA. */
static pf_status check_aligned(const char *op, int count, const pf_image src[], const pf_image dst[]) {
    pf_status st = PF_OK;
    for (int i = 0; i < count && st == PF_OK; i++) {
        st = pfi_gpu_check_aligned(op, "src", i, &src[i]);
        if (st == PF_OK) st = pfi_gpu_check_aligned(op, "dst", i, &dst[i]);
    }
    return st;
}

static pf_status run_samples(pf_stream *s, const char *op, int count, const pf_image src[], const pf_image dst[],
                             pfi_cvt_sample *smp) {
    pf_status st = check_aligned(op, count, src, dst);
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    if (st == PF_OK) st = pfi_cl_ptrs_add_images(&ps, op, count, src, dst, s->device);
    size_t scratch = 0, bytes = pfi_gpu_cvt_bytes(count, &scratch);
    pfi_arena a;
    const pfk_cvt_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_cvt_build(&a, count, smp, &b, &g, NULL);
    free(smp);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_CONVERT, "pfi_cl_cvt", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}

/* PF_NORM_MINMAX: the reduction over the images' grid, one work-item per
 * sample turning the keys into the element map's transform (written into
 * the uploaded cvt jobs), then the element map: three launches in stream
 * order, one parameter upload (the keys start at INT32_MAX / INT32_MIN
 * in it). */
static pf_status normalize_minmax(pf_stream *s, int count, const pf_image src[], const pf_image dst[],
                                  const pf_normalize_opts *o, pfi_cvt_sample *smp) {
    static const char op[] = "pf_normalize";
    pf_status st = check_aligned(op, count, src, dst);
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    if (st == PF_OK) st = pfi_cl_ptrs_add_images(&ps, op, count, src, dst, s->device);
    size_t sc1 = 0, sc2 = 0, bytes = pfi_gpu_cvt_bytes(count, &sc1) + pfi_gpu_minmax_bytes(count, &sc2);
    pfi_arena a;
    const pfk_cvt_batch *cb = NULL;
    const pfk_minmax_batch *mb = NULL;
    pfk_cvt_job *cjobs = NULL;
    pfi_grid cg, mg;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, sc1 + sc2, &a);
    if (st == PF_OK) st = pfi_gpu_cvt_build(&a, count, smp, &cb, &cg, &cjobs);
    free(smp);
    if (st == PF_OK) st = pfi_gpu_minmax_build(&a, count, src, o->lo, o->hi, cjobs, &mb, &mg);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_CONVERT, "pfi_cl_minmax", mb, mg, &a, &ps);
    pfi_grid fg = {count, 1, 1};
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_CONVERT, "pfi_cl_minmax_finish", mb, fg, &a, &ps);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_CONVERT, "pfi_cl_cvt", cb, cg, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}

pf_status pfi_cl_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_convert_opts *opts) {
    pf_convert_opts o = opts ? *opts : pf_convert_opts_defaults();
    pfi_cvt_sample *smp;
    pf_status st = pfi_cvt_make_samples("pf_convert", count, src, dst, o.order, o.fill, 0, o.alpha, o.beta, &smp);
    return st != PF_OK ? st : run_samples(s, "pf_convert", count, src, dst, smp);
}

pf_status pfi_cl_reformat(pf_stream *s, int count, const pf_image src[], pf_image dst[], const int8_t order[4],
                          double fill) {
    static const int8_t identity[4] = {0, 1, 2, 3};
    pfi_cvt_sample *smp;
    pf_status st =
        pfi_cvt_make_samples("pf_reformat", count, src, dst, order ? order : identity, fill, 1, 1, 0, &smp);
    return st != PF_OK ? st : run_samples(s, "pf_reformat", count, src, dst, smp);
}

pf_status pfi_cl_normalize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                           const pf_normalize_opts *opts) {
    pf_normalize_opts o = opts ? *opts : pf_normalize_opts_defaults();
    pfi_cvt_sample *smp;
    pf_status st = pfi_norm_make_samples(count, src, dst, &o, &smp);
    if (st != PF_OK) return st;
    if (o.mode == PF_NORM_MINMAX) return normalize_minmax(s, count, src, dst, &o, smp);
    return run_samples(s, "pf_normalize", count, src, dst, smp);
}
