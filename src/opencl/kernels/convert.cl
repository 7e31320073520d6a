/* OpenCL entry points of the element map behind pf_convert, pf_reformat and
 * pf_normalize: work-item (x, y, n) calls the shared body pfk_cvt_at
 * (src/kernels/gpu_convert.h), as pfi_cu_cvt does in
 * src/cuda/pointwise_kernels.cu; PF_NORM_MINMAX first runs the shared
 * reduction bodies of src/kernels/gpu_minmax.h. */

__kernel void pfi_cl_cvt(__global const pfk_cvt_batch *b) {
    pfk_cvt_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}

/* Min/max keys of sample n: each work-group (the fixed 32 x 8 of
 * pfi_cl_launch, so 256 items) folds its items' keys in local memory, then
 * item 0 updates the sample's keys with atomic_min / atomic_max (OpenCL
 * 1.2 core on 32-bit __global ints). CUDA reduces a warp with shuffles
 * instead; min/max are exact, so any order gives the same keys. */
#define PFI_CL_MINMAX_GROUP 256
__kernel void pfi_cl_minmax(__global const pfk_minmax_batch *b) {
    __local int32_t lmin[PFI_CL_MINMAX_GROUP], lmax[PFI_CL_MINMAX_GROUP];
    int32_t n = (int32_t)get_global_id(2), lo, hi;
    if (!pfk_minmax_at(b, n, (int32_t)get_global_id(0), (int32_t)get_global_id(1), &lo, &hi)) {
        lo = INT32_MAX;
        hi = INT32_MIN;
    }
    int l = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
    int size = (int)(get_local_size(0) * get_local_size(1));
    lmin[l] = lo;
    lmax[l] = hi;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = size / 2; off > 0; off >>= 1) {
        if (l < off) {
            lmin[l] = min(lmin[l], lmin[l + off]);
            lmax[l] = max(lmax[l], lmax[l + off]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0 && lmin[0] <= lmax[0]) {
        (void)atomic_min(&b->jobs[n].keys[0], lmin[0]);
        (void)atomic_max(&b->jobs[n].keys[1], lmax[0]);
    }
}

/* One work-item per sample (x of a count-wide grid): the keys become the
 * sample's convertTo transform. */
__kernel void pfi_cl_minmax_finish(__global const pfk_minmax_batch *b) {
    int32_t n = (int32_t)get_global_id(0);
    if (get_global_id(1) == 0 && n < b->count) pfk_minmax_finish(b, n);
}
