# Post-processing room (src/post, include/pixflow/post.h): NMS, boxes,
# detector heads, masks, regions, compositing. Included by the top-level
# CMakeLists.txt after the x86 block (PF_ARCH_X86 is known here).
set(PF_POST_SOURCES
  src/post/post_sort.c
  src/post/post_ref.c
  src/post/post_dispatch.c
  src/post/nms_api.c
  src/post/nms_prep.c
  src/post/nms_greedy.c
  src/post/nms_grid.c
  src/post/nms_soft.c
  src/post/boxes.c
  src/post/box_iou.c
  src/post/heads.c
  src/post/masks.c
  src/post/composite.c
  src/post/draw.c
  src/post/components.c
  src/post/contours.c
  src/post/min_area_rect.c
  src/post/fill_poly.c)
# ISA translation units of the post kernels, reached only through the
# room's dispatch (post_dispatch.c calls a fill after CPUID).
set(PF_POST_X86_SOURCES
  src/post/x86/post_avx2.c
  src/post/x86/post_avx512.c)
# GPU job builders of the post ops: plain C, always compiled (the CPU
# emulation tests run them with the src/kernels/gpu_*.h kernel bodies).
list(APPEND PF_POST_SOURCES src/cuda/post_jobs.c)
list(APPEND PF_ALL_SOURCES ${PF_POST_SOURCES})
# the CUDA device ops (C against the CUDA runtime), CUDA builds only
if(PF_WITH_CUDA)
  list(APPEND PF_ALL_SOURCES src/cuda/post_cuda.c)
endif()
if(PF_ARCH_X86)
  list(APPEND PF_ALL_SOURCES ${PF_POST_X86_SOURCES})
  set_source_files_properties(src/post/x86/post_avx2.c PROPERTIES COMPILE_OPTIONS "-mavx2")
  set_source_files_properties(src/post/x86/post_avx512.c PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512vl")
endif()
