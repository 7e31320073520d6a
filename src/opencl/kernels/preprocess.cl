/* OpenCL entry points of pf_preprocess_run: the per-pixel body is
 * pfk_pp_at (src/kernels/gpu_preprocess.h), the code the CPU tests and
 * the CUDA kernels (src/cuda/preprocess_kernels.cu) run. A batch is one
 * launch, plus the contrast pre-pass before it when some sample has
 * contrast (its mean needs the whole canvas first), and for 4:2:0 frames
 * the conversion pass when some sample needs it. */

/* Contrast pre-pass, work-item (x, y, n): the 32 x 8 work-group
 * (pfi_cl_launch's fixed size) sums its canvas pixels' terms in local
 * memory (at most 256 * 255: 32 bits suffice inside a group), then adds
 * the group's sum to the sample's 64-bit total. Integer adds: the order
 * does not matter, the total is the CPU's exact sum. Every work-item
 * reaches both barriers (out-of-canvas items add 0). Compiled only where
 * the device has 64-bit atomics; the host refuses contrast elsewhere
 * (src/opencl/preprocess_opencl.c). */
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define PP_GROUP 256
__kernel void pfi_cl_pp_sum(__global const pfk_pp_batch *b) {
    __local uint32_t part[PP_GROUP];
    int32_t n = (int32_t)get_global_id(2);
    int lane = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
    part[lane] = pfk_pp_sum_at(b, n, (int32_t)get_global_id(0), (int32_t)get_global_id(1));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = PP_GROUP / 2; step > 0; step >>= 1) {
        if (lane < step) part[lane] += part[lane + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && part[0] != 0)
        atom_add((volatile __global ulong *)b->jobs[n].con_sum, (ulong)part[0]);
}
#endif

/* Main pass, work-item (x, y, n): output pixel (x, y) of sample n, every
 * channel. */
__kernel void pfi_cl_pp(__global const pfk_pp_batch *b) {
    pfk_pp_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}

/* pf_preprocess_run_yuv's conversion pass, work-item (x, y, n): pixel
 * (x, y) of sample n's crop rectangle decoded into scratch
 * (pfk_yuv_crop_at, src/kernels/gpu_yuv_crop.h), for the samples whose
 * sampler cannot convert its taps on the fly. */
__kernel void pfi_cl_pp_yuv_crop(__global const pfk_yuv_crop_batch *b) {
    pfk_yuv_crop_at(b, (int32_t)get_global_id(2), (int32_t)get_global_id(0), (int32_t)get_global_id(1));
}
