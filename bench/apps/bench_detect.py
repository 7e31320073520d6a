"""detect end to end: `python -m pixflow detect`'s pipeline vs the same app written the usual way
(cv2.VideoCapture -> numpy/cv2 letterbox as ultralytics' LetterBox -> /255 CHW blob ->
onnxruntime session.run -> numpy YOLOv8 decode -> cv2.dnn.NMSBoxes per class (the class-offset
trick) -> boxes scaled back), on the same H.264 clip, the same model (nudenet's YOLOv8n at 320)
and the same onnxruntime thread count, in one run, alternating, median of --repeat runs.

    /opt/pixflow-venv/bin/python bench/apps/bench_detect.py [--frames 120] [--size 1920x1080] [--repeat 3]

The clip is made here with ffmpeg (libx264, yuv420p) from scikit-image's astronaut on a moving
canvas, so every frame has a detection to compare. Prints frames/s of both, the ratio, the
detections check (same boxes after mapping: count, classes, max coordinate difference, min IoU),
and pixflow's preprocess + post-process share of the frame time with the model excluded."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np
import onnxruntime as ort

import pixflow
from pixflow.apps import detect, imaging, models


def make_clip(path, frames, w, h):
    ff = shutil.which("ffmpeg")
    if ff is None:
        sys.exit("ffmpeg is needed to make the H.264 clip")
    a = imaging.load_rgb(models.sample_image("astronaut"))
    side = int(h * 0.8)
    a = cv2.resize(a, (side, side), interpolation=cv2.INTER_AREA)
    p = subprocess.Popen([ff, "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}", "-r", "30",
                          "-i", "-", "-c:v", "libx264", "-preset", "medium", "-pix_fmt", "yuv420p", path],
                         stdin=subprocess.PIPE)
    for i in range(frames):
        f = np.full((h, w, 3), (40, 60, 90), np.uint8)
        x = int((w - side) * (0.5 + 0.4 * np.sin(i / 15.0)))
        y = (h - side) // 2
        f[y:y + side, x:x + side] = a
        p.stdin.write(f.tobytes())
    p.stdin.close()
    p.wait()


# ------------------------------------------------------------------ the usual way


def letterbox(im, new=320, color=(114, 114, 114)):
    """ultralytics' LetterBox (auto=False, center=True)."""
    h, w = im.shape[:2]
    r = min(new / h, new / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    dw, dh = (new - nw) / 2, (new - nh) / 2
    if (w, h) != (nw, nh):
        im = cv2.resize(im, (nw, nh), interpolation=cv2.INTER_LINEAR)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    im = cv2.copyMakeBorder(im, top, bottom, left, right, cv2.BORDER_CONSTANT, value=color)
    return im, r, (left, top)


def usual_post(pred, conf, iou, r, pad, w, h):
    p = pred.T                                   # (A, 4 + C)
    scores = p[:, 4:]
    cls = scores.argmax(1)
    best = scores[np.arange(len(p)), cls]
    keep = best > conf
    p, cls, best = p[keep], cls[keep], best[keep]
    xywh = p[:, :4].copy()
    boxes = np.stack([xywh[:, 0] - xywh[:, 2] / 2, xywh[:, 1] - xywh[:, 3] / 2,
                      xywh[:, 0] + xywh[:, 2] / 2, xywh[:, 1] + xywh[:, 3] / 2], 1)
    off = cls[:, None].astype(np.float32) * 7680.0   # per-class NMS by coordinate offsets
    b = boxes + off
    rects = np.stack([b[:, 0], b[:, 1], b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]], 1)
    idx = cv2.dnn.NMSBoxes(rects.tolist(), best.tolist(), conf, iou) if len(rects) else []
    idx = np.asarray(idx, np.int64).reshape(-1)[:300]
    out = boxes[idx]
    out[:, [0, 2]] = np.clip((out[:, [0, 2]] - pad[0]) / r, 0, w)
    out[:, [1, 3]] = np.clip((out[:, [1, 3]] - pad[1]) / r, 0, h)
    return [{"class": int(c), "score": float(s), "box": bb.tolist()} for bb, c, s in zip(out, cls[idx], best[idx])]


class _Canned:
    """--model-excluded: a stand-in for the session that returns one recorded output (per batch size),
    so both pipelines measure decode + preprocess + post-processing + their plumbing only."""

    def __init__(self, outputs):
        self.outputs = outputs

    def run(self, names, feeds):
        (x,) = feeds.values()
        return [np.repeat(self.outputs[0][:1], np.asarray(x).shape[0], axis=0)]


def run_usual(clip, model, threads, conf, iou, size, frames, canned=None):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    name = s.get_inputs()[0].name
    if canned is not None:
        s = canned
    cap = cv2.VideoCapture(clip)
    res, raw, t = [], [], {"decode": 0.0, "pre": 0.0, "infer": 0.0, "post": 0.0}
    t0 = time.perf_counter()
    while len(res) < frames:
        a = time.perf_counter()
        ok, bgr = cap.read()
        if not ok:
            break
        b = time.perf_counter()
        h, w = bgr.shape[:2]
        im, r, pad = letterbox(bgr, size)
        blob = np.ascontiguousarray(im[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        c = time.perf_counter()
        (pred,) = s.run(None, {name: blob})
        d = time.perf_counter()
        res.append(usual_post(pred[0], conf, iou, r, pad, w, h))
        if len(raw) < 8:
            raw.append((pred, r, pad, w, h))
        e = time.perf_counter()
        for k, v in zip(t, (b - a, c - b, d - c, e - d)):
            t[k] += v
    wall = time.perf_counter() - t0
    return res, len(res) / wall, {k: 1e3 * v / max(len(res), 1) for k, v in t.items()}, raw


def post_parity(raw, model, conf, iou, size):
    """pixflow's decode + NMS + un-mapping vs the usual numpy/cv2 steps on the SAME model outputs."""
    det = detect.Detector(model, size, conf, iou)
    worst = 0.0
    for pred, r, pad, w, h in raw:
        lb = {"scale_x": r, "scale_y": r, "offset_x": float(pad[0]), "offset_y": float(pad[1]), "crop_x": 0,
              "crop_y": 0}
        (mine,) = det.post(pred, [lb], [(w, h)])
        ref = usual_post(pred[0], conf, iou, r, pad, w, h)
        if [d["class"] for d in mine] != [d["class"] for d in ref]:
            return None
        for a, b in zip(mine, ref):
            worst = max(worst, float(np.abs(np.array(a["box"]) - np.array(b["box"])).max()))
    return worst


# ------------------------------------------------------------------ pixflow


def run_pixflow(clip, model, threads, conf, iou, size, frames, batch, out, canned=None, convert="fused",
                extra=()):
    # detect's own parser, so that the bench passes every option detect.run reads (a hand-made
    # namespace went stale when detect gained --rect / --precision and the bench stopped running)
    import argparse

    ap = argparse.ArgumentParser()
    detect.add_args(ap)
    args = ap.parse_args([clip, "--model", model, "--size", str(size), "--batch", str(batch), "--conf", str(conf),
                          "--iou", str(iou), "--max-frames", str(frames), "--threads", str(threads), "--out", out,
                          "--convert", convert, "--quiet", *extra])
    if canned is not None:   # the runner's call returns the recorded output (same shape per batch)
        from pixflow.apps import runners

        orig = runners.OnnxRunner.__call__
        runners.OnnxRunner.__call__ = lambda self, batch: canned.run(None, {"x": np.asarray(batch)})
        try:
            s = detect.run(args)
        finally:
            runners.OnnxRunner.__call__ = orig
    else:
        s = detect.run(args)
    import json

    lines = [json.loads(x) for x in open(os.path.join(out, "detections.jsonl"))]
    lines.sort(key=lambda x: x["frame"])
    return [x["detections"] for x in lines], s["fps"], s


def compare(a, b):
    worst_iou, worst_px, mismatched = 1.0, 0.0, 0
    for fa, fb in zip(a, b):
        if len(fa) != len(fb) or sorted(d["class"] for d in fa) != sorted(d["class"] for d in fb):
            mismatched += 1
            continue
        if not fa:
            continue
        ba = np.array([d["box"] for d in fa], np.float32)
        bb = np.array([d["box"] for d in fb], np.float32)
        m = pixflow.post.box_iou(ba, bb)
        j = m.argmax(1)
        worst_iou = min(worst_iou, float(m[np.arange(len(ba)), j].min()))
        worst_px = max(worst_px, float(np.abs(ba - bb[j]).max()))
    return mismatched, worst_iou, worst_px


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2, help="onnxruntime intra-op threads, both sides")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--clip", help="use this clip instead of making one")
    ap.add_argument("--model-excluded", action="store_true",
                    help="both sides reuse one recorded model output instead of running the model")
    ap.add_argument("--convert", choices=["fused", "swscale"], default="fused",
                    help="pixflow's YUV -> RGB (detect --convert): swscale gives the usual app's pixels, so its boxes")
    ap.add_argument("--rect", action="store_true",
                    help="pixflow detect --rect (ultralytics' rect letterbox: a smaller model input on 16:9 video; "
                         "the usual app keeps its square input, so the boxes are no longer the same box for box)")
    ap.add_argument("--precision", choices=["fp32", "fp16", "int8"], help="pixflow detect --precision")
    a = ap.parse_args()
    extra = (["--rect"] if a.rect else []) + (["--precision", a.precision] if a.precision else [])
    w, h = map(int, a.size.split("x"))
    tmp = tempfile.mkdtemp(prefix="bench_detect_")
    clip = a.clip or os.path.join(tmp, f"astronaut_{w}x{h}.mp4")
    if not a.clip:
        make_clip(clip, a.frames, w, h)
    model = models.fetch("yolov8n-nudenet")
    conf, iou, size = 0.25, 0.7, 320
    print(f"clip {clip} ({a.size} H.264, {a.frames} frames), nudenet YOLOv8n at {size}, onnxruntime "
          f"{ort.__version__} with {a.threads} threads, {os.cpu_count()} cores visible")
    canned = None
    if a.model_excluded:
        ru, _, _, raw = run_usual(clip, model, a.threads, conf, iou, size, 1)
        canned = _Canned([raw[0][0]])
        print("model excluded: both sides reuse the first frame's model output")
    fu, fp, stats = [], [], None
    for _ in range(a.repeat):
        ru, f1, tu, raw = run_usual(clip, model, a.threads, conf, iou, size, a.frames, canned)
        rp, f2, stats = run_pixflow(clip, model, a.threads, conf, iou, size, a.frames, a.batch,
                                    os.path.join(tmp, "pf"), canned, a.convert, extra)
        fu.append(f1)
        fp.append(f2)
    mu, mp = statistics.median(fu), statistics.median(fp)
    mism, wiou, wpx = compare(ru, rp)
    n_det = sum(len(x) for x in ru)
    print(f"\n{'pipeline':<44} {'frames/s':>9}")
    print(f"{'usual (VideoCapture+cv2 letterbox+ort+NMSBoxes)':<44} {mu:>9.1f}   runs {[round(x, 1) for x in fu]}")
    print(f"{'pixflow detect (video->letterbox->ort->post)':<44} {mp:>9.1f}   runs {[round(x, 1) for x in fp]}")
    per_round = sorted(p / u for u, p in zip(fu, fp))
    print(f"ratio pixflow / usual: {mp / mu:.2f}x of the medians, {statistics.median(per_round):.2f}x median of the "
          f"per-round ratios {[round(r, 2) for r in per_round]} (pixflow --convert {a.convert} {' '.join(extra)})")
    print(f"\ndetections: {len(ru)} vs {len(rp)} frames, {n_det} boxes; frames whose boxes differ in count or "
          f"class: {mism}; worst IoU {wiou:.4f}, worst coordinate difference {wpx:.2f} px")
    pp = post_parity(raw, model, conf, iou, size)
    print(f"post-processing alone on the same model outputs ({len(raw)} frames): "
          + ("classes differ" if pp is None else f"same boxes and classes, max coordinate difference {pp:.3f} px"))
    st = stats["stages"]
    dec, pre = st.get("decode", {}).get("mean_ms", 0.0), st.get("preprocess", {}).get("mean_ms", 0.0)
    post, inf = st["post"]["mean_ms"], st["inference"]["mean_ms"]
    print(f"\nper frame (ms, mean): usual decode {tu['decode']:.2f} letterbox+blob {tu['pre']:.2f} "
          f"inference {tu['infer']:.2f} post {tu['post']:.2f}")
    print(f"per frame (ms, mean): pixflow decode {dec:.2f} preprocess {pre:.2f} inference {inf:.2f} post {post:.2f}")
    frame_ms = 1e3 / mp
    print(f"pixflow preprocess + post: {pre + post:.2f} ms = {100 * (pre + post) / max(dec + pre + post, 1e-9):.1f}% "
          f"of the frame's non-model work (decode + preprocess + post), "
          f"{100 * (pre + post) / frame_ms:.1f}% of the {frame_ms:.2f} ms frame time")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
