#!/usr/bin/env python3
"""pf_aug_sample's parameter distributions against torchvision 0.29's
make_params, transcribed to numpy (torch is not installable here) and run
with numpy's generator. The generators differ, so single values differ;
the distributions must not.

Usage (ctest runs it this way):
    /usr/bin/python3 test_sampler_distributions.py <path-to-libpixflow.so> [draws]

Compared over `draws` samples (default 100000) with fixed seeds on both
sides, so a run is reproducible bit for bit:
  - RandomResizedCrop on several image sizes (incl. a strip where most
    attempts fail and the centre fallback matters): two-sample chi-square
    on the crop area fraction, the log aspect ratio and the horizontal
    position histograms, and the fallback rate (4 sigma);
  - flip and grayscale rates within 4 sigma of p;
  - ColorJitter factors inside their ranges, uniform (chi-square), and
    the 24 orders uniform (chi-square, 23 dof);
  - RandomAffine angle/scale/shear uniform, integer translate histogram
    vs the transcription (chi-square);
  - Resize(shorter)+CenterCrop: exact crop rects for 2000 random sizes vs
    torchvision's size rule and crop anchor (Python int()/round()) mapped
    back to the source as docs/exactness.md ("Sampler") describes.
Chi-square thresholds are the p = 1e-6 critical values (Wilson-Hilferty),
so the fixed-seed statistics pass with a wide margin, and a wrong
distribution (e.g. uniform aspect instead of log-uniform, or one attempt
instead of 10) fails by orders of magnitude.
"""
import ctypes
import math
import sys

PROG = "test_sampler_distributions"

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover
    print(f"{PROG}: SKIP: needs numpy: {exc}")
    print(f"{PROG}: 0 passed, 0 failed")
    sys.exit(0)

F2 = ctypes.c_float * 2


class Policy(ctypes.Structure):
    _fields_ = [("random_resized_crop", ctypes.c_bool), ("rrc_scale", F2), ("rrc_ratio", F2),
                ("resize_shorter", ctypes.c_int32), ("center_crop_w", ctypes.c_int32),
                ("center_crop_h", ctypes.c_int32), ("hflip_p", ctypes.c_float), ("vflip_p", ctypes.c_float),
                ("color_jitter", ctypes.c_bool), ("brightness", F2), ("contrast", F2), ("saturation", F2),
                ("hue", F2), ("grayscale_p", ctypes.c_float), ("random_affine", ctypes.c_bool),
                ("degrees", F2), ("translate", F2), ("scale_range", F2), ("shear", ctypes.c_float * 4),
                ("affine_width", ctypes.c_int32), ("affine_height", ctypes.c_int32)]


class Params(ctypes.Structure):
    _fields_ = [("crop_x", ctypes.c_int32), ("crop_y", ctypes.c_int32), ("crop_w", ctypes.c_int32),
                ("crop_h", ctypes.c_int32), ("flip_h", ctypes.c_bool), ("flip_v", ctypes.c_bool),
                ("affine", ctypes.c_bool), ("angle", ctypes.c_float), ("translate_x", ctypes.c_float),
                ("translate_y", ctypes.c_float), ("scale", ctypes.c_float), ("shear_x", ctypes.c_float),
                ("shear_y", ctypes.c_float), ("brightness", ctypes.c_float), ("contrast", ctypes.c_float),
                ("saturation", ctypes.c_float), ("hue", ctypes.c_float), ("jitter_order", ctypes.c_int8 * 4),
                ("grayscale", ctypes.c_bool), ("gamma", ctypes.c_float)]


def params_dtype():
    fmt = {ctypes.c_int32: "<i4", ctypes.c_bool: "?", ctypes.c_float: "<f4"}
    names, formats, offsets = [], [], []
    for name, ctype in Params._fields_:
        names.append(name)
        formats.append(("i1", (4,)) if name == "jitter_order" else fmt[ctype])
        offsets.append(getattr(Params, name).offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": ctypes.sizeof(Params)})


class Checker:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"{PROG}: FAIL: {what}")


def chi2_critical(dof, z=4.753):
    """Wilson-Hilferty approximation of the chi-square quantile at the
    normal quantile z (4.753: upper tail p = 1e-6)."""
    k = float(dof)
    return k * (1.0 - 2.0 / (9.0 * k) + z * math.sqrt(2.0 / (9.0 * k))) ** 3


def chi2_two_sample(a, b):
    """Two-sample chi-square of histograms a, b (possibly different totals);
    returns (statistic, dof)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    keep = (a + b) > 0
    a, b = a[keep], b[keep]
    na, nb = a.sum(), b.sum()
    stat = np.sum((math.sqrt(nb / na) * a - math.sqrt(na / nb) * b) ** 2 / (a + b))
    return float(stat), int(keep.sum()) - 1


def chi2_uniform(counts):
    counts = np.asarray(counts, dtype=np.float64)
    e = counts.sum() / len(counts)
    return float(np.sum((counts - e) ** 2 / e)), len(counts) - 1


class Sampler:
    def __init__(self, lib_path):
        self.lib = ctypes.CDLL(lib_path)
        self.lib.pf_aug_policy_defaults.restype = Policy
        self.lib.pf_last_error.restype = ctypes.c_char_p
        self.lib.pf_aug_sample.argtypes = [ctypes.POINTER(Policy), ctypes.c_uint64, ctypes.c_uint64,
                                           ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                           ctypes.c_void_p]
        self.dtype = params_dtype()

    def defaults(self):
        return self.lib.pf_aug_policy_defaults()

    def sample(self, policy, widths, heights, seed=2024, epoch=0, first=0):
        w = np.ascontiguousarray(widths, dtype=np.int32)
        h = np.ascontiguousarray(heights, dtype=np.int32)
        out = np.zeros(len(w), dtype=self.dtype)
        st = self.lib.pf_aug_sample(ctypes.byref(policy), seed, epoch, first, len(w), w.ctypes.data,
                                    h.ctypes.data, out.ctypes.data)
        if st != 0:
            raise RuntimeError(f"pf_aug_sample: status {st}: {self.lib.pf_last_error().decode()}")
        return out


# ------------------------------------------------ torchvision transcriptions

def tv_uniform(rng, shape, lo, hi):
    """Tensor.uniform_(lo, hi) on float32: u * (hi - lo) + lo in float32."""
    u = rng.random(shape, dtype=np.float32)
    return u * (np.float32(hi) - np.float32(lo)) + np.float32(lo)


def tv_rrc(rng, W, H, n, scale, ratio):
    """RandomResizedCrop.make_params for n samples of one W x H image,
    vectorized over the 10 attempts. Returns (top, left, h, w) arrays."""
    area = W * H
    log_ratio = np.log(np.array(ratio, dtype=np.float32))
    s = tv_uniform(rng, (n, 10), scale[0], scale[1]).astype(np.float64)
    lr = tv_uniform(rng, (n, 10), log_ratio[0], log_ratio[1])
    aspect = np.exp(lr).astype(np.float64)
    target = area * s
    w = np.round(np.sqrt(target * aspect))  # numpy rounds half to even, as Python's round()
    h = np.round(np.sqrt(target / aspect))
    ok = (w > 0) & (w <= W) & (h > 0) & (h <= H)
    hit = ok.any(axis=1)
    first = np.argmax(ok, axis=1)
    rows = np.arange(n)
    cw = w[rows, first].astype(np.int64)
    ch = h[rows, first].astype(np.int64)
    top = np.zeros(n, np.int64)
    left = np.zeros(n, np.int64)
    top[hit] = rng.integers(0, H - ch[hit] + 1)
    left[hit] = rng.integers(0, W - cw[hit] + 1)
    # fallback: central crop with the ratio clamped into the range
    in_ratio = float(W) / float(H)
    if in_ratio < min(ratio):
        fw, fh = W, int(round(W / min(ratio)))
    elif in_ratio > max(ratio):
        fw, fh = int(round(H * max(ratio))), H
    else:
        fw, fh = W, H
    cw[~hit], ch[~hit] = fw, fh
    top[~hit], left[~hit] = (H - fh) // 2, (W - fw) // 2
    return top, left, ch, cw, ~hit


def tv_eval_rect(W, H, S, cw, ch):
    """Resize(S) + CenterCrop((ch, cw)) as the source rect, the rule of
    docs/exactness.md: torchvision's resized size and crop anchor, edges
    mapped back by n / rn and rounded half to even."""
    short, long = (W, H) if W <= H else (H, W)
    new_short, new_long = S, int(S * long / short)
    rw, rh = (new_short, new_long) if W <= H else (new_long, new_short)

    def axis(n, rn, c):
        if c >= rn:
            lo, ln = 0, rn
        else:
            lo, ln = int(round((rn - c) / 2.0)), c
        f = n / rn
        a, b = max(int(round(lo * f)), 0), min(int(round((lo + ln) * f)), n)
        if b <= a:
            a = min(a, n - 1)
            b = a + 1
        return a, b - a

    x, w = axis(W, rw, cw)
    y, h = axis(H, rh, ch)
    return x, y, w, h


# ---------------------------------------------------------------- the tests

def hist(values, edges):
    return np.histogram(values, bins=edges)[0]


def compare_hist(ck, name, a, b, edges):
    stat, dof = chi2_two_sample(hist(a, edges), hist(b, edges))
    crit = chi2_critical(dof)
    print(f"  {name}: chi2 {stat:.1f} (dof {dof}, limit {crit:.1f})")
    ck.check(stat < crit, f"{name}: chi2 {stat:.1f} >= {crit:.1f}")


def test_rrc(ck, smp, draws):
    pol = smp.defaults()
    pol.random_resized_crop = True
    rng = np.random.default_rng(12345)
    sizes = [(500, 375, draws), (375, 500, draws // 4), (1920, 1080, draws // 4), (224, 224, draws // 4),
             (300, 40, draws // 4), (33, 17, draws // 4)]
    for k, (W, H, n) in enumerate(sizes):
        out = smp.sample(pol, np.full(n, W), np.full(n, H), seed=99 + k, epoch=k)
        top, left, ch, cw, fell = tv_rrc(rng, W, H, n, (0.08, 1.0), (3 / 4, 4 / 3))
        pw, ph = out["crop_w"].astype(np.int64), out["crop_h"].astype(np.int64)
        px, py = out["crop_x"].astype(np.int64), out["crop_y"].astype(np.int64)
        ck.check(bool(np.all((px >= 0) & (py >= 0) & (px + pw <= W) & (py + ph <= H) & (pw > 0) & (ph > 0))),
                 f"rrc {W}x{H}: crop outside the image")
        print(f"rrc {W}x{H}, {n} draws:")
        area = float(W * H)
        compare_hist(ck, "area fraction", pw * ph / area, cw * ch / area, np.linspace(0, 1, 26))
        la, lb = np.log(pw / ph), np.log(cw / ch)
        lo, hi = min(la.min(), lb.min()), max(la.max(), lb.max())
        compare_hist(ck, "log aspect", la, lb, np.linspace(lo, hi + 1e-9, 26))
        # horizontal and vertical position relative to the free room
        room = (W - pw) > 0
        troom = (W - cw) > 0
        compare_hist(ck, "x position", px[room] / (W - pw[room]), left[troom] / (W - cw[troom]),
                     np.linspace(0, 1 + 1e-9, 11))
        room = (H - ph) > 0
        troom = (H - ch) > 0
        compare_hist(ck, "y position", py[room] / (H - ph[room]), top[troom] / (H - ch[troom]),
                     np.linspace(0, 1 + 1e-9, 11))
        # the fallback rect appears as often (the transcription knows when it fell back)
        fw, fh = int(cw[fell][0]) if fell.any() else -1, int(ch[fell][0]) if fell.any() else -1
        p_tv = fell.mean()
        p_pf = np.mean((pw == fw) & (ph == fh) & (px == (W - fw) // 2) & (py == (H - fh) // 2)) if fell.any() else 0.0
        # pixflow's count also includes genuine crops that equal the fallback rect; tiny for these sizes
        sigma = math.sqrt(max(p_tv * (1 - p_tv), 1e-12) * 2.0 / n)
        print(f"  fallback rate: pixflow {p_pf:.4f}, torchvision {p_tv:.4f}")
        ck.check(abs(p_pf - p_tv) <= 4 * sigma + 2.0 / n, f"rrc {W}x{H}: fallback rate {p_pf} vs {p_tv}")


def test_coins(ck, smp, draws):
    pol = smp.defaults()
    pol.hflip_p, pol.vflip_p, pol.grayscale_p = 0.5, 0.2, 0.1
    out = smp.sample(pol, np.full(draws, 64), np.full(draws, 48), seed=7, epoch=3)
    for field, p in (("flip_h", 0.5), ("flip_v", 0.2), ("grayscale", 0.1)):
        rate = out[field].mean()
        sigma = math.sqrt(p * (1 - p) / draws)
        print(f"{field}: rate {rate:.4f} (p {p}, {abs(rate - p) / sigma:.2f} sigma)")
        ck.check(abs(rate - p) < 4 * sigma, f"{field} rate {rate} vs {p}")
    # independence: hflip and vflip coins are uncorrelated
    both = np.mean(out["flip_h"] & out["flip_v"])
    sigma = math.sqrt(0.1 * 0.9 / draws)
    ck.check(abs(both - 0.1) < 4 * sigma, f"flip_h & flip_v rate {both} vs 0.1")


def check_uniform(ck, name, v, lo, hi, draws):
    vmin, vmax = float(v.min()), float(v.max())
    mean = float(v.mean())
    sigma = (hi - lo) / math.sqrt(12.0 * draws)
    stat, dof = chi2_uniform(hist(v, np.linspace(lo, hi, 21)))
    crit = chi2_critical(dof)
    print(f"  {name}: [{vmin:.5f}, {vmax:.5f}] of [{lo}, {hi}], mean {mean:.5f}, chi2 {stat:.1f} (limit {crit:.1f})")
    ck.check(vmin >= lo and vmax <= hi, f"{name} outside [{lo}, {hi}]")
    ck.check(vmin - lo < 1e-3 * (hi - lo) and hi - vmax < 1e-3 * (hi - lo), f"{name} does not reach its ends")
    ck.check(abs(mean - (lo + hi) / 2) < 4 * sigma, f"{name} mean {mean}")
    ck.check(stat < crit, f"{name}: chi2 {stat:.1f} >= {crit:.1f}")


def test_jitter(ck, smp, draws):
    pol = smp.defaults()
    pol.color_jitter = True
    pol.brightness[:] = pol.contrast[:] = pol.saturation[:] = (0.6, 1.4)
    pol.hue[:] = (-0.1, 0.1)
    out = smp.sample(pol, np.full(draws, 64), np.full(draws, 48), seed=11, epoch=1)
    print("ColorJitter 0.4/0.4/0.4/0.1:")
    for field, lo, hi in (("brightness", 0.6, 1.4), ("contrast", 0.6, 1.4), ("saturation", 0.6, 1.4),
                          ("hue", -0.1, 0.1)):
        check_uniform(ck, field, out[field].astype(np.float64), np.float32(lo), np.float32(hi), draws)
    orders = out["jitter_order"].astype(np.int64)
    ck.check(bool(np.all(np.sort(orders, axis=1) == np.arange(4))), "jitter_order is not a permutation")
    code = orders @ np.array([64, 16, 4, 1])
    counts = np.unique(code, return_counts=True)[1]
    stat, dof = chi2_uniform(counts)
    print(f"  order: {len(counts)} of 24 permutations, chi2 {stat:.1f} (dof {dof}, limit {chi2_critical(23):.1f})")
    ck.check(len(counts) == 24 and stat < chi2_critical(23), f"jitter order chi2 {stat:.1f}")
    # torchvision's randperm transcribed: position of each op equally likely
    for op in range(4):
        pos = np.argmax(orders == op, axis=1)
        stat, _ = chi2_uniform(np.bincount(pos, minlength=4))
        ck.check(stat < chi2_critical(3), f"op {op} position chi2 {stat:.1f}")


def test_affine(ck, smp, draws):
    pol = smp.defaults()
    pol.random_affine = True
    pol.degrees[:] = (-30.0, 15.0)
    pol.translate[:] = (0.1, 0.05)
    pol.scale_range[:] = (0.8, 1.25)
    pol.shear[:] = (-10.0, 10.0, -4.0, 2.0)
    pol.affine_width, pol.affine_height = 224, 160
    out = smp.sample(pol, np.full(draws, 500), np.full(draws, 375), seed=5, epoch=2)
    print("RandomAffine:")
    ck.check(bool(np.all(out["affine"])), "affine flag")
    for field, lo, hi in (("angle", -30.0, 15.0), ("scale", 0.8, 1.25), ("shear_x", -10.0, 10.0),
                          ("shear_y", -4.0, 2.0)):
        check_uniform(ck, field, out[field].astype(np.float64), np.float32(lo), np.float32(hi), draws)
    rng = np.random.default_rng(777)
    for field, frac, size in (("translate_x", 0.1, 224), ("translate_y", 0.05, 160)):
        m = float(frac * size)
        tv = np.round(tv_uniform(rng, draws, -m, m).astype(np.float64))
        pf = out[field].astype(np.float64)
        ck.check(bool(np.all(pf == np.round(pf))), f"{field} not whole pixels")
        edges = np.arange(-math.ceil(m) - 0.5, math.ceil(m) + 1.0, 1.0)
        compare_hist(ck, field, pf, tv, edges)


def test_eval(ck, smp):
    pol = smp.defaults()
    rng = np.random.default_rng(3)
    n = 2000
    W = rng.integers(1, 3000, n)
    H = rng.integers(1, 3000, n)
    bad = 0
    for S, cw, ch in ((256, 224, 224), (232, 224, 200), (64, 300, 10)):
        pol.resize_shorter, pol.center_crop_w, pol.center_crop_h = S, cw, ch
        out = smp.sample(pol, W, H)
        for i in range(n):
            want = tv_eval_rect(int(W[i]), int(H[i]), S, cw, ch)
            got = (int(out["crop_x"][i]), int(out["crop_y"][i]), int(out["crop_w"][i]), int(out["crop_h"][i]))
            if got != want:
                bad += 1
                if bad <= 5:
                    print(f"  eval {W[i]}x{H[i]} S={S} crop {cw}x{ch}: pixflow {got}, transcription {want}")
    print(f"Resize+CenterCrop: {3 * n - bad} of {3 * n} rects exact")
    ck.check(bad == 0, f"eval rects: {bad} differ")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    draws = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    smp = Sampler(sys.argv[1])
    ck = Checker()
    test_rrc(ck, smp, draws)
    test_coins(ck, smp, draws)
    test_jitter(ck, smp, draws)
    test_affine(ck, smp, draws)
    test_eval(ck, smp)
    print(f"{PROG}: {ck.passed} passed, {ck.failed} failed")
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
