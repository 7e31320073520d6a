/* CUDA device ops of the pointwise families: build the batch into the
 * stream's parameter arena (one upload), launch one kernel for the whole
 * batch (src/cuda/pointwise_kernels.cu). Arguments were validated by the
 * public op. */
#include <stdlib.h>

#include "core/error.h"
#include "ops/convert_args.h"
#include "gpu/convert_jobs.h"
#include "gpu/color_jobs.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"
#include "gpu/flip_jobs.h"
#include "gpu/gpu_check.h"
#include "cuda/pointwise_launch.h"
#include "gpu/yuv_jobs.h"

static pf_status check_aligned(const char *op, int count, const pf_image src[], const pf_image dst[]) {
    for (int i = 0; i < count; i++) {
        pf_status st = pfi_gpu_check_aligned(op, "src", i, &src[i]);
        if (st == PF_OK) st = pfi_gpu_check_aligned(op, "dst", i, &dst[i]);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

pf_status pfi_cuda_cvt_color_from_yuv(pf_stream *s, int count, const pf_yuv src[], pf_image dst[],
                                      pf_color_code code, const pf_color_opts *opts) {
    static const char op[] = "pf_cvt_color_from_yuv";
    size_t scratch, bytes = pfi_gpu_yuv_bytes(count, &scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_yuv_batch *b;
    pfi_grid g;
    if ((st = pfi_gpu_yuv_build(&a, count, src, dst, code, opts, &b, &g)) != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_yuv(pfi_cuda_stream(s), b, g));
}

pf_status pfi_cuda_cvt_color(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                             pf_color_code code, const pf_color_opts *opts) {
    static const char op[] = "pf_cvt_color";
    (void)opts; /* the matrix/range options concern the 4:2:0 codes only */
    pf_status st = check_aligned(op, count, src, dst);
    if (st != PF_OK) return st;
    size_t scratch, bytes = pfi_gpu_color_bytes(count, &scratch);
    pfi_arena a;
    if ((st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a)) != PF_OK) return st;
    const pfk_color_batch *b;
    pfi_grid g;
    if ((st = pfi_gpu_color_build(&a, count, src, dst, code, &b, &g)) != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_color(pfi_cuda_stream(s), b, g));
}

pf_status pfi_cuda_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                        const pf_flip_code codes[], int ncodes) {
    static const char op[] = "pf_flip";
    size_t scratch, bytes = pfi_gpu_flip_bytes(count, &scratch);
    pfi_arena a;
    pf_status st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st != PF_OK) return st;
    const pfk_flip_batch *b;
    pfi_grid g;
    if ((st = pfi_gpu_flip_build(&a, count, src, dst, codes, ncodes, &b, &g)) != PF_OK) return st;
    if ((st = pfi_cuda_arena_submit(s, op, &a)) != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_flip(pfi_cuda_stream(s), b, g));
}

/* The element map of pf_convert / pf_reformat / pf_normalize from the CPU
 * engine's samples; frees them. */
static pf_status run_samples(pf_stream *s, const char *op, int count, const pf_image src[], const pf_image dst[],
                             pfi_cvt_sample *smp) {
    pf_status st = check_aligned(op, count, src, dst);
    size_t scratch, bytes = pfi_gpu_cvt_bytes(count, &scratch);
    pfi_arena a;
    const pfk_cvt_batch *b;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cuda_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_cvt_build(&a, count, smp, &b, &g, NULL);
    free(smp);
    if (st == PF_OK) st = pfi_cuda_arena_submit(s, op, &a);
    if (st != PF_OK) return st;
    return pfi_cuda_launched(s, op, pfi_cu_launch_cvt(pfi_cuda_stream(s), b, g));
}

pf_status pfi_cuda_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                           const pf_convert_opts *opts) {
    pf_convert_opts o = opts ? *opts : pf_convert_opts_defaults();
    pfi_cvt_sample *smp;
    pf_status st = pfi_cvt_make_samples("pf_convert", count, src, dst, o.order, o.fill, 0, o.alpha, o.beta, &smp);
    return st != PF_OK ? st : run_samples(s, "pf_convert", count, src, dst, smp);
}

pf_status pfi_cuda_reformat(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                            const int8_t order[4], double fill) {
    static const int8_t identity[4] = {0, 1, 2, 3};
    pfi_cvt_sample *smp;
    pf_status st = pfi_cvt_make_samples("pf_reformat", count, src, dst, order ? order : identity, fill, 1, 1, 0,
                                        &smp);
    return st != PF_OK ? st : run_samples(s, "pf_reformat", count, src, dst, smp);
}

/* PF_NORM_MINMAX: per-image min/max reduction, then one thread per sample
 * turns it into the convertTo transform of the sample's element-map job,
 * then the element map: three launches, one parameter upload. */
static pf_status normalize_minmax(pf_stream *s, int count, const pf_image src[], const pf_image dst[],
                                  const pf_normalize_opts *o, pfi_cvt_sample *smp) {
    static const char op[] = "pf_normalize";
    pf_status st = check_aligned(op, count, src, dst);
    size_t sc1, sc2, bytes = pfi_gpu_cvt_bytes(count, &sc1) + pfi_gpu_minmax_bytes(count, &sc2);
    pfi_arena a;
    const pfk_cvt_batch *cb;
    const pfk_minmax_batch *mb;
    pfk_cvt_job *cjobs;
    pfi_grid cg, mg;
    if (st == PF_OK) st = pfi_cuda_arena_begin(s, op, bytes, sc1 + sc2, &a);
    if (st == PF_OK) st = pfi_gpu_cvt_build(&a, count, smp, &cb, &cg, &cjobs);
    free(smp);
    if (st == PF_OK) st = pfi_gpu_minmax_build(&a, count, src, o->lo, o->hi, cjobs, &mb, &mg);
    if (st == PF_OK) st = pfi_cuda_arena_submit(s, op, &a);
    if (st != PF_OK) return st;
    void *cs = pfi_cuda_stream(s);
    int e = pfi_cu_launch_minmax(cs, mb, mg);
    if (e == 0) e = pfi_cu_launch_minmax_finish(cs, mb, count);
    if (e == 0) e = pfi_cu_launch_cvt(cs, cb, cg);
    return pfi_cuda_launched(s, op, e);
}

pf_status pfi_cuda_normalize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                             const pf_normalize_opts *opts) {
    pf_normalize_opts o = opts ? *opts : pf_normalize_opts_defaults();
    pfi_cvt_sample *smp;
    pf_status st = pfi_norm_make_samples(count, src, dst, &o, &smp);
    if (st != PF_OK) return st;
    if (o.mode == PF_NORM_MINMAX) return normalize_minmax(s, count, src, dst, &o, smp);
    return run_samples(s, "pf_normalize", count, src, dst, smp);
}
