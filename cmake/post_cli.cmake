# `pixflow bench post` (tools/pixflow/bench_post.c) and its OpenCV shim
# (bench/opencv_post.cpp: NMSBoxes needs the dnn module). Included after
# the CLI target is defined.
target_sources(pixflow_cli PRIVATE tools/pixflow/bench_post.c)
if(PF_HAVE_OPENCV)
  target_sources(pixflow_bench_opencv PRIVATE bench/opencv_post.cpp)
  target_link_libraries(pixflow_bench_opencv PUBLIC opencv_dnn)
endif()
