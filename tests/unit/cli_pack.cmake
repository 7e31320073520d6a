# `pixflow pack` end to end: pack data/ (12 photos), run the pack, refuse
# bad arguments and a truncated pack naming the field. Each run has a
# timeout, so a CLI that hangs fails this test.
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

set(pk "${WORK}/cli_pack.pfpack")
file(REMOVE "${pk}")
run_expect("pack --help" 0 "usage: pixflow pack" "${PIXFLOW}" pack --help)
run_expect("pack data" 0 "12 samples \\(1[0-2] re-encoded at max side 320, quality 90"
           "${PIXFLOW}" pack "${DATA}" "${pk}" --max-side 320 --quality 90 --threads 2 --quiet)
run_expect("run pack" 0 "batches 6, samples 24, skipped 0"
           "${PIXFLOW}" run "${pk}" --epochs 2 --batch 4 --workers 2 --quiet)
run_expect("pack bad quality" 2 "--quality needs an integer in 1..100" "${PIXFLOW}" pack "${DATA}" "${pk}" --quality 0)
run_expect("pack no out" 2 "usage: pixflow pack" "${PIXFLOW}" pack "${DATA}")
# a pack cut short (the first 2000 bytes)
file(REMOVE "${WORK}/cli_pack_cut.pfpack")
execute_process(COMMAND head -c 2000 "${pk}" OUTPUT_FILE "${WORK}/cli_pack_cut.pfpack")
run_expect("run truncated pack" 1 "cli_pack_cut.pfpack: header.file_size is [0-9]+ but the file has 2000 bytes \\(truncated\\)"
           "${PIXFLOW}" run "${WORK}/cli_pack_cut.pfpack" --quiet)
