# PIXFLOW_OPENCL=AUTO|ON|OFF. AUTO enables the OpenCL backend when the
# OpenCL headers and the ICD loader (libOpenCL, ocl-icd-opencl-dev on
# Debian) are found. pixflow links the loader, never a vendor library; the
# devices are whatever ICDs the machine has (PoCL in CI).
set(PF_WITH_OPENCL OFF)
if(NOT PIXFLOW_OPENCL STREQUAL "OFF")
  find_package(OpenCL QUIET)
  if(OpenCL_FOUND AND OpenCL_VERSION_MAJOR GREATER_EQUAL 2)
    set(PF_WITH_OPENCL ON)
  elseif(PIXFLOW_OPENCL STREQUAL "ON")
    message(FATAL_ERROR "PIXFLOW_OPENCL=ON but no OpenCL 2.0+ headers and ICD loader were found "
      "(Debian/Ubuntu: apt-get install ocl-icd-opencl-dev opencl-c-headers; a device: pocl-opencl-icd)")
  endif()
endif()
message(STATUS "pixflow: OpenCL backend ${PF_WITH_OPENCL}")

# The embedded programs: name and files (prelude, shared bodies in
# dependency order, entry wrappers). Every file is a dependency of the
# generated C file.
set(PF_OPENCL_PROGRAM_pointwise
  src/opencl/kernels/cl_prelude.h
  src/kernels/pf_hd.h
  src/kernels/gpu_flip.h
  src/opencl/kernels/pointwise.cl)
# the element map of pf_convert / pf_reformat / pf_normalize and the
# NORM_MINMAX reduction (fp64: the s32 -> s32 convertTo and the min-max
# coefficients compute in double, as OpenCV does)
set(PF_OPENCL_PROGRAM_convert
  src/opencl/kernels/cl_prelude.h
  src/opencl/kernels/cl_fp64.h
  include/pixflow/core.h@pf_dtype
  src/kernels/pf_hd.h
  src/kernels/convert_math.h
  src/kernels/gpu_convert.h
  src/kernels/gpu_minmax.h
  src/opencl/kernels/convert.cl)
# pf_cvt_color and pf_cvt_color_from_yuv (fp64: the f32 RGB -> HSV hue
# factor is computed in double, as OpenCV does)
set(PF_OPENCL_PROGRAM_color
  src/opencl/kernels/cl_prelude.h
  src/opencl/kernels/cl_fp64.h
  include/pixflow/core.h@pf_dtype
  src/kernels/pf_hd.h
  src/kernels/color_math.h
  src/kernels/gpu_color.h
  src/kernels/yuv_math.h
  src/kernels/gpu_yuv.h
  src/opencl/kernels/color.cl)
# pf_warp_affine / pf_warp_perspective (fp64: OpenCV's fixed-point source
# positions are rounded from double)
set(PF_OPENCL_PROGRAM_warp
  src/opencl/kernels/cl_prelude.h
  src/opencl/kernels/cl_fp64.h
  include/pixflow/core.h@pf_dtype
  include/pixflow/ops.h@pf_interp
  include/pixflow/ops.h@pf_border
  include/pixflow/ops.h@macro:PF_BORDER_TRANSPARENT
  src/kernels/pf_hd.h
  src/kernels/border_math.h
  src/kernels/gpu_mem.h
  src/kernels/resize_math.h
  src/kernels/warp_math.h
  src/kernels/gpu_warp.h
  src/opencl/kernels/warp.cl)
# pf_resize, every mode (the CPU plan's tables, uploaded per launch)
set(PF_OPENCL_PROGRAM_resize
  src/opencl/kernels/cl_prelude.h
  src/kernels/pf_hd.h
  src/kernels/gpu_mem.h
  src/kernels/resize_math.h
  src/kernels/gpu_resize.h
  src/opencl/kernels/resize.cl)
# pf_preprocess_run (fp64: the contrast mean is a double division, as on
# the CPU; the pre-pass's 64-bit sums need cl_khr_int64_base_atomics, which
# src/opencl/preprocess_opencl.c checks before a batch with contrast)
set(PF_OPENCL_PROGRAM_preprocess
  src/opencl/kernels/cl_prelude.h
  src/opencl/kernels/cl_fp64.h
  include/pixflow/core.h@pf_dtype
  include/pixflow/ops.h@pf_interp
  include/pixflow/ops.h@pf_border
  include/pixflow/ops.h@macro:PF_BORDER_TRANSPARENT
  include/pixflow/augment.h@anon:PF_JITTER_BRIGHTNESS
  src/kernels/pf_hd.h
  src/kernels/border_math.h
  src/kernels/gpu_mem.h
  src/kernels/resize_math.h
  src/kernels/gpu_resize.h
  src/kernels/warp_math.h
  src/kernels/gpu_warp.h
  src/kernels/yuv_math.h
  src/kernels/gpu_yuv_crop.h
  src/kernels/photo_math.h
  src/kernels/preprocess_chain.h
  src/kernels/gpu_preprocess.h
  src/opencl/kernels/preprocess.cl)
# pf_masks_from_logits and pf_composite (pixel-parallel post-processing)
set(PF_OPENCL_PROGRAM_post
  src/opencl/kernels/cl_prelude.h
  src/kernels/pf_hd.h
  src/kernels/mask_math.h
  src/kernels/gpu_post.h
  src/opencl/kernels/post.cl)
# pf_nms (fp64: OpenCV's overlap is computed in double, as OpenCV does)
set(PF_OPENCL_PROGRAM_nms
  src/opencl/kernels/cl_prelude.h
  src/opencl/kernels/cl_fp64.h
  include/pixflow/post.h@pf_box_format
  include/pixflow/post.h@pf_nms_semantics
  include/pixflow/post.h@pf_nms_classes
  src/kernels/pf_hd.h
  src/kernels/box_math.h
  src/kernels/nms_math.h
  src/kernels/gpu_nms.h
  src/opencl/kernels/nms.cl)
set(PF_OPENCL_PROGRAMS pointwise convert color warp resize preprocess post nms)

# The C files with the programs' sources, for PF_ALL_SOURCES.
function(pf_opencl_embedded_sources out)
  set(generated "")
  foreach(p IN LISTS PF_OPENCL_PROGRAMS)
    set(c "${CMAKE_CURRENT_BINARY_DIR}/opencl/cl_src_${p}.c")
    list(JOIN PF_OPENCL_PROGRAM_${p} "|" files)
    set(deps "")
    foreach(f IN LISTS PF_OPENCL_PROGRAM_${p})
      string(REGEX REPLACE "@.*$" "" f "${f}") # file@enum: the file
      list(APPEND deps "${CMAKE_CURRENT_SOURCE_DIR}/${f}")
    endforeach()
    add_custom_command(OUTPUT "${c}"
      COMMAND ${CMAKE_COMMAND} -DNAME=${p} -DOUT=${c} -DROOT=${CMAKE_CURRENT_SOURCE_DIR} "-DFILES=${files}"
        -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/opencl_embed.cmake
      DEPENDS ${deps} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/opencl_embed.cmake
      COMMENT "Embedding OpenCL program ${p}" VERBATIM)
    list(APPEND generated "${c}")
  endforeach()
  set(${out} ${generated} PARENT_SCOPE)
endfunction()
