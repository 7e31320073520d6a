# Runs one command and checks its exit status and output (ctest cannot
# ask for a given non-zero status). Run as
#   cmake "-DCMD=<exe;args...>" "-DEMULATOR=<launcher or empty>" -DWANT_RC=<n>
#         "-DWANT_OUTPUT=<regex>" -P check_exit_code.cmake
# EMULATOR is CMAKE_CROSSCOMPILING_EMULATOR, which ctest would otherwise
# prefix to a test binary (qemu in the ARM and CPU-model builds).
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${EMULATOR} ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "exit ${rc}:\n${out}${err}")
if(NOT rc STREQUAL "${WANT_RC}")
  message(FATAL_ERROR "'${CMD}' exited ${rc}, want ${WANT_RC}")
endif()
if(NOT "${out}${err}" MATCHES "${WANT_OUTPUT}")
  message(FATAL_ERROR "the output of '${CMD}' does not match '${WANT_OUTPUT}'")
endif()
