/* The element map of pf_convert / pf_reformat / pf_normalize on OpenCL:
 * the CPU engine's per-sample decisions (src/ops/convert_args.c), the
 * shared job builder (src/gpu/convert_jobs.c) and one launch of the shared
 * body (src/kernels/gpu_convert.h) per batch. PF_NORM_MINMAX needs a
 * per-image reduction before the map (CUDA: warp shuffles in
 * src/cuda/pointwise_kernels.cu); OpenCL has no such entry yet and says
 * so. */
#include <stdlib.h>

#include "core/error.h"
#include "core/stream.h"
#include "gpu/convert_jobs.h"
#include "gpu/gpu_check.h"
#include "ops/convert_args.h"
#include "opencl/cl_internal.h"

static pf_status run_samples(pf_stream *s, const char *op, int count, const pf_image src[], const pf_image dst[],
                             pfi_cvt_sample *smp) {
    pf_status st = PF_OK;
    /* the body moves u16/f32 elements as words: aligned views only, as on CUDA */
    for (int i = 0; i < count && st == PF_OK; i++) {
        st = pfi_gpu_check_aligned(op, "src", i, &src[i]);
        if (st == PF_OK) st = pfi_gpu_check_aligned(op, "dst", i, &dst[i]);
    }
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
    if (o.mode == PF_NORM_MINMAX)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_normalize: PF_NORM_MINMAX is not available on the opencl backend yet (PF_NORM_MEAN_STD "
                        "is; or run it on host views)");
    pfi_cvt_sample *smp;
    pf_status st = pfi_norm_make_samples(count, src, dst, &o, &smp);
    return st != PF_OK ? st : run_samples(s, "pf_normalize", count, src, dst, smp);
}
