"""Shared fixtures: the sample photos in data/ and a seeded generator."""
import os
import pathlib

import numpy as np
import pytest

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
