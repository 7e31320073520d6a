/* pf_cvt_color_from_yuv GPU jobs: one per frame, the plane pointers and
 * strides the kernel body reads (see yuv_jobs.h). */
#include "gpu/yuv_jobs.h"

#include "core/error.h"
#include "ops/yuv_code.h"
#include "gpu/gpu_jobs.h"

size_t pfi_gpu_yuv_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_yuv_batch)) + pfi_arena_round((size_t)count * sizeof(pfk_yuv_job));
}

pf_status pfi_gpu_yuv_build(pfi_arena *a, int count, const pf_yuv src[], const pf_image dst[],
                            pf_color_code code, const pf_color_opts *opts,
                            const pfk_yuv_batch **dev_batch, pfi_grid *grid) {
    static const char fn[] = "pf_cvt_color_from_yuv";
    pfi_yuv_code c;
    if (!pfi_yuv_decode_code(code, &c))
        return pfi_fail(PF_ERR_INTERNAL, "%s: GPU job builder got code %d", fn, (int)code);
    void *dev_b, *dev_j;
    pfk_yuv_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    pfk_yuv_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &dev_j);
    if (b == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "%s: GPU parameter arena too small for %d frames", fn, count);
    pf_status st = pfi_yuv_check_opts(fn, opts, &b->k);
    if (st != PF_OK) return st;
    b->cn = c.cn;
    b->blue_first = c.blue_first;
    b->count = count;
    b->jobs = dev_j;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        const pf_yuv *f = &src[i];
        pfk_yuv_job *j = &jobs[i];
        j->y = f->y.data;
        j->y_stride = f->y.row_stride;
        j->width = f->y.width;
        j->height = f->y.height;
        j->dst = dst[i].data;
        j->dst_stride = dst[i].row_stride;
        if (c.kind == PFK_YUV_FRAME_SP) { /* U, V interleaved (V, U for NV21) */
            const uint8_t *uv = f->uv.data;
            j->u = uv + (c.swap_uv ? 1 : 0);
            j->v = uv + (c.swap_uv ? 0 : 1);
            j->u_stride = j->v_stride = f->uv.row_stride;
            j->c_step = 2;
        } else if (c.kind == PFK_YUV_FRAME_PLANAR) {
            j->u = f->u.data;
            j->v = f->v.data;
            j->u_stride = f->u.row_stride;
            j->v_stride = f->v.row_stride;
            j->c_step = 1;
        } else { /* GRAY: chroma never read */
            j->u = j->v = NULL;
            j->u_stride = j->v_stride = 0;
            j->c_step = 0;
        }
        pfi_grid_cover(grid, j->width, j->height);
    }
    *dev_batch = dev_b;
    return PF_OK;
}
