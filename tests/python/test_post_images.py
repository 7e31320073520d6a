"""pixflow.post's image-view functions against the cv2 (4.6) chains they
stand for: masks_unmap = ROI + cv2.resize, background_blur = that +
cv2.GaussianBlur + the composite, draw_detections = cv2.rectangle (text-free
boxes) and cv2.addWeighted (fills). Bound: bit-exact, except where a test
compares the composite with a plain float blend (within 1, as
docs/exactness.md "Compositing" states)."""
import cv2
import numpy as np
import pytest

import pixflow
import pixflow.post as post


def letterbox(w, h, t):
    """The fused preprocess's letterbox of a w x h source into t x t: (info, ROI of the tensor)."""
    r = min(t / w, t / h)
    rw, rh = max(1, min(t, round(w * r))), max(1, min(t, round(h * r)))
    ox, oy = (t - rw) // 2, (t - rh) // 2
    return (rw / w, rh / h, float(ox), float(oy)), (slice(oy, oy + rh), slice(ox, ox + rw))


def alpha_lerp(fg, bg, m):
    """CV-CUDA's AlphaLerp (pf_composite's contract; CV-CUDA itself needs a GPU) in float32 steps."""
    p = ((fg.astype(np.int32) - bg.astype(np.int32)) * m[..., None].astype(np.int32)).astype(np.float32)
    return (p * np.float32(0.00392156862) + bg.astype(np.float32) + np.float32(0.5)).astype(np.int32).astype(np.uint8)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
@pytest.mark.parametrize("interp", ["nearest", "linear"])
def test_masks_unmap_is_roi_plus_cv2_resize(rng, dtype, interp):
    cv_interp = cv2.INTER_NEAREST if interp == "nearest" else cv2.INTER_LINEAR
    for (w, h, t), c in zip([(333, 251, 64), (100, 300, 96), (7, 5, 32), (640, 480, 160)], (1, 3, 4, 2)):
        info, roi = letterbox(w, h, t)
        shape = (t, t) if c == 1 else (t, t, c)
        m = rng.integers(0, 256, shape).astype(dtype) if dtype == np.uint8 else rng.normal(size=shape).astype(dtype)
        got = post.masks_unmap(m, info, (w, h), interp)
        want = cv2.resize(m[roi], (w, h), interpolation=cv_interp)
        assert got.dtype == want.dtype and np.array_equal(got, want), (w, h, t, c)
    # a batch with per-mask infos and sizes, and the info dict Plan.run(info=True) returns
    masks = [rng.integers(0, 256, (64, 64), dtype=np.uint8) for _ in range(3)]
    sizes = [(120, 60), (60, 120), (64, 64)]
    infos = [letterbox(w, h, 64) for w, h in sizes]
    keys = ("scale_x", "scale_y", "offset_x", "offset_y")
    got = post.masks_unmap(masks, [dict(zip(keys, i), crop_x=0, crop_y=0) for i, _ in infos], sizes, interp)
    for g, m, (w, h), (_, roi) in zip(got, masks, sizes, infos):
        assert np.array_equal(g, cv2.resize(m[roi].astype(np.uint8), (w, h), interpolation=cv_interp))


def test_masks_unmap_of_a_real_letterbox_plan(photos):
    # the info of pixflow's own letterbox (the yolo recipe), then a mask drawn in tensor space
    img = photos["chelsea_333x251.jpg"][..., ::-1].copy()
    desc = dict(pixflow._pixflow.recipe("yolo")[0], out_width=128, out_height=128)
    _, infos = pixflow._pixflow.Plan(desc).run([img], info=True)
    li = infos[0]
    m = np.zeros((128, 128), np.uint8)
    cv2.circle(m, (64, 64), 30, 255, -1)
    got = post.masks_unmap(m, li, (333, 251), "linear")
    x0, y0 = round(li["offset_x"]), round(li["offset_y"])
    rw, rh = round(li["scale_x"] * 333), round(li["scale_y"] * 251)
    assert (x0, y0, rw, rh) == (0, 16, 128, 96)   # 251 * 128 / 333 = 96.48 rows, 32 rows of pad
    assert np.array_equal(got, cv2.resize(m[y0:y0 + rh, x0:x0 + rw], (333, 251), interpolation=cv2.INTER_LINEAR))


def test_masks_unmap_errors_name_the_argument(rng):
    m = rng.integers(0, 256, (64, 64), dtype=np.uint8)
    with pytest.raises(pixflow.InvalidArgument, match="letterbox rectangle"):
        post.masks_unmap(m, (2.0, 2.0, 0, 0), (64, 64))   # 128 x 128 of a 64 x 64 mask
    with pytest.raises(pixflow.InvalidArgument, match="scale"):
        post.masks_unmap(m, (0.0, 1.0, 0, 0), (64, 64))
    with pytest.raises(pixflow.InvalidArgument, match="per-sample"):
        post.masks_unmap([m, m], [(1, 1, 0, 0)] * 3, (64, 64))


@pytest.mark.parametrize("ksize,sigma,border", [(31, 0.0, 4), (0, 3.5, 4), (7, 1.2, 1), ((9, 5), 2.0, 2),
                                                (5, 0.0, 0)])
def test_background_blur_is_the_cv2_chain(rng, photos, ksize, sigma, border):
    frame = photos["coffee_500x375.jpg"][..., ::-1].copy()
    h, w = frame.shape[:2]
    info, roi = letterbox(w, h, 96)
    prob = np.zeros((96, 96), np.uint8)
    cv2.ellipse(prob, (48, 48), (20, 30), 0, 0, 360, 255, -1)
    prob = cv2.GaussianBlur(prob, (9, 9), 0)   # soft edges: the blend's middle values
    got = post.background_blur(frame, prob, info, ksize, sigma, border=border)
    k = (ksize, ksize) if isinstance(ksize, int) else ksize
    mask = cv2.resize(prob[roi], (w, h), interpolation=cv2.INTER_LINEAR)
    blurred = cv2.GaussianBlur(frame, k, sigma, borderType=border)
    assert np.array_equal(got, alpha_lerp(frame, blurred, mask))   # bit-exact
    # against the textbook float blend frame * a + blurred * (1 - a): within 1 (rounding of ties)
    a = mask[..., None].astype(np.float64) / 255.0
    blend = np.rint(frame * a + blurred * (1.0 - a))
    assert np.abs(got.astype(np.float64) - blend).max() <= 1
    assert (got != frame).any() and (got != blurred).any()


def test_background_blur_batch_and_in_place(rng):
    frames = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for w, h in [(80, 60), (33, 71), (64, 64)]]
    probs = [rng.integers(0, 256, (32, 32), dtype=np.uint8) for _ in frames]
    infos = [letterbox(f.shape[1], f.shape[0], 32) for f in frames]
    want = []
    for f, p, (_, roi) in zip(frames, probs, infos):
        m = cv2.resize(p[roi], (f.shape[1], f.shape[0]), interpolation=cv2.INTER_LINEAR)
        want.append(alpha_lerp(f, cv2.GaussianBlur(f, (11, 11), 0), m))
    got = post.background_blur(frames, probs, [i for i, _ in infos], 11)
    assert all(np.array_equal(g, x) for g, x in zip(got, want))
    work = [f.copy() for f in frames]
    post.background_blur(work, probs, [i for i, _ in infos], 11, dst=work)
    assert all(np.array_equal(g, x) for g, x in zip(work, want))
    with pytest.raises(pixflow.InvalidArgument, match="3"):
        post.background_blur(frames[0][..., 0].copy(), probs[0], infos[0][0], 11)


def _cv2_boxes(img, boxes, color, thickness, fill_alpha=0):
    """What draw_detections draws, in cv2: per box (rounded, clipped) an addWeighted fill, then
    `thickness` nested 1-pixel cv2.rectangle outlines."""
    h, w = img.shape[:2]
    for x1, y1, x2, y2 in boxes:
        x0, y0 = (int(np.clip(np.rint(v), 0, hi)) for v, hi in ((x1, w - 1), (y1, h - 1)))
        xe, ye = (int(np.clip(np.rint(v), 0, hi)) for v, hi in ((x2, w - 1), (y2, h - 1)))
        if xe < x0 or ye < y0:
            continue
        if fill_alpha:
            roi = img[y0:ye + 1, x0:xe + 1]
            ink = np.empty_like(roi)
            ink[...] = color[:roi.shape[2]] if roi.ndim == 3 else color[0]
            roi[...] = cv2.addWeighted(roi, (255 - fill_alpha) / 255.0, ink, fill_alpha / 255.0, 0.0)
        for k in range(thickness):
            if x0 + k > xe - k or y0 + k > ye - k:
                break
            cv2.rectangle(img, (x0 + k, y0 + k), (xe - k, ye - k), color, 1, cv2.LINE_8)
    return img


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_draw_detections_vs_cv2_rectangle(rng, channels):
    for case in range(40):
        h, w = int(rng.integers(1, 80)), int(rng.integers(1, 80))
        img = rng.integers(0, 256, (h, w) if channels == 1 else (h, w, channels), dtype=np.uint8)
        n = int(rng.integers(0, 6))
        x1, y1 = rng.uniform(-10, w + 10, n), rng.uniform(-10, h + 10, n)
        boxes = np.stack([x1, y1, x1 + rng.uniform(-3, w, n), y1 + rng.uniform(-3, h, n)], 1).astype(np.float32)
        color = tuple(int(v) for v in rng.integers(0, 256, 4))
        if channels == 1:
            color = (color[0],) * 3 + (255,)   # a gray colour is its own luma
        thickness = int(rng.integers(1, 7))
        fill = int(rng.integers(1, 256)) if case % 2 else 0
        want = _cv2_boxes(img.copy(), boxes.reshape(-1, 4), color[:max(channels, 3)] if channels > 1 else color[:1],
                          thickness, fill)
        got = post.draw_detections(img, boxes, thickness=thickness, color=color, fill_alpha=fill)
        assert got is img
        assert np.array_equal(img, want), (case, h, w, boxes, thickness, fill)


def test_draw_detections_palette_label_and_errors(rng):
    img = np.zeros((60, 80, 3), np.uint8)
    post.draw_detections(img, [[10, 30, 50, 55]], classes=[7], label=True)
    # palette colour by class (no cv2 equivalent: only that it is one colour, the same per class)
    edge = img[55, 10:51]
    assert (edge == edge[0]).all() and edge[0].any()
    tab = img[16:30, 10:30]   # the label tab above the box
    assert tab.any()
    again = np.zeros_like(img)
    post.draw_detections(again, [[10, 30, 50, 55]], classes=[7], label=True)
    assert np.array_equal(img, again)
    with pytest.raises(pixflow.InvalidArgument, match="thickness"):
        post.draw_detections(img, [[0, 0, 5, 5]], thickness=0)
    with pytest.raises(pixflow.InvalidArgument, match="image"):
        post.draw_detections(img.astype(np.float32), [[0, 0, 5, 5]])
    with pytest.raises(pixflow.InvalidArgument, match="classes"):
        post.draw_detections(img, [[0, 0, 5, 5]], classes=[1, 2])
