#!/usr/bin/env python3
"""pf_sharpen against a numpy transcription of torchvision's adjust_sharpness.

Usage (ctest runs it this way):
    /usr/bin/python3 test_sharpen_torchvision.py <path-to-libpixflow.so>

torchvision.transforms.functional_tensor.adjust_sharpness(img, factor):
    kernel = ones(3, 3) (f32), kernel[1, 1] = 5, kernel /= kernel.sum()
    degenerate = conv2d(img as f32, kernel) on the interior ("valid"),
                 rounded (half to even) and cast back for uint8;
                 the first / last row and column keep img
    out = (factor * img + (1 - factor) * degenerate).clamp(0, bound).to(dtype)
          with bound 255 (u8, the cast truncates) or 1.0 (float)
    images with a side <= 2 are returned unchanged.
The transcription sums the 9 products in row-major order in float32 (the
order pixflow documents; torch's conv2d may sum in another order, which can
move a u8 result by 1 at exact .5 ties). u8 must match bit for bit, f32
exactly too. The last line is `test_sharpen_torchvision: N passed, M failed`;
numpy missing -> skipped (exit 0).
"""
import ctypes
import sys

PROG = "test_sharpen_torchvision"
try:
    import numpy as np
except ImportError:
    print(f"{PROG}: numpy missing; skipped")
    sys.exit(0)


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


def view(lib, arr):
    h, w, c = arr.shape
    dt = {np.dtype(np.uint8): "PF_U8", np.dtype(np.float32): "PF_F32"}[arr.dtype]
    code = lib.dtype_codes[dt]
    return lib.pf_image_hwc(arr.ctypes.data, w, h, c, code, arr.strides[0])


def reference(img, factor):
    h, w, _ = img.shape
    if h <= 2 or w <= 2:
        return img.copy()
    f = np.float32(factor)
    g = np.float32(1.0 - float(np.float32(factor)))
    x = img.astype(np.float32)
    side = np.float32(1.0) / np.float32(13.0)
    centre = np.float32(5.0) / np.float32(13.0)
    acc = None
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            wgt = centre if dy == 0 and dx == 0 else side
            term = x[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] * wgt
            acc = term if acc is None else (acc + term).astype(np.float32)
    deg = x.copy()
    if img.dtype == np.uint8:
        deg[1:-1, 1:-1] = np.round(acc)  # numpy rounds half to even, as torch.round
    else:
        deg[1:-1, 1:-1] = acc
    bound = np.float32(255.0 if img.dtype == np.uint8 else 1.0)
    out = (f * x).astype(np.float32) + (g * deg).astype(np.float32)
    out = np.clip(out, np.float32(0.0), bound)
    return out.astype(img.dtype)  # float -> uint8 truncates, as torch's .to(uint8)


def main():
    lib = ctypes.CDLL(sys.argv[1])
    lib.pf_image_hwc.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_int,
                                 ctypes.c_ssize_t]
    lib.pf_image_hwc.restype = PfImage
    lib.pf_sharpen.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(PfImage), ctypes.POINTER(PfImage),
                               ctypes.POINTER(ctypes.c_float), ctypes.c_int]
    lib.pf_sharpen.restype = ctypes.c_int
    lib.pf_last_error.restype = ctypes.c_char_p
    lib.dtype_codes = {"PF_U8": 0, "PF_F32": 6}
    lib.pf_dtype_name.restype = ctypes.c_char_p
    lib.pf_dtype_name.argtypes = [ctypes.c_int]
    for code in range(12):  # find the enum values by name rather than assuming them
        name = lib.pf_dtype_name(code)
        if name == b"u8":
            lib.dtype_codes["PF_U8"] = code
        if name == b"f32":
            lib.dtype_codes["PF_F32"] = code
    rng = np.random.default_rng(20261130)
    passed = failed = 0
    for case in range(160):
        h = int(rng.integers(1, 40))
        w = int(rng.integers(1, 90))
        c = int(rng.choice([1, 3, 4]))
        f32 = case % 4 == 3
        if f32:
            big = rng.random((h + 2, w + 3, c), dtype=np.float32)
        else:
            big = rng.integers(0, 256, (h + 2, w + 3, c), dtype=np.uint8)
        img = big[1:h + 1, 2:w + 2]  # a strided view
        factor = float(np.float32(rng.choice([0.0, 0.5, 1.0, 1.5, 2.0, rng.random() * 5])))
        out = np.full_like(img, 7) if not f32 else np.zeros_like(img)
        out = np.ascontiguousarray(out)
        s, d = view(lib, img), view(lib, out)
        fv = ctypes.c_float(factor)
        rc = lib.pf_sharpen(None, 1, ctypes.byref(s), ctypes.byref(d), ctypes.byref(fv), 1)
        want = reference(img, factor)
        ok = rc == 0 and np.array_equal(out, want)
        if not ok:
            failed += 1
            diff = np.abs(out.astype(np.float64) - want.astype(np.float64)).max() if rc == 0 else -1
            print(f"case {case}: {h}x{w}x{c} {'f32' if f32 else 'u8'} factor {factor}: rc {rc} "
                  f"({lib.pf_last_error()}), max diff {diff}")
        else:
            passed += 1
    print(f"{PROG}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
