#!/usr/bin/env bash
# Prints the highest pixflow ISA level this x86 CPU has, from the kernel's
# CPU flags, with the feature sets of pfi_isa_best (src/core/cpu_features.c):
# sse4 = SSE4.1; avx2 = + AVX2, FMA, F16C; avx512 = + AVX-512 F, BW, DQ, VL;
# avx512vbmi = + AVX512_VBMI. The test scripts run the ISA caps below it
# only: a cap at or above it runs the uncapped kernels again.
set -euo pipefail
# off x86 the x86 caps mean nothing to pixflow: say so, and the callers run them all as before
[ "$(uname -m)" = x86_64 ] || { echo "not-x86"; exit 0; }
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { for f in "$@"; do [[ "$flags" == *" $f "* ]] || return 1; done; }
level=scalar
has sse4_1 && level=sse4
has sse4_1 avx2 fma f16c && level=avx2
has sse4_1 avx2 fma f16c avx512f avx512bw avx512dq avx512vl && level=avx512
has sse4_1 avx2 fma f16c avx512f avx512bw avx512dq avx512vl avx512vbmi && level=avx512vbmi
echo "$level"
