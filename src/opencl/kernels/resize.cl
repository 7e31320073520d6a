/* OpenCL entry point of pf_resize: work-item (x, y, n) calls the shared
 * body pfk_resize_at (src/kernels/gpu_resize.h) on the CPU plan's tables,
 * as pfi_cu_resize does in src/cuda/resize_kernels.cu. */

__kernel void pfi_cl_resize(__global const pfk_resize_batch *b) {
    pfk_resize_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
