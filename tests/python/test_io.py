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


def test_row_margin_decodes_in_place_and_is_checked():
    """out=a view into a padded buffer, row_margin=m: the ROI pixels of cv2's full decode,
    nothing written outside the margins, and a view without room for them refused."""
    p = [p for p in photo_paths() if p.name.startswith("chelsea")][0]
    data = p.read_bytes()
    full = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)[..., ::-1]
    m, (x, y, w, h) = 128, (37, 11, 201, 150)  # x not on an iMCU column: libjpeg widens the rows
    s = w * 3 + m + 5
    flat = np.full(64 + m + s * h + m + 64, 0xA5, np.uint8)
    out = flat[64 + m: 64 + m + s * h].reshape(h, s)[:, : w * 3].reshape(h, w, 3)
    got = pio.decode(data, roi=(x, y, w, h), out=out, row_margin=m)
    assert np.shares_memory(got, flat)
    np.testing.assert_array_equal(got, full[y:y + h, x:x + w])
    assert (flat[:64] == 0xA5).all() and (flat[-64:] == 0xA5).all()
    assert (flat[64 + m: 64 + m + s * h].reshape(h, s)[:, w * 3:] != 0xA5).any()  # the margins were used
    with pytest.raises(pixflow.InvalidArgument, match="row_margin"):
        pio.decode(data, roi=(x, y, w, h), out=np.empty((h, w, 3), np.uint8), row_margin=m)  # no room
    with pytest.raises(pixflow.InvalidArgument, match="row_margin"):
        pio.decode(data, roi=(x, y, w, h), row_margin=m)  # needs out
    with pytest.raises(pixflow.InvalidArgument, match="row_margin"):
        pio.decode(data, roi=(x, y, w, h), out=out, row_margin=-1)


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


def _png(img, **kw):
    import io

    from PIL import Image

    b = io.BytesIO()
    img.save(b, "PNG", **kw)
    return b.getvalue()


@pytest.mark.parametrize("path", photo_paths(), ids=lambda p: p.name)
def test_decode_rgba_of_the_photos(path):
    data = path.read_bytes()
    buf = np.frombuffer(data, np.uint8)
    got = pio.decode(data, "RGBA")
    cv = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED | cv2.IMREAD_IGNORE_ORIENTATION)
    if cv.ndim == 3 and cv.shape[2] == 4:   # the file has alpha: cv2's BGRA
        want = cv2.cvtColor(cv, cv2.COLOR_BGRA2RGBA)
    else:                                    # no alpha: the colour pixels, alpha 255
        want = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION), cv2.COLOR_BGR2RGBA)
    assert got.shape == want.shape and got.dtype == np.uint8
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(pio.decode(data, "RGBA", roi=(3, 5, 40, 30)), want[5:35, 3:43])
    if path.suffix == ".png":
        from PIL import Image

        np.testing.assert_array_equal(got, np.asarray(Image.open(path).convert("RGBA")))


def test_decode_rgba_of_png_and_webp_kinds(rng):
    """Every PNG colour type (and tRNS, 16 bits, 1-bit gray) and WebP with and without alpha, against
    PIL's convert("RGBA") and cv2.imdecode(IMREAD_UNCHANGED)."""
    import io

    from PIL import Image

    rgba = rng.integers(0, 256, (37, 53, 4), dtype=np.uint8)
    rgba[:5, :7, 3] = 0
    rgba[5:9, :, 3] = 255
    rgb, gray = rgba[..., :3].copy(), rgba[..., 0].copy()
    pal = Image.fromarray(rgb).quantize(64)
    pal.info["transparency"] = 3                      # palette entry 3 transparent: a tRNS chunk
    kinds = {
        "RGBA": _png(Image.fromarray(rgba)),
        "RGB": _png(Image.fromarray(rgb)),
        "L": _png(Image.fromarray(gray)),
        "LA": _png(Image.fromarray(np.dstack([gray, rgba[..., 3]]), "LA")),
        "P": _png(Image.fromarray(rgb).quantize(64)),
        "P+tRNS": _png(pal, transparency=3),
        "L+tRNS": _png(Image.fromarray(gray), transparency=int(gray[0, 0])),
        "1": _png(Image.fromarray(gray > 127)),
    }
    for name, data in kinds.items():
        got = pio.decode(data, "RGBA")
        want = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
        np.testing.assert_array_equal(got, want, err_msg=name)
        assert pio.probe(data)["has_alpha"] == (name in ("RGBA", "LA", "P+tRNS", "L+tRNS")), name
    # 16 bits per channel: cv2 keeps them, pixflow strips to the high byte (as imgcodecs' 8-bit reads)
    deep = (rgba.astype(np.uint16) * 257 + rng.integers(0, 256, rgba.shape, dtype=np.uint16))
    ok, enc = cv2.imencode(".png", cv2.cvtColor(deep, cv2.COLOR_RGBA2BGRA))
    cv16 = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED)
    assert ok and cv16.dtype == np.uint16
    np.testing.assert_array_equal(pio.decode(enc.tobytes(), "RGBA"), cv2.cvtColor((cv16 >> 8).astype(np.uint8),
                                                                                   cv2.COLOR_BGRA2RGBA))
    # WebP (lossless: quality > 100), with alpha and without
    for img, code in ((cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA), None), (cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
                                                                         cv2.COLOR_BGR2RGBA)):
        ok, enc = cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, 101])
        assert ok
        dec = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED)
        want = cv2.cvtColor(dec, code if code is not None else cv2.COLOR_BGRA2RGBA)
        np.testing.assert_array_equal(pio.decode(enc.tobytes(), "RGBA"), want)
