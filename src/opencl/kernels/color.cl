/* OpenCL entry points of pf_cvt_color and pf_cvt_color_from_yuv: work-item
 * (x, y, n) calls the shared bodies pfk_color_at (src/kernels/gpu_color.h)
 * and pfk_yuv_at (src/kernels/gpu_yuv.h), as pfi_cu_color / pfi_cu_yuv
 * do in src/cuda/pointwise_kernels.cu. */

__kernel void pfi_cl_color(__global const pfk_color_batch *b) {
    pfk_color_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}

__kernel void pfi_cl_yuv(__global const pfk_yuv_batch *b) {
    pfk_yuv_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
