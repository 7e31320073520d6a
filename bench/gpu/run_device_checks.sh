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
#      date, the GPU, the commit, the test summary and the tables.
# Usage: bash bench/gpu/run_device_checks.sh [results-dir]
# Takes about 3-5 minutes on 16 cores (most of it the build).
set -uo pipefail
cd "$(dirname "$0")/../.."
outdir="${1:-bench/results}"
mkdir -p "$outdir"
day="$(date -u +%Y-%m-%d)"
res="$outdir/gpu-$day.md"
log="$outdir/gpu-$day.log"
jobs="$(nproc)"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

{
  echo "== configure"
  cmake -S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPIXFLOW_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPIXFLOW_CODEC=OFF -DPIXFLOW_VIDEO=OFF -DPIXFLOW_OPENCV_TESTS=OFF
  echo "== build"
  cmake --build build-gpu -j"$jobs"
} >"$log" 2>&1
build_rc=$?

{
  echo "# pixflow GPU checks, $day"
  echo
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (+ local changes)')"
  echo "- GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null || echo 'nvidia-smi unavailable')"
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x $(nproc)"
  echo "- nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo '?'); build: Release, sm_90, -fmad=false"
  echo "- command: \`bash bench/gpu/run_device_checks.sh\`"
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
{
  echo "## Tests"
  echo
  echo "- CUDA tests (ctest -L cuda, PIXFLOW_REQUIRE_GPU=1): $([ $cuda_rc -eq 0 ] && echo passed || echo FAILED), skipped = $cuda_skipped"
  echo "- CPU emulation of the GPU kernels (ctest -R gpu_emul): $([ $emul_rc -eq 0 ] && echo passed || echo FAILED)"
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
} >>"$res"

cat "$res"
[ $cuda_rc -eq 0 ] && [ $emul_rc -eq 0 ]
