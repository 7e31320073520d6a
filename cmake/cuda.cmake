# PIXFLOW_CUDA=AUTO|ON|OFF. AUTO enables CUDA when nvcc is found. The CUDA
# objects hold device code built from the shared src/kernels/ headers for
# sm_80 and sm_90, with -fmad=false so that GPU arithmetic equals the CPU
# reference bit for bit.
set(PF_WITH_CUDA OFF)
if(NOT PIXFLOW_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER)
    find_program(PF_NVCC nvcc PATHS /usr/local/cuda/bin NO_CACHE)
    if(PF_NVCC)
      set(CMAKE_CUDA_COMPILER ${PF_NVCC})
    endif()
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 90)
    endif()
    enable_language(CUDA)
    set(PF_WITH_CUDA ON)
  elseif(PIXFLOW_CUDA STREQUAL "ON")
    message(FATAL_ERROR "PIXFLOW_CUDA=ON but no CUDA compiler (nvcc) was found")
  endif()
endif()
message(STATUS "pixflow: CUDA backend ${PF_WITH_CUDA}")

macro(pf_add_cuda_objects)
  add_library(pixflow_cuda_obj OBJECT src/cuda/resize_kernels.cu src/cuda/pointwise_kernels.cu
    src/cuda/warp_kernels.cu src/cuda/preprocess_kernels.cu src/cuda/post_kernels.cu)
  target_include_directories(pixflow_cuda_obj PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include
    ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_compile_options(pixflow_cuda_obj PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-fmad=false -Xcompiler=-fvisibility=hidden -Werror=all-warnings>)
  set_target_properties(pixflow_cuda_obj PROPERTIES CUDA_SEPARABLE_COMPILATION OFF
    POSITION_INDEPENDENT_CODE ON)
  target_sources(pixflow PRIVATE $<TARGET_OBJECTS:pixflow_cuda_obj>)
  target_sources(pixflow_static PRIVATE $<TARGET_OBJECTS:pixflow_cuda_obj>)
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(pixflow PRIVATE CUDA::cudart_static)
  target_link_libraries(pixflow_static PUBLIC CUDA::cudart_static)
endmacro()
