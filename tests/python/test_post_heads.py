"""pixflow.post detector heads and masks. YOLO: the ultralytics non_max_suppression steps, written out
here with torch and torchvision.ops.nms (ultralytics itself is AGPL and not a dependency), on YOLOv8
(1, 84, 8400) and YOLOv5 (1, 8400, 85) outputs at conf 0.25 and 0.001, best class and multi-label:
identical detections with class_offset=7680; the exact per-class mode differs only where the offset
trick's rounding changes an IoU. Masks: argmax / threshold vs torch, YOLO-seg prototypes vs
ultralytics' process_mask steps in torch (pixels within rounding of 0 may flip), SSD decoding vs
torchvision's BoxCoder (torch.exp vs libm expf: last bits)."""
import numpy as np
import pytest
import torch
import torchvision

import pixflow.post as post


def xywh2xyxy(x):
    y = torch.empty_like(x)
    xy, wh = x[..., :2], x[..., 2:] / 2
    y[..., :2] = xy - wh
    y[..., 2:] = xy + wh
    return y


def ultralytics_v8(prediction, conf_thres, iou_thres, multi_label, max_det=300, max_nms=30000, max_wh=7680):
    nc = prediction.shape[1] - 4
    xc = prediction[:, 4:4 + nc].amax(1) > conf_thres
    prediction = prediction.transpose(-1, -2)
    prediction = torch.cat((xywh2xyxy(prediction[..., :4]), prediction[..., 4:]), dim=-1)
    out = []
    for xi, x in enumerate(prediction):
        x = x[xc[xi]]
        box, cls = x.split((4, nc), 1)
        if multi_label:
            i, j = torch.where(cls > conf_thres)
            x = torch.cat((box[i], x[i, 4 + j, None], j[:, None].float()), 1)
        else:
            conf, j = cls.max(1, keepdim=True)
            x = torch.cat((box, conf, j.float()), 1)[conf.view(-1) > conf_thres]
        if x.shape[0] > max_nms:
            x = x[x[:, 4].argsort(descending=True)[:max_nms]]
        c = x[:, 5:6] * max_wh
        i = torchvision.ops.nms(x[:, :4] + c, x[:, 4], iou_thres)[:max_det]
        out.append(x[i])
    return out


def ultralytics_v5(prediction, conf_thres, iou_thres, multi_label, max_det=300, max_nms=30000, max_wh=7680):
    xc = prediction[..., 4] > conf_thres
    out = []
    for xi, x in enumerate(prediction):
        x = x[xc[xi]].clone()
        x[:, 5:] *= x[:, 4:5]
        box = xywh2xyxy(x[:, :4])
        if multi_label:
            i, j = (x[:, 5:] > conf_thres).nonzero(as_tuple=False).T
            x = torch.cat((box[i], x[i, 5 + j, None], j[:, None].float()), 1)
        else:
            conf, j = x[:, 5:].max(1, keepdim=True)
            x = torch.cat((box, conf, j.float()), 1)[conf.view(-1) > conf_thres]
        x = x[x[:, 4].argsort(descending=True, stable=True)[:max_nms]]
        c = x[:, 5:6] * max_wh
        i = torchvision.ops.nms(x[:, :4] + c, x[:, 4], iou_thres)[:max_det]
        out.append(x[i])
    return out


def yolov8_output(rng, A=8400, C=80, objects=40):
    p = np.zeros((1, 4 + C, A), np.float32)
    p[0, 0], p[0, 1] = rng.uniform(0, 640, A), rng.uniform(0, 640, A)
    p[0, 2:4] = rng.uniform(4, 64, (2, A))
    p[0, 4:] = np.where(rng.uniform(size=(C, A)) < 0.02, rng.uniform(0, 0.01, (C, A)), rng.uniform(0, 5e-4, (C, A)))
    for _ in range(objects):
        cx, cy, w, h = rng.uniform(30, 610), rng.uniform(30, 610), rng.uniform(20, 220), rng.uniform(20, 220)
        c, k = rng.integers(0, C), rng.integers(10, 40)
        a = rng.integers(0, A, k)
        p[0, 0, a] = cx + rng.uniform(-0.05, 0.05, k) * w
        p[0, 1, a] = cy + rng.uniform(-0.05, 0.05, k) * h
        p[0, 2, a], p[0, 3, a] = w * rng.uniform(0.9, 1.1, k), h * rng.uniform(0.9, 1.1, k)
        p[0, 4 + c, a] = rng.uniform(0.3, 0.95, k)
    return p


def as_rows(dets):
    boxes, scores, classes, _ = dets
    return np.concatenate([boxes, scores[:, None], classes[:, None].astype(np.float32)], 1)


@pytest.mark.parametrize("conf", [0.25, 0.001])
@pytest.mark.parametrize("multi", [False, True])
def test_yolov8_matches_ultralytics_steps(conf, multi):
    rng = np.random.default_rng(int(conf * 1000) + multi)
    for it in range(6 if conf < 0.01 and multi else 12):
        p = yolov8_output(rng)
        ref = ultralytics_v8(torch.from_numpy(p), conf, 0.7, multi)[0].numpy()
        got = as_rows(post.yolo_decode(p, conf, 0.7, multi_label=multi, class_offset=7680)[0])
        assert np.array_equal(ref, got), (conf, multi, it, ref.shape, got.shape)


@pytest.mark.parametrize("conf", [0.25, 0.001])
def test_yolov5_matches_ultralytics_steps(conf):
    rng = np.random.default_rng(50)
    for it in range(8):
        p8 = yolov8_output(rng, C=20)
        # (1, A, 5 + C): objectness from the best class, class scores relative to it
        x = p8[0].T.copy()
        obj = x[:, 4:].max(1, keepdims=True)
        v5 = np.concatenate([x[:, :4], obj, np.clip(x[:, 4:] / np.maximum(obj, 1e-6), 0, 1)], 1)[None]
        v5 = np.ascontiguousarray(v5, np.float32)
        for multi in (False, True):
            ref = ultralytics_v5(torch.from_numpy(v5), conf, 0.45, multi)[0].numpy()
            got = as_rows(post.yolo_decode(v5, conf, 0.45, multi_label=multi, layout="v5", class_offset=7680)[0])
            assert np.array_equal(ref, got), (conf, multi, it)


def test_exact_per_class_mode_differs_from_the_offset_trick_only_by_rounding():
    rng = np.random.default_rng(9)
    diff = total = 0
    for _ in range(10):
        p = yolov8_output(rng)
        a = as_rows(post.yolo_decode(p, 0.001, 0.7)[0])
        b = as_rows(post.yolo_decode(p, 0.001, 0.7, class_offset=7680)[0])
        total += 1
        diff += not np.array_equal(a, b)
        # same detections up to the few pairs whose IoU rounds across the threshold
        assert abs(len(a) - len(b)) <= 3
    print(f"exact per-class vs offset trick: {diff} of {total} outputs differ")


def test_masks_from_logits_match_torch():
    rng = np.random.default_rng(11)
    logits = rng.integers(-3, 4, (2, 21, 65, 97)).astype(np.float32) / 2  # ties
    logits[0, 5, 3, 4] = np.nan
    ref = torch.from_numpy(logits).argmax(1, keepdim=True).to(torch.uint8).numpy()
    got = post.masks_from_logits(logits)
    assert np.array_equal(ref, got)
    ref = ((torch.from_numpy(logits) > 0.5).to(torch.uint8) * 200).numpy()
    assert np.array_equal(ref, post.masks_from_logits(logits, "threshold", 0.5, 200))


def test_proto_masks_match_ultralytics_process_mask():
    rng = np.random.default_rng(12)
    protos = rng.normal(size=(32, 160, 160)).astype(np.float32)
    coeffs = rng.normal(size=(25, 32)).astype(np.float32)
    xy = rng.uniform(0, 500, (25, 2))
    boxes = np.concatenate([xy, xy + rng.uniform(10, 140, (25, 2))], 1).astype(np.float32)
    # ultralytics process_mask(protos, masks_in, bboxes, shape=(640, 640)) in torch
    c, mh, mw = protos.shape
    t = (torch.from_numpy(coeffs) @ torch.from_numpy(protos).view(c, -1)).view(-1, mh, mw)
    db = torch.from_numpy(boxes).clone()
    db[:, 0] *= mw / 640
    db[:, 2] *= mw / 640
    db[:, 3] *= mh / 640
    db[:, 1] *= mh / 640
    x1, y1, x2, y2 = torch.chunk(db[:, :, None], 4, 1)
    r = torch.arange(mw, dtype=x1.dtype)[None, None, :]
    cc = torch.arange(mh, dtype=x1.dtype)[None, :, None]
    ref = (t * ((r >= x1) * (r < x2) * (cc >= y1) * (cc < y2))).gt_(0.0).numpy()
    masks, lg = post.proto_masks(coeffs, protos, boxes, (640, 640), value=1)
    differ = masks.astype(bool) != ref.astype(bool)
    # a pixel may flip only where the two summation orders round across 0
    assert np.all(np.abs(lg[differ]) < 1e-4), np.abs(lg[differ]).max()
    assert differ.mean() < 1e-3


def test_anchor_decode_matches_torchvision_boxcoder_within_exp_rounding():
    from torchvision.models.detection._utils import BoxCoder

    rng = np.random.default_rng(13)
    A = 500
    anchors_xyxy = np.concatenate([rng.uniform(0, 300, (A, 2)), np.zeros((A, 2))], 1).astype(np.float32)
    anchors_xyxy[:, 2:] = anchors_xyxy[:, :2] + rng.uniform(8, 80, (A, 2))
    deltas = rng.normal(scale=0.5, size=(A, 4)).astype(np.float32)
    coder = BoxCoder((10.0, 10.0, 5.0, 5.0))
    ref = coder.decode_single(torch.from_numpy(deltas), torch.from_numpy(anchors_xyxy)).numpy()
    cxcywh = post.box_convert(anchors_xyxy, "xyxy", "cxcywh")
    scores = np.full((1, A, 2), -10.0, np.float32)
    scores[0, :, 1] = 10.0  # every anchor scores class 1
    dets = post.anchor_decode(deltas[None], scores, cxcywh, scale=(10, 10, 5, 5), conf_threshold=0.5,
                              max_det=A, iou_threshold=1.0, delta_clip=float(np.log(1000.0 / 16)))[0]
    boxes, _, classes, anchor = dets
    assert len(boxes) == A and np.all(classes == 1)
    order = np.argsort(anchor)
    np.testing.assert_allclose(boxes[order], ref, rtol=2e-6, atol=2e-4)


def test_composite_formula():
    rng = np.random.default_rng(14)
    fg = rng.integers(0, 256, (40, 70, 3), dtype=np.uint8)
    bg = rng.integers(0, 256, (40, 70, 3), dtype=np.uint8)
    m = rng.integers(0, 256, (40, 70), dtype=np.uint8)
    got = post.composite(fg, bg, m)
    # CV-CUDA's AlphaLerp as it is written (float32): int((fg - bg) * m * Inv_255 + bg + 0.5f)
    p = ((fg.astype(np.int32) - bg.astype(np.int32)) * m[..., None].astype(np.int32)).astype(np.float32)
    want = (p * np.float32(0.00392156862) + bg.astype(np.float32) + np.float32(0.5)).astype(np.int32).astype(np.uint8)
    assert np.array_equal(got, want)
