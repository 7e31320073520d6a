"""pixflow's letterbox against ultralytics' own LetterBox (ultralytics 8.4.190,
ultralytics.data.augment.LetterBox, the one its predictors and val loaders
call): T.Letterbox (pixflow.transforms, the README's inference example) and
the letterbox of `python -m pixflow detect` (pixflow.apps.detect's
letterbox_desc, the yolo recipe). Bound: the uint8 pixels and the
placement are identical; the detector's float tensor is pixel * float32(1/255),
within 1 ulp of ultralytics' pixel / 255.

ultralytics requires opencv-python, which would replace Debian's cv2 4.6, so
scripts/python_venv.sh unpacks it (with PyYAML, the one dependency that
import needs beyond the venv's numpy, cv2, PIL and torch) into the venv's
opt/ultralytics; it runs in a child process with that folder on its path."""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import pixflow.transforms as T
from pixflow import _pixflow as _P

ULX = os.path.join(sys.prefix, "opt", "ultralytics")

# the child: every case through LetterBox, the image and its placement back
_CHILD = r"""
import sys, cv2, numpy as np
from ultralytics.data.augment import LetterBox
import ultralytics
cases = np.load(sys.argv[1], allow_pickle=False)
out = {"version": np.array(ultralytics.__version__), "cv2": np.array(cv2.__version__)}
for i in range(int(cases["n"])):
    img, (h, w, fill, interp) = cases[f"img{i}"], cases[f"arg{i}"].tolist()
    lb = LetterBox(new_shape=(h, w), auto=False, scale_fill=False, scaleup=True, center=True,
                   padding_value=fill, interpolation=interp)
    p = lb.get_params({"img": img})
    out[f"out{i}"] = lb(image=img)
    out[f"par{i}"] = np.array([p["new_unpad"][0], p["new_unpad"][1], p["left"], p["top"]])
np.savez(sys.argv[2], **out)
"""

CV2_INTERP = {T.InterpolationMode.NEAREST: 0, T.InterpolationMode.BILINEAR: 1, T.InterpolationMode.BICUBIC: 2}


def ultralytics_letterbox(tmp_path, cases):
    """[(letterboxed image, (new_w, new_h, left, top))] of ultralytics for (img, (h, w), fill, interp) cases."""
    if not os.path.isdir(os.path.join(ULX, "ultralytics")):
        pytest.skip(f"needs ultralytics in {ULX} (scripts/python_venv.sh installs it)")
    arrays = {"n": np.array(len(cases))}
    for i, (img, (h, w), fill, interp) in enumerate(cases):
        arrays[f"img{i}"] = img
        arrays[f"arg{i}"] = np.array([h, w, fill, CV2_INTERP[interp]])
    np.savez(tmp_path / "in.npz", **arrays)
    # only that folder on the path (its PyYAML, not Debian's); its settings file in tmp_path
    env = dict(os.environ, PYTHONPATH=ULX, YOLO_CONFIG_DIR=str(tmp_path), YOLO_OFFLINE="1")
    subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / "in.npz"), str(tmp_path / "out.npz")],
                   check=True, env=env, cwd=tmp_path, capture_output=True, timeout=120)
    res = np.load(tmp_path / "out.npz")
    assert str(res["version"]) == "8.4.190" and str(res["cv2"]).startswith("4.6")
    return [(res[f"out{i}"], tuple(int(v) for v in res[f"par{i}"])) for i in range(len(cases))]


def _cases(photos):
    import cv2

    rng = np.random.default_rng(23)
    rgb = {n: photos[n][..., ::-1].copy() for n in ("chelsea_333x251.jpg", "coffee_500x375.jpg",
                                                    "ladybird_375x500.jpg", "green_leaf_1920x1080.jpg")}
    gray = cv2.cvtColor(photos["camera_gray_512x512.jpg"], cv2.COLOR_BGR2GRAY)
    B, N, C = T.InterpolationMode.BILINEAR, T.InterpolationMode.NEAREST, T.InterpolationMode.BICUBIC
    cases = [(rgb["chelsea_333x251.jpg"], (640, 640), 114, B), (rgb["coffee_500x375.jpg"], (320, 320), 114, B),
             (rgb["ladybird_375x500.jpg"], (640, 640), 114, B), (rgb["green_leaf_1920x1080.jpg"], (640, 640), 114, B),
             (rgb["green_leaf_1920x1080.jpg"], (384, 640), 0, B), (rgb["chelsea_333x251.jpg"], (640, 384), 255, B),
             (rgb["coffee_500x375.jpg"], (224, 320), 114, N), (rgb["ladybird_375x500.jpg"], (320, 256), 114, C),
             (gray, (320, 320), 114, B), (gray[:, :301], (160, 200), 114, B)]
    # thin, tiny (upscaled), odd pads, already the right size
    for h, w, out in [(1, 300, (64, 64)), (300, 1, (64, 64)), (5, 7, (64, 64)), (479, 641, (640, 640)),
                      (64, 64, (64, 64)), (63, 64, (64, 64)), (2, 3, (33, 17))]:
        cases.append((rng.integers(0, 256, (h, w, 3), dtype=np.uint8), out, 114, B))
    return cases


@pytest.fixture(scope="module")
def ulx_cases(photos, tmp_path_factory):
    """(cases, ultralytics' results): one child process for the module."""
    cases = _cases(photos)
    return cases, ultralytics_letterbox(tmp_path_factory.mktemp("ulx"), cases)


def test_transforms_letterbox_equals_ultralytics(ulx_cases):
    cases, want = ulx_cases
    for (img, (h, w), fill, interp), (ref, (rw, rh, left, top)) in zip(cases, want):
        got = T.Letterbox((h, w), fill=fill, interpolation=interp)(img)
        ref = ref[..., 0] if img.ndim == 2 else ref   # ultralytics gives gray an axis
        assert got.shape == ref.shape and np.array_equal(got, ref), (img.shape, (h, w), fill, interp)
        # the placement pixflow reports (pf_letterbox_info) is ultralytics' new_unpad and pads
        desc = {"out_width": w, "out_height": h, "out_channels": 1 if img.ndim == 2 else 3, "out_dtype": 0,
                "out_layout": 0, "letterbox": True, "pad_value": (float(fill),) * 4}
        _, infos = _P.Plan(desc).run([img], info=True)
        li = infos[0]
        assert (round(li["scale_x"] * img.shape[1]), round(li["scale_y"] * img.shape[0]),
                li["offset_x"], li["offset_y"]) == (rw, rh, left, top)
    # batches and torch tensors through T.Letterbox and the README's Compose
    square = [k for k, c in enumerate(cases) if c[1] == (640, 640) and c[2] == 114 and c[0].ndim == 3
              and c[3] == T.InterpolationMode.BILINEAR][:3]
    imgs, refs = [cases[k][0] for k in square], [want[k][0] for k in square]
    assert all(np.array_equal(g, r) for g, r in zip(T.Letterbox(640)(imgs), refs))
    pre = T.Compose([T.Letterbox(640), T.ToDtype(torch.float32, scale=True)])
    x = pre([torch.from_numpy(i).permute(2, 0, 1) for i in imgs])   # a list in, a list out
    assert [tuple(xi.shape) for xi in x] == [(3, 640, 640)] * 3
    for xi, r in zip(x, refs):
        assert torch.equal((xi * 255).round().to(torch.uint8), torch.from_numpy(r).permute(2, 0, 1))


def test_detect_letterbox_equals_ultralytics(ulx_cases):
    from pixflow.apps.detect import letterbox_desc

    pairs = [(c, r) for c, r in zip(*ulx_cases) if c[0].ndim == 3 and c[1][0] == c[1][1] and c[2] == 114
             and c[3] == T.InterpolationMode.BILINEAR]
    assert len(pairs) >= 8
    for (img, (size, _), _, _), (ref, (rw, rh, left, top)) in pairs:
        batch, infos = _P.Plan(letterbox_desc(size)).run([img], info=True)   # what Detector.preprocess runs
        x = torch.from_dlpack(batch)[0]
        # ultralytics' predictor: HWC -> CHW, float, / 255 (RGB in, as pixflow's detect feeds it)
        u = torch.from_numpy(ref).permute(2, 0, 1).float()
        assert x.shape == u.shape == (3, size, size)
        assert torch.equal(x, u * np.float32(1.0 / 255.0))   # pixflow's normalize: times the float reciprocal
        assert torch.equal((x * 255).round(), u)               # so the uint8 pixels are ultralytics'
        assert (x - u / 255.0).abs().max().item() <= 2 ** -24   # within 1 ulp (of values <= 1) of its / 255
        li = infos[0]
        assert (li["offset_x"], li["offset_y"]) == (left, top)
        assert (round(li["scale_x"] * img.shape[1]), round(li["scale_y"] * img.shape[0])) == (rw, rh)
