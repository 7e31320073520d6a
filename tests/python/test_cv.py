"""pixflow.cv against Debian's cv2 (OpenCV 4.6): every function, same
arguments on both sides. Bound: bit-exact (max |diff| 0) unless the test
says otherwise, as docs/exactness.md states per op."""
import cv2
import numpy as np
import pytest

import pixflow
import pixflow.cv as pcv

SIZES = [(1, 1), (7, 5), (64, 33), (251, 333)]


def rand_img(rng, h, w, c, dtype=np.uint8):
    if dtype == np.float32:
        a = rng.random((h, w, c), dtype=np.float32)
    else:
        a = rng.integers(0, np.iinfo(dtype).max, size=(h, w, c), dtype=dtype, endpoint=True)
    return a[..., 0] if c == 1 else a


def same(a, b, bound=0):
    assert a.shape == b.shape, (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    d = np.abs(a.astype(np.float64) - b.astype(np.float64)).max() if a.size else 0
    assert d <= bound, f"max |diff| {d} > {bound}"


@pytest.mark.parametrize("interp", [0, 1, 2, 3, 4, 6])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
@pytest.mark.parametrize("c", [1, 3, 4])
def test_resize(rng, interp, dtype, c):
    for h, w in SIZES[1:]:
        img = rand_img(rng, h, w, c, dtype)
        for dsize in [(w * 2, h * 2), (max(1, w // 3), max(1, h // 2)), (17, 13)]:
            same(pcv.resize(img, dsize, interpolation=interp), cv2.resize(img, dsize, interpolation=interp))


def test_resize_fx_fy(photos):
    img = photos["chelsea_333x251.jpg"][:250, :332]
    same(pcv.resize(img, None, fx=0.5, fy=0.5), cv2.resize(img, None, fx=0.5, fy=0.5))
    same(pcv.resize(img, (0, 0), fx=2, fy=2, interpolation=cv2.INTER_CUBIC),
         cv2.resize(img, (0, 0), fx=2, fy=2, interpolation=cv2.INTER_CUBIC))
    with pytest.raises(pixflow.Unsupported, match="fractional"):
        pcv.resize(img, None, fx=0.3, fy=0.3)


CODES = [cv2.COLOR_BGR2RGB, cv2.COLOR_BGR2GRAY, cv2.COLOR_RGB2GRAY, cv2.COLOR_BGR2BGRA, cv2.COLOR_BGR2HSV,
         cv2.COLOR_RGB2HSV_FULL, cv2.COLOR_BGR2YCrCb, cv2.COLOR_YCrCb2BGR, cv2.COLOR_HSV2BGR, cv2.COLOR_HSV2RGB_FULL]


@pytest.mark.parametrize("code", CODES)
def test_cvt_color(rng, code):
    for h, w in SIZES:
        img = rand_img(rng, h, w, 3)
        same(pcv.cvtColor(img, code), cv2.cvtColor(img, code))


def test_cvt_color_gray_alpha_and_float(rng):
    g = rand_img(rng, 9, 11, 1)
    same(pcv.cvtColor(g, cv2.COLOR_GRAY2BGR), cv2.cvtColor(g, cv2.COLOR_GRAY2BGR))
    same(pcv.cvtColor(g, cv2.COLOR_GRAY2BGRA), cv2.cvtColor(g, cv2.COLOR_GRAY2BGRA))
    a = rand_img(rng, 9, 11, 4)
    for code in (cv2.COLOR_BGRA2BGR, cv2.COLOR_BGRA2GRAY, cv2.COLOR_RGBA2BGRA):
        same(pcv.cvtColor(a, code), cv2.cvtColor(a, code))
    f = rand_img(rng, 9, 11, 3, np.float32)
    for code in (cv2.COLOR_BGR2GRAY, cv2.COLOR_BGR2HSV):
        ref = cv2.cvtColor(f, code)
        # f32 contract: within 1e-6 * max(1, |OpenCV|) (docs/exactness.md)
        d = np.abs(pcv.cvtColor(f, code) - ref) / np.maximum(1, np.abs(ref))
        assert d.max() <= 1e-6


@pytest.mark.parametrize("code", [cv2.COLOR_YUV2BGR_NV12, cv2.COLOR_YUV2RGB_NV21, cv2.COLOR_YUV2BGR_I420,
                                  cv2.COLOR_YUV2RGBA_YV12, cv2.COLOR_YUV2GRAY_420])
def test_cvt_color_from_420(rng, code):
    frame = rand_img(rng, 48 * 3 // 2, 64, 1)
    same(pcv.cvtColor(frame, code), cv2.cvtColor(frame, code))


@pytest.mark.parametrize("code", [cv2.COLOR_BGR2YUV_I420, cv2.COLOR_RGB2YUV_YV12])
def test_cvt_color_to_420(rng, code):
    img = rand_img(rng, 48, 64, 3)
    same(pcv.cvtColor(img, code), cv2.cvtColor(img, code))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int16, np.int32, np.float32])
def test_flip_rotate_transpose(rng, dtype):
    for h, w in SIZES:
        for c in (1, 3, 4):
            img = rand_img(rng, h, w, c, dtype)
            for code in (0, 1, -1, 5, -3):
                same(pcv.flip(img, code), cv2.flip(img, code))
            for code in (0, 1, 2):
                same(pcv.rotate(img, code), cv2.rotate(img, code))
            same(pcv.transpose(img), cv2.transpose(img))


def test_flip_rotate_transpose_float16(rng):
    # cv2 4.6's Python binding takes no float16 arrays; these ops only move 2-byte elements, so
    # the oracle is cv2 on the same bits seen as uint16, and every bit must survive (NaN
    # payloads, signed zeros, infinities, subnormals included)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 6e-8, 65504.0], np.float16).view(np.uint16)
    specials = np.concatenate([specials, np.array([0x7C01, 0xFE3F], np.uint16)])   # signalling / custom NaNs
    for h, w in SIZES:
        for c in (1, 3, 4):
            bits = np.ascontiguousarray(rand_img(rng, h, w, c, np.uint16))
            flat = bits.reshape(-1)   # a view: the specials land in bits
            flat[rng.integers(0, flat.size, min(flat.size, 12))] = rng.choice(specials, min(flat.size, 12))
            img = bits.view(np.float16)
            for code in (0, 1, -1, 5, -3):
                got = pcv.flip(img, code)
                assert got.dtype == np.float16
                np.testing.assert_array_equal(got.view(np.uint16), cv2.flip(bits, code))
            for code in (0, 1, 2):
                got = pcv.rotate(img, code)
                assert got.dtype == np.float16
                np.testing.assert_array_equal(got.view(np.uint16), cv2.rotate(bits, code))
            got = pcv.transpose(img)
            assert got.dtype == np.float16
            np.testing.assert_array_equal(got.view(np.uint16), cv2.transpose(bits))


@pytest.mark.parametrize("border", [0, 1, 2, 3, 4])
def test_copy_make_border(rng, border):
    for h, w in SIZES:
        img = rand_img(rng, h, w, 3)
        for value in (None, 7, (1, 2, 3)):
            kw = {} if value is None else {"value": value}
            same(pcv.copyMakeBorder(img, 3, 1, 5, 2, border, **kw), cv2.copyMakeBorder(img, 3, 1, 5, 2, border, **kw))


@pytest.mark.parametrize("flags", [0, 1, 2, 1 | 16])
@pytest.mark.parametrize("border", [0, 1, 4, 5])
def test_warp_affine_perspective(photos, flags, border):
    img = photos["rocket_500x375.jpg"]
    m = cv2.getRotationMatrix2D((250, 187), 17.5, 0.8)
    same(pcv.getRotationMatrix2D((250, 187), 17.5, 0.8), m)
    dst = np.full((300, 400, 3), 9, np.uint8)
    same(pcv.warpAffine(img, m, (400, 300), dst.copy(), flags, border, (10, 20, 30)),
         cv2.warpAffine(img, m, (400, 300), dst.copy(), flags, border, (10, 20, 30)))
    src = np.float32([[0, 0], [499, 0], [499, 374], [0, 374]])
    dpt = np.float32([[10, 20], [480, 5], [470, 360], [30, 300]])
    p = cv2.getPerspectiveTransform(src, dpt)
    same(pcv.getPerspectiveTransform(src, dpt), p)
    same(pcv.warpPerspective(img, p, (400, 300), dst.copy(), flags, border, 50),
         cv2.warpPerspective(img, p, (400, 300), dst.copy(), flags, border, 50))


def test_matrix_helpers():
    s = np.float32([[0, 0], [10, 0], [0, 10]])
    d = np.float32([[1, 2], [12, 3], [2, 14]])
    same(pcv.getAffineTransform(s, d), cv2.getAffineTransform(s, d))
    m = cv2.getAffineTransform(s, d)
    same(pcv.invertAffineTransform(m), cv2.invertAffineTransform(m))


@pytest.mark.parametrize("interp", [0, 1, 2])
def test_remap(photos, interp):
    img = photos["coffee_500x375.jpg"]
    h, w = 200, 300
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    mx = (xx * 1.3 + 5 * np.sin(yy / 9)).astype(np.float32)
    my = (yy * 1.2 + 4 * np.cos(xx / 7)).astype(np.float32)
    same(pcv.remap(img, mx, my, interp), cv2.remap(img, mx, my, interp))
    both = np.dstack([mx, my])
    same(pcv.remap(img, both, None, interp, borderMode=cv2.BORDER_REFLECT),
         cv2.remap(img, both, None, interp, borderMode=cv2.BORDER_REFLECT))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_gaussian_blur(rng, dtype):
    img = rand_img(rng, 40, 57, 3, dtype)
    for ksize, sigma in [((3, 3), 0), ((5, 7), 1.3), ((0, 0), 2.0)]:
        ref = cv2.GaussianBlur(img, ksize, sigma)
        out = pcv.GaussianBlur(img, ksize, sigma)
        if dtype == np.float32:
            assert np.allclose(out, ref, rtol=1e-5, atol=1e-6)  # f32 contract: 1e-5 relative
        else:
            same(out, ref)


def test_blur_box_median(rng):
    img = rand_img(rng, 40, 57, 3)
    for k in [(3, 3), (5, 2), (15, 15)]:
        same(pcv.blur(img, k), cv2.blur(img, k))
        same(pcv.boxFilter(img, -1, k), cv2.boxFilter(img, -1, k))
    for k in (1, 3, 5, 7, 9):
        same(pcv.medianBlur(img, k), cv2.medianBlur(img, k))
    f = rand_img(rng, 40, 57, 1, np.float32)
    same(pcv.medianBlur(f, 5), cv2.medianBlur(f, 5))


def test_filter2d(rng):
    img = rand_img(rng, 40, 57, 3)
    k = rng.normal(size=(3, 5)).astype(np.float32) / 4
    # u8 within 1: OpenCV's AVX2 body uses FMA (docs/exactness.md)
    same(pcv.filter2D(img, -1, k), cv2.filter2D(img, -1, k), bound=1)
    f = rand_img(rng, 40, 57, 1, np.float32)
    assert np.allclose(pcv.filter2D(f, -1, k, delta=0.5), cv2.filter2D(f, -1, k, delta=0.5), rtol=1e-4, atol=1e-5)
    with pytest.raises(pixflow.Unsupported):
        pcv.filter2D(img, cv2.CV_32F, k)


def test_erode_dilate(rng):
    img = rand_img(rng, 40, 57, 3)
    for kernel in (None, np.ones((3, 5), np.uint8)):
        for it in (1, 2):
            same(pcv.erode(img, kernel, iterations=it), cv2.erode(img, kernel, iterations=it))
            same(pcv.dilate(img, kernel, iterations=it), cv2.dilate(img, kernel, iterations=it))
    same(pcv.dilate(img, None, borderType=cv2.BORDER_CONSTANT, borderValue=200),
         cv2.dilate(img, None, borderType=cv2.BORDER_CONSTANT, borderValue=200))
    with pytest.raises(pixflow.Unsupported):
        pcv.erode(img, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))


def test_lut(rng):
    img = rand_img(rng, 30, 31, 3)
    t = rng.integers(0, 256, 256, dtype=np.uint8)
    same(pcv.LUT(img, t), cv2.LUT(img, t))
    t3 = rng.integers(0, 256, (1, 256, 3), dtype=np.uint8)
    same(pcv.LUT(img, t3), cv2.LUT(img, t3))


def test_normalize(rng):
    img = rand_img(rng, 30, 31, 3)
    same(pcv.normalize(img, None, 0, 255, cv2.NORM_MINMAX), cv2.normalize(img, None, 0, 255, cv2.NORM_MINMAX))
    same(pcv.normalize(img, None, 1, 0, cv2.NORM_MINMAX, cv2.CV_32F),
         cv2.normalize(img, None, 1, 0, cv2.NORM_MINMAX, cv2.CV_32F))
    with pytest.raises(pixflow.Unsupported):
        pcv.normalize(img)


def test_split_merge(rng):
    img = rand_img(rng, 30, 31, 4)
    ps, cs = pcv.split(img), cv2.split(img)
    assert isinstance(ps, tuple) and len(ps) == len(cs)
    for a, b in zip(ps, cs):
        same(a, b)
    same(pcv.merge(cs), cv2.merge(cs))
    mv = [np.empty(img.shape[:2], img.dtype) for _ in range(4)]  # cv2.split(m, mv): written and returned
    got = pcv.split(img, mv)
    assert isinstance(got, tuple) and all(a is b for a, b in zip(got, mv))
    for a, b in zip(got, cs):
        same(a, b)


@pytest.mark.parametrize("flags", [cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED,
                                   cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION])
def test_imdecode_imread(flags):
    from conftest import photo_paths

    for p in photo_paths():
        buf = np.fromfile(p, np.uint8)
        same(pcv.imdecode(buf, flags), cv2.imdecode(buf, flags))
        same(pcv.imread(str(p), flags), cv2.imread(str(p), flags))
    assert pcv.imdecode(np.frombuffer(b"not an image", np.uint8), cv2.IMREAD_COLOR) is None
    assert pcv.imread("/nonexistent.jpg") is None


def test_dst_is_written_and_returned(rng):
    img = rand_img(rng, 10, 12, 3)
    dst = np.empty_like(img)
    r = pcv.flip(img, 1, dst)
    assert r is dst
    same(dst, cv2.flip(img, 1))
    with pytest.raises(pixflow.InvalidArgument, match="dst"):
        pcv.flip(img, 1, np.empty((10, 12, 4), np.uint8))


def test_constants_match_cv2():
    for name in dir(pcv):
        if name.isupper() and isinstance(getattr(pcv, name), int) and hasattr(cv2, name):
            assert getattr(pcv, name) == getattr(cv2, name), name
