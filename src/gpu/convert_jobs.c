/* Element-map GPU jobs: each sample's channel pointers and byte steps
 * (the CPU engine's chan_ptr rule, convert_exec.c) and its transform. */
#include "gpu/convert_jobs.h"

#include <string.h>

#include "core/error.h"
#include "gpu/gpu_jobs.h"

size_t pfi_gpu_cvt_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_cvt_batch)) + pfi_arena_round((size_t)count * sizeof(pfk_cvt_job));
}

/* Row-0 address, row stride and element step (bytes) of channel ch. */
static const uint8_t *channel(const pf_image *im, int ch, ptrdiff_t *stride, int32_t *step) {
    int32_t es = (int32_t)pf_dtype_size(im->dtype);
    *stride = im->row_stride;
    if (im->layout == PF_HWC || im->channels == 1) {
        *step = es * im->channels;
        return (const uint8_t *)im->data + (ptrdiff_t)ch * es;
    }
    *step = es;
    return (const uint8_t *)im->data + (ptrdiff_t)ch * im->plane_stride;
}

pf_status pfi_gpu_cvt_build(pfi_arena *a, int count, const pfi_cvt_sample smp[],
                            const pfk_cvt_batch **dev_batch, pfi_grid *grid, pfk_cvt_job **dev_jobs) {
    void *dev_b, *dev_j;
    pfk_cvt_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    pfk_cvt_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &dev_j);
    if (b == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "element map: GPU parameter arena too small for %d samples", count);
    b->count = count;
    b->jobs = dev_j;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        const pfi_cvt_sample *s = &smp[i];
        pfk_cvt_job *j = &jobs[i];
        memset(j, 0, sizeof *j);
        j->dcn = s->dcn;
        j->width = s->width;
        j->height = s->height;
        for (int c = 0; c < s->dcn; c++) {
            if (s->sim[c] != NULL) j->src[c] = channel(s->sim[c], s->sch[c], &j->src_stride[c], &j->src_step[c]);
            j->dst[c] = (uint8_t *)channel(s->dim[c], s->dch[c], &j->dst_stride[c], &j->dst_step[c]);
        }
        const pfi_cvt_xform *x = &s->xf;
        j->xf.kind = x->kind;
        j->xf.sdt = x->sdt;
        j->xf.ddt = x->ddt;
        j->xf.noscale = x->noscale;
        j->xf.dbl = x->dbl;
        j->xf.alpha = x->alpha;
        j->xf.beta = x->beta;
        j->xf.alpha_d = x->alpha_d;
        j->xf.beta_d = x->beta_d;
        j->xf.scale = x->scale;
        memcpy(j->xf.mean, x->mean, sizeof j->xf.mean);
        memcpy(j->xf.stdv, x->stdv, sizeof j->xf.stdv);
        memcpy(j->xf.fill, x->fill, sizeof j->xf.fill);
        pfi_grid_cover(grid, j->width, j->height);
    }
    *dev_batch = dev_b;
    if (dev_jobs) *dev_jobs = dev_j;
    return PF_OK;
}

size_t pfi_gpu_minmax_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_minmax_batch)) + pfi_arena_round((size_t)count * sizeof(pfk_minmax_job)) +
           pfi_arena_round((size_t)count * 2 * sizeof(int32_t));
}

pf_status pfi_gpu_minmax_build(pfi_arena *a, int count, const pf_image src[], double lo, double hi,
                               pfk_cvt_job *cvt_jobs, const pfk_minmax_batch **dev_batch, pfi_grid *grid) {
    void *dev_b, *dev_j, *dev_k;
    pfk_minmax_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    pfk_minmax_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &dev_j);
    int32_t *keys = pfi_arena_take(a, (size_t)count * 2 * sizeof(int32_t), 16, &dev_k);
    if (b == NULL || jobs == NULL || keys == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "pf_normalize: GPU parameter arena too small for %d samples", count);
    b->count = count;
    b->lo = lo;
    b->hi = hi;
    b->jobs = dev_j;
    b->cvt_jobs = cvt_jobs;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        const pf_image *s = &src[i];
        pfk_minmax_job *j = &jobs[i];
        j->src = s->data;
        j->row_stride = s->row_stride;
        j->plane_stride = pfi_gpu_plane_stride(s);
        j->width = s->width;
        j->height = s->height;
        j->planes = pfi_gpu_planes(s);
        j->cn = pfi_gpu_plane_cn(s);
        j->dtype = s->dtype;
        keys[2 * i] = INT32_MAX; /* the upload initializes the reduction */
        keys[2 * i + 1] = INT32_MIN;
        j->keys = (int32_t *)dev_k + 2 * i;
        pfi_grid_cover(grid, j->width, j->height);
    }
    *dev_batch = dev_b;
    return PF_OK;
}
