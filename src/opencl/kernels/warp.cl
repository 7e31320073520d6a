/* OpenCL entry point of pf_warp_affine / pf_warp_perspective: work-item
 * (x, y, n) calls the shared body pfk_warp_at (src/kernels/gpu_warp.h),
 * which reads interpolation and dtype from the sample's job (the CUDA
 * launcher picks a kernel specialised per batch instead; same body, same
 * bits). */

__kernel void pfi_cl_warp(__global const pfk_warp_batch *b) {
    pfk_warp_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
