#!/usr/bin/env bash
# Creates (or reuses) the Python test environment: a venv at a fixed path
# (PIXFLOW_VENV, default /opt/pixflow-venv) on Debian's interpreter with
# the system site-packages visible (Debian's numpy 1.24, cv2 4.6 = the
# OpenCV the C parity tests use, PIL 9.4), plus the pinned oracles from
# PyPI: torch 2.15.0 and torchvision 0.29.2 (about 5 GB, ~3 minutes on a
# fresh machine; used on the CPU only), pytest and the build backend.
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
echo "$venv"
