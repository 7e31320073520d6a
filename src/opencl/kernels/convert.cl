/* OpenCL entry point of the element map behind pf_convert, pf_reformat and
 * pf_normalize (mean/std): work-item (x, y, n) calls the shared body
 * pfk_cvt_at (src/kernels/gpu_convert.h), as pfi_cu_cvt does in
 * src/cuda/pointwise_kernels.cu. */

__kernel void pfi_cl_cvt(__global const pfk_cvt_batch *b) {
    pfk_cvt_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
