#!/usr/bin/env bash
# The main job: build pixflow (Release) and run `pixflow bench resize` on the
# bundled photos in data/, printing pixflow vs OpenCV side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build -j"$(nproc)" --target pixflow_cli >/dev/null
./build/pixflow info
./build/pixflow bench resize --data data "$@"
