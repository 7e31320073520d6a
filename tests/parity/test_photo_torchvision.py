#!/usr/bin/env python3
"""pixflow's photometric ops against the numpy transcription of torchvision
(tests/parity/photo_reference.py; torch is not installable here, see there).

Usage (ctest runs it this way):
    /usr/bin/python3 test_photo_torchvision.py <path-to-libpixflow.so> [cases-per-op] [seed]

For every op, `cases` random samples (default 500) in batches of 1..6 with
per-sample parameters (n == count) or shared ones (n == 1): random sizes
(1..69 x 1..29, so SIMD bodies and scalar tails both run), u8 and f32, 1
or 3 channels where the op allows, tight and padded rows. u8 must be
bit-exact; f32 must be bit-exact except contrast (mean summed in a different
order: 2 ulp). Every batch is also run on a 2-thread stream and must give
identical bytes. A failure prints the op, the case and the first
mismatches; re-run a single op with PIXFLOW_PHOTO_ONLY=<op>.
"""
import ctypes
import os
import sys

PROG = "test_photo_torchvision"

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover
    print(f"{PROG}: SKIP: needs numpy: {exc}")
    print(f"{PROG}: 0 passed, 0 failed")
    sys.exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photo_reference as ref  # noqa: E402

PF_U8, PF_F32, PF_HWC = 0, 6, 0


class PfImage(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("width", ctypes.c_int32), ("height", ctypes.c_int32),
                ("channels", ctypes.c_int32), ("dtype", ctypes.c_int), ("layout", ctypes.c_int),
                ("row_stride", ctypes.c_ssize_t), ("plane_stride", ctypes.c_ssize_t),
                ("mem", ctypes.c_int), ("device", ctypes.c_int32)]


class PfNoiseOpts(ctypes.Structure):
    _fields_ = [("seed", ctypes.c_uint64), ("clip", ctypes.c_bool),
                ("sample_ids", ctypes.POINTER(ctypes.c_uint64))]


class PfEraseRect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int32), ("y", ctypes.c_int32), ("width", ctypes.c_int32),
                ("height", ctypes.c_int32), ("value", ctypes.c_double * 4)]


def view(arr):
    """pf_image of an HWC numpy array (possibly a strided row view)."""
    h, w, c = arr.shape
    return PfImage(arr.ctypes.data, w, h, c, PF_U8 if arr.dtype == np.uint8 else PF_F32, PF_HWC,
                   arr.strides[0], 0, 0, 0)


def dbl(vals):
    return (ctypes.c_double * len(vals))(*vals)


class Runner:
    def __init__(self, lib_path):
        self.lib = ctypes.CDLL(lib_path)
        self.lib.pf_last_error.restype = ctypes.c_char_p
        self.stream = ctypes.c_void_p()
        if self.lib.pf_stream_create_cpu(2, ctypes.byref(self.stream)) != 0:
            raise RuntimeError("pf_stream_create_cpu failed")

    def call(self, name, srcs, dst_channels, *args, stream=None):
        n = len(srcs)
        dsts = []
        for s in srcs:
            h, w, _ = s.shape
            pad = 3  # padded rows: the row stride is not width * channels
            buf = np.zeros((h, w + pad, dst_channels), s.dtype)
            dsts.append(buf[:, :w, :])
        sv = (PfImage * n)(*[view(s) for s in srcs])
        dv = (PfImage * n)(*[view(d) for d in dsts])
        st = getattr(self.lib, name)(stream, n, sv, dv, *args)
        if st != 0:
            raise RuntimeError(f"{name} failed: {st} {self.lib.pf_last_error().decode()}")
        return dsts


def rand_image(rng, dtype, channels):
    h, w = int(rng.integers(1, 30)), int(rng.integers(1, 70))
    if dtype == np.uint8:
        kind = rng.integers(0, 4)
        if kind == 0:  # low-contrast images exercise equalize/autocontrast edges
            lo = int(rng.integers(0, 250))
            img = rng.integers(lo, lo + 6, (h, w, channels)).clip(0, 255).astype(np.uint8)
        else:
            img = rng.integers(0, 256, (h, w, channels), dtype=np.uint8)
        if kind == 1 and channels == 3:  # grays and saturated primaries: hue edge cases
            img[..., 1] = img[..., 0]
            img[: h // 2, :, 2] = img[: h // 2, :, 0]
    else:
        img = rng.random((h, w, channels), dtype=np.float32)
        if rng.integers(0, 4) == 0:
            img = (np.round(img * 255) / 255).astype(np.float32)
    if rng.integers(0, 3) == 0:  # padded source rows
        big = np.zeros((h, w + 5, channels), img.dtype)
        big[:, :w] = img
        img = big[:, :w]
    return img


def f32_ulps(a, b):
    a = a.astype(np.float32).view(np.int32).astype(np.int64)
    b = b.astype(np.float32).view(np.int32).astype(np.int64)
    return int(np.max(np.abs(a - b))) if a.size else 0


# op name -> (channels allowed, param generator, pixflow call, reference, f32 ulps)
def ops(rng):
    def factors(k, hi):
        return [float(rng.uniform(0, hi)) if rng.random() > 0.1 else float(rng.choice([0.0, 1.0]))
                for _ in range(k)]

    def simple(cfunc, rfunc, gen, ulps=0, chans=(1, 3)):
        return (chans, gen, lambda r, srcs, p, s: r.call(cfunc, srcs, srcs[0].shape[2], dbl(p), len(p), stream=s),
                lambda img, q: rfunc(img, q), ulps)

    return {
        "brightness": simple("pf_adjust_brightness", ref.adjust_brightness, lambda k: factors(k, 2.5)),
        "contrast": simple("pf_adjust_contrast", ref.adjust_contrast, lambda k: factors(k, 2.5), ulps=2),
        "saturation": simple("pf_adjust_saturation", ref.adjust_saturation, lambda k: factors(k, 3.0)),
        "hue": simple("pf_adjust_hue", ref.adjust_hue,
                      lambda k: [float(rng.uniform(-0.5, 0.5)) if rng.random() > 0.1
                                 else float(rng.choice([-0.5, 0.0, 0.5])) for _ in range(k)]),
        "solarize": (
            (1, 3),
            lambda k: [float(rng.uniform(0, 1)) for _ in range(k)],
            lambda r, srcs, p, s: r.call("pf_solarize", srcs, srcs[0].shape[2],
                                         dbl([q * (255 if srcs[0].dtype == np.uint8 else 1) for q in p]), len(p),
                                         stream=s),
            lambda img, q: ref.solarize(img, q * (255 if img.dtype == np.uint8 else 1)), 0),
        "gamma": (
            (1, 3),
            lambda k: [(float(rng.choice([0.5, 2.0, 3.0, rng.uniform(0.2, 3)])),
                        float(rng.choice([1.0, rng.uniform(0.5, 1.5)]))) for _ in range(k)],
            lambda r, srcs, p, s: r.call("pf_adjust_gamma", srcs, srcs[0].shape[2], dbl([q[0] for q in p]),
                                         dbl([q[1] for q in p]), len(p), stream=s),
            lambda img, q: ref.adjust_gamma(img, q[0], q[1]), 0),
        "posterize": (
            (1, 3),
            lambda k: [int(rng.integers(0, 9)) for _ in range(k)],
            lambda r, srcs, p, s: r.call("pf_posterize", srcs, srcs[0].shape[2], (ctypes.c_int * len(p))(*p),
                                         len(p), stream=s),
            lambda img, q: ref.posterize(img, q), 0),
        "invert": ((1, 3), lambda k: [0],
                   lambda r, srcs, p, s: r.call("pf_invert", srcs, srcs[0].shape[2], stream=s),
                   lambda img, q: ref.invert(img), 0),
        "autocontrast": ((1, 3), lambda k: [0],
                         lambda r, srcs, p, s: r.call("pf_autocontrast", srcs, srcs[0].shape[2], stream=s),
                         lambda img, q: ref.autocontrast(img), 0),
        "equalize": ((1, 3), lambda k: [0],
                     lambda r, srcs, p, s: r.call("pf_equalize", srcs, srcs[0].shape[2], stream=s),
                     lambda img, q: ref.equalize(img), 0),
        "grayscale1": ((1, 3), lambda k: [0],
                       lambda r, srcs, p, s: r.call("pf_rgb_to_grayscale", srcs, 1, stream=s),
                       lambda img, q: ref.rgb_to_grayscale(img, 1), 0),
        "grayscale3": ((1, 3), lambda k: [0],
                       lambda r, srcs, p, s: r.call("pf_rgb_to_grayscale", srcs, 3, stream=s),
                       lambda img, q: ref.rgb_to_grayscale(img, 3), 0),
        "color_twist": (
            (3,),
            lambda k: [[float(v) for v in np.concatenate([rng.uniform(-1.5, 1.5, 3), [rng.uniform(-60, 60)]] * 3)]
                       for _ in range(k)],
            lambda r, srcs, p, s: r.call("pf_color_twist", srcs, 3,
                                         (ctypes.c_float * (12 * len(p)))(*[v for m in p for v in m]), len(p),
                                         stream=s),
            lambda img, q: ref.color_twist(img, q), 0),
        "gaussian_noise": (
            (1, 3),
            lambda k: [(float(rng.uniform(-0.2, 0.2)), float(rng.uniform(0, 0.5)), int(rng.integers(0, 2**40)))
                       for _ in range(k)],
            None, None, 0),
        "erase": ((1, 3), None, None, None, 0),
    }


def run_noise(r, srcs, params, clip, seed, stream):
    ids = (ctypes.c_uint64 * len(srcs))(*[p[2] for p in params]) if len(params) == len(srcs) else None
    o = PfNoiseOpts(seed, clip, ids)
    return r.call("pf_gaussian_noise", srcs, srcs[0].shape[2], dbl([p[0] for p in params]),
                  dbl([p[1] for p in params]), len(params), ctypes.byref(o), stream=stream)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1234
    only = os.environ.get("PIXFLOW_PHOTO_ONLY")
    r = Runner(sys.argv[1])
    rng = np.random.default_rng(seed)
    table = ops(rng)
    passed = failed = 0
    for name, (chans, gen, call, rfun, ulps) in table.items():
        if only and name != only:
            continue
        done = 0
        worst_f32 = 0
        op_fail = 0
        while done < cases:
            count = int(rng.integers(1, 7))
            dtype = np.uint8 if rng.random() < 0.6 else np.float32
            ch = int(rng.choice(chans))
            srcs = [rand_image(rng, dtype, ch) for _ in range(count)]
            shared = rng.random() < 0.25
            k = 1 if shared else count
            if name == "gaussian_noise":
                params = gen(k)
                clip = bool(rng.random() < 0.8)
                nseed = int(rng.integers(0, 2**63))
                got = run_noise(r, srcs, params, clip, nseed, None)
                got2 = run_noise(r, srcs, params, clip, nseed, r.stream)
                want = [ref.gaussian_noise(s, params[0 if shared else i][0], params[0 if shared else i][1], clip,
                                           nseed, params[i][2] if len(params) == len(srcs) else i) for i, s in enumerate(srcs)]
            elif name == "erase":
                counts = []
                rects = []
                for i in range(k):
                    h, w = srcs[i].shape[:2]
                    if shared:
                        h, w = min(s.shape[0] for s in srcs), min(s.shape[1] for s in srcs)
                    m = int(rng.integers(0, 4))
                    counts.append(m)
                    for _ in range(m):
                        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
                        rw, rh = int(rng.integers(0, w - x0 + 1)), int(rng.integers(0, h - y0 + 1))
                        vals = [float(rng.uniform(-20, 280)) if dtype == np.uint8 else float(rng.random())
                                for _ in range(4)]
                        rects.append((x0, y0, rw, rh, vals))
                ra = (PfEraseRect * max(1, len(rects)))(*[PfEraseRect(x, y, w_, h_, (ctypes.c_double * 4)(*v))
                                                         for (x, y, w_, h_, v) in rects])
                ca = (ctypes.c_int32 * len(counts))(*counts)
                got = r.call("pf_erase", srcs, ch, ra, ca, len(counts))
                got2 = r.call("pf_erase", srcs, ch, ra, ca, len(counts), stream=r.stream)
                want = []
                for i, s in enumerate(srcs):
                    kk = 0 if shared else i
                    first = sum(counts[:kk])
                    want.append(ref.erase(s, rects[first:first + counts[kk]]))
            else:
                params = gen(k)
                got = call(r, srcs, params, None)
                got2 = call(r, srcs, params, r.stream)
                want = [rfun(s, params[0 if shared or len(params) == 1 else i]) for i, s in enumerate(srcs)]
            for i, s in enumerate(srcs):
                g, w2 = got[i], want[i]
                ok = g.shape == w2.shape and np.array_equal(got2[i], g)
                if ok and s.dtype == np.uint8:
                    ok = np.array_equal(g, w2)
                elif ok:
                    u = f32_ulps(g, w2)
                    worst_f32 = max(worst_f32, u)
                    ok = u <= ulps
                if ok:
                    passed += 1
                else:
                    failed += 1
                    op_fail += 1
                    if op_fail <= 3:
                        bad = np.argwhere(g != w2) if g.shape == w2.shape else []
                        print(f"{PROG}: {name} case {done + i} ({s.dtype}, {s.shape}) differs at {bad[:4].tolist()}"
                              f" got {g[tuple(bad[0])] if len(bad) else '?'} want {w2[tuple(bad[0])] if len(bad) else '?'}"
                              f" src {s[tuple(bad[0][:2])] if len(bad) else ''} threads-equal {np.array_equal(got2[i], g)}")
            done += count
        print(f"{PROG}: {name}: {done} cases, {op_fail} failed, f32 max ulp {worst_f32}")
    print(f"{PROG}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
