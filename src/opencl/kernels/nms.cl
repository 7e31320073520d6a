/* OpenCL entry points of pf_nms (the sequence of src/kernels/gpu_nms.h,
 * as src/cuda/post_kernels.cu runs it). The per-item kernels take item
 * i = x + X * y of sample z (X: the NDRange's width; the host launches
 * 8 rows, so a 32 x 8 work-group covers 256 consecutive items). The sort
 * is pfk_nms_rank_at (no CUB here; unique keys, so the same order). */

#define PF_NMS_ITEM(NAME, BODY)                                                               \
    __kernel void NAME(__global const pfk_nms_batch *b) {                                     \
        BODY(b, (int32_t)get_global_id(2),                                                    \
             (int32_t)(get_global_id(0) + get_global_size(0) * get_global_id(1)));            \
    }

PF_NMS_ITEM(pfi_cl_nms_filter, pfk_nms_filter_at)
PF_NMS_ITEM(pfi_cl_nms_rank, pfk_nms_rank_at)
PF_NMS_ITEM(pfi_cl_nms_gather, pfk_nms_gather_at)
PF_NMS_ITEM(pfi_cl_nms_output, pfk_nms_output_at)
PF_NMS_ITEM(pfi_cl_nms_compact, pfk_nms_compact_at)

__kernel void pfi_cl_nms_segments(__global const pfk_nms_batch *b) {
    pfk_nms_segments_at(b, (int32_t)(get_global_id(0) + get_global_size(0) * get_global_id(1)));
}

__kernel void pfi_cl_nms_offsets(__global const pfk_nms_batch *b) {
    if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0) pfk_nms_offsets(b);
}

/* One 32 x 8 work-group per sample (group z), as pfi_cu_nms_select's
 * block: every work-item runs the same loop and each decision is reduced
 * over the group through local memory and barriers (the OR that
 * __syncthreads_or gives on CUDA, the shared sum of the per-class count),
 * so all work-items keep the same count and threshold. */
__kernel void pfi_cl_nms_select(__global const pfk_nms_batch *b) {
    __local int32_t same, any;
    int32_t n = (int32_t)get_group_id(2);
    if (n >= b->count) return;
    int32_t tid = (int32_t)(get_local_id(0) + get_local_size(0) * get_local_id(1));
    int32_t nt = (int32_t)(get_local_size(0) * get_local_size(1));
    int32_t m = pfk_nms_limit(b, n), nk = 0;
    float thr = b->thr_f;
    for (int32_t p = 0; p < m; p++) {
        if (b->max_out > 0 && nk >= b->max_out) break;
        if (b->max_per_class > 0) {
            if (tid == 0) same = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            int32_t c = pfk_nms_same_class(b, n, p, nk, tid, nt);
            if (c) atomic_add(&same, c);
            barrier(CLK_LOCAL_MEM_FENCE);
            int32_t full = same >= b->max_per_class;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (full) continue;
        }
        if (tid == 0) any = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (pfk_nms_partial(b, n, p, nk, tid, nt, thr)) atomic_or(&any, 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        int32_t sup = any;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!sup) {
            pfk_nms_keep(b, n, p, &nk, &thr, tid);
            barrier(CLK_GLOBAL_MEM_FENCE); /* the new kept entry is visible to the next check */
        }
    }
    if (tid == 0) b->nkept[n] = nk;
}
