#!/usr/bin/env bash
# Runs every test: installs dependencies, then
#  1. gcc Release build (warnings are errors) + ctest, and ctest again with
#     PIXFLOW_CPU=scalar (the suite must pass at every ISA cap);
#  2. clang build (warnings are errors) + ctest;
#  3. ASan+UBSan build + ctest;
#  4. TSan build of the data pipeline tests (label "pipeline");
#  5. aarch64 cross build (NEON kernels) + ctest under qemu-aarch64.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user
jobs="$(nproc)"
run_suite() { # build-dir, extra cmake args...
  local dir="$1"; shift
  echo "== configure $dir $*"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" 2>&1 | grep -Ev '^\[|^-- ' || true
  test -x "$dir/pixflow" || { echo "build failed in $dir"; exit 1; }
  (cd "$dir" && ctest -j"$jobs" --output-on-failure --timeout 1200)
}
run_suite build-test-gcc -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
echo "== ctest with PIXFLOW_CPU=scalar"
(cd build-test-gcc && PIXFLOW_CPU=scalar ctest -j"$jobs" --output-on-failure --timeout 1200)
run_suite build-test-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DPIXFLOW_CUDA=OFF
run_suite build-test-asan -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DPIXFLOW_CUDA=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DPIXFLOW_SANITIZE=address,undefined"
echo "== configure build-test-tsan (TSan: pipeline tests only)"
cmake -S . -B build-test-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
  -DPIXFLOW_CUDA=OFF -DPIXFLOW_OPENCV_TESTS=OFF -DPIXFLOW_SANITIZE=thread >/dev/null
cmake --build build-test-tsan -j"$jobs" --target test_pipeline test_pipeline_stress test_pipeline_device 2>&1 | grep -Ev '^\[|^-- ' || true
(cd build-test-tsan && TSAN_OPTIONS="halt_on_error=1" ctest -L pipeline --output-on-failure --timeout 1200)
echo "== aarch64 (NEON) cross build, tests under qemu-aarch64"
cmake -S . -B build-test-arm -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=Release \
  -DPIXFLOW_CUDA=OFF -DPIXFLOW_OPENCV_TESTS=OFF -DPIXFLOW_VIDEO=OFF -DPIXFLOW_CODEC=OFF >/dev/null
cmake --build build-test-arm -j"$jobs" 2>&1 | grep -Ev '^\[|^-- ' || true
(cd build-test-arm && ctest -j"$jobs" --output-on-failure --timeout 1200)
echo "== all test suites passed"
