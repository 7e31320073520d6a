#!/usr/bin/env python3
"""Benchmark: Pillow Image.resize vs pf_resize(antialias=True), same process.

    /usr/bin/python3 bench/bench_antialias_pillow.py <libpixflow.so> <image>
        [--rounds R] [--min-time S] [--filter bilinear|bicubic|box|lanczos]

The image is loaded once with Pillow (RGB). Pillow resizes the PIL image
(its own RGBX storage, allocating the output, as applications call it);
pixflow resizes the same pixels held in a numpy array into a preallocated
array, through ctypes, on the NULL stream (the calling thread alone, like
Pillow) and on a 2-thread CPU stream. Each timing is the median over R
rounds of the mean per-call time of N calls (N calibrated so that a round
lasts about --min-time seconds). The ctypes call overhead (~1-2 us) is
included in pixflow's time.

Cases: the image -> 224x224, the image -> half size, and 1920x1080 ->
224x224 when the image is at least that big (its top-left 1920x1080 crop).
The max |diff| column compares the two outputs (antialiased u8 pixflow is
meant to equal Pillow bit for bit).

This is a benchmark, not a test: it always exits 0 unless it cannot run.
"""
import argparse
import ctypes
import statistics
import sys
import time

try:
    import numpy as np
    from PIL import Image
except ImportError as exc:
    print("bench_antialias_pillow: needs PIL (python3-pil) and numpy: %s" % exc)
    sys.exit(2)

_R = getattr(Image, "Resampling", Image)
FILTERS = {
    "bilinear": (1, _R.BILINEAR),  # PF_INTERP_LINEAR
    "bicubic": (2, _R.BICUBIC),    # PF_INTERP_CUBIC
    "box": (3, _R.BOX),            # PF_INTERP_AREA
    "lanczos": (4, _R.LANCZOS),    # PF_INTERP_LANCZOS4
}


class PfImage(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("width", ctypes.c_int32),
        ("height", ctypes.c_int32),
        ("channels", ctypes.c_int32),
        ("dtype", ctypes.c_int),
        ("layout", ctypes.c_int),
        ("row_stride", ctypes.c_ssize_t),
        ("plane_stride", ctypes.c_ssize_t),
        ("mem", ctypes.c_int),
        ("device", ctypes.c_int32),
    ]


class PfResizeOpts(ctypes.Structure):
    _fields_ = [("interp", ctypes.c_int), ("antialias", ctypes.c_bool), ("flavor", ctypes.c_int)]


def load_lib(path):
    lib = ctypes.CDLL(path)
    lib.pf_resize.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(PfImage),
                              ctypes.POINTER(PfImage), ctypes.POINTER(PfResizeOpts)]
    lib.pf_resize.restype = ctypes.c_int
    lib.pf_last_error.restype = ctypes.c_char_p
    lib.pf_status_str.argtypes = [ctypes.c_int]
    lib.pf_status_str.restype = ctypes.c_char_p
    lib.pf_version.restype = ctypes.c_char_p
    lib.pf_build_info.restype = ctypes.c_char_p
    lib.pf_stream_create_cpu.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
    lib.pf_stream_create_cpu.restype = ctypes.c_int
    lib.pf_stream_destroy.argtypes = [ctypes.c_void_p]
    lib.pf_stream_destroy.restype = None
    lib.pf_stream_synchronize.argtypes = [ctypes.c_void_p]
    lib.pf_stream_synchronize.restype = ctypes.c_int
    return lib


def make_call(lib, arr, w, h, interp, stream):
    """Returns (fn, out): fn() runs one pf_resize of arr into out."""
    ch = arr.shape[2]
    out = np.empty((h, w, ch), dtype=np.uint8)
    src = PfImage(arr.ctypes.data, arr.shape[1], arr.shape[0], ch, 0, 0, arr.strides[0], 0,
                  0, 0)
    dst = PfImage(out.ctypes.data, w, h, ch, 0, 0, out.strides[0], 0, 0, 0)
    opts = PfResizeOpts(interp, True)
    psrc, pdst, popts = ctypes.byref(src), ctypes.byref(dst), ctypes.byref(opts)
    fn_resize, fn_sync = lib.pf_resize, lib.pf_stream_synchronize

    def fn():
        st = fn_resize(stream, 1, psrc, pdst, popts)
        if st == 0 and stream is not None:
            st = fn_sync(stream)
        if st != 0:
            raise RuntimeError("pf_resize failed: %s: %s" % (
                lib.pf_status_str(st).decode(), lib.pf_last_error().decode()))

    # keep the views alive as long as fn
    fn.keep = (src, dst, opts, arr, out)
    return fn, out


def time_ms(fn, rounds, min_time):
    fn()  # warm-up (page faults, lazy tables)
    n, t = 1, 0.0
    while True:  # calibrate
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
        if t >= min_time or n >= 1 << 20:
            break
        n = max(n * 2, int(n * min_time / max(t, 1e-9)) + 1) if t > 0 else n * 2
    per = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        per.append((time.perf_counter() - t0) / n * 1e3)
    return statistics.median(per), n


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lib")
    ap.add_argument("image")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--min-time", type=float, default=0.15,
                    help="seconds per timing round (default 0.15)")
    ap.add_argument("--filter", choices=sorted(FILTERS), default="bilinear")
    a = ap.parse_args(argv[1:])

    lib = load_lib(a.lib)
    interp, resample = FILTERS[a.filter]
    with Image.open(a.image) as im:
        img = im.convert("RGB")
    w, h = img.size

    cases = [("%dx%d->224x224" % (w, h), img, (224, 224)),
             ("%dx%d->%dx%d (1/2)" % (w, h, max(1, w // 2), max(1, h // 2)), img,
              (max(1, w // 2), max(1, h // 2)))]
    if w >= 1920 and h >= 1080 and (w, h) != (1920, 1080):
        cases.append(("1920x1080->224x224", img.crop((0, 0, 1920, 1080)), (224, 224)))

    stream2 = ctypes.c_void_p()
    st = lib.pf_stream_create_cpu(2, ctypes.byref(stream2))
    if st != 0:
        print("pf_stream_create_cpu(2) failed: %s" % lib.pf_last_error().decode())
        return 1

    import PIL
    print("pixflow %s (%s) vs Pillow %s; filter %s; median of %d rounds" % (
        lib.pf_version().decode(), lib.pf_build_info().decode(), PIL.__version__, a.filter,
        a.rounds))
    print("%-28s %10s %11s %9s %13s %9s %9s" % ("case", "pillow ms", "pixflow ms", "ratio",
                                               "pixflow2t ms", "ratio2t", "max|diff|"))
    try:
        for name, pimg, (dw, dh) in cases:
            arr = np.ascontiguousarray(np.asarray(pimg))
            pil_ms, _ = time_ms(lambda p=pimg, s=(dw, dh): p.resize(s, resample), a.rounds,
                                a.min_time)
            fn1, out1 = make_call(lib, arr, dw, dh, interp, None)
            pf_ms, _ = time_ms(fn1, a.rounds, a.min_time)
            fn2, _ = make_call(lib, arr, dw, dh, interp, stream2)
            pf2_ms, _ = time_ms(fn2, a.rounds, a.min_time)
            ref = np.asarray(pimg.resize((dw, dh), resample))
            md = int(np.abs(ref.astype(np.int32) - out1.astype(np.int32)).max())
            print("%-28s %10.3f %11.3f %8.2fx %13.3f %8.2fx %9d" % (
                name, pil_ms, pf_ms, pil_ms / pf_ms, pf2_ms, pil_ms / pf2_ms, md))
    finally:
        lib.pf_stream_destroy(stream2)
    print("ratio = pillow ms / pixflow ms (> 1: pixflow faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
