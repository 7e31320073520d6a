/*
 * pf_preprocess_run and pf_preprocess_run_yuv: where the call runs (from
 * the first source and the tensor, then every view), the whole-batch
 * checks, and the backend's entry (CPU: src/cpu/preprocess_run.c,
 * preprocess_yuv_cpu.c; CUDA: src/cuda/preprocess_cuda.c; OpenCL:
 * src/opencl/preprocess_opencl.c).
 */
#include <stdlib.h>

#include "augment/preprocess_plan.h"
#include "core/backend.h"
#include "core/error.h"
#include "pixflow/video.h"

#define OP PFI_PP_OP
#define YUV_OP "pf_preprocess_run_yuv"

/* Where the call runs, from views src[0 .. nsrc) and dst (host: *be
 * NULL). The backend is picked from src[0] and dst before validation
 * (which must not read src[] past what dst->n allows); all the views are
 * checked against each other after it. */
static pf_status route(pf_stream *stream, int nsrc, const pf_image src[], const pf_tensor *dst,
                       const pfi_backend **be, pf_stream **s) {
    pfi_view_ref local[16] = {{PF_MEM_HOST, 0, NULL, 0}}, *v = local;
    int n = (src != NULL && nsrc > 0 ? nsrc : 0) + (dst != NULL);
    if (n > (int)(sizeof local / sizeof local[0]) && (v = malloc((size_t)n * sizeof *v)) == NULL)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d views", n);
    int k = 0;
    for (int i = 0; src != NULL && i < nsrc; i++) v[k++] = (pfi_view_ref){src[i].mem, src[i].device, "src", i};
    if (dst != NULL) v[k++] = (pfi_view_ref){dst->mem, dst->device, "dst", -1};
    pf_status st = pfi_route(OP, stream, v, k, be, s);
    if (v != local) free(v);
    return st;
}

pf_status pf_preprocess_run(pf_preprocess_plan *plan, pf_stream *stream, int count, const pf_image src[],
                            const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    pfi_clear_error();
    const pfi_backend *be = NULL;
    pf_stream *s = stream;
    pf_status st = route(stream, count > 0 ? 1 : 0, src, dst, &be, &s);
    if (st != PF_OK) return st;
    if (be != NULL) { /* device views: the same checks but for where memory lives */
        st = pfi_pp_check_device(plan, count, src, params, dst);
        if (st == PF_OK && count > 0) st = route(stream, count, src, dst, &be, &s);
    } else {
        st = pfi_pp_check(plan, count, src, params, dst);
    }
    if (st != PF_OK || count == 0) return st;
    return PFI_KERNEL(be, OP, preprocess, plan, s, count, src, params, dst, info);
}

pf_status pf_preprocess_run_yuv(pf_preprocess_plan *plan, pf_stream *stream, int count, const pf_yuv src[],
                                const pf_color_code codes[], const pf_color_opts opts[],
                                const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    pfi_clear_error();
    /* where it runs: from src[0].y and dst (every plane is checked against
     * src[0].y's memory below) */
    const pfi_backend *be = NULL;
    pf_stream *s = stream;
    pfi_view_ref v[2] = {{PF_MEM_HOST, 0, "src[0].y", -1}, {PF_MEM_HOST, 0, "dst", -1}};
    int nv = 0;
    if (src != NULL && count > 0) v[nv++] = (pfi_view_ref){src[0].y.mem, src[0].y.device, "src[0].y", -1};
    if (dst != NULL) v[nv++] = (pfi_view_ref){dst->mem, dst->device, "dst", -1};
    pf_status st = pfi_route(YUV_OP, stream, v, nv, &be, &s);
    if (st != PF_OK) return st;
    pf_image *shapes = NULL;
    st = pfi_pp_yuv_check(plan, count, src, codes, opts, params, dst, be == NULL, &shapes);
    free(shapes);
    if (st != PF_OK || count == 0) return st;
    return PFI_KERNEL(be, YUV_OP, preprocess_yuv, plan, s, count, src, codes, opts, params, dst, info);
}
