/* pf_cvt_color and pf_cvt_color_from_yuv on OpenCL: the shared job
 * builders (src/gpu/color_jobs.c, src/gpu/yuv_jobs.c) and one launch per
 * batch of the shared bodies (src/kernels/gpu_color.h, gpu_yuv.h) through
 * their entry wrappers (src/opencl/kernels/color.cl). */
#include "core/error.h"
#include "core/stream.h"
#include "gpu/color_jobs.h"
#include "gpu/gpu_check.h"
#include "gpu/yuv_jobs.h"
#include "opencl/cl_internal.h"

pf_status pfi_cl_cvt_color(pf_stream *s, int count, const pf_image src[], pf_image dst[], pf_color_code code,
                           const pf_color_opts *opts) {
    const char *op = "pf_cvt_color";
    (void)opts; /* the matrix/range options concern the 4:2:0 codes only */
    pf_status st = PF_OK;
    /* the bodies move u16/f32 elements as words: aligned views only, as on CUDA */
    for (int i = 0; i < count && st == PF_OK; i++) {
        st = pfi_gpu_check_aligned(op, "src", i, &src[i]);
        if (st == PF_OK) st = pfi_gpu_check_aligned(op, "dst", i, &dst[i]);
    }
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    if (st == PF_OK) st = pfi_cl_ptrs_add_images(&ps, op, count, src, dst, s->device);
    size_t scratch = 0, bytes = pfi_gpu_color_bytes(count, &scratch);
    pfi_arena a;
    const pfk_color_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_color_build(&a, count, src, dst, code, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_COLOR, "pfi_cl_color", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}

pf_status pfi_cl_cvt_color_from_yuv(pf_stream *s, int count, const pf_yuv src[], pf_image dst[], pf_color_code code,
                                    const pf_color_opts *opts) {
    const char *op = "pf_cvt_color_from_yuv";
    pfi_cl_ptrs ps;
    pfi_cl_ptrs_init(&ps);
    pf_status st = PF_OK;
    for (int i = 0; i < count && st == PF_OK; i++) {
        const pf_image *planes[4] = {&src[i].y, &src[i].uv, &src[i].u, &src[i].v};
        static const char *const names[4] = {"src.y", "src.uv", "src.u", "src.v"};
        for (int p = 0; p < 4 && st == PF_OK; p++)
            if (planes[p]->data != NULL) st = pfi_cl_ptrs_add_view(&ps, op, names[p], i, planes[p]->data, s->device);
        if (st == PF_OK) st = pfi_cl_ptrs_add_view(&ps, op, "dst", i, dst[i].data, s->device);
    }
    size_t scratch = 0, bytes = pfi_gpu_yuv_bytes(count, &scratch);
    pfi_arena a;
    const pfk_yuv_batch *b = NULL;
    pfi_grid g;
    if (st == PF_OK) st = pfi_cl_arena_begin(s, op, bytes, scratch, &a);
    if (st == PF_OK) st = pfi_gpu_yuv_build(&a, count, src, dst, code, opts, &b, &g);
    if (st == PF_OK) st = pfi_cl_arena_submit(s, op, &a);
    if (st == PF_OK) st = pfi_cl_launch(s, op, PFI_CL_PROG_COLOR, "pfi_cl_yuv", b, g, &a, &ps);
    pfi_cl_ptrs_free(&ps);
    return st;
}
