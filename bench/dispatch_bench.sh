#!/bin/sh
# The device dispatcher (pf_dispatch) on the imagenet-train batch: cpu only
# vs opencl:0 only vs cpu+opencl:0, medians of the same interleaved run,
# and the dispatcher's own overhead per batch (docs/performance.md).
#   bench/dispatch_bench.sh [BUILD_DIR] [ROUNDS]
# BUILD_DIR: a build configured with -DPIXFLOW_OPENCL=ON (default: build).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
rounds=${2:-15}
cmake --build "$build" -j2 --target pixflow_dispatch_bench >/dev/null
exec "$build/pixflow_dispatch_bench" "$root/data" "$rounds"
