/* GPU warp jobs: per-sample parameters for the kernel body in
 * kernels/gpu_warp.h, built with the CPU path's own matrix inversion and
 * border-value saturation (ops/warp_matrix.h). */
#include <string.h>

#include "core/error.h"
#include "ops/warp_matrix.h"
#include "gpu/warp_jobs.h"
#include "gpu/gpu_jobs.h"

pf_status pfi_gpu_warp_job_fill(pfi_arena *a, const pf_image *src, int32_t dst_w, int32_t dst_h,
                                const double *m_inverse, int perspective, const pf_warp_opts *opts,
                                pfk_warp_job *job) {
    (void)a; /* weights are recomputed per pixel: nothing to stage */
    memset(job, 0, sizeof *job);
    job->src = (const uint8_t *)src->data;
    job->src_row = src->row_stride;
    job->src_plane = pfi_gpu_plane_stride(src);
    job->src_w = src->width;
    job->src_h = src->height;
    job->dst_w = dst_w;
    job->dst_h = dst_h;
    job->cn = pfi_gpu_plane_cn(src);
    job->planes = pfi_gpu_planes(src);
    job->dtype = (int32_t)src->dtype;
    job->esize = (int32_t)pf_dtype_size(src->dtype);
    job->interp = (int32_t)opts->interp;
    job->border = (int32_t)opts->border;
    job->perspective = perspective != 0;
    job->persp_bw = perspective ? pfk_persp_block_w(dst_w, dst_h) : 0;
    memcpy(job->m, m_inverse, (perspective ? 9 : 6) * sizeof(double));
    if (!perspective) job->m[6] = 0, job->m[7] = 0, job->m[8] = 1;
    for (int32_t c = 0; c < src->channels && c < 4; c++)
        pfi_warp_cval_store(src->dtype, opts->border_value[c], (uint8_t *)&job->cval + (size_t)c * (size_t)job->esize);
    return PF_OK;
}

size_t pfi_gpu_warp_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round((size_t)count * sizeof(pfk_warp_job)) + pfi_arena_round(sizeof(pfk_warp_batch));
}

pf_status pfi_gpu_warp_build(pfi_arena *a, const char *op, int perspective, int count, const pf_image src[],
                             const pf_image dst[], const double matrices[], int nmatrices, const pf_warp_opts *opts,
                             const pfk_warp_batch **dev_batch, pfi_grid *grid) {
    void *jobs_dev, *batch_dev;
    pfk_warp_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &jobs_dev);
    pfk_warp_batch *batch = pfi_arena_take(a, sizeof *batch, 16, &batch_dev);
    if (jobs == NULL || batch == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "%s: GPU parameter arena too small for %d samples", op, count);
    int nm = perspective ? 9 : 6;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        int mi = nmatrices == 1 ? 0 : i;
        double m[9];
        pf_status st = pfi_warp_dst_to_src(op, perspective, matrices + (size_t)mi * (size_t)nm, mi, opts->flags, m);
        if (st != PF_OK) return st;
        pfi_gpu_warp_job_fill(a, &src[i], dst[i].width, dst[i].height, m, perspective, opts, &jobs[i]);
        jobs[i].dst = (uint8_t *)dst[i].data;
        jobs[i].dst_row = dst[i].row_stride;
        jobs[i].dst_plane = pfi_gpu_plane_stride(&dst[i]);
        pfi_grid_cover(grid, dst[i].width, dst[i].height);
    }
    batch->count = count;
    batch->jobs = jobs_dev;
    *dev_batch = batch_dev;
    return PF_OK;
}

int pfi_gpu_warp_variant(int count, const pf_image src[], const pf_warp_opts *opts) {
    int u8 = 0;
    for (int i = 0; i < count; i++) u8 += src[i].dtype == PF_U8;
    if (u8 != 0 && u8 != count) return -1;
    return (int)opts->interp * 2 + (u8 != 0);
}
