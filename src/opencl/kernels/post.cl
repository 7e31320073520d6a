/* OpenCL entry points of the pixel-parallel post-processing ops: work-item
 * (x, y, n) calls the shared body (src/kernels/gpu_post.h), as
 * pfi_cu_logits / pfi_cu_composite do in src/cuda/post_kernels.cu. */

__kernel void pfi_cl_logits(__global const pfk_logits_batch *b) {
    pfk_logits_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}

__kernel void pfi_cl_composite(__global const pfk_composite_batch *b) {
    pfk_composite_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
