# Dependency direction (DESIGN.md): core includes nothing of ref/cpu/cuda/
# kernels; ref and kernels include only core (and kernels); tools and tests
# of the public API include only pixflow/ headers. Fails on a violation.
set(rules
  "src/core:ref/,cpu/,cuda/,kernels/,codec/"
  "src/kernels:ref/,cpu/,cuda/,core/,codec/"
  "src/ref:cpu/,cuda/,codec/"
  "src/codec:ref/,cpu/,cuda/,kernels/"
  "tools/pixflow:core/,ref/,cpu/,cuda/,kernels/,codec/")
set(bad 0)
foreach(rule ${rules})
  string(REPLACE ":" ";" parts "${rule}")
  string(REPLACE "," ";" parts "${parts}")
  list(GET parts 0 dir)
  list(SUBLIST parts 1 -1 forbidden)
  file(GLOB_RECURSE files "${ROOT}/${dir}/*.c" "${ROOT}/${dir}/*.h" "${ROOT}/${dir}/*.cu")
  foreach(f ${files})
    file(STRINGS "${f}" incs REGEX "^#[ ]*include[ ]+\"")
    foreach(inc ${incs})
      foreach(fb ${forbidden})
        if(inc MATCHES "\"${fb}")
          message(SEND_ERROR "layering: ${f} includes ${inc} (forbidden for ${dir})")
          set(bad 1)
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
# file names are unique across the tree
file(GLOB_RECURSE all RELATIVE "${ROOT}" "${ROOT}/src/*" "${ROOT}/tools/*" "${ROOT}/tests/*.c" "${ROOT}/tests/*.cpp" "${ROOT}/bench/*")
set(seen "")
foreach(f ${all})
  get_filename_component(n "${f}" NAME)
  if(n STREQUAL "CMakeLists.txt" OR n MATCHES "^__pycache__|\\.pyc$")
    continue()
  endif()
  list(FIND seen "${n}" i)
  if(NOT i EQUAL -1)
    message(SEND_ERROR "layering: file name ${n} is not unique (${f})")
    set(bad 1)
  endif()
  list(APPEND seen "${n}")
endforeach()
if(bad)
  message(FATAL_ERROR "layering check failed")
endif()
message(STATUS "layering: ok")
