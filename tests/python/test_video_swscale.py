"""pixflow.video's convert="swscale" against its oracle, cv2.VideoCapture: the frames (u8 BGR of the
frame's size) byte for byte, the letterboxed tensors equal to pixflow's plan run on cv2's frames, and
`python -m pixflow detect --convert swscale` giving the usual cv2 + onnxruntime + NMSBoxes app's
detections box for box (bench/apps/bench_detect.py's usual app, on the same H.264 clip and model).
Equality holds when pixflow and cv2 load one libswscale (Debian's cv2 and pixflow both link
Debian's FFmpeg); the default convert="fused" is a few units away (that is why the option exists)."""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import pixflow
from pixflow import _pixflow as _P

cv2 = pytest.importorskip("cv2")
from conftest import ROOT  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(_P, "Video"), reason="built without the FFmpeg video source")


def _clip(d, w, h, frames):
    ff = shutil.which("ffmpeg")
    if ff is None:
        pytest.skip("ffmpeg is not installed: no H.264 test clip")
    out = os.path.join(d, f"testsrc_{w}x{h}.mp4")
    subprocess.run([ff, "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={w}x{h}:rate=25", "-frames:v",
                    str(frames), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", out],
                   check=True, timeout=120)
    return out


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("swscale"))
    return [_clip(d, 640, 360, 12), _clip(d, 1280, 720, 6)]


def cv2_frames(path):
    cap = cv2.VideoCapture(path)
    out = []
    while True:
        ok, f = cap.read()
        if not ok:
            return out
        out.append(f)


def pixflow_frames(path, desc, convert):
    v = _P.Video([path], desc, {"batch": 4, "convert": pixflow.video.convert_code(convert)})
    out, frames = [], []
    while True:
        b = v.next()
        if b is None:
            return out, frames
        a = np.asarray(b.images)
        out.extend(a[i].copy() for i in range(len(b.frames)))
        frames.extend(b.frames)


def test_swscale_frames_equal_cv2_videocapture(clips):
    for path in clips:
        ref = cv2_frames(path)
        h, w = ref[0].shape[:2]
        desc = {"out_width": w, "out_height": h, "out_dtype": _P.U8, "out_layout": _P.HWC, "swap_rb": True}
        got, frames = pixflow_frames(path, desc, "swscale")
        assert len(got) == len(ref) > 0
        for i, (g, r) in enumerate(zip(got, ref)):
            assert np.array_equal(g, r), (path, i, int(np.abs(g.astype(int) - r.astype(int)).max()))
        assert (frames[0]["width"], frames[0]["height"]) == (w, h)
        fused, _ = pixflow_frames(path, desc, "fused")   # the option matters: the fused conversion differs
        diff = max(int(np.abs(g.astype(int) - r.astype(int)).max()) for g, r in zip(fused, ref))
        assert 0 < diff <= 8, diff


def test_swscale_letterbox_equals_the_plan_on_cv2_frames(clips):
    desc, _ = _P.recipe("yolo")
    desc = dict(desc, out_width=320, out_height=320)
    plan = _P.Plan(desc)
    for path in clips:
        ref = cv2_frames(path)
        got, frames = pixflow_frames(path, desc, "swscale")
        assert len(got) == len(ref)
        for g, r, f in zip(got, ref, frames):
            want = np.asarray(plan.run([np.ascontiguousarray(r[:, :, ::-1])]))[0]
            assert np.array_equal(g, want)
            assert f["letterbox"]["scale_x"] == pytest.approx(320 / r.shape[1])


def test_bad_convert_is_refused_by_name(clips):
    with pytest.raises(pixflow.InvalidArgument, match="convert"):
        pixflow.video.open(clips[0], convert="opencv")
    with pytest.raises(pixflow.InvalidArgument, match="config->convert"):
        _P.Video([clips[0]], None, {"convert": 5})


# ------------------------------------------------------------------ detect vs the usual app


def _bench_detect():
    spec = importlib.util.spec_from_file_location("bench_detect", ROOT / "bench" / "apps" / "bench_detect.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("batch", [1, 4])
def test_detect_swscale_gives_the_usual_apps_boxes_box_for_box(tmp_path, batch):
    pytest.importorskip("onnxruntime")
    os.environ.setdefault("PIXFLOW_MODEL_CACHE", os.path.join(tempfile.gettempdir(), "pixflow-model-cache"))
    from pixflow.apps import detect, models

    try:
        model = models.fetch("yolov8n-nudenet")
    except pixflow.IOError as e:
        pytest.skip(f"cannot fetch the model: {e}")
    bd = _bench_detect()
    clip = str(tmp_path / "clip.mp4")
    bd.make_clip(clip, 12, 1280, 720)
    usual, _, _, _ = bd.run_usual(clip, model, 1, 0.25, 0.7, 320, 12)
    import argparse

    ap = argparse.ArgumentParser()
    detect.add_args(ap)
    args = ap.parse_args([clip, "--model", model, "--batch", str(batch), "--threads", "1",
                                             "--out", str(tmp_path / "out"), "--convert", "swscale", "--quiet"])
    detect.run(args)
    import json

    lines = sorted((json.loads(x) for x in open(tmp_path / "out" / "detections.jsonl")), key=lambda x: x["frame"])
    mine = [x["detections"] for x in lines]
    assert len(mine) == len(usual) == 12
    nboxes = 0
    for i, (a, b) in enumerate(zip(mine, usual)):
        assert [d["class"] for d in a] == [d["class"] for d in b], (i, a, b)
        for da, db in zip(a, b):
            # detect's JSON rounds boxes to 0.01 px and scores to 1e-4
            assert np.abs(np.array(da["box"]) - np.array(db["box"])).max() <= 0.011, (i, da, db)
            assert abs(da["score"] - db["score"]) <= 1e-4 + 1e-6, (i, da, db)
        nboxes += len(a)
    assert nboxes >= 12   # the astronaut's face (and more) on every frame
