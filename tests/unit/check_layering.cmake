# The rooms' dependency direction (DESIGN.md, docs/architecture.md), checked
# on the sources' includes and on the built objects' symbols, and unique
# file names. Run by ctest (`layering`) as
#   cmake -DROOT=<source dir> -DOBJECTS=<a|b|...> [-DCUDA_OBJECTS=<...>] -DNM=<nm> -P check_layering.cmake
# Fails (exit status != 0) on any violation, naming the file, the include
# or symbol, and the rule.
cmake_minimum_required(VERSION 3.25) # this CMake's policies (if IN_LIST)

# ------------------------------------------------------------- includes
# Room: the include prefixes it must not use. A room may include its own
# headers, the public pixflow/ headers and the rooms below it:
#   core <- dispatch (the one kernel-dispatch engine, for every room above)
#   core <- kernels <- plan <- ref <- ops, augment, post (front-ends)
#        <- gpu <- cpu, cuda, opencl (the backends: siblings)
# gpu holds the device backends' shared host side (the job builders of the
# kernel bodies and their parameter arena): cuda and opencl use it, the
# CPU backend does not need it.
#   codec <- core only;  pipeline <- everything but the backends' internals
#   hetero (the device dispatcher: one batch over several devices, through
#   the public pf_preprocess_run) <- core ... augment; pipeline uses it
# plan (the plan and table builders) sits under ref: it must not use the
# reference rows, so the specification's rows and the tables every path
# reads stay apart. The reference rows use nothing above plan: no
# dispatch, no front-end, no backend. Nothing but a backend includes a
# backend room (cpu/, cuda/, opencl/, gpu/); the CPU backend may include the post
# room's table type (post/post_kernels.h, include_exceptions below) and
# nothing else of post/, while the post room reaches the post family only
# through the engine (dispatch/kfamily.h's registry).
set(backend_rooms cpu cuda opencl gpu)
set(deny_rules
  "src/core:dispatch/,plan/,ref/,kernels/,ops/,augment/,gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/dispatch:plan/,ref/,kernels/,ops/,augment/,gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/kernels:core/,dispatch/,plan/,ref/,ops/,augment/,gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/plan:dispatch/,ref/,ops/,augment/,gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/ref:dispatch/,ops/,augment/,gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/ops:augment/,gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/augment:gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/gpu:cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/cpu:gpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/cuda:cpu/,opencl/,codec/,post/,pipeline/"
  "src/opencl:cpu/,cuda/,codec/,post/,pipeline/"
  "src/codec:dispatch/,plan/,ref/,kernels/,ops/,augment/,gpu/,cpu/,cuda/,opencl/,post/,pipeline/"
  "src/post:gpu/,cpu/,cuda/,opencl/,codec/,pipeline/"
  "src/hetero:gpu/,cpu/,cuda/,opencl/,codec/,post/,pipeline/"
  "src/pipeline:gpu/,cpu/,cuda/,opencl/")
# The one include a room takes from a room its rule denies: the CPU
# backend's post family (cpu/post_exec.h) includes the post room's table
# type, because the post room's executors read that table.
set(include_exceptions "src/cpu:post/post_kernels.h")
# Rooms of the public API only: a quoted include is a pixflow/ header or a
# file next to the includer (no directory part).
set(public_only tools python)

set(bad 0)
macro(violation msg)
  message(SEND_ERROR "layering: ${msg}")
  set(bad 1)
endmacro()

# Every room of src/ has a rule, and every room but the backends denies
# every backend room (so a new room cannot forget the rule).
file(GLOB src_rooms LIST_DIRECTORIES true RELATIVE "${ROOT}/src" "${ROOT}/src/*")
foreach(r ${src_rooms})
  if(NOT IS_DIRECTORY "${ROOT}/src/${r}")
    continue()
  endif()
  set(rule_of_r "")
  foreach(rule ${deny_rules})
    if(rule MATCHES "^src/${r}:(.*)$")
      set(rule_of_r ",${CMAKE_MATCH_1},")
    endif()
  endforeach()
  if(rule_of_r STREQUAL "")
    violation("src/${r} has no include rule (add it to deny_rules)")
    continue()
  endif()
  foreach(b ${backend_rooms})
    # a backend's own rule says which sibling rooms it may use (cuda and
    # opencl: gpu/); every other room must deny them all
    if(NOT r IN_LIST backend_rooms AND NOT rule_of_r MATCHES ",${b}/,")
      violation("src/${r} may include the backend room ${b}/ (only backends may)")
    endif()
  endforeach()
endforeach()

foreach(rule ${deny_rules})
  string(REPLACE ":" ";" parts "${rule}")
  string(REPLACE "," ";" parts "${parts}")
  list(GET parts 0 dir)
  list(SUBLIST parts 1 -1 forbidden)
  file(GLOB_RECURSE files "${ROOT}/${dir}/*.c" "${ROOT}/${dir}/*.h" "${ROOT}/${dir}/*.cu" "${ROOT}/${dir}/*.cuh")
  foreach(f ${files})
    file(STRINGS "${f}" incs REGEX "^#[ ]*include[ ]+\"")
    foreach(inc ${incs})
      string(REGEX REPLACE "^#[ ]*include[ ]+\"([^\"]*)\".*" "\\1" inc_path "${inc}")
      if("${dir}:${inc_path}" IN_LIST include_exceptions)
        continue()
      endif()
      foreach(fb ${forbidden})
        if(inc MATCHES "\"${fb}")
          violation("${f} includes ${inc} (${dir} must not include ${fb})")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()

foreach(dir ${public_only})
  file(GLOB_RECURSE files "${ROOT}/${dir}/*.c" "${ROOT}/${dir}/*.h" "${ROOT}/${dir}/*.cpp" "${ROOT}/${dir}/*.hpp")
  foreach(f ${files})
    file(STRINGS "${f}" incs REGEX "^#[ ]*include[ ]+\"")
    foreach(inc ${incs})
      string(REGEX REPLACE "^#[ ]*include[ ]+\"([^\"]*)\".*" "\\1" path "${inc}")
      if(NOT path MATCHES "^pixflow/" AND path MATCHES "/")
        violation("${f} includes \"${path}\" (${dir}/ uses the public API only: pixflow/ headers)")
      endif()
    endforeach()
  endforeach()
endforeach()

# -------------------------------------------------------------- symbols
# Room of an object: the room of its source (src/<room>/...). Room: the
# rooms whose definitions its objects may reference (itself included);
# a symbol defined in no object (libc, libjpeg, CUDA, ...) is not checked.
set(symbol_rules
  "core:core"
  "dispatch:core,dispatch"
  "plan:core,plan"
  "ref:core,plan,ref"
  "ops:core,dispatch,plan,ref,ops"
  "augment:core,dispatch,plan,ref,ops,augment"
  "cpu:core,dispatch,plan,ref,ops,augment,cpu"
  "gpu:core,dispatch,plan,ref,ops,augment,gpu"
  "cuda:core,dispatch,plan,ref,ops,augment,gpu,cuda"
  "opencl:core,dispatch,plan,ref,ops,augment,gpu,opencl"
  "codec:core,codec"
  "post:core,dispatch,plan,ref,ops,augment,post"
  "hetero:core,dispatch,plan,ref,ops,augment,hetero"
  "pipeline:core,dispatch,plan,ref,ops,augment,codec,post,hetero,pipeline")
# The exceptions, one per registry: the runtime's registry names each
# backend's table, the dispatch engine's registry each kernel family
# (defined with its ISA fills by the CPU backend).
set(registries
  "core/backend_registry.c:^pfi_backend_(cpu|cuda|opencl)$"
  "dispatch/dispatch_report.c:^pfi_[a-z0-9]+_family$")
# Backends execute, front-ends decide: an object of a backend room must
# not reference a public pf_ function defined in an op front-end room. Such
# a call (cpu/preprocess_canvas.c calling pf_warp_affine, say) checks and
# routes again only to come back down to a backend; a backend calls the
# executors instead (its own pfi_cpu_* entries, pfi_resize_image, the
# families' tables; CUDA and OpenCL: the job builders of src/gpu, the
# kernels/ math). Allowed:
# the value constructors, which check and route nothing (pf_*_defaults,
# pf_aug_params_identity). The runtime's pf_ functions (pf_stream_*,
# pf_image_*, pf_last_error, ...) are core's, which every room may use.
# backend_rooms: set with the include rules above.
set(frontend_rooms ops augment post)
set(frontend_values "^pf_[a-z0-9_]+_defaults$|^pf_aug_params_identity$")

string(REPLACE "|" ";" objects "${OBJECTS}")
if(CUDA_OBJECTS)
  string(REPLACE "|" ";" cuda_objects "${CUDA_OBJECTS}")
  list(APPEND objects ${cuda_objects})
endif()
list(LENGTH objects nobj)
if(nobj EQUAL 0 OR NOT NM)
  message(FATAL_ERROR "layering: no objects to check (pass -DOBJECTS=... and -DNM=...)")
endif()
foreach(o ${objects})
  if(NOT EXISTS "${o}")
    message(FATAL_ERROR "layering: object ${o} does not exist (build the library first)")
  endif()
endforeach()

# Room and short name of an object path.
function(object_room obj room_var name_var)
  if(obj MATCHES "/src/([a-z]+)/(.*)\\.o(bj)?$")
    set(${room_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
    set(${name_var} "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}" PARENT_SCOPE)
  else()
    set(${room_var} "" PARENT_SCOPE)
    set(${name_var} "${obj}" PARENT_SCOPE)
  endif()
endfunction()

# One nm over all objects: "<file>: <symbol> <type> ..." per external symbol.
execute_process(COMMAND ${NM} -A -P -g ${objects} OUTPUT_VARIABLE nm_out RESULT_VARIABLE nm_rc ERROR_VARIABLE nm_err)
if(NOT nm_rc EQUAL 0)
  message(FATAL_ERROR "layering: ${NM} failed: ${nm_err}")
endif()
string(REPLACE ";" "" nm_out "${nm_out}")
string(REGEX MATCHALL "[^\n]+" lines "${nm_out}")
set(undefined "")
foreach(line ${lines})
  if(NOT line MATCHES "^(.*): ([^ ]+) ([A-Za-z])")
    continue()
  endif()
  set(obj "${CMAKE_MATCH_1}")
  set(sym "${CMAKE_MATCH_2}")
  set(type "${CMAKE_MATCH_3}")
  object_room("${obj}" room name)
  if(type STREQUAL "U")
    list(APPEND undefined "${name}|${room}|${sym}")
  elseif(NOT type STREQUAL "w" AND NOT type STREQUAL "v")
    set("def_${sym}" "${room}")
  endif()
endforeach()
list(LENGTH undefined nref)
if(nref EQUAL 0)
  message(FATAL_ERROR "layering: nm listed no symbol references in ${nobj} objects")
endif()
foreach(rule ${symbol_rules})
  string(REPLACE ":" ";" parts "${rule}")
  list(GET parts 0 r)
  list(GET parts 1 allowed)
  string(REPLACE "," ";" "allow_${r}" "${allowed}")
endforeach()
set(checked 0)
foreach(ref ${undefined})
  string(REPLACE "|" ";" f "${ref}")
  list(GET f 0 name)
  list(GET f 1 room)
  list(GET f 2 sym)
  set(from "${def_${sym}}")
  if(from STREQUAL "" OR room STREQUAL "" OR from STREQUAL room)
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  if(room IN_LIST backend_rooms AND from IN_LIST frontend_rooms AND sym MATCHES "^pf_"
     AND NOT sym MATCHES "${frontend_values}")
    violation("${name} calls the public front-end ${sym}, defined in ${from}/ (backends call executors, never front-ends; of those rooms' pf_ functions only the value constructors pf_*_defaults and pf_aug_params_identity)")
    continue()
  endif()
  if(NOT DEFINED "allow_${room}")
    violation("${name} is in room ${room}, which has no symbol rule")
    continue()
  endif()
  list(FIND "allow_${room}" "${from}" ok)
  if(ok EQUAL -1)
    string(REGEX REPLACE "\\.o(bj)?$" "" src "${name}")
    set(allowed_by_registry 0)
    foreach(reg ${registries})
      string(REGEX MATCH "^([^:]+):(.*)$" _ "${reg}")
      if(src STREQUAL CMAKE_MATCH_1 AND sym MATCHES "${CMAKE_MATCH_2}")
        set(allowed_by_registry 1)
      endif()
    endforeach()
    if(allowed_by_registry)
      continue()
    endif()
    violation("${name} references ${sym}, defined in ${from}/ (${room} objects may use ${allow_${room}})")
  endif()
endforeach()

# --------------------------------------------------- unique file names
file(GLOB_RECURSE all RELATIVE "${ROOT}" "${ROOT}/src/*" "${ROOT}/tools/*" "${ROOT}/tests/*.c" "${ROOT}/tests/*.cpp"
     "${ROOT}/tests/*.h" "${ROOT}/bench/*" "${ROOT}/python/*.c" "${ROOT}/python/*.h" "${ROOT}/python/*.cpp")
set(seen "")
foreach(f ${all})
  get_filename_component(n "${f}" NAME)
  if(n STREQUAL "CMakeLists.txt" OR n MATCHES "^__pycache__|\\.pyc$|^__init__\\.py$")
    continue()
  endif()
  list(FIND seen "${n}" i)
  if(NOT i EQUAL -1)
    violation("file name ${n} is not unique (${f})")
  endif()
  list(APPEND seen "${n}")
endforeach()

if(bad)
  message(FATAL_ERROR "layering check failed")
endif()
message(STATUS "layering: ok (${nobj} objects, ${checked} cross-room symbol references)")
