"""pixflow.io against cv2.imdecode (and PIL for the modes cv2 lacks)."""
import cv2
import numpy as np
import pytest

import pixflow
import pixflow.io as pio
from conftest import photo_paths


@pytest.mark.parametrize("path", photo_paths(), ids=lambda p: p.name)
def test_decode_equals_cv2(path):
    data = path.read_bytes()
    buf = np.frombuffer(data, np.uint8)
    bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    np.testing.assert_array_equal(pio.decode(data, "BGR"), bgr)
    np.testing.assert_array_equal(pio.decode(data, "RGB"), bgr[..., ::-1])
    np.testing.assert_array_equal(pio.decode(str(path), "GRAY"),
                                  cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE | cv2.IMREAD_IGNORE_ORIENTATION))
    np.testing.assert_array_equal(pio.decode(data, "BGR", apply_exif=True), cv2.imdecode(buf, cv2.IMREAD_COLOR))
    info = pio.probe(data)
    assert (info["height"], info["width"]) == bgr.shape[:2]


def test_roi_and_scale():
    p = [p for p in photo_paths() if p.name.startswith("green_leaf")][0]
    data = p.read_bytes()
    full = pio.decode(data)
    np.testing.assert_array_equal(pio.decode(data, roi=(100, 50, 300, 200)), full[50:250, 100:400])
    half = pio.decode(data, scale=0.5)
    assert half.shape == (540, 960, 3)
    with pytest.raises(pixflow.InvalidArgument, match="scale"):
        pio.decode(data, scale=0.3)


def test_bad_data_raises_clear_errors(tmp_path):
    data = photo_paths()[0].read_bytes()
    with pytest.raises(pixflow.CorruptData):
        pio.decode(data[: len(data) // 3])
    with pytest.raises(pixflow.Unsupported):
        pio.decode(b"GIF89a" + b"\0" * 100)
    with pytest.raises(pixflow.CorruptData, match="empty"):
        pio.decode(b"")
    with pytest.raises(pixflow.InvalidArgument, match="None"):
        pio.decode(None)
    with pytest.raises(pixflow.InvalidArgument, match="mode"):
        pio.decode(data, "XYZ")


def test_decode_batch():
    items = [p.read_bytes() for p in photo_paths()] + [b"junk"]
    out = pio.decode_batch(items, on_error="skip", workers=2)
    assert out[-1] is None and all(o is not None for o in out[:-1])
    with pytest.raises(pixflow.Error, match=r"items\[%d\]" % (len(items) - 1)):
        pio.decode_batch(items)
