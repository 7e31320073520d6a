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


cuda = pytest.mark.skipif(not (os.environ.get("PIXFLOW_TEST_CUDA", "1") == "1" and cuda_available()),
                          reason="needs a CUDA GPU and a CUDA build of pixflow (none here)")


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
