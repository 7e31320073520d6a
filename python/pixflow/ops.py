"""pixflow.ops: the C ops, batch-first.

Every op takes one image or a list of images (possibly of different sizes),
and per-sample parameters: one value for every sample or one per sample.
It returns the same kind (an array, or a list). Images are numpy arrays
(H, W[, C]), torch CPU tensors, PIL images or any DLPack array; ``dst=``
writes into arrays you own (checked against the result's shape and dtype).

    import pixflow.ops as ops
    outs = ops.resize([a, b, c], size=[(224, 224), (112, 112), (64, 64)])
    flipped = ops.flip(batch, codes=[ops.FLIP_HORIZONTAL, ops.FLIP_NONE] * 2)
    bright = ops.adjust_brightness(batch, factors=[0.8, 1.0, 1.2, 1.4])
"""
import numpy as _np

from . import _pixflow as _P
from ._pixflow import (  # noqa: F401
    adjust_brightness, adjust_contrast, adjust_hue, adjust_saturation, adjust_gamma, autocontrast,
    box_blur, convert, copy_make_border, cvt_color, dilate, equalize, erase, erode, flip, gaussian_blur,
    gaussian_noise, invert, median_blur, merge, normalize, posterize, remap, resize, rgb_to_grayscale,
    rotate, sharpen, solarize, split, transpose,
)

# The C enums, exported by the extension from the headers (python/src/constants.c)
from ._pixflow import (  # noqa: F401
    U8, U16, S16, S32, F16, BF16, F32,  # pf_dtype
    INTERP_NEAREST, INTERP_LINEAR, INTERP_CUBIC, INTERP_AREA, INTERP_LANCZOS4, INTERP_NEAREST_EXACT,  # pf_interp
    BORDER_CONSTANT, BORDER_REPLICATE, BORDER_REFLECT, BORDER_WRAP, BORDER_REFLECT_101,  # pf_border
    BORDER_TRANSPARENT,  # the warps' PF_BORDER_TRANSPARENT
    FLIP_BOTH, FLIP_VERTICAL, FLIP_HORIZONTAL, FLIP_NONE,  # pf_flip_code
    ROTATE_90_CLOCKWISE, ROTATE_180, ROTATE_90_COUNTERCLOCKWISE, ROTATE_NONE,  # pf_rotate_code
    NORM_MEAN_STD, NORM_MINMAX,  # pf_norm_mode
    RESIZE_OPENCV, RESIZE_PILLOW, RESIZE_TORCHVISION,  # pf_resize_flavor: whose pixels resize(..., flavor=) gives
)


def _f64(m):
    return _np.ascontiguousarray(m, dtype=_np.float64).reshape(-1)


def warp_affine(src, matrices, size=None, dst=None, interp=INTERP_LINEAR, border=BORDER_CONSTANT,
                border_value=None, inverse=False):
    """pf_warp_affine: one 2x3 matrix for all samples or one per sample (any array-like)."""
    return _P.warp_affine(src, _f64(matrices), size, dst, interp, border, border_value, inverse)


def warp_perspective(src, matrices, size=None, dst=None, interp=INTERP_LINEAR, border=BORDER_CONSTANT,
                     border_value=None, inverse=False):
    """pf_warp_perspective: one 3x3 matrix for all samples or one per sample."""
    return _P.warp_perspective(src, _f64(matrices), size, dst, interp, border, border_value, inverse)


def filter_2d(src, kernel, anchor=None, delta=0.0, border=BORDER_REFLECT_101, dst=None):
    """pf_filter_2d (correlation, cv2.filter2D): kernel is a 2-D array (rows x columns)."""
    k = _np.ascontiguousarray(kernel, dtype=_np.float32)
    if k.ndim != 2:
        raise _P.InvalidArgument("kernel must be a 2-D array")
    return _P.filter_2d(src, k, (k.shape[1], k.shape[0]), anchor, delta, border, dst)


def lut(src, table, dst=None, per_sample=False):
    """pf_lut: table (256,) for all channels, (C, 256) per channel; with per_sample a leading
    axis of one table set per sample."""
    t = _np.ascontiguousarray(table, dtype=_np.uint8)
    tc = 1 if t.ndim == (2 if per_sample else 1) else t.shape[-2]
    return _P.lut(src, t.reshape(-1), dst, tc, per_sample)


def color_twist(src, matrices, dst=None):
    """pf_color_twist: 3x4 float32 matrices on RGB, one for all or one per sample."""
    return _P.color_twist(src, _np.ascontiguousarray(matrices, dtype=_np.float32).reshape(-1), dst)


__all__ = [n for n in dir() if not n.startswith("_")]
