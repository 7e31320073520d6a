/* pf_flip GPU jobs: per sample, the flip axes and the copy unit. */
#include "gpu/flip_jobs.h"

#include "core/error.h"
#include "gpu/gpu_jobs.h"

size_t pfi_gpu_flip_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_flip_batch)) + pfi_arena_round((size_t)count * sizeof(pfk_flip_job));
}

/* Widest power of two <= 8 dividing every value (the pixel size, the
 * addresses, the strides): the unit the kernel can move aligned. */
static int32_t copy_unit(const uint64_t v[], int n) {
    uint64_t all = 8;
    for (int i = 0; i < n; i++) all |= v[i];
    return (int32_t)(all & (~all + 1)); /* lowest set bit */
}

pf_status pfi_gpu_flip_build(pfi_arena *a, int count, const pf_image src[], const pf_image dst[],
                             const pf_flip_code codes[], int ncodes, const pfk_flip_batch **dev_batch,
                             pfi_grid *grid) {
    void *dev_b, *dev_j;
    pfk_flip_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    pfk_flip_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &dev_j);
    if (b == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "pf_flip: GPU parameter arena too small for %d samples", count);
    b->count = count;
    b->jobs = dev_j;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        const pf_image *s = &src[i], *d = &dst[i];
        pfk_flip_job *j = &jobs[i];
        pf_flip_code c = codes[ncodes == 1 ? 0 : i];
        int32_t px = (int32_t)pf_dtype_size(s->dtype) * pfi_gpu_plane_cn(s);
        j->src = s->data;
        j->dst = d->data;
        j->src_stride = s->row_stride;
        j->dst_stride = d->row_stride;
        j->src_plane = pfi_gpu_plane_stride(s);
        j->dst_plane = pfi_gpu_plane_stride(d);
        j->width = d->width;
        j->height = d->height;
        j->planes = pfi_gpu_planes(s);
        uint64_t v[7] = {(uint64_t)px, (uint64_t)(uintptr_t)s->data, (uint64_t)(uintptr_t)d->data,
                         (uint64_t)s->row_stride, (uint64_t)d->row_stride, (uint64_t)j->src_plane,
                         (uint64_t)j->dst_plane};
        j->unit = copy_unit(v, 7);
        j->units = px / j->unit;
        j->flip_x = c == PF_FLIP_HORIZONTAL || c == PF_FLIP_BOTH;
        j->flip_y = c == PF_FLIP_VERTICAL || c == PF_FLIP_BOTH;
        pfi_grid_cover(grid, j->width, j->height);
    }
    *dev_batch = dev_b;
    return PF_OK;
}
