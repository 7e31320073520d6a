# `pixflow bench post` (tools/pixflow/bench_post.c) and its OpenCV shim
# (bench/opencv_post.cpp: NMSBoxes needs the dnn module). Included after
# the CLI target is defined.
target_sources(pixflow_cli PRIVATE tools/pixflow/bench_post.c)
if(PF_HAVE_OPENCV)
  target_sources(pixflow_bench_opencv PRIVATE bench/opencv_post.cpp)
  target_link_libraries(pixflow_bench_opencv PUBLIC opencv_dnn)
endif()

# CUDA kernels of the post ops (src/cuda/post_kernels.cu) into the CUDA
# objects (the macro pf_add_cuda_objects made them before this file).
if(PF_WITH_CUDA)
  target_sources(pixflow_cuda_obj PRIVATE src/cuda/post_kernels.cu)
endif()
