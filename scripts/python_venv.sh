#!/usr/bin/env bash
# Creates (or reuses) the Python test environment: a venv at a fixed path
# (PIXFLOW_VENV, default /opt/pixflow-venv) on Debian's interpreter with
# the system site-packages visible (Debian's numpy 1.24, cv2 4.6 = the
# OpenCV the C parity tests use, PIL 9.4), plus the pinned oracles from
# PyPI: torch 2.15.0 and torchvision 0.29.2 (about 5 GB, ~3 minutes on a
# fresh machine; used on the CPU only), pytest and the build backend; then
# the post-processing oracles, the app runtimes and torchdata as layers of
# their own (below).
# A stamp file holds the pinned list; a venv whose stamp differs (or that
# is half made) is rebuilt, one that matches is reused as it is.
# Prints the venv's path on the last line of stdout.
set -euo pipefail
venv="${PIXFLOW_VENV:-/opt/pixflow-venv}"
py=/usr/bin/python3
pins=(torch==2.15.0 torchvision==0.29.2 pytest==9.2.0 scikit-build-core==1.1.2)
stamp="$venv/.pixflow-pins"
want="$(printf '%s\n' "${pins[@]}")"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "python_venv: reusing $venv (${pins[*]})" >&2
else
  t0=$SECONDS
  echo "python_venv: creating $venv (${pins[*]})" >&2
  rm -rf "$venv"
  "$py" -m venv --system-site-packages "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input "${pins[@]}" >&2
  # the oracles must be the pinned ones, and Debian's numpy/cv2 must still
  # be what the venv sees (a wheel pulling in another numpy would change them)
  "$venv/bin/python" - <<'PY' >&2
import cv2, numpy, PIL, torch, torchvision
assert torch.__version__.split("+")[0] == "2.15.0", torch.__version__
assert torchvision.__version__.split("+")[0] == "0.29.2", torchvision.__version__
assert numpy.__version__ == "1.24.2" and cv2.__version__ == "4.6.0", (numpy.__version__, cv2.__version__)
print("python_venv: torch", torch.__version__, "torchvision", torchvision.__version__,
      "numpy", numpy.__version__, "cv2", cv2.__version__, "PIL", PIL.__version__)
PY
  echo "$want" > "$stamp"
  echo "python_venv: made in $((SECONDS - t0)) s" >&2
fi
# The post-processing oracles (tests/python/test_post_*.py): onnxruntime's
# NonMaxSuppression in a one-node onnx model, pyclipper + shapely for the
# DBNet unclip and RapidOCR's DBPostProcess itself (its package without
# dependencies: the tests import that one module). A layer of its own with
# its own stamp, installed into the venv above without rebuilding it;
# Debian's numpy is held by a constraint (newer wheels would replace it).
extras=(onnx==1.16.2 onnxruntime==1.19.2 pyclipper==1.3.0.post6 shapely==2.0.6 rapidocr==3.10.0)
extra_stamp="$venv/.pixflow-post-pins"
want_extra="$(printf '%s\n' "${extras[@]}")"
if [ ! -f "$extra_stamp" ] || [ "$(cat "$extra_stamp")" != "$want_extra" ]; then
  t0=$SECONDS
  echo "python_venv: adding ${extras[*]}" >&2
  cons="$(mktemp)"
  echo "numpy==1.24.2" > "$cons"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input -c "$cons" "${extras[@]:0:4}" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input --no-deps "${extras[@]:4}" >&2
  rm -f "$cons"
  "$venv/bin/python" - <<'PY' >&2
import numpy, onnx, onnxruntime, pyclipper, shapely
assert numpy.__version__ == "1.24.2", numpy.__version__
print("python_venv: onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__, "shapely", shapely.__version__)
PY
  echo "$want_extra" > "$extra_stamp"
  echo "python_venv: post oracles added in $((SECONDS - t0)) s" >&2
fi
# OpenCV 4.10 for the one oracle Debian's 4.6 lacks: cv2.dnn.NMSBoxesBatched
# (added in 4.7). Every other test's oracle is 4.6, so this wheel is NOT
# importable from the venv: it is unpacked into its own folder, which
# tests/python/test_post_nms.py puts on the PYTHONPATH of a child process.
ocv_pin=opencv-python-headless==4.10.0.84
ocv_dir="$venv/opt/opencv-4.10"
ocv_stamp="$venv/.pixflow-post-opencv"
if [ ! -f "$ocv_stamp" ] || [ "$(cat "$ocv_stamp")" != "$ocv_pin" ]; then
  t0=$SECONDS
  rm -rf "$ocv_dir"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input --no-deps --target "$ocv_dir" \
    "$ocv_pin" >&2
  PYTHONPATH="$ocv_dir" "$venv/bin/python" -c \
    "import cv2; assert cv2.__version__.startswith('4.10'), cv2.__version__; cv2.dnn.NMSBoxesBatched" >&2
  "$venv/bin/python" -c "import cv2; assert cv2.__version__.startswith('4.6'), cv2.__version__" >&2
  echo "$ocv_pin" > "$ocv_stamp"
  echo "python_venv: OpenCV 4.10 (NMSBoxesBatched oracle) in $ocv_dir in $((SECONDS - t0)) s" >&2
fi

# ultralytics' own LetterBox, the oracle of pixflow's letterbox
# (tests/python/test_letterbox.py). Its wheel requires opencv-python, which
# would replace Debian's cv2 4.6, so like OpenCV 4.10 it is unpacked with
# --no-deps into a folder of its own that the test puts on the PYTHONPATH of
# a child process. Importing ultralytics.data.augment needs, beyond the
# venv's numpy / cv2 / PIL / torch, only PyYAML (ultralytics.utils reads its
# config; Debian's python3-yaml is on this machine only as another tool's
# dependency), so that one goes into the folder too, pinned; matplotlib,
# polars, psutil, requests, ultralytics-thop and the rest are not imported
# by that module.
ulx_pins=(ultralytics==8.4.190 pyyaml==6.0.3)
ulx_dir="$venv/opt/ultralytics"
ulx_stamp="$venv/.pixflow-ultralytics-pins"
want_ulx="$(printf '%s\n' "${ulx_pins[@]}")"
if [ ! -f "$ulx_stamp" ] || [ "$(cat "$ulx_stamp")" != "$want_ulx" ]; then
  t0=$SECONDS
  rm -rf "$ulx_dir"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input --no-deps --target "$ulx_dir" \
    "${ulx_pins[@]}" >&2
  cfg="$(mktemp -d)"
  ULX_DIR="$ulx_dir" YOLO_CONFIG_DIR="$cfg" PYTHONPATH="$ulx_dir" "$venv/bin/python" - <<'PY' >&2
import os, cv2, numpy, yaml
from ultralytics.data.augment import LetterBox  # noqa: F401
import ultralytics
assert cv2.__version__.startswith("4.6"), cv2.__version__
assert numpy.__version__ == "1.24.2", numpy.__version__
assert yaml.__file__.startswith(os.environ["ULX_DIR"]), yaml.__file__
print("python_venv: ultralytics", ultralytics.__version__, "(LetterBox oracle) with PyYAML", yaml.__version__)
PY
  rm -rf "$cfg"
  "$venv/bin/python" -c "import cv2; assert cv2.__version__.startswith('4.6'), cv2.__version__" >&2
  echo "$want_ulx" > "$ulx_stamp"
  echo "python_venv: ultralytics in $ulx_dir in $((SECONDS - t0)) s" >&2
fi

# The inference apps (pixflow.apps, tests/python/test_apps.py): ONNX Runtime
# 1.31.1 (replaces the post layer's 1.19.2; its NonMaxSuppression is the same
# operator) and LiteRT 2.3.0 for the .tflite models (the RapidOCR oracle
# reads its config with Debian's PyYAML). Its own stamp; numpy held as above.
# The models themselves are not installed: tests fetch them with
# `pip download --no-deps` into $PIXFLOW_MODEL_CACHE (pixflow/apps/models.py).
apps=(onnxruntime==1.31.1 ai-edge-litert==2.3.0)
apps_stamp="$venv/.pixflow-apps-pins"
want_apps="$(printf '%s\n' "${apps[@]}")"
if [ ! -f "$apps_stamp" ] || [ "$(cat "$apps_stamp")" != "$want_apps" ]; then
  t0=$SECONDS
  echo "python_venv: adding ${apps[*]}" >&2
  cons="$(mktemp)"
  echo "numpy==1.24.2" > "$cons"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input -c "$cons" "${apps[@]}" >&2
  rm -f "$cons"
  "$venv/bin/python" - <<'PY' >&2
import numpy, onnxruntime
from ai_edge_litert.interpreter import Interpreter  # noqa: F401
assert numpy.__version__ == "1.24.2", numpy.__version__
assert onnxruntime.__version__ == "1.31.1", onnxruntime.__version__
print("python_venv: onnxruntime", onnxruntime.__version__, "ai-edge-litert 2.3.0")
PY
  echo "$want_apps" > "$apps_stamp"
  echo "python_venv: app runtimes added in $((SECONDS - t0)) s" >&2
fi
# The detector's precision variants (pixflow/apps/variants.py, built at fetch
# time beside the fetched model): onnx is the post layer's 1.16.2 (ONNX
# Runtime 1.31.1's quantization tools run with it); onnxconverter-common
# 1.16.0 makes the FP16 variant. Pure Python; --no-deps: what it requires
# (numpy, onnx, packaging, protobuf>=3.20.2) is in the venv already, and
# without a resolve nothing can replace Debian's numpy or the post layer's
# onnx (the check below holds both). Its own stamp.
variants=(onnxconverter-common==1.16.0)
variants_stamp="$venv/.pixflow-variants-pins"
want_variants="$(printf '%s\n' "${variants[@]}")"
if [ ! -f "$variants_stamp" ] || [ "$(cat "$variants_stamp")" != "$want_variants" ]; then
  echo "python_venv: adding ${variants[*]}" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input --no-deps "${variants[@]}" >&2
  "$venv/bin/python" -c 'import numpy, onnx, onnxconverter_common.float16
assert numpy.__version__ == "1.24.2", numpy.__version__
assert onnx.__version__ == "1.16.2", onnx.__version__' >&2
  echo "$want_variants" > "$variants_stamp"
fi
# The scale-out layer (python/pixflow/ray.py, tests/python/test_ray_*.py,
# bench/python/bench_ray_scaling.py): Ray 2.60.0 with Ray Data (pandas and
# pyarrow for its blocks; pydantic, which Dataset.iter_torch_batches needs
# through ray.train), ~79 MB for the ray wheel, ~150 MB in all. It
# shares the torch venv (Ray pulls no torch, and Debian's numpy 1.24.2
# satisfies it: a constraint holds it; pyarrow 22+ wheels need NumPy 2 at
# import, so pyarrow is pinned to 21.0.0), as a layer with its own stamp.
ray_pins=("ray[data]==2.60.0" pandas==2.3.3 pyarrow==21.0.0 pydantic==2.14.4)
ray_stamp="$venv/.pixflow-ray-pins"
want_ray="$(printf '%s\n' "${ray_pins[@]}")"
if [ ! -f "$ray_stamp" ] || [ "$(cat "$ray_stamp")" != "$want_ray" ]; then
  t0=$SECONDS
  echo "python_venv: adding ${ray_pins[*]}" >&2
  cons="$(mktemp)"
  echo "numpy==1.24.2" > "$cons"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input -c "$cons" "${ray_pins[@]}" >&2
  rm -f "$cons"
  "$venv/bin/python" - <<'PY' >&2
import numpy, pandas, pyarrow, ray, ray.data, ray.train.torch, torch
assert ray.__version__ == "2.60.0", ray.__version__
assert numpy.__version__ == "1.24.2", numpy.__version__
assert torch.__version__.split("+")[0] == "2.15.0", torch.__version__
print("python_venv: ray", ray.__version__, "pandas", pandas.__version__, "pyarrow", pyarrow.__version__)
PY
  echo "$want_ray" > "$ray_stamp"
  echo "python_venv: ray layer added in $((SECONDS - t0)) s" >&2
fi

# torchdata 0.11.0 for the StatefulDataLoader resume test of pixflow.torch
# (tests/python/test_loader.py): pure Python, ~60 kB + requests. Its own
# stamp; numpy held as above, and torch must stay the pinned one.
tdata=(torchdata==0.11.0)
tdata_stamp="$venv/.pixflow-torchdata-pins"
want_tdata="$(printf '%s\n' "${tdata[@]}")"
if [ ! -f "$tdata_stamp" ] || [ "$(cat "$tdata_stamp")" != "$want_tdata" ]; then
  echo "python_venv: adding ${tdata[*]}" >&2
  cons="$(mktemp)"
  echo "numpy==1.24.2" > "$cons"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input -c "$cons" "${tdata[@]}" >&2
  rm -f "$cons"
  "$venv/bin/python" -c 'import torch, torchdata.stateful_dataloader
assert torch.__version__.split("+")[0] == "2.15.0", torch.__version__' >&2
  echo "$want_tdata" > "$tdata_stamp"
fi

# prometheus_client for the metrics tests (tests/python/test_metrics.py
# parses pixflow's exposition with its parser) and pixflow.data's
# metrics_port: pure Python, no dependencies; its own stamp.
promc=(prometheus_client==0.26.0)
promc_stamp="$venv/.pixflow-prometheus-pins"
want_promc="$(printf '%s\n' "${promc[@]}")"
if [ ! -f "$promc_stamp" ] || [ "$(cat "$promc_stamp")" != "$want_promc" ]; then
  echo "python_venv: adding ${promc[*]}" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input --no-deps "${promc[@]}" >&2
  "$venv/bin/python" -c 'import prometheus_client.parser' >&2
  echo "$want_promc" > "$promc_stamp"
fi
echo "$venv"
