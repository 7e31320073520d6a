"""Post-processing on the CPU: pixflow.post vs torchvision.ops and the ultralytics
non_max_suppression steps written with torch (the same steps tests/python/test_post_heads.py
checks pixflow against; ultralytics itself is AGPL and not installed). Same thread count on
both sides (torch.set_num_threads / pixflow.set_num_threads). Every row checks that the keep
lists (or detections) are identical before it times anything (batched_nms too: pixflow
reproduces the tie order of torchvision's unstable final sort). Median wall time of --repeat
calls after a warm-up, in ms.

    /opt/pixflow-venv/bin/python bench/python/bench_post.py [--threads 1] [--repeat 21]

Cases (issue 17): NMS of 8,400 boxes of one class (IoU 0.7 and 0.5); batched_nms of the same
boxes over 80 classes; YOLOv8 (1, 84, 8400) decode + per-class NMS at conf 0.25 and 0.001.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "python"))
from test_post_heads import ultralytics_v8, yolov8_output  # noqa: E402  (the checked oracle steps)

import pixflow  # noqa: E402
import pixflow.post as post  # noqa: E402


def median_ms(fn, repeat):
    fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(ts)


def nms_input(rng):
    """8,400 boxes of a YOLOv8 output (640x640, clustered around 40 objects), xyxy, and their best
    class scores: the input of one-class NMS."""
    p = torch.from_numpy(yolov8_output(rng))[0]
    xy, wh = p[:2].T, p[2:4].T / 2
    boxes = torch.cat((xy - wh, xy + wh), 1).contiguous()
    scores, classes = p[4:].max(0)
    return boxes, scores.contiguous(), classes.contiguous()


def rows(repeat, rng):
    boxes, scores, classes = nms_input(rng)
    for thr in (0.7, 0.5):
        ref = torchvision.ops.nms(boxes, scores, thr)
        assert torch.equal(ref, post.nms(boxes, scores, thr)), "nms keep lists differ"
        yield (f"nms 8400 boxes, 1 class, IoU {thr} (kept {len(ref)})",
               median_ms(lambda: torchvision.ops.nms(boxes, scores, thr), repeat),
               median_ms(lambda: post.nms(boxes, scores, thr), repeat))
    ref = torchvision.ops.batched_nms(boxes, scores, classes, 0.7)
    got = post.batched_nms(boxes, scores, classes, 0.7)
    # above 4000 coordinates torchvision loops over classes and sorts the kept scores unstably;
    # pixflow reproduces that sort's order (PF_NMS_ORDER_TORCH_SORT): the same list
    assert torch.equal(ref, got), "batched_nms keep lists differ"
    yield (f"batched_nms 8400 boxes, 80 classes, IoU 0.7 (kept {len(ref)})",
           median_ms(lambda: torchvision.ops.batched_nms(boxes, scores, classes, 0.7), repeat),
           median_ms(lambda: post.batched_nms(boxes, scores, classes, 0.7), repeat))
    pred = torch.from_numpy(yolov8_output(rng))
    for conf in (0.25, 0.001):
        ref = ultralytics_v8(pred, conf, 0.7, False)[0]
        b, s, c, _ = post.yolo_decode(pred, conf, 0.7, class_offset=7680)[0]
        got = torch.from_numpy(np.concatenate([b, s[:, None], c[:, None].astype(np.float32)], 1))
        assert torch.equal(ref, got), f"yolo detections differ at conf {conf}"
        yield (f"yolov8 (1,84,8400) decode+NMS conf {conf} (dets {len(ref)})",
               median_ms(lambda: ultralytics_v8(pred, conf, 0.7, False), repeat),
               median_ms(lambda: post.yolo_decode(pred, conf, 0.7, class_offset=7680), repeat))
        yield (f"  the same, exact per-class IoU (no offset trick)", None,
               median_ms(lambda: post.yolo_decode(pred, conf, 0.7), repeat))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=21)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    pixflow.set_num_threads(a.threads)
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, pixflow {pixflow.__version__}, "
          f"{a.threads} thread(s), median of {a.repeat}; keep lists checked identical in every row")
    print(f"{'case':58s} {'reference ms':>12s} {'pixflow ms':>11s} {'ratio':>7s}")
    for name, ref_ms, pf_ms in rows(a.repeat, np.random.default_rng(0)):
        if ref_ms is None:
            print(f"{name:58s} {'':>12s} {pf_ms:11.3f}")
        else:
            print(f"{name:58s} {ref_ms:12.3f} {pf_ms:11.3f} {ref_ms / pf_ms:6.1f}x")


if __name__ == "__main__":
    main()
