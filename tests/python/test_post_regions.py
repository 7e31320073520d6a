"""pixflow.post regions against Debian's cv2 (OpenCV 4.6): connectedComponentsWithStats,
findContours, minAreaRect, boxPoints, fillPoly; and DBNet's text boxes against RapidOCR's own
DBPostProcess (its module loaded without the package's runtime dependencies)."""
import importlib.util
import pathlib
import sys
import types

import numpy as np
import pytest

import pixflow.post as pp

cv2 = pytest.importorskip("cv2")


def _blobs(rng, h, w, density):
    """Random binary images with structure: noise, rectangles, rings, holes."""
    img = (rng.random((h, w)) < density).astype(np.uint8)
    for _ in range(rng.integers(0, 6)):
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        x1, y1 = min(w, x0 + int(rng.integers(1, 20))), min(h, y0 + int(rng.integers(1, 20)))
        img[y0:y1, x0:x1] = 1
        if x1 - x0 > 4 and y1 - y0 > 4 and rng.random() < 0.5:
            img[y0 + 2:y1 - 2, x0 + 2:x1 - 2] = 0
    return img


def _shapes(rng):
    for _ in range(300):
        h, w = int(rng.integers(1, 70)), int(rng.integers(1, 70))
        yield _blobs(rng, h, w, float(rng.choice([0.02, 0.2, 0.5, 0.8])))
    yield np.zeros((5, 7), np.uint8)
    yield np.ones((9, 4), np.uint8)
    yield np.ones((1, 1), np.uint8)


@pytest.mark.parametrize("connectivity", [4, 8])
def test_connected_components_equal_cv2(connectivity):
    rng = np.random.default_rng(5 + connectivity)
    for img in _shapes(rng):
        n, labels, stats, cents = pp.connected_components_with_stats(img, connectivity)
        rn, rlabels, rstats, rcents = cv2.connectedComponentsWithStats(img, connectivity=connectivity,
                                                                       ltype=cv2.CV_32S)
        assert n == rn
        np.testing.assert_array_equal(labels, rlabels)
        np.testing.assert_array_equal(stats, rstats)
        np.testing.assert_array_equal(cents, rcents)  # NaN for an empty background, as cv2


@pytest.mark.parametrize("mode", [cv2.RETR_LIST, cv2.RETR_EXTERNAL])
def test_find_contours_equal_cv2(mode):
    rng = np.random.default_rng(11 + mode)
    total = 0
    for img in _shapes(rng):
        got = pp.find_contours(img, mode)
        want = cv2.findContours(img * 255, mode, cv2.CHAIN_APPROX_SIMPLE)[0]
        assert len(got) == len(want)
        for g, r in zip(got, want):
            assert g.dtype == np.int32 and g.shape == r.shape
            np.testing.assert_array_equal(g, r)
        total += len(want)
    assert total > 1000


def test_find_contours_any_nonzero_is_foreground():
    img = np.array([[0, 3, 200], [0, 1, 0]], np.uint8)
    want = cv2.findContours((img != 0).astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    got = pp.find_contours(img)
    assert [g.tolist() for g in got] == [r.tolist() for r in want]


def _ulps(a, b):
    a, b = np.float32(a), np.float32(b)
    if a == b:
        return 0
    return abs(int(np.array(a).view(np.int32)) - int(np.array(b).view(np.int32)))


def test_min_area_rect_and_box_points_equal_cv2():
    """Bit-exact in almost every case; a few ulp in the rest (docs/exactness.md: the C parity test
    finds 0.2% within 4 ulp of OpenCV and ties between equal-area rotations). Contours of real
    blobs and random point clouds, the shapes DBNet's boxes come from."""
    rng = np.random.default_rng(3)
    sets = []
    for img in _shapes(rng):
        sets += [c for c in pp.find_contours(img) if len(c) > 0]
    for _ in range(1500):
        k = int(rng.integers(1, 40))
        sets.append(rng.integers(-50, 300, (k, 1, 2)).astype(np.int32))
    exact = close = 0
    for pts in sets:
        got = pp.min_area_rect(pts)
        want = cv2.minAreaRect(pts)
        flat_g = [*got[0], *got[1], got[2]]
        flat_w = [*want[0], *want[1], want[2]]
        if flat_g == flat_w:
            exact += 1
            np.testing.assert_array_equal(pp.box_points(got), cv2.boxPoints(want))
            continue
        # same rectangle up to a few ulp, or an equal-area tie rotated by 90 degrees
        same_area = np.isclose(got[1][0] * got[1][1], want[1][0] * want[1][1], rtol=1e-5, atol=1e-3)
        assert same_area, (pts.tolist(), got, want)
        close += 1
    assert exact >= 0.99 * len(sets), (exact, close, len(sets))


def test_box_points_equal_cv2():
    rng = np.random.default_rng(8)
    for _ in range(2000):
        rect = ((float(rng.uniform(-100, 500)), float(rng.uniform(-100, 500))),
                (float(rng.uniform(0, 300)), float(rng.uniform(0, 300))), float(rng.uniform(-180, 180)))
        np.testing.assert_array_equal(pp.box_points(rect), cv2.boxPoints(rect))


def test_fill_poly_equal_cv2():
    rng = np.random.default_rng(9)
    for _ in range(1500):
        h, w = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        k = int(rng.integers(1, 9))
        pts = rng.integers(-20, 80, (k, 2)).astype(np.int32)
        base = rng.integers(0, 3, (h, w)).astype(np.uint8)
        value = int(rng.integers(1, 256))
        got = pp.fill_poly(base.copy(), pts, value)
        want = cv2.fillPoly(base.copy(), [pts], value)
        np.testing.assert_array_equal(got, want)


def _rapidocr_db():
    """RapidOCR's DBPostProcess (rapidocr 3.10.0, ch_ppocr_det/utils.py, the PaddleOCR code), loaded
    as one file: the package's __init__ pulls in its inference engines (omegaconf, onnxruntime
    sessions), which the post-processing does not use, so the three helper modules it imports
    (a logger, save_img, VisRes) are stand-ins."""
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or spec.origin is None:
        pytest.skip("rapidocr not installed (scripts/python_venv.sh installs it)")
    path = pathlib.Path(spec.origin).parent / "ch_ppocr_det" / "utils.py"
    stubs = {
        "rapidocr": types.ModuleType("rapidocr"),
        "rapidocr.utils": types.ModuleType("rapidocr.utils"),
        "rapidocr.utils.log": types.ModuleType("rapidocr.utils.log"),
        "rapidocr.utils.utils": types.ModuleType("rapidocr.utils.utils"),
        "rapidocr.utils.vis_res": types.ModuleType("rapidocr.utils.vis_res"),
        "rapidocr.ch_ppocr_det": types.ModuleType("rapidocr.ch_ppocr_det"),
    }
    stubs["rapidocr"].__path__ = []
    stubs["rapidocr.utils"].__path__ = []
    stubs["rapidocr.ch_ppocr_det"].__path__ = []
    stubs["rapidocr.utils.log"].logger = None
    stubs["rapidocr.utils.utils"].save_img = None
    stubs["rapidocr.utils.vis_res"].VisRes = None
    saved = {k: sys.modules.get(k) for k in stubs}
    sys.modules.update(stubs)
    try:
        mod_spec = importlib.util.spec_from_file_location("rapidocr.ch_ppocr_det.utils", path)
        mod = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod.DBPostProcess


def _prob_map(rng, h, w):
    """A DBNet-like probability map: soft rotated text lines over low noise."""
    pred = rng.random((h, w)).astype(np.float32) * 0.25
    for _ in range(int(rng.integers(1, 12))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rect = ((cx, cy), (rng.uniform(4, w / 2), rng.uniform(3, 20)), rng.uniform(-30, 30))
        poly = cv2.boxPoints(rect).astype(np.int32)
        layer = np.zeros((h, w), np.uint8)
        cv2.fillPoly(layer, [poly], 1)
        val = np.float32(rng.uniform(0.6, 0.99))
        pred = np.where(layer > 0, np.maximum(pred, val - rng.random((h, w)).astype(np.float32) * 0.2), pred)
    return pred.astype(np.float32)


def test_box_score_fast_equals_rapidocr():
    db = _rapidocr_db()
    rng = np.random.default_rng(12)
    for _ in range(500):
        h, w = int(rng.integers(4, 80)), int(rng.integers(4, 80))
        pred = rng.random((h, w)).astype(np.float32)
        pts = rng.uniform(-10, max(h, w) + 10, (4, 2)).astype(np.float32)
        assert pp.box_score_fast(pred, pts) == db.box_score_fast(pred, pts)


@pytest.mark.parametrize("unclip_ratio", [1.6, 2.0])
def test_db_boxes_equal_rapidocr(unclip_ratio):
    db = _rapidocr_db()(thresh=0.3, box_thresh=0.5, unclip_ratio=unclip_ratio)
    rng = np.random.default_rng(int(unclip_ratio * 10))
    found = 0
    for _ in range(40):
        h, w = int(rng.integers(32, 200)), int(rng.integers(32, 320))
        pred = _prob_map(rng, h, w)
        dest = (int(rng.integers(w, 3 * w)), int(rng.integers(h, 3 * h)))
        want_boxes, want_scores = db.boxes_from_bitmap(pred, pred > db.thresh, dest[0], dest[1])
        got_boxes, got_scores = pp.db_boxes(pred, dest, thresh=0.3, box_thresh=0.5, unclip_ratio=unclip_ratio)
        np.testing.assert_array_equal(got_boxes, np.asarray(want_boxes, np.int32).reshape(-1, 4, 2))
        assert got_scores == want_scores
        found += len(want_scores)
    assert found > 50
