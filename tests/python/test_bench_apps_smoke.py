"""The app benchmarks run: bench/apps/bench_detect.py once on a tiny clip, in a subprocess as a
user runs it. Its pixflow side calls detect.run; a namespace built by hand there went stale when
detect gained options and the bench stopped running without any test noticing. No timing is
checked (speed targets belong in the benchmarks)."""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

import pixflow
from conftest import ROOT


def test_bench_detect_runs_both_apps_and_compares_them():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("cv2")
    if shutil.which("ffmpeg") is None:
        pytest.skip("the ffmpeg program is needed to make the clip")
    if not hasattr(pixflow._pixflow, "Video"):
        pytest.skip("pixflow built without the FFmpeg video source")
    env = dict(os.environ)
    env.setdefault("PIXFLOW_MODEL_CACHE", os.path.join(tempfile.gettempdir(), "pixflow-model-cache"))
    from pixflow.apps import models

    try:
        models.fetch("yolov8n-nudenet")
    except pixflow.IOError as e:
        pytest.skip(f"cannot fetch the model: {e}")
    for extra in ([], ["--rect"]):
        r = subprocess.run([sys.executable, str(ROOT / "bench" / "apps" / "bench_detect.py"), "--frames", "8",
                            "--repeat", "1", "--size", "640x360", "--threads", "1", *extra],
                           capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "ratio pixflow / usual:" in r.stdout, r.stdout
        assert "detections: 8 vs 8 frames" in r.stdout, r.stdout
        assert "post-processing alone on the same model outputs (8 frames): same boxes and classes" in r.stdout
