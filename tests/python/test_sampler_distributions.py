"""pixflow's Philox sampler (pf_aug_sample through pixflow.transforms)
against torchvision 0.29.2's own parameter draws (torch's generator):
the same distributions (replaces the numpy transcription of make_params).
Two-sample Kolmogorov-Smirnov at alpha = 1e-3 over 20k draws per side,
and 4-sigma binomial bounds for the flip and grayscale rates."""
import math

import numpy as np
import torch
import torchvision.transforms as TV1
import torchvision.transforms.v2 as V2

import pixflow._pixflow as P

N = 20000


def ks_ok(a, b):
    a, b = np.sort(a), np.sort(b)
    grid = np.concatenate([a, b])
    d = np.abs(np.searchsorted(a, grid, "right") / len(a) - np.searchsorted(b, grid, "right") / len(b)).max()
    return d < 1.95 * math.sqrt(2.0 / N), d


def pf_draw(policy, w=500, h=375):
    pol = dict(P.defaults()[1], **policy)
    return P.aug_sample(pol, 42, 0, 0, [w] * N, [h] * N)


def test_random_resized_crop():
    torch.manual_seed(0)
    img = torch.zeros(3, 375, 500)
    tv = [TV1.RandomResizedCrop.get_params(img, [0.08, 1.0], [3 / 4, 4 / 3]) for _ in range(N)]
    tv_area = np.array([h * w for _, _, h, w in tv]) / (375 * 500)
    tv_ratio = np.log(np.array([w / h for _, _, h, w in tv]))
    tv_x = np.array([j for _, j, _, _ in tv])
    pf = pf_draw({"random_resized_crop": True})
    area = np.array([p["crop_w"] * p["crop_h"] for p in pf]) / (375 * 500)
    ratio = np.log(np.array([p["crop_w"] / p["crop_h"] for p in pf]))
    x = np.array([p["crop_x"] for p in pf])
    for name, a, b in (("area", area, tv_area), ("log ratio", ratio, tv_ratio), ("x", x, tv_x)):
        ok, d = ks_ok(a, b)
        assert ok, f"RandomResizedCrop {name}: KS distance {d}"


def test_flip_and_grayscale_rates():
    pf = pf_draw({"hflip_p": 0.3, "vflip_p": 0.7, "grayscale_p": 0.1})
    torch.manual_seed(0)
    x = torch.zeros(3, 2, 2)
    x[:, :, 0] = 1
    tv_h = sum(bool(V2.RandomHorizontalFlip(0.3)(x)[0, 0, 1] == 1) for _ in range(2000)) / 2000
    for key, p in (("flip_h", 0.3), ("flip_v", 0.7), ("grayscale", 0.1)):
        rate = np.mean([q[key] for q in pf])
        assert abs(rate - p) < 4 * math.sqrt(p * (1 - p) / N), (key, rate)
    assert abs(tv_h - 0.3) < 4 * math.sqrt(0.21 / 2000)


def test_color_jitter():
    cj = V2.ColorJitter(0.4, 0.3, 0.2, 0.1)
    torch.manual_seed(0)
    tv = [cj.make_params([]) for _ in range(N)]
    pf = pf_draw({"color_jitter": True, "brightness": (0.6, 1.4), "contrast": (0.7, 1.3),
                  "saturation": (0.8, 1.2), "hue": (-0.1, 0.1)})
    for key in ("brightness", "contrast", "saturation", "hue"):
        a = np.array([p[key] for p in pf])
        b = np.array([float(t[f"{key}_factor"]) for t in tv])
        ok, d = ks_ok(a, b)
        assert ok, f"ColorJitter {key}: KS distance {d}"
    # the order: a uniform permutation of the four ops, as torch.randperm(4)
    orders = [tuple(p["jitter_order"]) for p in pf]
    tv_orders = [tuple(t["fn_idx"].tolist()) for t in tv]
    for o in (orders, tv_orders):
        counts = np.array([o.count(k) for k in set(tv_orders)])
        assert len(set(o)) == 24 and counts.min() > N / 24 * 0.8


def test_random_affine():
    ra = V2.RandomAffine(degrees=30, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(-10, 10, -5, 5))
    torch.manual_seed(0)
    tv = [ra.make_params([torch.zeros(3, 200, 300)]) for _ in range(N)]
    pf = pf_draw({"random_affine": True, "degrees": (-30, 30), "translate": (0.1, 0.2), "scale_range": (0.8, 1.2),
                  "shear": (-10, 10, -5, 5), "affine_width": 300, "affine_height": 200})
    pairs = {"angle": lambda t: t["angle"], "scale": lambda t: t["scale"],
             "translate_x": lambda t: t["translate"][0], "translate_y": lambda t: t["translate"][1],
             "shear_x": lambda t: t["shear"][0], "shear_y": lambda t: t["shear"][1]}
    for key, get in pairs.items():
        a = np.array([p[key] for p in pf], dtype=np.float64)
        b = np.array([float(get(t)) for t in tv], dtype=np.float64)
        ok, d = ks_ok(a, b)
        assert ok, f"RandomAffine {key}: KS distance {d}"
