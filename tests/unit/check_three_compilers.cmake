# One kernel body, three compilers (ctest kernel_bodies_three_compilers):
# the shared bodies of src/kernels/gpu_*.h that every device backend uses
# are run as host C (the emulation tests), run as OpenCL C on the OpenCL
# device (PoCL in CI), and compiled by nvcc (compile only: no GPU needed),
# in one test. Run as
#   cmake -DROOT=<src> -DOUT=<dir> -DNVCC=<nvcc or empty>
#         -DHOST_TESTS=<exe seed|...> -DOPENCL_TESTS=<exe seed|...> -P check_three_compilers.cmake
# One seeded case per program keeps it short (the full runs are their own
# ctests). Skipped when nvcc is missing, except under CI=true, where that
# is a failure (tests/skip_policy.h's rule).
cmake_minimum_required(VERSION 3.25)

function(run_each label list)
  string(REPLACE "|" ";" runs "${list}")
  foreach(r IN LISTS runs)
    separate_arguments(cmd UNIX_COMMAND "${r}")
    execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "three compilers: ${label}: '${r}' failed (${rc}):\n${out}${err}")
    endif()
    string(REGEX MATCH "[^\n]*passed[^\n]*" line "${out}")
    message(STATUS "${label}: ${r}: ${line}")
  endforeach()
endfunction()

run_each("host C (emulated grid)" "${HOST_TESTS}")
run_each("OpenCL C (OpenCL device)" "${OPENCL_TESTS}")

if(NVCC STREQUAL "" OR NOT EXISTS "${NVCC}")
  if("$ENV{CI}" STREQUAL "true" OR "$ENV{CI}" STREQUAL "1")
    message(FATAL_ERROR "three compilers: no nvcc, and under CI=true a skip is a failure")
  endif()
  # ctest reports this line as a skip (SKIP_REGULAR_EXPRESSION)
  message(STATUS "three compilers: SKIPPED: no nvcc for the CUDA compile")
  return()
endif()
# The bodies the OpenCL programs use, as nvcc sees them from the .cu files.
file(MAKE_DIRECTORY "${OUT}")
file(WRITE "${OUT}/three_compilers_bodies.cu" "
extern \"C\" {
#include \"kernels/gpu_color.h\"
#include \"kernels/gpu_convert.h\"
#include \"kernels/gpu_flip.h\"
#include \"kernels/gpu_minmax.h\"
#include \"kernels/gpu_nms.h\"
#include \"kernels/gpu_post.h\"
#include \"kernels/gpu_resize.h\"
#include \"kernels/gpu_warp.h\"
#include \"kernels/gpu_yuv.h\"
}
__global__ void pft_flip(const pfk_flip_batch *b) {
    pfk_flip_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_cvt(const pfk_cvt_batch *b) {
    pfk_cvt_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
               (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_minmax(const pfk_minmax_batch *b) {
    int32_t lo, hi;
    if (pfk_minmax_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                      (int32_t)(blockIdx.y * blockDim.y + threadIdx.y), &lo, &hi)) {
        atomicMin(&b->jobs[blockIdx.z].keys[0], lo);
        atomicMax(&b->jobs[blockIdx.z].keys[1], hi);
    }
}
__global__ void pft_minmax_finish(const pfk_minmax_batch *b) {
    if (threadIdx.x < (unsigned)b->count) pfk_minmax_finish(b, (int32_t)threadIdx.x);
}
__global__ void pft_color(const pfk_color_batch *b) {
    pfk_color_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                 (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_resize(const pfk_resize_batch *b) {
    pfk_resize_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                  (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_warp(const pfk_warp_batch *b) {
    pfk_warp_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_logits(const pfk_logits_batch *b) {
    pfk_logits_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                  (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_composite(const pfk_composite_batch *b) {
    pfk_composite_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
                     (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
__global__ void pft_nms_rank(const pfk_nms_batch *b) {
    pfk_nms_rank_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x));
}
__global__ void pft_nms_gather(const pfk_nms_batch *b) {
    pfk_nms_gather_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x));
}
__global__ void pft_yuv(const pfk_yuv_batch *b) {
    pfk_yuv_at(b, (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x),
               (int32_t)(blockIdx.y * blockDim.y + threadIdx.y));
}
")
execute_process(COMMAND "${NVCC}" -c -arch=sm_80 -fmad=false -Werror all-warnings -I "${ROOT}/src" -I "${ROOT}/include"
                        "${OUT}/three_compilers_bodies.cu" -o "${OUT}/three_compilers_bodies.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "three compilers: nvcc failed (${rc}):\n${out}${err}")
endif()
message(STATUS "CUDA C++ (nvcc -c, sm_80): gpu_flip.h, gpu_convert.h, gpu_minmax.h, gpu_color.h, gpu_yuv.h, gpu_warp.h, gpu_resize.h, gpu_post.h, gpu_nms.h compiled")
