"""Every drop-in function's signature and defaults against its oracle's.

- pixflow.cv vs cv2 (Debian's 4.6): cv2's builtins have no inspect signature, so the first
  signature line of ``cv2.X.__doc__`` (``resize(src, dsize[, dst[, fx[, fy[, interpolation]]]])
  -> dst``) gives the argument names, their order and which are optional; outputs (the names after
  ``->``) must default to None. Those lines carry no default values, so the defaults are checked
  by calling both with only the required arguments.
- pixflow.post vs torchvision.ops (inspect.signature: names, order, defaults) and vs cv2.dnn
  (doc lines as above, defaults by call; NMSBoxesBatched from OpenCV 4.10 in a child process).
- pixflow.transforms (+ .functional) vs torchvision.transforms.v2 (+ .functional): pixflow's
  parameters are a prefix of torchvision's with the same names and defaults (so positional calls
  bind the same way); InterpolationMode has torchvision's values.

A difference that is meant is listed in DELIBERATE with its reason; anything else fails."""
import inspect
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import torch
import torchvision.ops as tv_ops
import torchvision.transforms.v2 as V2
import torchvision.transforms.v2.functional as VF

import pixflow
import pixflow.cv as pcv
import pixflow.post as post
import pixflow.transforms as T
import pixflow.transforms.functional as PF

cv2 = pytest.importorskip("cv2")

# name -> (what differs, why); checked to be what it says
DELIBERATE = {
    "cv.morphologyDefaultBorderValue": ("not in cv2's Python API", "OpenCV's C++ helper; pixflow.cv exports it "
                                        "as the value erode/dilate use for borderValue=None"),
    "cv.normalize": ("dst is optional", "cv2's doc line lists dst as required (None is accepted); pixflow "
                     "lets it be left out, a superset of cv2's calls"),
    "transforms.Compose": ("seed after transforms", "pixflow's Philox key; a keyword after torchvision's "
                           "only parameter"),
    "transforms.Letterbox": ("not in torchvision", "ultralytics' letterbox, pixflow-only"),
}


def parse_cv_doc(fn):
    """(required, optional, outputs) from cv2's first signature line."""
    name = fn.__name__
    for line in (fn.__doc__ or "").splitlines():
        line = line.strip()
        if line.startswith(name + "(") and "->" in line:
            args, ret = line[len(name) + 1:].split("->", 1)
            args = args.strip()[:-1]  # the closing ')'
            head, _, tail = args.partition("[")
            req = [a.strip() for a in head.split(",") if a.strip()]
            opt = re.findall(r"[A-Za-z_]\w*", tail)
            outs = re.findall(r"[A-Za-z_]\w*", ret)
            return req, opt, outs
    raise AssertionError(f"cv2.{name} has no signature line in its __doc__")


def params(fn):
    return list(inspect.signature(fn).parameters.values())


def required(fn):
    return [p.name for p in params(fn) if p.default is inspect.Parameter.empty]


def check_cv_style(ours, theirs, key):
    req, opt, outs = parse_cv_doc(theirs)
    names = [p.name for p in params(ours)]
    assert names == req + opt, f"{key}: pixflow {names}, cv2 {req} [{opt}]"
    want_req = req
    if key in DELIBERATE and DELIBERATE[key][0] == "dst is optional":
        want_req = [r for r in req if r != "dst"]
    assert required(ours) == want_req, f"{key}: pixflow requires {required(ours)}, cv2 {want_req}"
    for p in params(ours):
        if p.name in outs and p.name in opt + ["dst"]:
            assert p.default is None, f"{key}: output {p.name} defaults to {p.default!r}, not None"


def _cv_functions():
    return sorted(n for n, f in vars(pcv).items()
                  if inspect.isfunction(f) and f.__module__ == "pixflow.cv" and not n.startswith("_"))


@pytest.mark.parametrize("name", _cv_functions())
def test_cv_signature_is_cv2s(name):
    key = f"cv.{name}"
    if not hasattr(cv2, name):
        assert key in DELIBERATE and DELIBERATE[key][0] == "not in cv2's Python API", f"{key}: not in cv2"
        return
    check_cv_style(getattr(pcv, name), getattr(cv2, name), key)


def _img(rng, h=23, w=31, c=3, dtype=np.uint8):
    return rng.integers(0, 256, (h, w, c)).astype(dtype)


def _cv_probes(rng):
    """name -> the required arguments only (every optional one left to its default)."""
    img = _img(rng)
    m = np.array([[0.9, 0.1, 2.0], [-0.1, 1.1, -1.5]])
    hm = np.array([[1.0, 0.05, 1.0], [0.02, 0.95, 2.0], [0.0005, 0.0002, 1.0]])
    ys, xs = np.mgrid[0:23, 0:31].astype(np.float32)
    quad_a = np.float32([[0, 0], [30, 0], [30, 22], [0, 22]])
    quad_b = np.float32([[1, 2], [28, 0], [31, 21], [2, 20]])
    from conftest import photo_paths

    jpg = str(next(iter(photo_paths())))
    return {
        "resize": (img, (40, 17)),
        "cvtColor": (img, cv2.COLOR_BGR2GRAY),
        "copyMakeBorder": (img, 2, 3, 4, 5, cv2.BORDER_CONSTANT),
        "warpAffine": (img, m, (33, 25)),
        "warpPerspective": (img, hm, (33, 25)),
        "remap": (img, xs * 0.97 + 0.4, ys * 1.02 - 0.3, cv2.INTER_LINEAR),
        "GaussianBlur": (img, (5, 5), 1.3),
        "blur": (img, (3, 5)),
        "boxFilter": (img, -1, (5, 3)),
        "filter2D": (img, -1, np.float32([[0, -1, 0], [-1, 5, -1], [0, -1, 0]])),
        "erode": (img, np.ones((3, 3), np.uint8)),
        "dilate": (img, np.ones((3, 5), np.uint8)),
        "getPerspectiveTransform": (quad_a, quad_b),
        "imread": (jpg,),
    }


def test_cv_defaults_are_cv2s_by_call():
    rng = np.random.default_rng(3)
    probes = _cv_probes(rng)
    for name, args in probes.items():
        want, got = getattr(cv2, name)(*args), getattr(pcv, name)(*args)
        assert got.shape == want.shape and got.dtype == want.dtype, name
        if name == "filter2D":  # the documented bound (test_cv.py)
            assert np.abs(got.astype(int) - want.astype(int)).max() <= 1, name
        elif name == "getPerspectiveTransform":
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=name)
        else:
            assert np.array_equal(got, want), name
    # every function with optional non-output arguments has a probe, or a reason
    no_probe = {"normalize": "cv2's default norm_type NORM_L2 is not supported: pixflow raises (below)",
                "split": "mv is an output", "merge": "dst is an output", "LUT": "dst is an output",
                "flip": "dst is an output", "rotate": "dst is an output", "transpose": "dst is an output",
                "medianBlur": "dst is an output", "invertAffineTransform": "iM is an output"}
    for name in _cv_functions():
        if not hasattr(cv2, name):
            continue
        _, opt, outs = parse_cv_doc(getattr(cv2, name))
        if [o for o in opt if o not in outs + ["dst"]]:
            assert name in probes or name in no_probe, f"cv.{name}: its defaults are not probed"
    with pytest.raises(pixflow.Unsupported, match="NORM_MINMAX"):
        pcv.normalize(_img(rng), None)  # never a different answer for cv2's default


# ----------------------------------------------------------------- post

TV_OPS = ["nms", "batched_nms", "box_iou", "generalized_box_iou", "distance_box_iou", "complete_box_iou",
          "box_convert", "clip_boxes_to_image", "remove_small_boxes", "masks_to_boxes"]


def _default(v):
    """A default as compared: enum values, torch dtypes by name, sequences as lists."""
    v = getattr(v, "value", v)
    if isinstance(v, torch.dtype):
        return str(v).replace("torch.", "")
    if isinstance(v, tuple):
        return list(v)
    return v


def check_prefix(ours, theirs, key, extra=()):
    """pixflow's parameters (less the deliberate extras, which must come last) are torchvision's
    first ones, with the same names, kinds of binding and defaults."""
    mine = [p for p in params(ours) if p.name not in extra]
    tail = [p.name for p in params(ours)][len(mine):]
    assert tail == list(extra), f"{key}: pixflow-only parameters {list(extra)} must come last"
    tv = params(theirs)
    assert len(mine) <= len(tv), f"{key}: pixflow has {[p.name for p in mine]}, torchvision {[p.name for p in tv]}"
    for a, b in zip(mine, tv):
        assert a.name == b.name, f"{key}: parameter {a.name!r} where torchvision has {b.name!r}"
        assert (a.default is inspect.Parameter.empty) == (b.default is inspect.Parameter.empty), \
            f"{key}: {a.name} is {'required' if a.default is inspect.Parameter.empty else 'optional'} in pixflow"
        if a.default is not inspect.Parameter.empty:
            assert _default(a.default) == _default(b.default), \
                f"{key}: {a.name} defaults to {a.default!r}, torchvision {b.default!r}"
    if len(mine) < len(tv):
        left = [p for p in tv[len(mine):] if p.default is inspect.Parameter.empty]
        assert not left, f"{key}: torchvision requires {[p.name for p in left]}, pixflow does not take them"


@pytest.mark.parametrize("name", TV_OPS)
def test_post_signature_is_torchvision_ops(name):
    check_prefix(getattr(post, name), getattr(tv_ops, name), f"post.{name}")
    assert len(params(getattr(post, name))) == len(params(getattr(tv_ops, name))), name


def test_post_covers_every_torchvision_name_it_has():
    shared = sorted(n for n in dir(post) if not n.startswith("_") and callable(getattr(post, n))
                    and hasattr(tv_ops, n) and inspect.isfunction(getattr(tv_ops, n)))
    assert shared == sorted(TV_OPS)
    with pytest.raises(pixflow.Unsupported, match="fmt"):  # box_iou's other formats: not a silent xyxy
        post.box_iou(np.zeros((1, 4), np.float32), np.zeros((1, 4), np.float32), fmt="cxcywh")


def _batched_doc():
    """cv2.dnn.NMSBoxesBatched's doc (OpenCV >= 4.7: the venv's 4.10 in a child process)."""
    if hasattr(cv2.dnn, "NMSBoxesBatched"):
        return cv2.dnn.NMSBoxesBatched.__doc__
    where = os.path.join(sys.prefix, "opt", "opencv-4.10")
    if not os.path.isdir(os.path.join(where, "cv2")):
        pytest.skip(f"NMSBoxesBatched is not in OpenCV {cv2.__version__} and {where} is missing "
                    "(scripts/python_venv.sh installs it)")
    r = subprocess.run([sys.executable, "-c", "import cv2; print(cv2.dnn.NMSBoxesBatched.__doc__)"],
                       env=dict(os.environ, PYTHONPATH=where), capture_output=True, text=True, check=True)
    return r.stdout


class _Doc:
    def __init__(self, name, doc):
        self.__name__, self.__doc__ = name, doc


@pytest.mark.parametrize("ours,theirs", [("nms_boxes", "NMSBoxes"), ("soft_nms_boxes", "softNMSBoxes"),
                                         ("nms_boxes_batched", "NMSBoxesBatched")])
def test_post_signature_is_cv2_dnn(ours, theirs):
    fn = _Doc(theirs, _batched_doc()) if theirs == "NMSBoxesBatched" else getattr(cv2.dnn, theirs)
    check_cv_style(getattr(post, ours), fn, f"post.{ours}")


def test_post_cv2_dnn_defaults_by_call():
    rng = np.random.default_rng(4)
    n = 120
    xy = rng.integers(0, 200, (n, 2))
    wh = rng.integers(8, 60, (n, 2))
    boxes = np.concatenate([xy, wh], 1).astype(np.int32)
    scores = rng.uniform(0, 1, n).astype(np.float32)
    want = np.array(cv2.dnn.NMSBoxes(boxes.tolist(), scores.tolist(), 0.2, 0.4), np.int32).reshape(-1)
    assert np.array_equal(post.nms_boxes(boxes.astype(np.float32), scores, 0.2, 0.4), want)
    # softNMSBoxes: top_k 0, sigma 0.5 and SOFTNMS_GAUSSIAN when left out
    ws, wi = cv2.dnn.softNMSBoxes(boxes.tolist(), scores.tolist(), 0.1, 0.4)
    gs, gi = post.soft_nms_boxes(boxes.astype(np.float32), scores, 0.1, 0.4)
    assert np.array_equal(np.array(wi, np.int32).reshape(-1), gi)
    assert np.array_equal(np.array(ws, np.float32).reshape(-1), gs)


# ----------------------------------------------------------- transforms

def _tv_classes():
    return sorted(n for n, c in vars(T).items() if inspect.isclass(c) and not n.startswith("_")
                  and n != "InterpolationMode")


@pytest.mark.parametrize("name", _tv_classes())
def test_transform_class_signature_is_torchvision_v2s(name):
    key = f"transforms.{name}"
    if not hasattr(V2, name):
        assert key in DELIBERATE and DELIBERATE[key][0] == "not in torchvision", f"{key}: not in torchvision"
        return
    extra = ("seed",) if key in DELIBERATE and DELIBERATE[key][0] == "seed after transforms" else ()
    check_prefix(getattr(T, name), getattr(V2, name), key, extra)


def _functional_names():
    return sorted(n for n, f in vars(PF).items() if inspect.isfunction(f) and not n.startswith("_")
                  and f.__module__ == PF.__name__)


@pytest.mark.parametrize("name", _functional_names())
def test_functional_signature_is_torchvision_v2s(name):
    assert hasattr(VF, name), f"transforms.functional.{name}: not in torchvision.transforms.v2.functional"
    check_prefix(getattr(PF, name), getattr(VF, name), f"transforms.functional.{name}")


def test_interpolation_modes_are_torchvisions():
    for m in T.InterpolationMode:
        assert V2.InterpolationMode[m.name].value == m.value, m


def test_deliberate_list_is_current():
    # every listed difference still exists (a fixed one must leave the list)
    for key in DELIBERATE:
        mod, name = key.split(".", 1)
        ours = {"cv": pcv, "transforms": T}[mod]
        assert hasattr(ours, name), key
    assert not hasattr(cv2, "morphologyDefaultBorderValue")
    assert "dst" in parse_cv_doc(cv2.normalize)[0] and "dst" not in required(pcv.normalize)
    assert [p.name for p in params(T.Compose)] == ["transforms", "seed"]
    assert not hasattr(V2, "Letterbox")
