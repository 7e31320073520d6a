#!/usr/bin/env python3
"""pf_resize(antialias=True) against Pillow's Image.resize.

Usage (ctest runs it this way):
    /usr/bin/python3 test_antialias_pil.py <path-to-libpixflow.so> <data-dir> [-v]

pixflow promises (include/pixflow/ops.h) that antialiased u8 resizing is
computed exactly as Pillow's Image.resize does it (two passes, horizontal
first, 22-bit fixed-point weights, u8 intermediate):
    LINEAR -> Image.BILINEAR, CUBIC -> Image.BICUBIC,
    AREA -> Image.BOX,        LANCZOS4 -> Image.LANCZOS.
This test compares both on every JPEG of the data directory (as RGB and as
L), on uniform-noise images (including 1-pixel-wide ones and opaque RGBA),
for several downscale targets and one upscale, through both a tight numpy
array and a strided view into a larger array. u8 fails when any pixel
differs by more than 1. f32 (Pillow mode "F", double weights) is compared
with a small tolerance. A 2-thread CPU stream must give the same bytes as
the NULL stream.

The last line is `test_antialias_pil: N passed, M failed`; exit status 1 when
anything failed, 0 otherwise. Without PIL/numpy it is skipped (exit 77, ctest's
SKIP_RETURN_CODE) outside CI, and fails (exit 1) under CI=true: a skip there hides
a missing oracle.
"""
import ctypes
import glob
import os
import sys

PROG = "test_antialias_pil"

try:
    import numpy as np
    from PIL import Image
except ImportError as exc:  # pragma: no cover - depends on the machine
    in_ci = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
    print(f"{PROG}: {'FAILED (CI=true, a skip is a failure)' if in_ci else 'SKIPPED'}: "
          f"needs PIL (python3-pil) and numpy (python3-numpy): {exc}")
    sys.exit(1 if in_ci else 77)

_R = getattr(Image, "Resampling", Image)

# pf_interp values (== OpenCV's INTER_*) and the Pillow filter each maps to.
PF_INTERP_LINEAR, PF_INTERP_CUBIC, PF_INTERP_AREA, PF_INTERP_LANCZOS4 = 1, 2, 3, 4
FILTERS = [
    ("LINEAR/BILINEAR", PF_INTERP_LINEAR, _R.BILINEAR),
    ("CUBIC/BICUBIC", PF_INTERP_CUBIC, _R.BICUBIC),
    ("AREA/BOX", PF_INTERP_AREA, _R.BOX),
    ("LANCZOS4/LANCZOS", PF_INTERP_LANCZOS4, _R.LANCZOS),
]
PF_U8, PF_F32 = 0, 6
PF_HWC = 0
PF_MEM_HOST = 0

F32_TOL = 2e-3  # absolute, for values in [0, 255] (Pillow F uses doubles)


# --------------------------------------------------------------- ctypes API
class PfImage(ctypes.Structure):
    """struct pf_image from include/pixflow/core.h (platform ABI padding)."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("width", ctypes.c_int32),
        ("height", ctypes.c_int32),
        ("channels", ctypes.c_int32),
        ("dtype", ctypes.c_int),  # enum pf_dtype
        ("layout", ctypes.c_int),  # enum pf_layout
        ("row_stride", ctypes.c_ssize_t),
        ("plane_stride", ctypes.c_ssize_t),
        ("mem", ctypes.c_int),  # enum pf_mem
        ("device", ctypes.c_int32),
    ]


class PfResizeOpts(ctypes.Structure):
    """struct pf_resize_opts from include/pixflow/ops.h (flavor 0 = OpenCV; antialias = Pillow)."""

    _fields_ = [("interp", ctypes.c_int), ("antialias", ctypes.c_bool), ("flavor", ctypes.c_int)]


class Lib:
    def __init__(self, path):
        self.lib = lib = ctypes.CDLL(path)
        lib.pf_resize.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.POINTER(PfImage),
            ctypes.POINTER(PfImage),
            ctypes.POINTER(PfResizeOpts),
        ]
        lib.pf_resize.restype = ctypes.c_int
        lib.pf_resize_opts_defaults.argtypes = []
        lib.pf_resize_opts_defaults.restype = PfResizeOpts
        lib.pf_last_error.argtypes = []
        lib.pf_last_error.restype = ctypes.c_char_p
        lib.pf_status_str.argtypes = [ctypes.c_int]
        lib.pf_status_str.restype = ctypes.c_char_p
        lib.pf_version.argtypes = []
        lib.pf_version.restype = ctypes.c_char_p
        lib.pf_stream_create_cpu.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
        lib.pf_stream_create_cpu.restype = ctypes.c_int
        lib.pf_stream_destroy.argtypes = [ctypes.c_void_p]
        lib.pf_stream_destroy.restype = None
        lib.pf_stream_synchronize.argtypes = [ctypes.c_void_p]
        lib.pf_stream_synchronize.restype = ctypes.c_int

    def error(self, status):
        return "%s: %s" % (
            self.lib.pf_status_str(status).decode(),
            (self.lib.pf_last_error() or b"").decode(errors="replace"),
        )

    def stream(self, threads):
        s = ctypes.c_void_p()
        st = self.lib.pf_stream_create_cpu(threads, ctypes.byref(s))
        if st != 0:
            raise RuntimeError("pf_stream_create_cpu(%d) failed: %s" % (threads, self.error(st)))
        return s

    def resize(self, arr, w, h, interp, antialias=True, stream=None):
        """Resizes a (H, W) or (H, W, C) numpy array (u8 or f32, any row
        stride, pixels contiguous within a row) into a new array."""
        assert arr.dtype in (np.uint8, np.float32)
        ch = 1 if arr.ndim == 2 else arr.shape[2]
        es = arr.itemsize
        assert arr.strides[1] == ch * es and (arr.ndim == 2 or arr.strides[2] == es)
        dtype = PF_U8 if arr.dtype == np.uint8 else PF_F32
        out_shape = (h, w) if arr.ndim == 2 else (h, w, ch)
        out = np.zeros(out_shape, dtype=arr.dtype)
        src = PfImage(arr.ctypes.data, arr.shape[1], arr.shape[0], ch, dtype, PF_HWC,
                      arr.strides[0], 0, PF_MEM_HOST, 0)
        dst = PfImage(out.ctypes.data, w, h, ch, dtype, PF_HWC, out.strides[0], 0,
                      PF_MEM_HOST, 0)
        opts = PfResizeOpts(interp, antialias)
        st = self.lib.pf_resize(stream, 1, ctypes.byref(src), ctypes.byref(dst),
                                ctypes.byref(opts))
        if st == 0 and stream is not None:
            st = self.lib.pf_stream_synchronize(stream)
        if st != 0:
            raise RuntimeError("pf_resize(%dx%dx%d -> %dx%d, interp=%d, antialias=%s) "
                               "failed: %s" % (arr.shape[1], arr.shape[0], ch, w, h, interp,
                                               antialias, self.error(st)))
        return out


# ------------------------------------------------------------------ cases
def targets(w, h):
    """(label, (dw, dh), also_f32) for an image of w x h."""
    up = 1.6 if w * h <= 640 * 480 else 1.15  # one upscale, kept moderate
    return [
        ("224x224", (224, 224), True),
        ("1/2", (max(1, w // 2), max(1, h // 2)), False),
        ("1/3.7", (max(1, round(w / 3.7)), max(1, round(h / 3.7))), True),
        ("width-only/3", (max(1, round(w / 3)), h), False),
        ("height-only/2.5", (w, max(1, round(h / 2.5))), False),
        ("7x5", (7, 5), True),
        ("up x%g" % up, (max(1, round(w * up)), max(1, round(h * up + 1))), True),
    ]


class Stats:
    def __init__(self):
        self.cases = 0
        self.exact_cases = 0
        self.pixels = 0
        self.exact_pixels = 0
        self.max_diff = 0.0


class Runner:
    def __init__(self, lib, verbose):
        self.lib = lib
        self.verbose = verbose
        self.passed = 0
        self.failed = 0
        self.failures = []
        self.u8 = {name: Stats() for name, _, _ in FILTERS}
        self.f32 = {name: Stats() for name, _, _ in FILTERS}
        self.stream2 = lib.stream(2)

    def fail(self, msg):
        self.failed += 1
        self.failures.append(msg)
        if self.verbose:
            print("FAIL " + msg)

    def check_u8(self, label, pil_img, arr, fname, interp, resample, size, use_stream):
        """arr holds exactly pil_img's pixels (possibly as a strided view)."""
        dw, dh = size
        desc = "%s %s %s %dx%d -> %dx%d" % (label, pil_img.mode, fname, arr.shape[1],
                                             arr.shape[0], dw, dh)
        try:
            ref = np.asarray(pil_img.resize((dw, dh), resample))
            got = self.lib.resize(arr, dw, dh, interp, True)
        except Exception as exc:  # noqa: BLE001 - report and carry on
            self.fail("%s: %s" % (desc, exc))
            return
        st = self.u8[fname]
        st.cases += 1
        diff = np.abs(got.astype(np.int32) - ref.astype(np.int32))
        md = int(diff.max()) if diff.size else 0
        st.pixels += diff.size
        st.exact_pixels += int((diff == 0).sum())
        st.max_diff = max(st.max_diff, md)
        if md == 0:
            st.exact_cases += 1
        ok = True
        if md > 1:
            ok = False
            idx = np.unravel_index(int(np.argmax(diff)), diff.shape)
            yx = "(x=%d, y=%d%s)" % (idx[1], idx[0], ", c=%d" % idx[2] if len(idx) > 2 else "")
            self.fail("%s: u8 max |diff| %d > 1 (%d of %d values differ); worst at %s: "
                      "pixflow %d, Pillow %d" % (desc, md, int((diff != 0).sum()), diff.size,
                                                 yx, int(got[idx]), int(ref[idx])))
        if use_stream and ok:
            try:
                got2 = self.lib.resize(arr, dw, dh, interp, True, self.stream2)
            except Exception as exc:  # noqa: BLE001
                self.fail("%s [2-thread stream]: %s" % (desc, exc))
                return
            if not np.array_equal(got, got2):
                ok = False
                self.fail("%s: 2-thread stream result differs from the NULL stream result "
                          "(%d values)" % (desc, int((got != got2).sum())))
        if ok:
            self.passed += 1
        if self.verbose:
            print("%-4s %s: max|diff| %d, exact %.4f" % ("ok" if ok else "FAIL", desc, md,
                                                         float((diff == 0).mean())))

    def check_f32(self, label, pil_l, fname, interp, resample, size):
        """Pillow mode "F" against pf_resize on f32 (values 0..255)."""
        dw, dh = size
        fimg = pil_l.convert("F")
        arr = np.asarray(fimg, dtype=np.float32)
        desc = "%s F %s %dx%d -> %dx%d" % (label, fname, arr.shape[1], arr.shape[0], dw, dh)
        try:
            ref = np.asarray(fimg.resize((dw, dh), resample), dtype=np.float64)
            got = self.lib.resize(np.ascontiguousarray(arr), dw, dh, interp, True)
        except Exception as exc:  # noqa: BLE001
            self.fail("%s: %s" % (desc, exc))
            return
        st = self.f32[fname]
        st.cases += 1
        diff = np.abs(got.astype(np.float64) - ref)
        md = float(diff.max()) if diff.size else 0.0
        if not np.isfinite(md):
            md = float("inf")
        st.pixels += diff.size
        st.exact_pixels += int((diff == 0).sum())
        st.max_diff = max(st.max_diff, md)
        if md == 0:
            st.exact_cases += 1
        if not md <= F32_TOL:
            idx = np.unravel_index(int(np.nanargmax(diff)), diff.shape)
            self.fail("%s: f32 max |diff| %.6g > %g; worst at (x=%d, y=%d): pixflow %.9g, "
                      "Pillow %.9g" % (desc, md, F32_TOL, idx[1], idx[0], float(got[idx]),
                                       float(ref[idx])))
        else:
            self.passed += 1

    def run_image(self, label, img, with_f32):
        """img: a PIL image in mode L, RGB or RGBA (opaque)."""
        arr = np.ascontiguousarray(np.asarray(img))
        w, h = img.size
        for tname, size, also_f32 in targets(w, h):
            for fname, interp, resample in FILTERS:
                self.check_u8("%s [%s]" % (label, tname), img, arr, fname, interp, resample,
                              size, use_stream=(tname == "224x224"))
                if with_f32 and also_f32 and img.mode == "L":
                    self.check_f32("%s [%s]" % (label, tname), img, fname, interp, resample,
                                   size)

    def run_strided(self, label, img):
        """A window into a larger array (row stride > row bytes): Pillow gets
        the cropped image, pixflow a view into the parent's memory."""
        parent = np.asarray(img)
        h, w = parent.shape[:2]
        if w < 8 or h < 8:
            return
        x0, y0 = 3, 5
        view = parent[y0:h - 2, x0:w - 1]
        crop = Image.fromarray(np.ascontiguousarray(view))
        for fname, interp, resample in FILTERS:
            size = (max(1, view.shape[1] // 3), max(1, view.shape[0] // 2))
            self.check_u8("%s [roi view]" % label, crop, view, fname, interp, resample, size,
                          use_stream=False)

    def check_defaults(self):
        d = self.lib.lib.pf_resize_opts_defaults()
        if d.interp != PF_INTERP_LINEAR or d.antialias:
            self.fail("pf_resize_opts_defaults() = {interp=%d, antialias=%s}; expected "
                      "{LINEAR(1), false}" % (d.interp, d.antialias))
        else:
            self.passed += 1

    def close(self):
        self.lib.lib.pf_stream_destroy(self.stream2)


def noise_images(rng):
    out = []
    for w, h in [(640, 480), (333, 251), (1, 64), (64, 1), (1, 1), (17, 3), (1000, 7),
                 (97, 211)]:
        out.append(("noise %dx%d" % (w, h), Image.fromarray(
            rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8), "RGB")))
        out.append(("noise %dx%d" % (w, h), Image.fromarray(
            rng.integers(0, 256, size=(h, w), dtype=np.uint8), "L")))
    # RGBA with opaque alpha: Pillow premultiplies by alpha, which is the
    # identity for alpha == 255, so pixflow (no premultiply) must match.
    rgba = rng.integers(0, 256, size=(150, 203, 4), dtype=np.uint8)
    rgba[..., 3] = 255
    out.append(("noise 203x150 opaque", Image.fromarray(rgba, "RGBA")))
    return out


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("-")]
    verbose = "-v" in argv[1:] or "--verbose" in argv[1:]
    if len(args) != 2:
        print("usage: %s <libpixflow.so> <data-dir> [-v]" % argv[0])
        return 2
    lib_path, data_dir = args
    try:
        lib = Lib(lib_path)
    except OSError as exc:
        print("%s: cannot load %s: %s" % (PROG, lib_path, exc))
        print("%s: 0 passed, 1 failed" % PROG)
        return 1
    import PIL

    print("%s: pixflow %s, Pillow %s, numpy %s" % (PROG, lib.lib.pf_version().decode(),
                                                   PIL.__version__, np.__version__))
    r = Runner(lib, verbose)
    r.check_defaults()

    jpegs = sorted(glob.glob(os.path.join(data_dir, "*.jpg")) +
                   glob.glob(os.path.join(data_dir, "*.jpeg")) +
                   glob.glob(os.path.join(data_dir, "*.JPG")))
    if not jpegs:
        print("%s: no JPEGs in %s; testing noise images only" % (PROG, data_dir))
    for path in jpegs:
        name = os.path.basename(path)
        try:
            with Image.open(path) as im:
                im.load()
                rgb = im.convert("RGB")
        except Exception as exc:  # noqa: BLE001
            r.fail("cannot decode %s with Pillow: %s" % (path, exc))
            continue
        r.run_image(name, rgb, with_f32=False)
        r.run_image(name, rgb.convert("L"), with_f32=True)
        r.run_strided(name, rgb)

    rng = np.random.default_rng(20240611)
    for label, img in noise_images(rng):
        r.run_image(label, img, with_f32=(img.mode == "L"))
        if img.mode == "RGB":
            r.run_strided(label, img)
    r.close()

    print()
    print("%-18s %6s %6s %10s %12s" % ("u8 filter", "cases", "exact", "max|diff|",
                                       "exact px"))
    for fname, _, _ in FILTERS:
        s = r.u8[fname]
        frac = s.exact_pixels / s.pixels if s.pixels else 1.0
        print("%-18s %6d %6d %10d %11.4f%%" % (fname, s.cases, s.exact_cases, s.max_diff,
                                               100.0 * frac))
    print("%-18s %6s %6s %10s %12s" % ("f32 filter", "cases", "exact", "max|diff|",
                                       "exact px"))
    for fname, _, _ in FILTERS:
        s = r.f32[fname]
        frac = s.exact_pixels / s.pixels if s.pixels else 1.0
        print("%-18s %6d %6d %10.3g %11.4f%%" % (fname, s.cases, s.exact_cases, s.max_diff,
                                                 100.0 * frac))
    if r.failures:
        print("\nfailures (first 10 of %d):" % len(r.failures))
        for f in r.failures[:10]:
            print("  " + f)
    print("%s: %d passed, %d failed" % (PROG, r.passed, r.failed))
    return 0 if r.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
