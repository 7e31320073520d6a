"""pixflow.post box utilities against torchvision.ops 0.29.2: box_convert, clip_boxes_to_image,
remove_small_boxes, the IoU family (IoU, GIoU, DIoU exact; CIoU within torch's atan), masks_to_boxes
(and the empty mask torchvision refuses), and the letterbox un-mapping of a 1920x1080 frame."""
import numpy as np
import pytest
import torch
import torchvision

import pixflow.post as post


def random_boxes(rng, n, degenerate=True):
    xy = rng.uniform(-10, 100, (n, 2))
    wh = rng.uniform(0, 60, (n, 2))
    b = np.concatenate([xy, xy + wh], 1).astype(np.float32)
    if degenerate and n:
        b[rng.integers(0, n, max(1, n // 10)), 2] = b[rng.integers(0, n, max(1, n // 10)), 0]  # zero width
        if n > 3:
            b[1, 0] = np.nan
    return b


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("fmts", [("xyxy", "xywh"), ("xyxy", "cxcywh"), ("xywh", "xyxy"), ("cxcywh", "xyxy"),
                                  ("xywh", "cxcywh"), ("cxcywh", "xywh"), ("xyxy", "xyxy")])
def test_box_convert(fmts):
    rng = np.random.default_rng(1)
    b = random_boxes(rng, 500)
    ref = torchvision.ops.box_convert(torch.from_numpy(b), *fmts).numpy()
    assert same(ref, post.box_convert(b, *fmts))
    assert isinstance(post.box_convert(torch.from_numpy(b), *fmts), torch.Tensor)


def test_clip_and_remove_small():
    rng = np.random.default_rng(2)
    b = random_boxes(rng, 300) * 3 - 50
    b[5] = [-0.0, 1, 2, -0.0]
    for size in [(480, 640), (1, 1), (100, 37)]:
        ref = torchvision.ops.clip_boxes_to_image(torch.from_numpy(b), size).numpy()
        assert same(ref, post.clip_boxes_to_image(b, size))
    for m in [0.0, 1.0, 7.5, 30.0]:
        ref = torchvision.ops.remove_small_boxes(torch.from_numpy(b), m)
        got = post.remove_small_boxes(torch.from_numpy(b), m)
        assert torch.equal(ref, got)


@pytest.mark.parametrize("name", ["box_iou", "generalized_box_iou", "distance_box_iou"])
def test_iou_family_bit_exact(name):
    rng = np.random.default_rng(3)
    for it in range(60):
        a = random_boxes(rng, int(rng.integers(1, 70)))
        b = random_boxes(rng, int(rng.integers(1, 70)))
        if it % 4 == 0:
            a, b = np.round(a), np.round(b)
        ref = getattr(torchvision.ops, name)(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        got = getattr(post, name)(a, b)
        assert same(ref, got), (name, it)


def test_complete_box_iou_within_atan_rounding():
    rng = np.random.default_rng(4)
    worst = 0.0
    for _ in range(60):
        a = random_boxes(rng, int(rng.integers(1, 70)), degenerate=False)
        b = random_boxes(rng, int(rng.integers(1, 70)), degenerate=False)
        a[:, 2:] += 0.5
        b[:, 2:] += 0.5
        ref = torchvision.ops.complete_box_iou(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        got = post.complete_box_iou(a, b)
        worst = max(worst, float(np.nanmax(np.abs(ref - got))))
        assert np.array_equal(np.isnan(ref), np.isnan(got))
    assert worst < 1e-6, worst


def test_masks_to_boxes():
    rng = np.random.default_rng(5)
    masks = (rng.uniform(size=(20, 37, 53)) < 0.01).astype(np.uint8)
    masks[3] = 0
    ref = torchvision.ops.masks_to_boxes(torch.from_numpy(masks))
    got = post.masks_to_boxes(torch.from_numpy(masks))
    assert torch.equal(ref, got)
    assert got[3].tolist() == [0, 0, 0, 0]  # empty mask: zeros, as torchvision 0.29 (older ones raised)
    assert post.masks_to_boxes(np.zeros((0, 5, 5), np.uint8)).shape == (0, 4)
    assert post.masks_to_boxes(np.zeros((3, 0, 5), np.uint8)).tolist() == [[0, 0, 0, 0]] * 3


def test_unmap_1080p_letterbox_like_ultralytics_scale_boxes():
    # ultralytics' scale_boxes(img1_shape=(640, 640), boxes, img0_shape=(1080, 1920)), its float32 steps
    # written out with torch: gain and pad from the shapes, (x - pad) / gain, clip_boxes
    gain = min(640 / 1080, 640 / 1920)
    pad = (round((640 - 1920 * gain) / 2 - 0.1), round((640 - 1080 * gain) / 2 - 0.1))
    rng = np.random.default_rng(6)
    boxes = rng.uniform(0, 640, (200, 4)).astype(np.float32)
    boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2])
    t = torch.from_numpy(boxes.copy())
    t[..., [0, 2]] -= pad[0]
    t[..., [1, 3]] -= pad[1]
    t[..., :4] /= gain
    t[..., [0, 2]] = t[..., [0, 2]].clamp(0, 1920)
    t[..., [1, 3]] = t[..., [1, 3]].clamp(0, 1080)
    info = (1 / 3, 1 / 3, 0.0, 140.0, 0, 0)  # what pf_preprocess_run reports for this frame
    got = post.unmap_boxes(boxes, info, (1920, 1080), rounding="ultralytics", out_size=(640, 640))
    assert np.array_equal(t.numpy(), got)
    exact = post.unmap_boxes(boxes, info, (1920, 1080))
    assert np.max(np.abs(exact - got)) <= 1e-3  # float rounding only: the resize was exact
