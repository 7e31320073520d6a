"""pixflow's photometric ops (pixflow.ops / transforms.functional) against
the real torchvision 0.29.2 functional ops (replaces the numpy
transcription the ctypes tests used). Random images of odd sizes, uint8
and float32, per-sample parameters through one batched call.
Bounds: uint8 bit-exact except contrast (torch's mean reduction order:
within 1), gamma (torch's SLEEF powf: within 1) and hue (within 1); float32
within 1e-5 (hue: 1e-4), as docs/exactness.md states."""
import numpy as np
import pytest
import torch
import torchvision.transforms.v2.functional as TF

import pixflow.ops as ops

# sharpness is exact on uint8: pf_sharpen blends as torchvision 0.29 does
# (x + (1 - f) * (blurred - x), one rounding: torch's CPU add is a fused
# multiply-add on AVX2 / AVX-512 builds). Its factor is an f32, so the
# factors drawn are f32 values (torch computes 1 - f from the same number).
U8_BOUND = {"contrast": 1, "gamma": 1, "hue": 1}
F32_BOUND = {"hue": 1e-4}


def images(rng, dtype, n=6, c=3):
    out = []
    for _ in range(n):
        h, w = int(rng.integers(1, 40)), int(rng.integers(1, 70))
        if dtype == np.uint8:
            out.append(rng.integers(0, 256, (h, w, c), dtype=np.uint8))
        else:
            out.append(rng.random((h, w, c), dtype=np.float32))
    return out


def tv(a):
    return torch.from_numpy(np.ascontiguousarray(a)).permute(2, 0, 1)


def back(t):
    return t.permute(1, 2, 0).numpy()


CASES = {
    "brightness": (ops.adjust_brightness, TF.adjust_brightness, lambda r: float(r.uniform(0, 2))),
    "contrast": (ops.adjust_contrast, TF.adjust_contrast, lambda r: float(r.uniform(0, 2))),
    "saturation": (ops.adjust_saturation, TF.adjust_saturation, lambda r: float(r.uniform(0, 2))),
    "hue": (ops.adjust_hue, TF.adjust_hue, lambda r: float(r.uniform(-0.5, 0.5))),
    "gamma": (ops.adjust_gamma, TF.adjust_gamma, lambda r: float(r.uniform(0.2, 3))),
    "sharpness": (ops.sharpen, TF.adjust_sharpness, lambda r: float(np.float32(r.uniform(0, 3)))),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_factor_ops(rng, name, dtype):
    pf, ref, draw = CASES[name]
    for _ in range(40):
        imgs = images(rng, dtype)
        factors = [draw(rng) for _ in imgs]
        outs = pf(imgs, factors)
        for a, f, o in zip(imgs, factors, outs):
            e = back(ref(tv(a), f))
            d = np.abs(o.astype(np.float64) - e.astype(np.float64)).max()
            bound = U8_BOUND.get(name, 0) if dtype == np.uint8 else F32_BOUND.get(name, 1e-5)
            assert d <= bound, f"{name} factor {f} on {a.shape} {dtype}: max |diff| {d} > {bound}"


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_pointwise_ops(rng, dtype):
    for _ in range(20):
        imgs = images(rng, dtype)
        top = 255 if dtype == np.uint8 else 1.0
        th = [float(rng.uniform(0, top)) if dtype != np.uint8 else int(rng.integers(0, 256)) for _ in imgs]
        bits = [int(rng.integers(0, 9)) for _ in imgs]
        for a, o in zip(imgs, ops.invert(imgs)):
            np.testing.assert_array_equal(o, back(TF.invert(tv(a))))
        for a, t, o in zip(imgs, th, ops.solarize(imgs, th)):
            np.testing.assert_array_equal(o, back(TF.solarize(tv(a), t)))
        for a, o in zip(imgs, ops.autocontrast(imgs)):
            np.testing.assert_allclose(o, back(TF.autocontrast(tv(a))), atol=0 if dtype == np.uint8 else 1e-6)
        for a, o in zip(imgs, ops.rgb_to_grayscale(imgs, 3)):
            np.testing.assert_allclose(o, back(TF.rgb_to_grayscale(tv(a), 3)), atol=0 if dtype == np.uint8 else 1e-6)
        if dtype == np.uint8:
            for a, b, o in zip(imgs, bits, ops.posterize(imgs, bits)):
                np.testing.assert_array_equal(o, back(TF.posterize(tv(a), b)))
            for a, o in zip(imgs, ops.equalize(imgs)):
                np.testing.assert_array_equal(o, back(TF.equalize(tv(a))))


def test_erase(rng):
    for a in images(rng, np.uint8, n=20):
        h, w = a.shape[:2]
        i, j = int(rng.integers(0, h)), int(rng.integers(0, w))
        eh, ew = int(rng.integers(0, h - i + 1)), int(rng.integers(0, w - j + 1))
        v = torch.tensor([3, 200, 17], dtype=torch.uint8).reshape(3, 1, 1)
        got = ops.erase(a, (j, i, ew, eh), (3, 200, 17))
        np.testing.assert_array_equal(got, back(TF.erase(tv(a), i, j, eh, ew, v)))


def test_gaussian_noise_distribution(rng):
    a = np.full((200, 300, 3), 0.5, np.float32)
    out = ops.gaussian_noise(a, 0.0, 0.1, seed=5, clip=False)
    z = out - a
    ref = (TF.gaussian_noise(tv(a), mean=0.0, sigma=0.1, clip=False) - tv(a)).numpy()
    # pixflow uses its Philox stream, not torch's generator: same distribution
    assert abs(z.mean() - ref.mean()) < 3e-3 and abs(z.std() - ref.std()) < 3e-3
