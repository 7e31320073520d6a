/* Programs whose bodies compute in double (the s32 -> s32 convertTo, as
 * OpenCV does) need fp64: the backend refuses them, naming cl_khr_fp64,
 * on a device without it (src/opencl/cl_program_cache.c), rather than
 * compute something else. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
