#!/usr/bin/env bash
# A new user's first step, as the README gives it: `pip install .` with
# build isolation (pip fetches scikit-build-core, and cmake/ninja if the
# system's are missing or too old, into a throwaway build environment) into
# a brand-new venv on Debian's python3: no system site-packages, no
# pre-made venv, no --no-build-isolation. Then `import pixflow` and a few
# ops whose result is known exactly. Catches what the cached test venv
# hides: a build requirement or run-time dependency missing from
# pyproject.toml, a file left out of the wheel, a module that imports a
# test-only package.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
t0=$SECONDS
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# the checkout as a fresh clone has it: no build folders, no git metadata
mkdir "$tmp/src"
tar --exclude='./build*' --exclude='./.git' -cf - . | tar -xf - -C "$tmp/src"
/usr/bin/python3 -m venv "$tmp/venv"
py="$tmp/venv/bin/python"
echo "fresh install: pip install . into a new venv ($("$py" --version))"
if ! "$py" -m pip install --disable-pip-version-check --no-input "$tmp/src" >"$tmp/install.log" 2>&1; then
  tail -60 "$tmp/install.log"
  echo "fresh install: pip install . failed"
  exit 1
fi
grep -E '^Successfully installed' "$tmp/install.log" | sed 's/^/  /'
(cd "$tmp" && "$py" - <<'PY'
import numpy as np
import pixflow
import pixflow.cv as pcv

rng = np.random.default_rng(7)
img = rng.integers(0, 256, size=(37, 53, 3), dtype=np.uint8)
# channel swap: exactly the reversed channel axis
rgb = pcv.cvtColor(img, pcv.COLOR_BGR2RGB)
assert np.array_equal(rgb, img[..., ::-1]), "cvtColor BGR2RGB"
# a flat image stays flat through every interpolation
flat = np.full((40, 60, 3), 131, np.uint8)
for interp in (pcv.INTER_NEAREST, pcv.INTER_LINEAR, pcv.INTER_CUBIC, pcv.INTER_AREA, pcv.INTER_LANCZOS4):
    out = pcv.resize(flat, (23, 17), interpolation=interp)
    assert out.shape == (17, 23, 3) and (out == 131).all(), interp
# flips are permutations
assert np.array_equal(pcv.flip(img, 1), img[:, ::-1])
try:
    pcv.resize(img, (0, 0))
except pixflow.Error as e:
    assert "dsize" in str(e) or "size" in str(e), e
else:
    raise AssertionError("resize to (0, 0) without fx/fy must raise pixflow.Error")
print(f"fresh install: import pixflow {pixflow.__version__} and 4 ops: ok (numpy {np.__version__})")
PY
)
echo "fresh install: done in $((SECONDS - t0)) s"
