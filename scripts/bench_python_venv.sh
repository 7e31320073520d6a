#!/usr/bin/env bash
# Creates (or reuses) the Python *benchmark* environment: a venv at a fixed
# path (PIXFLOW_BENCH_VENV, default /opt/pixflow-bench-venv) on Debian's
# interpreter, layered on the test venv (scripts/python_venv.sh) through a
# .pth file so torch/torchvision are the test venv's (no second 5 GB
# download), plus the benchmark-only packages from PyPI: NVIDIA DALI 2.4
# (nvidia-dali-cuda130; its CPU pipeline runs with device_id=None) and
# Albumentations 2.0.8 (with the numpy / opencv-python-headless it pulls
# in: they shadow Debian's inside this venv only). The test command never
# uses this venv, so nothing here can change a test's oracle.
# A stamp file holds the pinned list; a venv whose stamp differs is
# rebuilt. Prints the venv's path on the last line of stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${PIXFLOW_BENCH_VENV:-/opt/pixflow-bench-venv}"
test_venv="$(bash scripts/python_venv.sh | tail -1)"
pins=(nvidia-dali-cuda130==2.4.0 albumentations==2.0.8)
stamp="$venv/.pixflow-pins"
want="$(printf '%s\n' "${pins[@]}" "on $test_venv")"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "bench_python_venv: reusing $venv (${pins[*]})" >&2
else
  t0=$SECONDS
  echo "bench_python_venv: creating $venv (${pins[*]}) on $test_venv" >&2
  rm -rf "$venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  test_site="$("$test_venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  # after this venv's own packages, before Debian's: torch, torchvision, pytest
  echo "$test_site" > "$site/pixflow-test-venv.pth"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input "${pins[@]}" >&2
  "$venv/bin/python" -c 'import nvidia.dali, albumentations, torch, torchvision
print("bench_python_venv: dali", nvidia.dali.__version__, "albumentations", albumentations.__version__,
      "torch", torch.__version__, "torchvision", torchvision.__version__)' >&2
  echo "$want" > "$stamp"
  echo "bench_python_venv: made in $((SECONDS - t0)) s" >&2
fi
echo "$venv"
