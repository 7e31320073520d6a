# `pixflow run data --device opencl:0 --seed S --out D` writes the same
# .npy batches, byte for byte, as `--device cpu` and as no --device, for
# each recipe the CLI offers (imagenet-train: RRC + flip; its torchvision
# flavour: antialiased resize; imagenet-eval: resize + centre crop; yolo:
# letterbox), on the photos of data/ (JPEG ROI decode, 1920x1080 images).
# Colour jitter is not a CLI option; tests/opencl/test_opencl_pipeline.c
# runs it through the same device stage. Without an OpenCL device the test
# says SKIPPED, except under CI=true (CI installs PoCL): there it fails.
execute_process(COMMAND "${PIXFLOW}" info OUTPUT_VARIABLE info RESULT_VARIABLE ri)
if(NOT info MATCHES "\n  opencl 0: ")
  if("$ENV{CI}" MATCHES "^(1|true|TRUE|yes)$")
    message(FATAL_ERROR "cli_run_opencl: FAILED: CI=true and `pixflow info` lists no OpenCL device 0 "
                        "(a skip is a failure in CI):\n${info}")
  endif()
  message(STATUS "cli_run_opencl: SKIPPED: no OpenCL device 0 (`pixflow info`)")
  return()
endif()

function(run_to dir)
  file(REMOVE_RECURSE "${dir}")
  execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --quiet --epochs 1 --workers 2 --out "${dir}" ${ARGN}
                  RESULT_VARIABLE r OUTPUT_QUIET ERROR_VARIABLE e)
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "pixflow run ${ARGN} failed (exit ${r}): ${e}")
  endif()
endfunction()

function(same_batches a b what)
  file(GLOB fa RELATIVE "${a}" "${a}/*.npy")
  file(GLOB fb RELATIVE "${b}" "${b}/*.npy")
  list(LENGTH fa na)
  if(na EQUAL 0 OR NOT "${fa}" STREQUAL "${fb}")
    message(FATAL_ERROR "${what}: different batch files: [${fa}] vs [${fb}]")
  endif()
  foreach(f ${fa})
    file(SHA256 "${a}/${f}" ha)
    file(SHA256 "${b}/${f}" hb)
    if(NOT ha STREQUAL hb)
      message(FATAL_ERROR "${what}: ${f} differs")
    endif()
  endforeach()
  set(nbatches ${na} PARENT_SCOPE)
endfunction()

# recipe, batch, seed
set(cases "imagenet-train|5|7" "imagenet-train-torchvision|4|11" "imagenet-eval|6|3" "yolo|4|5")
foreach(case ${cases})
  string(REPLACE "|" ";" f "${case}")
  list(GET f 0 recipe)
  list(GET f 1 batch)
  list(GET f 2 seed)
  set(base "${WORK}/cli_run_opencl_${recipe}")
  set(args --recipe ${recipe} --batch ${batch} --seed ${seed})
  run_to("${base}_default" ${args})
  run_to("${base}_cpu" ${args} --device cpu)
  run_to("${base}_opencl" ${args} --device opencl:0)
  same_batches("${base}_default" "${base}_opencl" "${recipe}: no --device vs --device opencl:0")
  same_batches("${base}_cpu" "${base}_opencl" "${recipe}: --device cpu vs --device opencl:0")
  message(STATUS "${recipe} (seed ${seed}, batch ${batch}): ${nbatches} batches identical on opencl:0, cpu and no --device")
  file(REMOVE_RECURSE "${base}_default" "${base}_cpu" "${base}_opencl")
endforeach()

# a device index that does not exist: exit 2 naming the count
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --quiet --device opencl:7 RESULT_VARIABLE r ERROR_VARIABLE e OUTPUT_QUIET)
if(NOT r EQUAL 2 OR NOT e MATCHES "--device opencl:7: .*OpenCL device")
  message(FATAL_ERROR "--device opencl:7: rc ${r}, stderr: ${e}")
endif()
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --quiet --device opencl: RESULT_VARIABLE r ERROR_VARIABLE e OUTPUT_QUIET)
if(NOT r EQUAL 2 OR NOT e MATCHES "the index must be 0..63")
  message(FATAL_ERROR "--device opencl: (no index): rc ${r}, stderr: ${e}")
endif()
