"""Shared fixtures: the sample photos in data/ and a seeded generator."""
import os
import pathlib

import numpy as np
import pytest

# The oracles run on small images, one call each: torch's intra-op threads
# cost more than they give there (adjust_sharpness on a 40x70 image: 27 ms
# with 2 threads on a busy 2-core machine, 3.6 ms with one). Results do not
# depend on it at the bounds the tests state.
try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the tests that need torch import it themselves
    pass

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


def photo_paths():
    return sorted(p for p in DATA.iterdir() if p.suffix in (".jpg", ".png"))


@pytest.fixture(scope="session")
def photos():
    import cv2

    return {p.name: cv2.imread(str(p), cv2.IMREAD_COLOR) for p in photo_paths()}


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def cuda_available():
    import pixflow

    return pixflow.cuda_device_count() > 0


def in_ci():
    """CI sets CI=true: there a missing oracle or fixture is a failure, not a skip."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def opencl_skip_reason():
    """Why the OpenCL tests cannot run here (None when they can): a build without the backend, or no ICD."""
    import pixflow

    if "opencl=on" not in pixflow.build_info():
        return "this pixflow was built without the OpenCL backend (PIXFLOW_OPENCL=ON needs ocl-icd-opencl-dev)"
    if pixflow.opencl_device_count() == 0:
        return "no OpenCL device (install an ICD such as pocl-opencl-icd)"
    return None


def gpu_required():
    """PIXFLOW_REQUIRE_GPU=1 (bench/gpu/run_device_checks.sh sets it): a CUDA test may not skip."""
    return os.environ.get("PIXFLOW_REQUIRE_GPU", "") == "1"


def _cuda_skip_reason():
    if os.environ.get("PIXFLOW_TEST_CUDA", "1") != "1":
        return "PIXFLOW_TEST_CUDA is not 1"
    if not cuda_available():
        return "needs a CUDA GPU and a CUDA build of pixflow (none here)"
    return None


_cuda_reason = _cuda_skip_reason()


def cuda(fn):
    """Marks a test as needing a CUDA GPU: `cuda` marker (the one skip CI allows when no GPU is
    present) plus a skip with the reason when there is none. With PIXFLOW_REQUIRE_GPU=1 or a
    CUDA device present the skip is not taken (a device test that cannot run there fails)."""
    fn = pytest.mark.cuda(fn)
    if _cuda_reason is not None and not gpu_required():
        fn = pytest.mark.skip(reason=_cuda_reason)(fn)
    return fn


# ---------------------------------------------------------------- the skip policy
# A suite that goes green by skipping proves nothing. Under CI=true every skip is turned into a
# failure naming what was missing, except a CUDA test's skip on a machine without a GPU (then
# it is listed by name at the end). With PIXFLOW_REQUIRE_GPU=1 the CUDA skips fail too.
_cuda_skipped = []


def _skip_reason(longrepr):
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if not rep.skipped or hasattr(rep, "wasxfail"):
        return
    is_cuda = item.get_closest_marker("cuda") is not None
    if is_cuda and not gpu_required():
        _cuda_skipped.append(item.nodeid)
        return
    if in_ci() or (is_cuda and gpu_required()):
        why = "PIXFLOW_REQUIRE_GPU=1" if is_cuda and gpu_required() else "CI=true"
        rep.outcome = "failed"
        rep.longrepr = f"{why}: a skip is a failure here: {_skip_reason(rep.longrepr)}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    # a module-level importorskip skips the whole file at collection time
    outcome = yield
    rep = outcome.get_result()
    if rep.skipped and in_ci():
        rep.outcome = "failed"
        rep.longrepr = f"CI=true: a skipped module is a failure here: {_skip_reason(rep.longrepr)}"


def pytest_terminal_summary(terminalreporter):
    if _cuda_skipped:
        terminalreporter.write_line(f"skipped for want of a CUDA GPU ({len(_cuda_skipped)}):")
        for nodeid in _cuda_skipped:
            terminalreporter.write_line(f"  {nodeid}")


# `stress`: long variants (PIXFLOW_RAY_STRESS=1 runs them); otherwise deselected, so a
# default run neither runs nor reports them as skipped
def pytest_configure(config):
    config.addinivalue_line("markers",
                            "stress: long variant, run only with PIXFLOW_RAY_STRESS=1 (deselected otherwise)")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PIXFLOW_RAY_STRESS") == "1":
        return
    stress = [it for it in items if it.get_closest_marker("stress")]
    if stress:
        config.hook.pytest_deselected(items=stress)
        items[:] = [it for it in items if not it.get_closest_marker("stress")]
