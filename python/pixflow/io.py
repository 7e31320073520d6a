"""pixflow.io: image decode (JPEG via libjpeg-turbo, PNG, WebP) into numpy
arrays, equal to cv2.imdecode for full-size decodes.

    img = pixflow.io.decode(open("cat.jpg", "rb").read())            # RGB (H, W, 3)
    crop = pixflow.io.decode(data, roi=(10, 20, 200, 100), scale=0.5)  # JPEG ROI at 1/2 (DCT)
    info = pixflow.io.probe(data)                                      # header only
"""
import os
from concurrent.futures import ThreadPoolExecutor

from . import _pixflow as _P

_MODES = {"RGB": _P.PIXEL_RGB, "BGR": _P.PIXEL_BGR, "GRAY": _P.PIXEL_GRAY, "L": _P.PIXEL_GRAY, "RGBA": _P.PIXEL_RGBA}


def _bytes(data):
    if isinstance(data, (str, os.PathLike)):
        with open(data, "rb") as f:
            return f.read()
    return data


def _scale_num(scale):
    if scale is None:
        return 8
    n = round(float(scale) * 8)
    if not 1 <= n <= 8 or n != float(scale) * 8:
        raise _P.InvalidArgument(f"scale = {scale}; use m/8 for m in 1..8 (JPEG DCT scaling)")
    return n


def probe(data):
    """The header of encoded bytes (or a path): format, width, height, channels, bit_depth,
    has_alpha, orientation (EXIF), subsampling, progressive, interlaced, palette."""
    return _P.probe(_bytes(data))


def decode(data, mode="RGB", roi=None, scale=None, apply_exif=False, max_pixels=None,
           warnings_are_errors=False, out=None, row_margin=0):
    """Decodes bytes (or a path) into a uint8 array (H, W, C), or (H, W) for mode "GRAY".

    mode: "RGB", "BGR", "GRAY" or "RGBA". roi: (x, y, width, height) in stored pixels
    (JPEG decodes only the blocks it touches). scale: None or m/8 (JPEG DCT-domain
    downscale; ignored for PNG/WebP). apply_exif: rotate/flip as the EXIF orientation says.
    row_margin (with out): bytes around each of out's rows that the decoder may overwrite, so
    a JPEG ROI decodes in place instead of through a row copy; out must then be a view into a
    larger array that holds them, e.g. flat[m:m + s * h].reshape(h, s)[:, :w * 3].reshape(h, w, 3)
    of a padded 1-D uint8 buffer with s >= w * 3 + m (checked).
    Raises pixflow.CorruptData for malformed data and pixflow.Unsupported for formats or
    sizes it does not read."""
    if mode not in _MODES:
        raise _P.InvalidArgument(f"mode = {mode!r}; use one of {sorted(_MODES)}")
    return _P.decode(_bytes(data), _MODES[mode], roi, _scale_num(scale), bool(apply_exif),
                     int(max_pixels or 0), bool(warnings_are_errors), out, row_margin=int(row_margin))


def decode_batch(items, mode="RGB", on_error="raise", workers=None, **kwargs):
    """Decodes a list of encoded images (bytes or paths) on `workers` threads (the GIL is
    released while pixels are decoded). on_error="raise" raises the first failure (its
    message names the index); "skip" puts None in the place of an image that failed."""
    if on_error not in ("raise", "skip"):
        raise _P.InvalidArgument(f"on_error = {on_error!r}; use 'raise' or 'skip'")
    items = list(items)

    def one(i):
        try:
            return decode(items[i], mode, **kwargs)
        except _P.Error as e:
            if on_error == "skip":
                return None
            raise type(e)(f"items[{i}]: {e}") from e

    if workers == 1 or len(items) < 2:
        return [one(i) for i in range(len(items))]
    with ThreadPoolExecutor(max_workers=workers or min(8, os.cpu_count() or 1)) as ex:
        return list(ex.map(one, range(len(items))))


__all__ = ["probe", "decode", "decode_batch"]
