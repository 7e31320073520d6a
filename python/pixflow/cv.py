"""pixflow.cv: a drop-in for the cv2 functions it covers.

Same names, argument order, defaults and constants as OpenCV's Python
bindings, so ``import pixflow.cv as cv2`` works for these functions; the
pixels are bit-exact with OpenCV 4.x wherever the C op is (docs/exactness.md
states each op's contract; tests/python/test_cv.py checks every function
against Debian's cv2 4.6). Arrays are numpy arrays; results are new arrays,
or ``dst`` when one of the right shape and dtype is given.

Differences, each raising instead of silently differing:
 - dtypes: uint8, uint16, int16, int32, float16, float32 (not float64 / int8);
 - ``resize`` with fx/fy that give a fractional size (pass dsize);
 - ``normalize``: NORM_MINMAX only, no mask; ``filter2D``: ddepth -1;
 - ``erode``/``dilate``: rectangular (all-ones) kernels only;
 - ``remap``: float32 maps only (not convertMaps' fixed-point maps).
``imdecode`` returns None for data it cannot decode, as cv2 does
(``pixflow.io.decode`` raises instead).
"""
import os

import numpy as _np

from . import _pixflow as _P
from ._pixflow import InvalidArgument as _Invalid, Unsupported as _Unsupported

# cv2's names and values. Those the C library defines (pf_interp, pf_border, pf_rotate_code,
# pf_color_code, ...: the C ops take cv2's numbers as they are) come from the extension's
# constants (python/src/constants.c, the headers' values); the rest are cv2-only.
INTER_NEAREST = _P.INTERP_NEAREST
INTER_LINEAR = _P.INTERP_LINEAR
INTER_CUBIC = _P.INTERP_CUBIC
INTER_AREA = _P.INTERP_AREA
INTER_LANCZOS4 = _P.INTERP_LANCZOS4
INTER_LINEAR_EXACT = 5
INTER_NEAREST_EXACT = _P.INTERP_NEAREST_EXACT
INTER_MAX = 7
WARP_FILL_OUTLIERS = 8
WARP_INVERSE_MAP = _P.WARP_INVERSE_MAP

BORDER_CONSTANT = _P.BORDER_CONSTANT
BORDER_REPLICATE = _P.BORDER_REPLICATE
BORDER_REFLECT = _P.BORDER_REFLECT
BORDER_WRAP = _P.BORDER_WRAP
BORDER_REFLECT_101 = _P.BORDER_REFLECT_101
BORDER_REFLECT101 = _P.BORDER_REFLECT_101
BORDER_DEFAULT = _P.BORDER_REFLECT_101
BORDER_TRANSPARENT = _P.BORDER_TRANSPARENT
BORDER_ISOLATED = 16

ROTATE_90_CLOCKWISE = _P.ROTATE_90_CLOCKWISE
ROTATE_180 = _P.ROTATE_180
ROTATE_90_COUNTERCLOCKWISE = _P.ROTATE_90_COUNTERCLOCKWISE

IMREAD_UNCHANGED = -1
IMREAD_GRAYSCALE = 0
IMREAD_COLOR = 1
IMREAD_IGNORE_ORIENTATION = 128

NORM_INF = 1
NORM_L1 = 2
NORM_L2 = 4
NORM_MINMAX = _P.NORM_MINMAX

CV_8U, CV_8S, CV_16U, CV_16S, CV_32S, CV_32F, CV_64F, CV_16F = range(8)

DECOMP_LU = 0

COLOR_BGR2BGRA = _P.COLOR_BGR2BGRA
COLOR_RGB2RGBA = _P.COLOR_RGB2RGBA
COLOR_BGRA2BGR = _P.COLOR_BGRA2BGR
COLOR_RGBA2RGB = _P.COLOR_RGBA2RGB
COLOR_BGR2RGBA = _P.COLOR_BGR2RGBA
COLOR_RGB2BGRA = _P.COLOR_RGB2BGRA
COLOR_RGBA2BGR = _P.COLOR_RGBA2BGR
COLOR_BGRA2RGB = _P.COLOR_BGRA2RGB
COLOR_BGR2RGB = _P.COLOR_BGR2RGB
COLOR_RGB2BGR = _P.COLOR_RGB2BGR
COLOR_BGRA2RGBA = _P.COLOR_BGRA2RGBA
COLOR_RGBA2BGRA = _P.COLOR_RGBA2BGRA
COLOR_BGR2GRAY = _P.COLOR_BGR2GRAY
COLOR_RGB2GRAY = _P.COLOR_RGB2GRAY
COLOR_GRAY2BGR = _P.COLOR_GRAY2BGR
COLOR_GRAY2RGB = _P.COLOR_GRAY2RGB
COLOR_GRAY2BGRA = _P.COLOR_GRAY2BGRA
COLOR_GRAY2RGBA = _P.COLOR_GRAY2RGBA
COLOR_BGRA2GRAY = _P.COLOR_BGRA2GRAY
COLOR_RGBA2GRAY = _P.COLOR_RGBA2GRAY
COLOR_BGR2YCrCb = _P.COLOR_BGR2YCrCb
COLOR_RGB2YCrCb = _P.COLOR_RGB2YCrCb
COLOR_YCrCb2BGR = _P.COLOR_YCrCb2BGR
COLOR_YCrCb2RGB = _P.COLOR_YCrCb2RGB
COLOR_BGR2HSV = _P.COLOR_BGR2HSV
COLOR_RGB2HSV = _P.COLOR_RGB2HSV
COLOR_HSV2BGR = _P.COLOR_HSV2BGR
COLOR_HSV2RGB = _P.COLOR_HSV2RGB
COLOR_BGR2HSV_FULL = _P.COLOR_BGR2HSV_FULL
COLOR_RGB2HSV_FULL = _P.COLOR_RGB2HSV_FULL
COLOR_HSV2BGR_FULL = _P.COLOR_HSV2BGR_FULL
COLOR_HSV2RGB_FULL = _P.COLOR_HSV2RGB_FULL
COLOR_YUV2RGB_NV12 = _P.COLOR_YUV2RGB_NV12
COLOR_YUV2BGR_NV12 = _P.COLOR_YUV2BGR_NV12
COLOR_YUV2RGB_NV21 = _P.COLOR_YUV2RGB_NV21
COLOR_YUV2BGR_NV21 = _P.COLOR_YUV2BGR_NV21
COLOR_YUV2RGBA_NV12 = _P.COLOR_YUV2RGBA_NV12
COLOR_YUV2BGRA_NV12 = _P.COLOR_YUV2BGRA_NV12
COLOR_YUV2RGBA_NV21 = _P.COLOR_YUV2RGBA_NV21
COLOR_YUV2BGRA_NV21 = _P.COLOR_YUV2BGRA_NV21
COLOR_YUV2RGB_YV12 = _P.COLOR_YUV2RGB_YV12
COLOR_YUV2BGR_YV12 = _P.COLOR_YUV2BGR_YV12
COLOR_YUV2RGB_IYUV = _P.COLOR_YUV2RGB_IYUV
COLOR_YUV2BGR_IYUV = _P.COLOR_YUV2BGR_IYUV
COLOR_YUV2RGB_I420 = _P.COLOR_YUV2RGB_I420
COLOR_YUV2BGR_I420 = _P.COLOR_YUV2BGR_I420
COLOR_YUV2RGBA_YV12 = _P.COLOR_YUV2RGBA_YV12
COLOR_YUV2BGRA_YV12 = _P.COLOR_YUV2BGRA_YV12
COLOR_YUV2RGBA_IYUV = _P.COLOR_YUV2RGBA_IYUV
COLOR_YUV2BGRA_IYUV = _P.COLOR_YUV2BGRA_IYUV
COLOR_YUV2RGBA_I420 = _P.COLOR_YUV2RGBA_I420
COLOR_YUV2BGRA_I420 = _P.COLOR_YUV2BGRA_I420
COLOR_YUV2GRAY_420 = _P.COLOR_YUV2GRAY_420
COLOR_RGB2YUV_I420 = _P.COLOR_RGB2YUV_I420
COLOR_BGR2YUV_I420 = _P.COLOR_BGR2YUV_I420
COLOR_RGB2YUV_IYUV = _P.COLOR_RGB2YUV_IYUV
COLOR_BGR2YUV_IYUV = _P.COLOR_BGR2YUV_IYUV
COLOR_RGBA2YUV_I420 = _P.COLOR_RGBA2YUV_I420
COLOR_BGRA2YUV_I420 = _P.COLOR_BGRA2YUV_I420
COLOR_RGB2YUV_YV12 = _P.COLOR_RGB2YUV_YV12
COLOR_BGR2YUV_YV12 = _P.COLOR_BGR2YUV_YV12
COLOR_RGBA2YUV_YV12 = _P.COLOR_RGBA2YUV_YV12
COLOR_BGRA2YUV_YV12 = _P.COLOR_BGRA2YUV_YV12
COLOR_RGB2YUV_NV12 = _P.COLOR_RGB2YUV_NV12
COLOR_BGR2YUV_NV12 = _P.COLOR_BGR2YUV_NV12
COLOR_RGBA2YUV_NV12 = _P.COLOR_RGBA2YUV_NV12
COLOR_BGRA2YUV_NV12 = _P.COLOR_BGRA2YUV_NV12
COLOR_RGB2YUV_NV21 = _P.COLOR_RGB2YUV_NV21
COLOR_BGR2YUV_NV21 = _P.COLOR_BGR2YUV_NV21
COLOR_RGBA2YUV_NV21 = _P.COLOR_RGBA2YUV_NV21
COLOR_BGRA2YUV_NV21 = _P.COLOR_BGRA2YUV_NV21
_DEPTH_TO_PF = {CV_8U: _P.U8, CV_16U: _P.U16, CV_16S: _P.S16, CV_32S: _P.S32, CV_16F: _P.F16, CV_32F: _P.F32}
_NP_TO_PF = {"uint8": _P.U8, "uint16": _P.U16, "int16": _P.S16, "int32": _P.S32, "float16": _P.F16, "float32": _P.F32}


def _pf_dtype_of(src):
    try:
        return _NP_TO_PF[str(_np.asarray(src).dtype)]
    except KeyError:
        raise _Unsupported(f"src has dtype {_np.asarray(src).dtype}; pixflow takes "
                           "uint8, uint16, int16, int32, float16 and float32") from None


def _f64(m, n, name):
    a = _np.ascontiguousarray(m, dtype=_np.float64).reshape(-1)
    if a.size != n:
        raise _Invalid(f"{name} has {a.size} numbers; expected {n}")
    return a


def _shape_hw(src):
    shape = getattr(src, "shape", None)
    if shape is None or len(shape) < 2:
        raise _Invalid(f"src must be an (H, W) or (H, W, C) array, got {type(src).__name__}")
    return shape[0], shape[1]


def setNumThreads(nthreads):
    """cv2.setNumThreads: threads each call may use (<= 0: one per CPU)."""
    _P.set_num_threads(nthreads)


def getNumThreads():
    """cv2.getNumThreads."""
    return _P.get_num_threads()


def resize(src, dsize, dst=None, fx=0, fy=0, interpolation=INTER_LINEAR):
    """cv2.resize(src, dsize[, dst[, fx[, fy[, interpolation]]]]); dsize is (width, height)."""
    if interpolation == INTER_LINEAR_EXACT:
        raise _Unsupported("resize: INTER_LINEAR_EXACT is not implemented; use INTER_LINEAR")
    if dsize is None or tuple(dsize) == (0, 0):
        h, w = _shape_hw(src)
        if not (fx > 0 and fy > 0):
            raise _Invalid("resize: dsize is (0, 0) and fx, fy are not both > 0")
        dw, dh = int(_np.rint(w * fx)), int(_np.rint(h * fy))
        if dw != w * fx or dh != h * fy:
            # OpenCV then maps pixels with 1/fx, not with the size ratio
            raise _Unsupported(f"resize: fx={fx}, fy={fy} give a fractional size ({w * fx} x {h * fy}); "
                               "pass dsize instead")
        dsize = (dw, dh)
    return _P.resize(src, tuple(int(v) for v in dsize), dst, interpolation, False)


def cvtColor(src, code, dst=None, dstCn=0):
    """cv2.cvtColor(src, code[, dst[, dstCn]]); 4:2:0 frames are (H*3/2, W) uint8 arrays."""
    return _P.cvt_color(src, code, dst, dstCn)


def flip(src, flipCode, dst=None):
    """cv2.flip: 0 upside down, > 0 mirror, < 0 both."""
    code = _P.FLIP_VERTICAL if flipCode == 0 else (_P.FLIP_HORIZONTAL if flipCode > 0 else _P.FLIP_BOTH)
    return _P.flip(src, code, dst)


def rotate(src, rotateCode, dst=None):
    """cv2.rotate(src, rotateCode[, dst])."""
    return _P.rotate(src, rotateCode, dst)


def transpose(src, dst=None):
    """cv2.transpose(src[, dst])."""
    return _P.transpose(src, dst)


def copyMakeBorder(src, top, bottom, left, right, borderType, dst=None, value=None):
    """cv2.copyMakeBorder(src, top, bottom, left, right, borderType[, dst[, value]])."""
    return _P.copy_make_border(src, top, bottom, left, right, borderType & ~BORDER_ISOLATED, value, dst)


def _warp(fn, src, M, n, dsize, dst, flags, borderMode, borderValue):
    interp = flags & INTER_MAX
    return fn(src, _f64(M, n, "M"), tuple(int(v) for v in dsize), dst, interp, borderMode, borderValue,
              bool(flags & WARP_INVERSE_MAP))


def warpAffine(src, M, dsize, dst=None, flags=INTER_LINEAR, borderMode=BORDER_CONSTANT, borderValue=0):
    """cv2.warpAffine(src, M, dsize[, dst[, flags[, borderMode[, borderValue]]]])."""
    return _warp(_P.warp_affine, src, M, 6, dsize, dst, flags, borderMode, borderValue)


def warpPerspective(src, M, dsize, dst=None, flags=INTER_LINEAR, borderMode=BORDER_CONSTANT, borderValue=0):
    """cv2.warpPerspective(src, M, dsize[, dst[, flags[, borderMode[, borderValue]]]])."""
    return _warp(_P.warp_perspective, src, M, 9, dsize, dst, flags, borderMode, borderValue)


def remap(src, map1, map2, interpolation, dst=None, borderMode=BORDER_CONSTANT, borderValue=0):
    """cv2.remap with float32 maps: map1/map2 x and y, or map1 (H, W, 2) and map2 None."""
    m1 = _np.asarray(map1)
    if m1.dtype != _np.float32 or (map2 is not None and _np.asarray(map2).dtype != _np.float32):
        raise _Unsupported("remap: only float32 maps are supported (not convertMaps' fixed-point maps)")
    if map2 is None or _np.asarray(map2).size == 0:
        if m1.ndim != 3 or m1.shape[2] != 2:
            raise _Invalid("remap: map2 is empty, so map1 must be (H, W, 2) float32")
        mx, my = _np.ascontiguousarray(m1[..., 0]), _np.ascontiguousarray(m1[..., 1])
    else:
        mx, my = m1, map2
    return _P.remap(src, mx, my, dst, interpolation & INTER_MAX, borderMode, borderValue)


def GaussianBlur(src, ksize, sigmaX, dst=None, sigmaY=0, borderType=BORDER_DEFAULT):
    """cv2.GaussianBlur(src, ksize, sigmaX[, dst[, sigmaY[, borderType]]])."""
    return _P.gaussian_blur(src, tuple(ksize), sigmaX, sigmaY, borderType & ~BORDER_ISOLATED, dst)


def blur(src, ksize, dst=None, anchor=(-1, -1), borderType=BORDER_DEFAULT):
    """cv2.blur(src, ksize[, dst[, anchor[, borderType]]])."""
    return _P.box_blur(src, tuple(ksize), tuple(anchor), borderType & ~BORDER_ISOLATED, dst)


def boxFilter(src, ddepth, ksize, dst=None, anchor=(-1, -1), normalize=True, borderType=BORDER_DEFAULT):
    """cv2.boxFilter with ddepth -1 (or src's depth) and normalize=True (= blur)."""
    if not normalize:
        raise _Unsupported("boxFilter: normalize=False is not supported")
    _check_ddepth(src, ddepth, "boxFilter")
    return blur(src, ksize, dst, anchor, borderType)


def medianBlur(src, ksize, dst=None):
    """cv2.medianBlur(src, ksize[, dst])."""
    return _P.median_blur(src, ksize, dst)


def _check_ddepth(src, ddepth, fn):
    if ddepth != -1 and _DEPTH_TO_PF.get(ddepth) != _pf_dtype_of(src):
        raise _Unsupported(f"{fn}: ddepth must be -1 (the source's depth)")


def filter2D(src, ddepth, kernel, dst=None, anchor=(-1, -1), delta=0, borderType=BORDER_DEFAULT):
    """cv2.filter2D(src, ddepth, kernel[, dst[, anchor[, delta[, borderType]]]]) with ddepth -1."""
    _check_ddepth(src, ddepth, "filter2D")
    k = _np.ascontiguousarray(kernel, dtype=_np.float32)
    if k.ndim == 1:
        k = k.reshape(-1, 1)
    if k.ndim != 2:
        raise _Invalid("filter2D: kernel must be a 2-D array")
    return _P.filter_2d(src, k, (k.shape[1], k.shape[0]), tuple(anchor), delta, borderType & ~BORDER_ISOLATED, dst)


_DBL_MAX = float(_np.finfo(_np.float64).max)


def _morph(fn, src, kernel, dst, anchor, iterations, borderType, borderValue):
    if kernel is None or _np.asarray(kernel).size == 0:
        ksize = (3, 3)
    else:
        k = _np.asarray(kernel)
        if k.ndim != 2 or not _np.all(k != 0):
            raise _Unsupported("erode/dilate: only rectangular (all non-zero) kernels are supported")
        ksize = (k.shape[1], k.shape[0])
    value = None
    if borderValue is not None:
        v = _np.atleast_1d(_np.asarray(borderValue, dtype=_np.float64))
        if not _np.all(v == _DBL_MAX):  # morphologyDefaultBorderValue()
            value = tuple(v.tolist())
    return fn(src, ksize, tuple(anchor), iterations, borderType & ~BORDER_ISOLATED, value, dst)


def morphologyDefaultBorderValue():
    """cv2.morphologyDefaultBorderValue(): outside pixels never win."""
    return (_DBL_MAX,) * 4


def erode(src, kernel, dst=None, anchor=(-1, -1), iterations=1, borderType=BORDER_CONSTANT, borderValue=None):
    """cv2.erode(src, kernel[, dst[, anchor[, iterations[, borderType[, borderValue]]]]])."""
    return _morph(_P.erode, src, kernel, dst, anchor, iterations, borderType, borderValue)


def dilate(src, kernel, dst=None, anchor=(-1, -1), iterations=1, borderType=BORDER_CONSTANT, borderValue=None):
    """cv2.dilate(src, kernel[, dst[, anchor[, iterations[, borderType[, borderValue]]]]])."""
    return _morph(_P.dilate, src, kernel, dst, anchor, iterations, borderType, borderValue)


def LUT(src, lut, dst=None):
    """cv2.LUT(src, lut[, dst]) for uint8 tables: 256 entries, or 256 x channels."""
    t = _np.asarray(lut)
    if t.dtype != _np.uint8:
        raise _Unsupported(f"LUT: the table has dtype {t.dtype}; pixflow's tables are uint8")
    if t.size == 256:
        return _P.lut(src, _np.ascontiguousarray(t.reshape(-1)), dst, 1)
    if t.ndim == 3 and t.shape[0] * t.shape[1] == 256:
        c = t.shape[2]
        return _P.lut(src, _np.ascontiguousarray(t.reshape(256, c).T), dst, c)
    raise _Invalid(f"LUT: the table has shape {t.shape}; expected 256 entries (x channels)")


def normalize(src, dst=None, alpha=1, beta=0, norm_type=NORM_L2, dtype=-1, mask=None):
    """cv2.normalize with norm_type=NORM_MINMAX (no mask): [min, max] -> [alpha, beta]."""
    if norm_type != NORM_MINMAX:
        raise _Unsupported("normalize: only NORM_MINMAX is supported (cv2's default is NORM_L2: pass "
                           "norm_type=NORM_MINMAX)")
    if mask is not None:
        raise _Unsupported("normalize: mask is not supported")
    out = _pf_dtype_of(src) if dtype < 0 else _DEPTH_TO_PF.get(dtype)
    if out not in (_P.U8, _P.F16, _P.F32):
        raise _Unsupported("normalize: the output depth must be CV_8U, CV_16F or CV_32F")
    lo, hi = min(alpha, beta), max(alpha, beta)
    return _P.normalize(src, out, None, None, 1.0, NORM_MINMAX, lo, hi, dst=dst)


def split(m, mv=None):
    """cv2.split(m[, mv]): a tuple of the planes (mv: a sequence of arrays to write them into,
    returned as a tuple, as cv2 does)."""
    planes = tuple(_P.split(m))
    if mv is None:
        return planes
    mv = list(mv)
    if len(mv) != len(planes) or any(getattr(d, "shape", None) != p.shape or getattr(d, "dtype", None) != p.dtype
                                     for d, p in zip(mv, planes)):
        raise _Invalid(f"split: mv must be {len(planes)} arrays of shape {planes[0].shape} and dtype "
                       f"{planes[0].dtype}")
    for d, p in zip(mv, planes):
        _np.copyto(d, p)
    return tuple(mv)


def merge(mv, dst=None):
    """cv2.merge(mv[, dst])."""
    return _P.merge(list(mv), dst)


def getRotationMatrix2D(center, angle, scale):
    """cv2.getRotationMatrix2D(center, angle, scale) -> 2x3 float64."""
    return _np.array(_P.rotation_matrix_2d(tuple(center), angle, scale)).reshape(2, 3)


def getAffineTransform(src, dst):
    """cv2.getAffineTransform(src, dst) -> 2x3 float64 (3 points each)."""
    f = lambda p: _np.ascontiguousarray(p, dtype=_np.float32).reshape(-1)  # noqa: E731
    return _np.array(_P.affine_from_points(f(src), f(dst))).reshape(2, 3)


def getPerspectiveTransform(src, dst, solveMethod=DECOMP_LU):
    """cv2.getPerspectiveTransform(src, dst[, solveMethod]) -> 3x3 float64 (4 points each)."""
    if solveMethod != DECOMP_LU:
        raise _Unsupported("getPerspectiveTransform: only DECOMP_LU")
    f = lambda p: _np.ascontiguousarray(p, dtype=_np.float32).reshape(-1)  # noqa: E731
    return _np.array(_P.perspective_from_points(f(src), f(dst))).reshape(3, 3)


def invertAffineTransform(M, iM=None):
    """cv2.invertAffineTransform(M[, iM]) -> 2x3 float64."""
    r = _np.array(_P.invert_affine(_f64(M, 6, "M"))).reshape(2, 3)
    if iM is not None:
        iM[...] = r
        return iM
    return r


def imdecode(buf, flags):
    """cv2.imdecode(buf, flags): BGR (IMREAD_COLOR), gray (IMREAD_GRAYSCALE) or as stored
    (IMREAD_UNCHANGED: gray, BGR or BGRA); EXIF orientation applied as OpenCV does.
    None when the data cannot be decoded (as cv2)."""
    data = _np.ascontiguousarray(buf, dtype=_np.uint8).reshape(-1)
    try:
        info = _P.probe(data)
        if flags == IMREAD_UNCHANGED:
            if info["bit_depth"] == 16:
                raise _Unsupported("imdecode: 16-bit images with IMREAD_UNCHANGED are not supported")
            ch = info["channels"]
            mode = _P.PIXEL_GRAY if ch == 1 else (_P.PIXEL_RGBA if info["has_alpha"] else _P.PIXEL_BGR)
            img = _P.decode(data, mode)
            if mode == _P.PIXEL_RGBA:  # RGBA -> BGRA
                img = _P.cvt_color(img, COLOR_RGBA2BGRA)
            return img
        orient = not (flags & IMREAD_IGNORE_ORIENTATION)
        gray = (flags & ~IMREAD_IGNORE_ORIENTATION) == IMREAD_GRAYSCALE
        return _P.decode(data, _P.PIXEL_GRAY if gray else _P.PIXEL_BGR, None, 8, orient)
    except (_P.CorruptData, _P.Unsupported):
        return None


def imread(filename, flags=IMREAD_COLOR):
    """cv2.imread(filename[, flags]); None when the file is missing or cannot be decoded."""
    try:
        with open(os.fspath(filename), "rb") as f:
            data = f.read()
    except OSError:
        return None
    return imdecode(_np.frombuffer(data, _np.uint8), flags)
