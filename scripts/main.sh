#!/usr/bin/env bash
# The main job: build pixflow (Release), then run the training data
# pipeline on the bundled photos in data/ (decode -> imagenet-train
# augmentation -> 224x224 NCHW f32 batches), printing the stage table and
# throughput and writing a contact sheet of augmented samples to
# build/preview.png; the same through the Python package's Loader
# (scripts/python_venv.sh + `pip install .`); then the fused preprocess vs
# OpenCV, side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build -j"$(nproc)" --target pixflow_cli >/dev/null
./build/pixflow info | sed -n 1,4p  # sed reads to the end: `head` would SIGPIPE pixflow, and pipefail stop the job
./build/pixflow run data --recipe imagenet-train --batch 8 --epochs 3 --seed 1 --preview build/preview.png "$@"
venv="$(bash scripts/python_venv.sh | tail -1)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps . >/dev/null
(cd /tmp && "$venv/bin/python" "$OLDPWD/scripts/python_loader_demo.py" "$OLDPWD/data")
./build/pixflow bench preprocess --data data --quick
