"""pixflow.transforms.functional: torchvision.transforms.v2.functional names
and arguments over pixflow's ops. Inputs: torch CHW tensors, numpy HWC
arrays, PIL images (uint8; float images in [0, 1] where torchvision takes
them); the result has the input's kind.

resize (and resized_crop, Resize, RandomResizedCrop) use pixflow's
torchvision flavour: uint8 results are bit-identical to torchvision 0.29's
F.resize on the CPU (torch's own uint8 kernels: bilinear / bicubic with
antialias on or off, lanczos, nearest, nearest-exact); float32 within the
bound tests/python/test_resize_torchvision.py states."""
import numpy as np

from .. import _pixflow as _P
from ._images import from_hwc, kind_of, to_hwc

# torchvision's InterpolationMode values -> pf_interp (the extension's constants, from ops.h)
_INTERP = {"nearest": _P.INTERP_NEAREST, "bilinear": _P.INTERP_LINEAR, "bicubic": _P.INTERP_CUBIC,
           "box": _P.INTERP_AREA, "lanczos": _P.INTERP_LANCZOS4, "nearest-exact": _P.INTERP_NEAREST_EXACT}


_INTERP_SEEN = {}  # interpolation argument (an InterpolationMode, a name or an int) -> pf_interp


def _interp(interpolation):
    """pf_interp of a torchvision InterpolationMode, its name, or a pf_interp int; remembered per
    argument (an enum's .value costs more than the resize of a small image's call overhead)."""
    try:
        return _INTERP_SEEN[interpolation]
    except (KeyError, TypeError):  # TypeError: an unhashable argument, converted below every time
        pass
    ip = _interp_of(interpolation)
    try:
        if len(_INTERP_SEEN) < 64:
            _INTERP_SEEN[interpolation] = ip
    except TypeError:
        pass
    return ip


def _interp_of(interpolation):
    v = getattr(interpolation, "value", interpolation)
    if isinstance(v, int):
        return v
    try:
        return _INTERP[str(v).lower()]
    except KeyError:
        raise _P.Unsupported(f"interpolation {interpolation!r} is not one of {sorted(_INTERP)}") from None


def _apply(inpt, fn):
    """torchvision.transforms.v2.functional._apply over pixflow's op (the input's kind out)."""
    k = kind_of(inpt)
    return from_hwc(fn(to_hwc(inpt, k)), k)


def get_size(inpt):
    """[height, width] as torchvision's get_size."""
    k = kind_of(inpt)
    if k == "pil":
        return [inpt.height, inpt.width]
    a = to_hwc(inpt, k)
    return [a.shape[0], a.shape[1]]


def _target_size(h, w, size, max_size=None):
    """torchvision.transforms.v2.functional._target_size over pixflow's op (the input's kind out)."""
    if isinstance(size, int) or (isinstance(size, (list, tuple)) and len(size) == 1):
        s = size if isinstance(size, int) else size[0]
        short, long = (h, w) if h <= w else (w, h)
        new_short, new_long = s, int(s * long / short)
        if max_size is not None and new_long > max_size:
            new_short, new_long = int(max_size * new_short / new_long), max_size
        return (new_short, new_long) if h <= w else (new_long, new_short)
    return int(size[0]), int(size[1])


def resize(inpt, size, interpolation="bilinear", max_size=None, antialias=True):
    """F.resize(inpt, size, interpolation=BILINEAR, max_size=None, antialias=True): size int
    (shorter side) or (h, w); torchvision's pixels (the torchvision flavour of pf_resize)."""
    ip = _interp(interpolation)
    if ip in (_P.INTERP_NEAREST, _P.INTERP_NEAREST_EXACT):
        antialias = False  # torchvision ignores it for the nearest modes
    if ip == _P.INTERP_LANCZOS4 and not antialias:
        raise _P.InvalidArgument("resize: InterpolationMode.LANCZOS requires antialias=True (as torchvision)")

    k = kind_of(inpt)  # _apply's steps written out: this is the hot call of every resize transform
    a = to_hwc(inpt, k)
    h, w = _target_size(a.shape[0], a.shape[1], size, max_size)
    if (h, w) != a.shape[:2]:  # else torchvision returns the image itself
        a = _P.resize(a, (w, h), None, ip, bool(antialias), _P.RESIZE_TORCHVISION)
    return from_hwc(a, k)


def crop(inpt, top, left, height, width):
    """F.crop inside the image (a view: no copy)."""
    def run(a):
        if top < 0 or left < 0 or top + height > a.shape[0] or left + width > a.shape[1]:
            raise _P.Unsupported("crop: pixflow crops inside the image only (torchvision pads outside)")
        return a[top:top + height, left:left + width]
    return _apply(inpt, run)


def center_crop(inpt, output_size):
    """F.center_crop; a crop larger than the image is padded with 0 as torchvision does."""
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else \
        (output_size[0], output_size[-1])

    def run(a):
        h, w = a.shape[:2]
        if oh > h or ow > w:
            pt, pl = (oh - h) // 2 if oh > h else 0, (ow - w) // 2 if ow > w else 0
            a = _P.copy_make_border(a, pt, max(oh - h, 0) - pt, pl, max(ow - w, 0) - pl, _P.BORDER_CONSTANT, None)
            h, w = a.shape[:2]
        top, left = int(round((h - oh) / 2.0)), int(round((w - ow) / 2.0))
        return a[top:top + oh, left:left + ow]
    return _apply(inpt, run)


def resized_crop(inpt, top, left, height, width, size, interpolation="bilinear", antialias=True):
    """F.resized_crop: crop then resize to size (h, w)."""
    return resize(crop(inpt, top, left, height, width), size, interpolation, antialias=antialias)


def horizontal_flip(inpt):
    """torchvision.transforms.v2.functional.horizontal_flip over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.flip(a, _P.FLIP_HORIZONTAL))


def vertical_flip(inpt):
    """torchvision.transforms.v2.functional.vertical_flip over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.flip(a, _P.FLIP_VERTICAL))


hflip, vflip = horizontal_flip, vertical_flip  # torchvision's v1 names


def pad(inpt, padding, fill=None, padding_mode="constant"):
    """F.pad: padding int, (lr, tb) or (l, t, r, b); fill None is 0 (torchvision's default)."""
    modes = {"constant": _P.BORDER_CONSTANT, "edge": _P.BORDER_REPLICATE, "symmetric": _P.BORDER_REFLECT,
             "reflect": _P.BORDER_REFLECT_101}
    if padding_mode not in modes:
        raise _P.Unsupported(f"pad: padding_mode {padding_mode!r}")
    p = [padding] * 4 if isinstance(padding, int) else list(padding)
    if len(p) == 2:
        p = [p[0], p[1], p[0], p[1]]
    left, top, right, bottom = p
    if fill is None:
        fill = 0
    fill = (float(fill),) * 4 if isinstance(fill, (int, float)) else tuple(fill)  # torchvision: every channel
    return _apply(inpt, lambda a: _P.copy_make_border(a, top, bottom, left, right, modes[padding_mode], fill))


def adjust_brightness(inpt, brightness_factor):
    """torchvision.transforms.v2.functional.adjust_brightness over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.adjust_brightness(a, brightness_factor))


def adjust_contrast(inpt, contrast_factor):
    """torchvision.transforms.v2.functional.adjust_contrast over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.adjust_contrast(a, contrast_factor))


def adjust_saturation(inpt, saturation_factor):
    """torchvision.transforms.v2.functional.adjust_saturation over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.adjust_saturation(a, saturation_factor))


def adjust_hue(inpt, hue_factor):
    """torchvision.transforms.v2.functional.adjust_hue over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.adjust_hue(a, hue_factor))


def adjust_gamma(inpt, gamma, gain=1):
    """torchvision.transforms.v2.functional.adjust_gamma over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.adjust_gamma(a, gamma, gain))


def adjust_sharpness(inpt, sharpness_factor):
    """torchvision.transforms.v2.functional.adjust_sharpness over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.sharpen(a, sharpness_factor))


def rgb_to_grayscale(inpt, num_output_channels=1):
    """torchvision.transforms.v2.functional.rgb_to_grayscale over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.rgb_to_grayscale(a, num_output_channels))


def invert(inpt):
    """torchvision.transforms.v2.functional.invert over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.invert(a))


def solarize(inpt, threshold):
    """torchvision.transforms.v2.functional.solarize over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.solarize(a, threshold))


def posterize(inpt, bits):
    """torchvision.transforms.v2.functional.posterize over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.posterize(a, bits))


def autocontrast(inpt):
    """torchvision.transforms.v2.functional.autocontrast over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.autocontrast(a))


def equalize(inpt):
    """torchvision.transforms.v2.functional.equalize over pixflow's op (the input's kind out)."""
    return _apply(inpt, lambda a: _P.equalize(a))


def erase(inpt, i, j, h, w, v, inplace=False):
    """F.erase with a constant value v (a number or one per channel)."""
    vals = v if isinstance(v, (int, float)) else [float(x) for x in np.asarray(v).reshape(-1)]
    return _apply(inpt, lambda a: _P.erase(a, (j, i, w, h), vals, a if inplace else None))


def normalize(inpt, mean, std, inplace=False):
    """F.normalize of a float image: (x - mean[c]) / std[c]."""
    def run(a):
        if a.dtype != np.float32:
            raise _P.InvalidArgument(f"normalize: the image is {a.dtype}; torchvision normalizes float images "
                                     "(use ToDtype(torch.float32, scale=True) first)")
        return _P.normalize(a, _P.F32, tuple(mean), tuple(std), 1.0, _P.NORM_MEAN_STD, dst=a if inplace else None)
    return _apply(inpt, run)


def to_dtype(inpt, dtype="float32", scale=False):
    """F.to_dtype for uint8 <-> float32 (scale: x / 255, or round(x * 255) saturated); dtype
    defaults to float32 as torchvision's (named, so that this module needs no torch)."""
    name = str(dtype).replace("torch.", "")
    codes = {"uint8": _P.U8, "float32": _P.F32, "float": _P.F32}
    if name not in codes:
        raise _P.Unsupported(f"to_dtype: {dtype} (pixflow converts to uint8 and float32)")

    def run(a):
        out = codes[name]
        if not scale or str(a.dtype) == name:
            return _P.convert(a, out, layout=-1)
        if out == _P.F32:  # int -> float: x * (1 / 255), as torchvision's to_dtype_image
            return _P.convert(a, _P.F32, 1.0 / 255.0)
        return _P.convert(a, _P.U8, 255.0)
    return _apply(inpt, run)
