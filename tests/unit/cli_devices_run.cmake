# `pixflow run --devices cpu,opencl:0` and `--devices auto` (the device
# stage's preprocess spread over the devices by pf_dispatch) write the same
# batches, bit for bit, as `--device cpu` for the same seed, and the run
# prints each device's share; so do `--dispatch-rules geometry=opencl:0,
# pointwise=cpu` and the reverse (each sample's chain split over the two:
# the table says so); bad --devices / --dispatch-rules values are usage
# errors.
set(ref "${WORK}/cli_devices_ref")
file(REMOVE_RECURSE "${ref}")
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --epochs 2 --batch 4 --workers 2 --seed 11 --quiet --out "${ref}"
                --device cpu RESULT_VARIABLE r0 OUTPUT_QUIET)
if(NOT r0 EQUAL 0)
  message(FATAL_ERROR "pixflow run --device cpu failed: ${r0}")
endif()
file(GLOB fref RELATIVE "${ref}" "${ref}/*.npy")
list(LENGTH fref nref)
if(nref EQUAL 0)
  message(FATAL_ERROR "pixflow run --device cpu wrote no batches")
endif()
foreach(list "cpu,opencl:0" "auto")
  string(REPLACE "," "_" tag "${list}")
  string(REPLACE ":" "" tag "${tag}")
  set(out "${WORK}/cli_devices_${tag}")
  file(REMOVE_RECURSE "${out}")
  execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --epochs 2 --batch 4 --workers 2 --seed 11 --quiet --out "${out}"
                  --devices "${list}" RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "pixflow run --devices ${list} failed (${r}): ${e}")
  endif()
  file(GLOB f RELATIVE "${out}" "${out}/*.npy")
  if(NOT "${f}" STREQUAL "${fref}")
    message(FATAL_ERROR "--devices ${list}: different batch files: [${f}] vs [${fref}]")
  endif()
  foreach(x ${f})
    file(SHA256 "${ref}/${x}" ha)
    file(SHA256 "${out}/${x}" hb)
    if(NOT ha STREQUAL hb)
      message(FATAL_ERROR "${x} differs between --device cpu and --devices ${list}")
    endif()
  endforeach()
  # the stage table's per-device shares: samples and percent per device
  if(NOT o MATCHES "\ncpu +[0-9]+ +[0-9.]+% " OR NOT o MATCHES "\nopencl:0 +[0-9]+ +[0-9.]+% "
     OR NOT o MATCHES "dispatcher: [0-9]+ batches, overhead")
    message(FATAL_ERROR "--devices ${list}: no per-device shares in the output:\n${o}")
  endif()
endforeach()
foreach(rules "geometry=opencl:0,pointwise=cpu" "geometry=cpu,pointwise=opencl:0")
  string(REGEX REPLACE "[=,:]" "_" tag "${rules}")
  set(out "${WORK}/cli_rules_${tag}")
  file(REMOVE_RECURSE "${out}")
  execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --epochs 2 --batch 4 --workers 2 --seed 11 --quiet --out "${out}"
                  --devices cpu,opencl:0 --dispatch-rules "${rules}" RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "pixflow run --dispatch-rules ${rules} failed (${r}): ${e}")
  endif()
  file(GLOB f RELATIVE "${out}" "${out}/*.npy")
  if(NOT "${f}" STREQUAL "${fref}")
    message(FATAL_ERROR "--dispatch-rules ${rules}: different batch files: [${f}] vs [${fref}]")
  endif()
  foreach(x ${f})
    file(SHA256 "${ref}/${x}" ha)
    file(SHA256 "${out}/${x}" hb)
    if(NOT ha STREQUAL hb)
      message(FATAL_ERROR "${x} differs between --device cpu and --dispatch-rules ${rules}")
    endif()
  endforeach()
  # every batch split, and the per-device rows name the rule
  string(REGEX MATCH "dispatch rules: ${rules} \\(([0-9]+) of ([0-9]+) batches split" m "${o}")
  if(NOT m OR NOT CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2 OR CMAKE_MATCH_1 EQUAL 0
     OR NOT o MATCHES "rule: geometry -> [a-z:0-9]+ \\(split chain, [0-9]+ B/sample moved\\)"
     OR NOT o MATCHES "rule: pointwise -> [a-z:0-9]+ \\(split chain")
    message(FATAL_ERROR "--dispatch-rules ${rules}: no split rows in the output:\n${o}")
  endif()
endforeach()
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --devices cpu,opencl:0 --dispatch-rules geometry=opencl:0,colour=cpu
                RESULT_VARIABLE r3 ERROR_VARIABLE e3 OUTPUT_QUIET)
if(NOT r3 EQUAL 2 OR NOT e3 MATCHES "token \"colour=cpu\"")
  message(FATAL_ERROR "--dispatch-rules with a bad class: rc ${r3}, stderr: ${e3}")
endif()
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --dispatch-rules geometry=cpu RESULT_VARIABLE r4 ERROR_VARIABLE e4
                OUTPUT_QUIET)
if(NOT r4 EQUAL 2 OR NOT e4 MATCHES "needs --devices")
  message(FATAL_ERROR "--dispatch-rules without --devices: rc ${r4}, stderr: ${e4}")
endif()
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --devices cpu,tpu RESULT_VARIABLE r1 ERROR_VARIABLE e1 OUTPUT_QUIET)
if(NOT r1 EQUAL 2 OR NOT e1 MATCHES "\"tpu\" is not a device")
  message(FATAL_ERROR "--devices cpu,tpu: rc ${r1}, stderr: ${e1}")
endif()
execute_process(COMMAND "${PIXFLOW}" run "${DATA}" --device cpu --devices cpu RESULT_VARIABLE r2 ERROR_VARIABLE e2
                OUTPUT_QUIET)
if(NOT r2 EQUAL 2 OR NOT e2 MATCHES "exclude each other")
  message(FATAL_ERROR "--device with --devices: rc ${r2}, stderr: ${e2}")
endif()
message(STATUS "${nref} batches identical for --devices cpu,opencl:0, auto and both split rules")
