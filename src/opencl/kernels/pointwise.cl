/* OpenCL entry points of the pointwise ops: each __kernel is a thin
 * wrapper, like the __global functions of src/cuda/pointwise_kernels.cu:
 * work-item (x, y, n) of the 3-D NDRange (x along a row, so a work-group
 * reads consecutive pixels) calls the shared body pfk_X_at, the same C the
 * CPU emulation tests run. The batch is an SVM pointer into the launch's
 * parameter arena (src/opencl/cl_launch.c). */

__kernel void pfi_cl_flip(__global const pfk_flip_batch *b) {
    pfk_flip_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
