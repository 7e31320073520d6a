#!/usr/bin/env bash
# The Python part of the test command: the cached venv (scripts/python_venv.sh:
# Debian's python3 + numpy/cv2/PIL, torch 2.15.0 + torchvision 0.29.2 from
# PyPI), `pip install .` of this checkout into it (scikit-build-core, the
# top-level CMake, libpixflow linked statically; the in-tree build folder
# build/python-* makes a rebuild incremental), then pytest on tests/python.
# Fails on any failure, and when pytest collected no test (its exit 5).
# tests/python includes the scale-out tests (docs/scale-out.md): test_ray_data
# (~10 s), test_ray_fault (a loopback 2-node Ray cluster, 1 raylet kill +
# 2 without Ray's recovery, 65-100 s by load; PIXFLOW_RAY_STRESS=1 adds the
# 20 + 4-kill stress run, deselected otherwise) and test_ddp (torchrun x2 /
# x3 with gloo, 30-40 s).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
t0=$SECONDS
venv="$(bash scripts/python_venv.sh | tail -1)"
py="$venv/bin/python"
echo "== python: pip install . into $venv"
# PIXFLOW_OPENCL=ON, not pyproject's AUTO: a build that lost the OpenCL backend fails here instead
# of skipping the OpenCL tests (tests/python/test_loader_opencl.py runs on PoCL)
"$py" -m pip install -q --disable-pip-version-check --no-input --no-build-isolation --force-reinstall --no-deps \
  --config-settings=cmake.define.PIXFLOW_OPENCL=ON . \
  > build-python-install.log 2>&1 || { tail -50 build-python-install.log; echo "pip install . failed"; exit 1; }
echo "== python: installed in $((SECONDS - t0)) s; running pytest"
# run from outside the tree so `import pixflow` is the installed package
set +e
(cd /tmp && "$py" -m pytest -q -p no:cacheprovider "$OLDPWD/tests/python" "$@")
rc=$?
set -e
if [ "$rc" -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; exit 1; fi
if [ "$rc" -ne 0 ]; then echo "pytest failed (exit $rc)"; exit "$rc"; fi
# the ops' kernels at every ISA cap against the same oracles (the uncapped
# run above is avx512vbmi where the CPU has it; avx512 is AVX-512 without
# VBMI, a Skylake-SP)
# the caps below the host's level only: one at or above it is the run above again
host_level=$(bash scripts/host_isa_level.sh)
for cap in scalar sse4 avx2 avx512; do
  [ "$cap" = "$host_level" ] && break
  echo "== python: PIXFLOW_CPU=$cap: pixflow.cv vs cv2, photometric ops and resize vs torchvision"
  (cd /tmp && PIXFLOW_CPU=$cap "$py" -m pytest -q -p no:cacheprovider \
     "$OLDPWD/tests/python/test_cv.py" "$OLDPWD/tests/python/test_photo_torchvision.py" \
     "$OLDPWD/tests/python/test_resize_torchvision.py::test_u8_random_cases_bit_exact[0]" \
     "$OLDPWD/tests/python/test_resize_torchvision.py::test_u8_photos_and_the_usual_sizes") || {
    echo "pytest failed under PIXFLOW_CPU=$cap"; exit 1; }
done
echo "== python: done in $((SECONDS - t0)) s"
