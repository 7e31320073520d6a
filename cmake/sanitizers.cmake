# PIXFLOW_SANITIZE=address,undefined or thread: applied to every target.
function(pf_apply_sanitizers target)
  if(PIXFLOW_SANITIZE)
    set(flags -fsanitize=${PIXFLOW_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_compile_options(${target} PRIVATE ${flags})
    target_link_options(${target} PRIVATE ${flags})
  endif()
endfunction()
