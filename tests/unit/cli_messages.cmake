# What a newcomer reads from the CLI is true, and a dead pipeline ends
# `pixflow run` with exit 1 naming the cause (it used to loop forever):
#  - every subcommand answers --help (exit 0, usage on stdout);
#  - `pixflow info` with no PIXFLOW_CPU says "isa cap: none";
#  - a folder of non-images: "every sample failed" (skip policy);
#  - one non-image under --on-error fail: "a batch failed", naming it;
#  - --device cpu with a staging pool too small for one batch:
#    "config.staging_bytes".
# Each run has a timeout, so a CLI that hangs fails this test.
function(run_expect name rc_want regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT "${rc}" STREQUAL "${rc_want}")
    message(FATAL_ERROR "${name}: exit ${rc}, want ${rc_want}\nstdout: ${out}\nstderr: ${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "${name}: output does not match '${regex}'\nstdout: ${out}\nstderr: ${err}")
  endif()
  message(STATUS "${name}: exit ${rc}, matched '${regex}'")
endfunction()

foreach(cmd run info bench recipe)
  run_expect("${cmd} --help" 0 "usage: pixflow ${cmd}" "${PIXFLOW}" ${cmd} --help)
endforeach()
run_expect("help" 0 "Every command takes --help" "${PIXFLOW}" help)
run_expect("info cap" 0 "isa cap: none, active: " ${CMAKE_COMMAND} -E env --unset=PIXFLOW_CPU "${PIXFLOW}" info)
run_expect("info bad cap" 0 "PIXFLOW_CPU=fast is not one of" ${CMAKE_COMMAND} -E env PIXFLOW_CPU=fast "${PIXFLOW}" info)

set(junk "${WORK}/cli_junk")
set(mixed "${WORK}/cli_mixed")
file(REMOVE_RECURSE "${junk}" "${mixed}")
foreach(i 1 2 3 4)
  file(WRITE "${junk}/a/not_an_image_${i}.jpg" "hello\n")
endforeach()
file(GLOB photos "${DATA}/*.jpg")
file(COPY ${photos} DESTINATION "${mixed}/a")
file(WRITE "${mixed}/a/zz_not_an_image.jpg" "hello\n")

run_expect("all samples bad" 1 "the pipeline stopped: .*every sample failed.*unknown image format"
           "${PIXFLOW}" run "${junk}" --quiet --epochs 3)
run_expect("fail policy" 1 "a batch failed: .*zz_not_an_image.jpg.*unknown image format"
           "${PIXFLOW}" run "${mixed}" --quiet --batch 4 --on-error fail)
run_expect("skip policy" 0 "skipped: .*zz_not_an_image.jpg" "${PIXFLOW}" run "${mixed}" --quiet --batch 4)
run_expect("staging too small" 1 "the pipeline stopped: .*config.staging_bytes"
           "${PIXFLOW}" run "${DATA}" --quiet --device cpu --staging-mb 1 --recipe imagenet-eval --batch 8)
run_expect("--staging-mb without --device" 2 "needs --device" "${PIXFLOW}" run "${DATA}" --staging-mb 4)
run_expect("bad --on-error" 2 "use skip or fail" "${PIXFLOW}" run "${DATA}" --on-error maybe)
file(REMOVE_RECURSE "${junk}" "${mixed}")
