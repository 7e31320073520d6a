"""pixflow.post NMS against the real implementations: torchvision.ops 0.29.2 (nms, batched_nms, both of
its paths), cv2.dnn.NMSBoxes / softNMSBoxes (OpenCV 4.6), NMSBoxesBatched (OpenCV 4.10, in a child
process), and onnxruntime's NonMaxSuppression in a
one-node model built with onnx.helper. Keep lists must be identical, on random clustered boxes and
on the adversarial cases: equal scores, IoU exactly at the threshold, zero-area boxes, huge
coordinates, NaN scores, empty inputs, 100k boxes."""
import numpy as np
import pytest
import torch
import torchvision

import pixflow
import pixflow.post as post


def clustered(rng, n, integer=False, spread=500.0):
    k = int(rng.integers(1, 10))
    centres = rng.uniform(0, spread, (k, 2))
    sizes = rng.uniform(2, 100, k)
    idx = rng.integers(0, k, n)
    xy = centres[idx] + rng.uniform(-0.2, 0.2, (n, 2)) * sizes[idx, None]
    wh = sizes[idx, None] * rng.uniform(0.7, 1.3, (n, 2))
    if integer:
        xy, wh = np.round(xy), np.round(wh)
    return np.concatenate([xy, xy + wh], 1).astype(np.float32)


def scores_for(rng, n, kind):
    if kind == 0:
        return rng.uniform(0, 1, n).astype(np.float32)
    s = (rng.integers(0, 8, n) / 8).astype(np.float32)  # many equal scores
    if kind == 2 and n:
        s[rng.integers(0, n, max(1, n // 20))] = np.nan
    return s


THRESHOLDS = [0.0, 0.3, 0.45, 0.5, 0.65, 0.7, 0.9, 1.0]


def test_nms_matches_torchvision_random():
    rng = np.random.default_rng(0)
    for it in range(1500):
        n = int(rng.integers(0, 400))
        boxes = clustered(rng, n, integer=it % 3 == 0)
        scores = scores_for(rng, n, it % 3)
        thr = float(rng.choice(THRESHOLDS))
        ref = torchvision.ops.nms(torch.from_numpy(boxes), torch.from_numpy(scores), thr)
        got = post.nms(torch.from_numpy(boxes), torch.from_numpy(scores), thr)
        assert isinstance(got, torch.Tensor) and got.dtype == torch.int64
        assert torch.equal(ref, got), (it, n, thr)
        got_np = post.nms(boxes, scores, thr)
        assert isinstance(got_np, np.ndarray) and np.array_equal(ref.numpy(), got_np)


@pytest.mark.parametrize("n", [50, 999, 1000, 1001, 3000])
def test_batched_nms_matches_torchvision_both_paths(n):
    # torchvision: the coordinate trick up to 1000 boxes (4000 numbers), per class above
    rng = np.random.default_rng(n)
    for it in range(20):
        boxes = clustered(rng, n, integer=it % 2 == 0)
        scores = rng.uniform(0, 1, n).astype(np.float32)  # ties: test_batched_nms_tie_order_matches_torchvision
        idxs = torch.from_numpy(rng.integers(0, 5, n))
        thr = float(rng.choice(THRESHOLDS[1:-1]))
        ref = torchvision.ops.batched_nms(torch.from_numpy(boxes), torch.from_numpy(scores), idxs, thr)
        got = post.batched_nms(torch.from_numpy(boxes), torch.from_numpy(scores), idxs, thr)
        assert torch.equal(ref, got), (n, it, thr)


def _tv_batched(boxes, scores, idxs, thr):
    """torchvision's batched_nms under 1 and 2 torch threads (the same order: the final sort is
    one 1-D std::sort)."""
    old = torch.get_num_threads()
    try:
        out = []
        for t in (1, 2):
            torch.set_num_threads(t)
            out.append(torchvision.ops.batched_nms(torch.from_numpy(boxes), torch.from_numpy(scores), idxs, thr))
    finally:
        torch.set_num_threads(old)
    assert torch.equal(out[0], out[1])
    return out[0]


@pytest.mark.parametrize("n", [60, 999, 1000, 1001, 1500, 3000])
def test_batched_nms_tie_order_matches_torchvision(n):
    # equal scores: up to 1000 boxes torchvision's order is nms's (by index), above it is what its
    # final scores[keep].sort(descending=True) (torch's unstable CPU sort) leaves: torch.equal both
    rng = np.random.default_rng(100 + n)
    for it in range(12):
        boxes = clustered(rng, n, integer=it % 2 == 0, spread=float(rng.choice([100, 2000])))
        if it % 3 == 0:
            scores = rng.uniform(0, 1, n).astype(np.float32)
            scores[rng.integers(0, n, n // 4)] = scores[rng.integers(0, n, n // 4)]  # float32 ties
        else:
            scores = (rng.integers(0, int(rng.choice([2, 8, 50])), n) / 8).astype(np.float32)
            scores[rng.integers(0, n, n // 10)] = -0.0  # equal to 0.0 for torch.sort
        idxs = torch.from_numpy(rng.integers(0, int(rng.choice([1, 3, 20])), n))
        thr = float(rng.choice(THRESHOLDS[1:-1]))
        ref = _tv_batched(boxes, scores, idxs, thr)
        got = post.batched_nms(torch.from_numpy(boxes), torch.from_numpy(scores), idxs, thr)
        assert torch.equal(ref, got), (n, it, thr)


def _deep_sort_scores(n, tie):
    """Scores that drive libstdc++'s introsort (torch's CPU sort) into its heapsort fallback:
    McIlroy's adversary ("A killer adversary for quicksort", 1999) played against the steps
    std::sort takes, values then divided by `tie` (equal scores inside the heapsorted ranges).
    Only the input is made here; the order it must give is torchvision's."""
    val = [None] * n
    st = {"solid": 0, "cand": 0}

    def less(x, y):
        if val[x] is None and val[y] is None:
            z = x if x == st["cand"] else y
            val[z] = st["solid"]
            st["solid"] += 1
        if val[x] is None:
            st["cand"] = x
        elif val[y] is None:
            st["cand"] = y
        return (n if val[x] is None else val[x]) < (n if val[y] is None else val[y])

    a = list(range(n))

    def sift(lo, hole, ln, v):
        top, c = hole, hole
        while c < (ln - 1) // 2:
            c = 2 * (c + 1)
            if less(a[lo + c], a[lo + c - 1]):
                c -= 1
            a[lo + hole], hole = a[lo + c], c
        if ln % 2 == 0 and c == (ln - 2) // 2:
            c = 2 * (c + 1)
            a[lo + hole], hole = a[lo + c - 1], c - 1
        par = (hole - 1) // 2
        while hole > top and less(a[lo + par], v):
            a[lo + hole], hole = a[lo + par], par
            par = (hole - 1) // 2
        a[lo + hole] = v

    def loop(lo, hi, depth):
        while hi - lo > 16:
            if depth == 0:
                ln = hi - lo
                for p in range((ln - 2) // 2, -1, -1):
                    sift(lo, p, ln, a[lo + p])
                while hi - lo > 1:
                    hi -= 1
                    v, a[hi] = a[hi], a[lo]
                    sift(lo, 0, hi - lo, v)
                return
            depth -= 1
            x, y, z = lo + 1, lo + (hi - lo) // 2, hi - 1
            if less(a[x], a[y]):
                m = y if less(a[y], a[z]) else z if less(a[x], a[z]) else x
            else:
                m = x if less(a[x], a[z]) else z if less(a[y], a[z]) else y
            a[lo], a[m] = a[m], a[lo]
            f, l = lo + 1, hi
            while True:
                while less(a[f], a[lo]):
                    f += 1
                l -= 1
                while less(a[lo], a[l]):
                    l -= 1
                if not f < l:
                    break
                a[f], a[l] = a[l], a[f]
                f += 1
            loop(f, hi, depth)
            hi = f

    loop(0, n, 2 * (n.bit_length() - 1))
    for i in range(n):
        if val[i] is None:
            val[i] = st["solid"]
            st["solid"] += 1
    return np.array([(n - v) // tie for v in val], np.float32)


@pytest.mark.parametrize("tie", [2, 3])
def test_batched_nms_order_through_the_sorts_heapsort_fallback(tie):
    # disjoint boxes: every box is kept, so torchvision's final sort sees the scores as they are;
    # with tie 2 and 3 the sort still reaches its heapsort (2 and 4 ranges when this was written)
    # with equal scores in them (distinct scores would pass with any sort)
    n = 3000
    g = np.arange(n, dtype=np.float32)
    boxes = np.stack([(g % 60) * 10, (g // 60) * 10, (g % 60) * 10 + 5, (g // 60) * 10 + 5], 1)
    scores = _deep_sort_scores(n, tie)
    idxs = torch.from_numpy(np.random.default_rng(tie).integers(0, 4, n))
    ref = _tv_batched(boxes, scores, idxs, 0.5)
    assert len(ref) == n
    assert torch.equal(ref, post.batched_nms(torch.from_numpy(boxes), torch.from_numpy(scores), idxs, 0.5))


def test_adversarial_cases_match_torchvision():
    def check(boxes, scores, thr):
        b, s = torch.tensor(boxes, dtype=torch.float32).reshape(-1, 4), torch.tensor(scores, dtype=torch.float32)
        assert torch.equal(torchvision.ops.nms(b, s, thr), post.nms(b, s, thr)), (boxes, scores, thr)

    check([[0, 0, 4, 1], [0, 0, 2, 1]], [0.9, 0.8], 0.5)          # IoU exactly 0.5 at 0.5
    check([[0, 0, 4, 1], [0, 0, 2, 1]], [0.9, 0.8], 0.49)
    check([[1, 1, 5, 5]] * 5, [0.5] * 5, 0.5)                      # equal boxes, equal scores
    check([[3, 3, 3, 3], [3, 3, 3, 3], [0, 0, 0, 5]], [0.9, 0.8, 0.7], 0.0)  # zero area
    check([[0, 0, 1e30, 1e30], [1e29, 1e29, 1e30, 1e30], [-1e30, -1e30, 1e30, 1e30]], [0.5, 0.6, 0.7], 0.5)
    check([[0, 0, 1, 1], [10, 10, 11, 11], [0, 0, 1, 1]], [float("nan"), 0.5, float("nan")], 0.5)
    check(np.zeros((0, 4)), [], 0.5)
    # the float IoU vs double threshold: IoU = 0.3f exactly sits above 0.3 (double)
    check([[0, 0, 10, 3], [0, 0, 10, 10]], [0.9, 0.8], 0.3)


def test_nms_100k_boxes_matches_torchvision():
    rng = np.random.default_rng(7)
    n = 100_000
    # 400 objects of ~250 overlapping detections each
    centre = rng.integers(0, 400, n)
    cx, cy = (centre % 20) * 100.0 + rng.uniform(0, 6, n), (centre // 20) * 100.0 + rng.uniform(0, 6, n)
    boxes = np.stack([cx, cy, cx + 40 + rng.uniform(0, 4, n), cy + 40 + rng.uniform(0, 4, n)], 1).astype(np.float32)
    scores = rng.uniform(0, 1, n).astype(np.float32)
    ref = torchvision.ops.nms(torch.from_numpy(boxes), torch.from_numpy(scores), 0.5)
    assert np.array_equal(ref.numpy(), post.nms(boxes, scores, 0.5))


def test_nms_boxes_matches_opencv():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(1)
    for it in range(800):
        n = int(rng.integers(0, 300))
        xyxy = clustered(rng, n, integer=it % 3 == 0)
        xywh = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], 1).astype(np.float32)
        scores = scores_for(rng, n, it % 3)
        sthr, nthr = float(rng.choice([0.0, 0.2, 0.5])), float(rng.uniform(0.1, 0.9))
        eta = 1.0 if it % 3 else float(rng.uniform(0.5, 1.0))
        top_k = 0 if it % 4 else int(rng.integers(1, 40))
        ref = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), sthr, nthr, eta, top_k)
        ref = np.array(ref, np.int32).reshape(-1)
        got = post.nms_boxes(xywh, scores, sthr, nthr, eta, top_k)
        assert np.array_equal(ref, got), (it, n, sthr, nthr, eta, top_k)


def test_soft_nms_boxes_matches_opencv():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(2)
    for it in range(400):
        n = int(rng.integers(0, 150))
        xyxy = clustered(rng, n, integer=True)
        xywh = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], 1).astype(np.int32)
        scores = rng.uniform(0, 1, n).astype(np.float32)
        sthr, nthr, sigma = float(rng.choice([0.0, 0.1, 0.3])), float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.2, 1))
        top_k = 0 if it % 3 else int(rng.integers(1, 30))
        method = cv2.dnn.SOFT_NMSMETHOD_SOFTNMS_LINEAR if it % 2 else cv2.dnn.SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN
        ref_scores, ref_idx = cv2.dnn.softNMSBoxes(xywh.tolist(), scores.tolist(), sthr, nthr, top_k, sigma, method)
        got_scores, got_idx = post.soft_nms_boxes(xywh.astype(np.float32), scores, sthr, nthr, top_k, sigma,
                                                  post.SOFT_LINEAR if it % 2 else post.SOFT_GAUSSIAN)
        assert np.array_equal(np.array(ref_idx, np.int32).reshape(-1), got_idx), it
        assert np.array_equal(np.array(ref_scores, np.float32).reshape(-1), got_scores), it


_BATCHED_CHILD = """
import sys, numpy as np, cv2
cases = np.load(sys.argv[1])
out = {}
for i in range(int(cases["n"])):
    xywh, scores, cls = cases[f"b{i}"], cases[f"s{i}"], cases[f"c{i}"]
    out[f"r{i}"] = np.array(cv2.dnn.NMSBoxesBatched(xywh.tolist(), scores.tolist(), cls.tolist(), 0.1, 0.5),
                            np.int32).reshape(-1)
out["version"] = np.array(cv2.__version__)
np.savez(sys.argv[2], **out)
"""


def opencv_batched(cases):
    """cv2.dnn.NMSBoxesBatched of each (xywh, scores, classes) case: the venv's cv2 when it has it (4.7+),
    else OpenCV 4.10 from the venv's opt/opencv-4.10 (scripts/python_venv.sh) in a child process, since
    the venv's cv2 must stay Debian's 4.6 for every other test."""
    import os
    import subprocess
    import sys
    import tempfile
    cv2 = pytest.importorskip("cv2")
    if hasattr(cv2.dnn, "NMSBoxesBatched"):
        return [np.array(cv2.dnn.NMSBoxesBatched(b.tolist(), s.tolist(), c.tolist(), 0.1, 0.5), np.int32).reshape(-1)
                for b, s, c in cases], cv2.__version__
    where = os.path.join(sys.prefix, "opt", "opencv-4.10")
    if not os.path.isdir(os.path.join(where, "cv2")):
        pytest.skip(f"cv2.dnn.NMSBoxesBatched is not in OpenCV {cv2.__version__} (added in 4.7) and {where} "
                    "is missing (scripts/python_venv.sh installs it)")
    with tempfile.TemporaryDirectory() as d:
        arrays = {"n": np.array(len(cases))}
        for i, (b, s, c) in enumerate(cases):
            arrays[f"b{i}"], arrays[f"s{i}"], arrays[f"c{i}"] = b, s, c
        np.savez(os.path.join(d, "in.npz"), **arrays)
        env = dict(os.environ, PYTHONPATH=where)
        subprocess.run([sys.executable, "-c", _BATCHED_CHILD, os.path.join(d, "in.npz"), os.path.join(d, "out.npz")],
                       check=True, env=env, cwd=d)
        res = np.load(os.path.join(d, "out.npz"))
        return [res[f"r{i}"] for i in range(len(cases))], str(res["version"])


def test_nms_boxes_batched_follows_opencv():
    rng = np.random.default_rng(3)
    cases = []
    for it in range(200):
        n = int(rng.integers(0, 200))
        xyxy = clustered(rng, n)
        xywh = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], 1).astype(np.float32)
        scores = rng.uniform(0, 1, n).astype(np.float32)
        if it % 4 == 0:
            scores = (np.round(scores * 8) / 8).astype(np.float32)  # equal scores
        cls = rng.integers(0, 4, n).astype(np.int32)
        cases.append((xywh, scores, cls))
    refs, version = opencv_batched(cases)
    assert version.startswith("4.")
    for it, ((xywh, scores, cls), ref) in enumerate(zip(cases, refs)):
        assert np.array_equal(ref, post.nms_boxes_batched(xywh, scores, cls, 0.1, 0.5)), (it, version)


def ort_session(center):
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    node = helper.make_node("NonMaxSuppression", ["boxes", "scores", "max", "iou", "sth"], ["sel"],
                            center_point_box=center)
    inputs = [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, None),
              helper.make_tensor_value_info("scores", TensorProto.FLOAT, None),
              helper.make_tensor_value_info("max", TensorProto.INT64, None),
              helper.make_tensor_value_info("iou", TensorProto.FLOAT, None),
              helper.make_tensor_value_info("sth", TensorProto.FLOAT, None)]
    graph = helper.make_graph([node], "nms", inputs, [helper.make_tensor_value_info("sel", TensorProto.INT64, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 8
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("center", [0, 1])
def test_onnx_nms_matches_onnxruntime(center):
    sess = ort_session(center)
    rng = np.random.default_rng(10 + center)
    for it in range(600):
        B, C, N = int(rng.integers(1, 3)), int(rng.integers(1, 4)), int(rng.integers(0, 150))
        boxes = []
        for _ in range(B):
            xyxy = clustered(rng, N, integer=it % 3 == 0, spread=300)
            if center:
                b = np.concatenate([(xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]], 1)
            else:
                b = xyxy[:, [1, 0, 3, 2]]
                flip = rng.uniform(size=N) < 0.2
                b[flip] = b[flip][:, [2, 3, 0, 1]]  # corners in either order
            boxes.append(b)
        boxes = np.stack(boxes).astype(np.float32)
        scores = np.stack([scores_for(rng, C * N, it % 2).reshape(C, N) for _ in range(B)])
        m, thr, sth = int(rng.integers(1, 40)), float(rng.choice([0.0, 0.3, 0.5, 0.7, 1.0])), float(rng.choice([0, 0.2, 0.5]))
        feeds = {"boxes": boxes, "scores": scores, "max": np.array([m], np.int64),
                 "iou": np.array([thr], np.float32), "sth": np.array([sth], np.float32)}
        ref = sess.run(None, feeds)[0]
        got = post.onnx_nms(boxes, scores, m, thr, sth, center)
        assert np.array_equal(ref, got), (it, B, C, N, m, thr, sth)


def test_empty_and_errors():
    assert post.nms(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), 0.5).shape == (0,)
    with pytest.raises(Exception, match="iou_threshold"):
        post.nms(np.zeros((1, 4), np.float32), np.ones(1, np.float32), float("nan"))
    with pytest.raises(Exception, match="boxes"):
        post.nms(np.zeros((3, 5), np.float32), np.ones(3, np.float32), 0.5)
    b, s = np.zeros((3, 4), np.float32), np.ones(3, np.float32)
    with pytest.raises(pixflow.InvalidArgument, match="opts.order"):
        post.nms_batch([(b, s)], order=7)
    with pytest.raises(pixflow.InvalidArgument, match="PF_NMS_ORDER_TORCH_SORT needs semantics PF_NMS_TORCHVISION"):
        post.nms_batch([(b, s)], semantics=post.OPENCV, order=post.ORDER_TORCH_SORT)
    with pytest.raises(pixflow.InvalidArgument, match="no soft-NMS"):
        post.nms_batch([(b, s)], soft=post.SOFT_LINEAR, order=post.ORDER_TORCH_SORT, semantics=post.OPENCV)
