# Warning flags shared by every pixflow target (C and C++).
set(PF_COMMON_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wpointer-arith
    -Wcast-align -Wwrite-strings -Wformat=2 -Wundef -Wvla)
set(PF_C_WARNINGS ${PF_COMMON_WARNINGS} -Wstrict-prototypes -Wmissing-prototypes
    -Wconversion -Wno-sign-conversion -Wdouble-promotion)
set(PF_CXX_WARNINGS ${PF_COMMON_WARNINGS})
if(PIXFLOW_WERROR)
  list(APPEND PF_C_WARNINGS -Werror)
  list(APPEND PF_CXX_WARNINGS -Werror)
endif()
