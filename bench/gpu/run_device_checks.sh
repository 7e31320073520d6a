#!/usr/bin/env bash
# One script for a GPU machine (e.g. the H200 lent by the `device` tool):
#   1. builds pixflow for sm_90 only (-DCMAKE_CUDA_ARCHITECTURES=90), without
#      the codec/video/OpenCV parts the GPU image does not have;
#   2. runs the CUDA tests (label "cuda": every device op vs the CPU,
#      runtime, pools, streams, errors) and the CPU emulations of the GPU
#      kernels (gpu_emul_*);
#   3. runs the GPU benchmarks (build-gpu/pixflow_gpu_bench) and the same
#      workloads through torchvision / CV-CUDA when importable;
#   4. writes bench/results/gpu-<date>.md (or $1/gpu-<date>.md) with the
#      date, the GPU, the commit, the test summary and the tables;
#   5. the OpenCL backend on NVIDIA's OpenCL, in the same build: the
#      "opencl" ctest label and `pixflow bench all --device opencl:0
#      --quick` beside `--device cuda:0 --quick`. The machine is offline:
#      when the OpenCL headers, the ICD loader or NVIDIA's ICD are missing,
#      it says exactly which and the CUDA checks go on without OpenCL.
# Usage: bash bench/gpu/run_device_checks.sh [results-dir]
#        bash bench/gpu/run_device_checks.sh --probe-opencl  (only step 5's
#        search: what was found, what is missing; builds nothing)
# Takes about 3-5 minutes on 16 cores (most of it the build).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

# NVIDIA's OpenCL: headers (Debian opencl-c-headers, or the CUDA toolkit's
# include/CL), the ICD loader (ocl-icd / Khronos libOpenCL.so, also in the
# CUDA toolkit's lib64) and the NVIDIA ICD (libnvidia-opencl.so.1, from the
# driver). The tests open OpenCL device 0, so OCL_ICD_VENDORS points the
# loader at a directory holding only NVIDIA's ICD (a PoCL next to it would
# otherwise be device 0). Sets ocl_ok=1 and ocl_cmake=(...) or
# ocl_missing=(what, ...).
opencl_probe() {
  ocl_ok=0 ocl_cmake=() ocl_missing=()
  local cuda_root="${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}" d f hdr="" lib="" icd_lib=""
  for d in /usr/include "$cuda_root/include" /usr/local/cuda/include; do
    [ -f "$d/CL/cl.h" ] && { hdr="$d"; break; }
  done
  [ -n "$hdr" ] || ocl_missing+=("OpenCL headers: no CL/cl.h in /usr/include or $cuda_root/include (Debian: opencl-c-headers)")
  for f in $(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libOpenCL\.so\(\.1\)\{0,1\} .*=> //p') \
    "$cuda_root/lib64/libOpenCL.so" "$cuda_root/lib64/libOpenCL.so.1" /usr/local/cuda/lib64/libOpenCL.so; do
    [ -e "$f" ] && { lib="$f"; break; }
  done
  [ -n "$lib" ] || ocl_missing+=("the OpenCL ICD loader: no libOpenCL.so on the linker path or in $cuda_root/lib64 (Debian: ocl-icd-opencl-dev)")
  local vendors="${PF_OPENCL_VENDORS_DIR:-/etc/OpenCL/vendors}" # overridable to dry-run the probe
  if [ -f "$vendors/nvidia.icd" ]; then
    icd_lib="$(head -n1 "$vendors/nvidia.icd")"
  elif ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1 '; then
    icd_lib=libnvidia-opencl.so.1
  fi
  [ -n "$icd_lib" ] || ocl_missing+=("NVIDIA's OpenCL ICD: no $vendors/nvidia.icd and no libnvidia-opencl.so.1 known to ldconfig (installed with the NVIDIA driver's OpenCL part)")
  [ "${#ocl_missing[@]}" -eq 0 ] || return 0
  ocl_vendors="$PWD/build-gpu/opencl-vendors"
  mkdir -p "$ocl_vendors" && echo "$icd_lib" >"$ocl_vendors/nvidia.icd"
  ocl_cmake=(-DPIXFLOW_OPENCL=ON "-DOpenCL_INCLUDE_DIR=$hdr" "-DOpenCL_LIBRARY=$lib")
  ocl_ok=1
  echo "OpenCL: headers $hdr, loader $lib, ICD $icd_lib (OCL_ICD_VENDORS=$ocl_vendors)"
}

if [ "${1:-}" = "--probe-opencl" ]; then
  opencl_probe
  for m in "${ocl_missing[@]}"; do echo "OpenCL missing: $m"; done
  exit 0
fi

outdir="${1:-bench/results}"
mkdir -p "$outdir"
day="$(date -u +%Y-%m-%d)"
res="$outdir/gpu-$day.md"
log="$outdir/gpu-$day.log"
jobs="$(nproc)"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
gpu_cmake=(-S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPIXFLOW_CUDA=ON
  -DCMAKE_CUDA_ARCHITECTURES=90 -DPIXFLOW_CODEC=OFF -DPIXFLOW_VIDEO=OFF -DPIXFLOW_OPENCV_TESTS=OFF)

{
  echo "== OpenCL"
  opencl_probe
  for m in "${ocl_missing[@]}"; do echo "OpenCL missing: $m"; done
  echo "== configure"
  if [ "$ocl_ok" = 1 ] && ! cmake "${gpu_cmake[@]}" "${ocl_cmake[@]}"; then
    ocl_ok=0
    ocl_missing+=("a usable OpenCL 2.0+ setup: configuring with PIXFLOW_OPENCL=ON failed (the log above says why)")
    echo "OpenCL missing: ${ocl_missing[-1]}"
  fi
  [ "$ocl_ok" = 1 ] || cmake "${gpu_cmake[@]}" -DPIXFLOW_OPENCL=OFF
  echo "== build"
  cmake --build build-gpu -j"$jobs"
} >"$log" 2>&1
build_rc=$?
for m in "${ocl_missing[@]}"; do echo "OpenCL missing: $m (the CUDA checks go on without OpenCL)"; done

{
  echo "# pixflow GPU checks, $day"
  echo
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (+ local changes)')"
  echo "- GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null || echo 'nvidia-smi unavailable')"
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x $(nproc)"
  echo "- nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo '?'); build: Release, sm_90, -fmad=false"
  echo "- command: \`bash bench/gpu/run_device_checks.sh\`"
  if [ "$ocl_ok" = 1 ]; then
    echo "- OpenCL: built (PIXFLOW_OPENCL=ON), NVIDIA's ICD only (OCL_ICD_VENDORS)"
  else
    for m in "${ocl_missing[@]}"; do echo "- OpenCL NOT built: missing $m"; done
  fi
  echo
} >"$res"

if [ "$build_rc" -ne 0 ]; then
  { echo "## Build FAILED"; echo; echo '```'; tail -40 "$log"; echo '```'; } >>"$res"
  cat "$res"
  exit 1
fi

echo "== tests" >>"$log"
# a GPU is required here: a CUDA test that cannot find its device fails
# instead of skipping (tests/skip_policy.h), and the count of skipped
# tests is reported (it must be 0)
export PIXFLOW_REQUIRE_GPU=1
(cd build-gpu && ctest -j4 -L cuda --output-on-failure --timeout 300) >"$log.cuda" 2>&1
cuda_rc=$?
cat "$log.cuda" >>"$log"
cuda_skipped=$(sed -n '/^The following tests did not run:/,/^$/p' "$log.cuda" | grep -cE '^[[:space:]]+[0-9]+ - ' || true)
rm -f "$log.cuda"
[ "$cuda_skipped" -eq 0 ] || cuda_rc=1
(cd build-gpu && ctest -j"$jobs" -R '^gpu_emul' --output-on-failure --timeout 300) >>"$log" 2>&1
emul_rc=$?
ocl_rc=0
ocl_skipped=0
if [ "$ocl_ok" = 1 ]; then
  echo "== OpenCL tests" >>"$log"
  # CI=true: an OpenCL test that finds no device fails instead of skipping
  (cd build-gpu && CI=true OCL_ICD_VENDORS="$ocl_vendors" ctest -j4 -L opencl --output-on-failure --timeout 300) \
    >"$log.ocl" 2>&1
  ocl_rc=$?
  cat "$log.ocl" >>"$log"
  ocl_skipped=$(sed -n '/^The following tests did not run:/,/^$/p' "$log.ocl" | grep -cE '^[[:space:]]+[0-9]+ - ' || true)
  rm -f "$log.ocl"
  [ "$ocl_skipped" -eq 0 ] || ocl_rc=1
fi
{
  echo "## Tests"
  echo
  echo "- CUDA tests (ctest -L cuda, PIXFLOW_REQUIRE_GPU=1): $([ $cuda_rc -eq 0 ] && echo passed || echo FAILED), skipped = $cuda_skipped"
  echo "- CPU emulation of the GPU kernels (ctest -R gpu_emul): $([ $emul_rc -eq 0 ] && echo passed || echo FAILED)"
  if [ "$ocl_ok" = 1 ]; then
    echo "- OpenCL tests on NVIDIA's OpenCL (ctest -L opencl, CI=true: no skips): $([ $ocl_rc -eq 0 ] && echo passed || echo FAILED), skipped = $ocl_skipped"
  else
    echo "- OpenCL tests: not run (OpenCL not built, see above)"
  fi
  echo
  echo '```'
  grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|Skipped|Failed|passed, [0-9]+ failed| on NVIDIA|GB/s|pool:' "$log" | tail -60
  echo '```'
  echo
} >>"$res"

echo "== benchmarks" >>"$log"
{
  echo "## pixflow GPU benchmarks"
  echo
  for b in pixflow_gpu_bench pixflow_gpu_bench_preprocess pixflow_gpu_bench_pointwise; do
    if [ -x "build-gpu/$b" ]; then
      "build-gpu/$b" 2>&1 | tee -a "$log"
    else
      echo "$b was not built"
    fi
    echo
  done
  echo
  echo "## Same workloads through torchvision / CV-CUDA"
  echo
  echo "| library | workload | median ms | figure |"
  echo "| --- | --- | --- | --- |"
  PYTHONUNBUFFERED=1 python3 bench/gpu/bench_torch_cvcuda.py 2>&1 | tee -a "$log"
  echo
  echo "## pixflow bench --device: OpenCL and CUDA beside the CPU backend"
  echo
  # every routed op on the device vs the CPU backend in one run, outputs
  # byte-compared (the bench exits 1 on a difference)
  for dev in opencl:0 cuda:0; do
    if [ "$dev" = opencl:0 ] && [ "$ocl_ok" != 1 ]; then
      echo "pixflow bench all --device opencl:0: not run (OpenCL not built: ${ocl_missing[*]})"
      echo
      continue
    fi
    echo '```'
    echo "\$ pixflow bench all --device $dev --quick"
    env ${ocl_vendors:+OCL_ICD_VENDORS=$ocl_vendors} build-gpu/pixflow bench all --device "$dev" --quick 2>&1 | tee -a "$log"
    echo "(exit ${PIPESTATUS[0]})"
    echo '```'
    echo
  done
} >>"$res"

cat "$res"
[ $cuda_rc -eq 0 ] && [ $emul_rc -eq 0 ] && [ $ocl_rc -eq 0 ]
