"""pixflow.transforms against torchvision.transforms.v2 0.29.2: the same
parameters on both sides (pixflow's sample_params fed to torchvision's
functional ops), outputs compared with the bound each test states."""
import numpy as np
import pytest
import torch
import torchvision.transforms.v2 as V2
import torchvision.transforms.v2.functional as TF

import pixflow
import pixflow.transforms as T
import pixflow.transforms.functional as F

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def photo(photos, name="chelsea_333x251.jpg"):
    return torch.from_numpy(photos[name][..., ::-1].copy()).permute(2, 0, 1)


def test_fused_train_chain_equals_torchvision_with_same_params(photos):
    t = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToDtype(torch.float32, scale=True),
                   T.Normalize(MEAN, STD)], seed=7)
    assert t.fused
    imgs = [photo(photos, n) for n in ("chelsea_333x251.jpg", "coffee_500x375.jpg", "rocket_500x375.jpg")]
    params = t.sample_params([tuple(i.shape[1:]) for i in imgs], index=0)
    out = t(imgs)
    for img, p, o in zip(imgs, params, out):
        r = TF.resized_crop(img, p["crop_y"], p["crop_x"], p["crop_h"], p["crop_w"], [224, 224], antialias=True)
        if p["flip_h"]:
            r = TF.horizontal_flip(r)
        r = TF.normalize(TF.to_dtype(r, torch.float32, scale=True), MEAN, STD)
        # the torchvision resize flavour: the same bits (test_resize_torchvision.py has 200 draws)
        assert torch.equal(o, r)


def test_fused_eval_chain_shapes_and_bounds(photos):
    t = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToDtype(torch.float32, scale=True), T.Normalize(MEAN, STD)])
    assert t.fused
    img = photo(photos, "coffee_500x375.jpg")
    r = TF.normalize(TF.to_dtype(TF.center_crop(TF.resize(img, 256, antialias=True), 224), torch.float32,
                                 scale=True), MEAN, STD)
    o = t(img)
    assert o.shape == r.shape == (3, 224, 224)
    # the torchvision flavour resizes the whole image and takes CenterCrop's window: the same bits
    assert torch.equal(o, r)


def test_resize_max_size_then_center_crop_is_not_fused_and_keeps_the_cap(photos):
    # the plan's shorter-side rule has no long-side cap: such a chain runs op by op
    t = T.Compose([T.Resize(300, max_size=320), T.CenterCrop(200)])
    assert not t.fused and "max_size" in t.why_not_fused
    img = photo(photos, "coffee_500x375.jpg")
    ref = V2.Compose([V2.Resize(300, max_size=320), V2.CenterCrop(200)])(img)
    o = t(img)
    assert o.shape == ref.shape == (3, 200, 200)
    assert torch.equal(o, ref)  # the torchvision flavour of resize: the same bits


@pytest.mark.parametrize("size", [(100, 77), 64, (300, 500)])
def test_resize_vs_torchvision_and_pil(photos, size):
    img = photo(photos)
    r = TF.resize(img, size, antialias=True)
    o = F.resize(img, size, antialias=True)
    assert torch.equal(o, r)  # the torchvision flavour (test_resize_torchvision.py: 2,000+ cases)
    # Pillow's Image.resize stays one call away (pixflow.ops.resize, flavor RESIZE_PILLOW)
    from PIL import Image

    pil = Image.fromarray(img.permute(1, 2, 0).numpy())
    want = np.asarray(pil.resize((o.shape[2], o.shape[1]), Image.BILINEAR))
    hwc = np.ascontiguousarray(img.permute(1, 2, 0).numpy())
    got = pixflow.ops.resize(hwc, (o.shape[2], o.shape[1]), interp=pixflow.ops.INTERP_LINEAR,
                             flavor=pixflow.ops.RESIZE_PILLOW)
    np.testing.assert_array_equal(got, want)  # Pillow: bit-exact


def test_eager_transforms_match_functional(photos):
    img = photo(photos)
    for ours, theirs in [(T.Pad(5, fill=9), V2.Pad(5, fill=9)), (T.CenterCrop(100), V2.CenterCrop(100)),
                         (T.CenterCrop(400), V2.CenterCrop(400)),
                         (T.RandomHorizontalFlip(p=1.0), V2.RandomHorizontalFlip(p=1.0)),
                         (T.RandomVerticalFlip(p=1.0), V2.RandomVerticalFlip(p=1.0)),
                         (T.RandomGrayscale(p=1.0), V2.RandomGrayscale(p=1.0))]:
        torch.testing.assert_close(ours(img), theirs(img), atol=0, rtol=0)
    f = TF.to_dtype(img, torch.float32, scale=True)
    torch.testing.assert_close(T.ToDtype(torch.float32, scale=True)(img), f, atol=0, rtol=0)
    torch.testing.assert_close(T.Normalize(MEAN, STD)(f), TF.normalize(f, MEAN, STD), atol=1e-6, rtol=1e-6)


def test_color_jitter_with_same_params(photos):
    img = photo(photos)
    t = T.ColorJitter(0.4, 0.4, 0.4, 0.1)
    t.seed = 3
    for i in range(10):
        p = T.Compose([T.Resize((10, 10)), T.ColorJitter(0.4, 0.4, 0.4, 0.1)], seed=3).sample_params(
            [tuple(img.shape[1:])], index=i)[0]
        t._index = i
        o = t(img)
        r = img
        fns = [TF.adjust_brightness, TF.adjust_contrast, TF.adjust_saturation, TF.adjust_hue]
        keys = ["brightness", "contrast", "saturation", "hue"]
        for k in p["jitter_order"]:
            r = fns[k](r, p[keys[k]])
        # contrast and hue are within 1 each (test_photo_torchvision); chained: within 3
        assert (o.int() - r.int()).abs().max().item() <= 3


def test_random_affine_with_same_params(photos):
    img = photo(photos)
    t = T.RandomAffine(20, translate=(0.1, 0.1), scale=(0.8, 1.2), shear=5)
    for _ in range(5):
        idx = t._index
        o = t(img)
        p = t.__class__(20, translate=(0.1, 0.1), scale=(0.8, 1.2), shear=5)
        p._index = idx
        prm = p._draw([tuple(img.shape[1:])])[0]
        r = TF.affine(img, angle=prm["angle"], translate=[prm["translate_x"], prm["translate_y"]],
                      scale=prm["scale"], shear=[prm["shear_x"], prm["shear_y"]])
        # torchvision warps with its own float grid (grid_sample); pixflow with OpenCV's 1/32 pixel
        # quantization: nearest neighbours agree on all but a thin edge set
        assert (o != r).any(0).float().mean().item() < 0.02


def test_numpy_and_pil_inputs_are_transformed_never_passed_through(photos):
    a = photos["chelsea_333x251.jpg"][..., ::-1].copy()
    out = T.RandomHorizontalFlip(p=1.0)(a)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, a[:, ::-1])
    from PIL import Image

    pil = T.RandomVerticalFlip(p=1.0)(Image.fromarray(a))
    np.testing.assert_array_equal(np.asarray(pil), a[::-1])
    with pytest.raises(pixflow.InvalidArgument, match="never pass"):
        T.RandomHorizontalFlip()([1, 2, 3])


def test_batches_and_determinism(photos):
    imgs = [photo(photos, n) for n in ("chelsea_333x251.jpg", "coffee_500x375.jpg")]
    mk = lambda: T.Compose([T.RandomResizedCrop(64), T.RandomHorizontalFlip(), T.ColorJitter(0.3, 0.3),  # noqa
                            T.ToDtype(torch.float32, scale=True)], seed=11)
    a, b = mk()(imgs), mk()(imgs)
    for x, y in zip(a, b):
        assert torch.equal(x, y)
    batch = torch.stack([TF.resize(i, [80, 90]) for i in imgs])
    out = mk()(batch)
    assert out.shape == (2, 3, 64, 64)
    t = mk()
    assert t.sample_params([(80, 90)], index=5) == t.sample_params([(80, 90)], index=5)


def test_unfusable_chain_runs_op_by_op_or_raises():
    t = T.Compose([T.Pad(2), T.CenterCrop(10)])
    assert not t.fused and "Pad" in t.why_not_fused
    x = torch.zeros(3, 20, 20, dtype=torch.uint8)
    assert t(x).shape == (3, 10, 10)
    with pytest.raises(pixflow.Unsupported, match="fused pipeline"):
        t.pipeline_spec()
    with pytest.raises(pixflow.Unsupported, match="expand"):
        T.RandomRotation(10, expand=True)


def test_to_image_vs_torchvision(photos):
    from PIL import Image

    rgb = photos["chelsea_333x251.jpg"][..., ::-1].copy()
    gray = rgb[..., 0].copy()
    rgba = np.dstack([rgb, rgb[..., :1]])
    frozen = rgb.copy()
    frozen.flags.writeable = False
    for x in (rgb, gray, rgba, frozen, rgb[::2, 1::3], Image.fromarray(rgb), Image.fromarray(gray),
              Image.fromarray(rgba), photo(photos)):
        # torchvision warns on read-only arrays (and hands out a read-only tensor): give it a copy
        got, want = T.ToImage()(x), V2.ToImage()(x if x is not frozen else rgb.copy())
        assert isinstance(got, torch.Tensor) and got.dtype == want.dtype == torch.uint8
        assert got.shape == want.shape and torch.equal(got, want.as_subclass(torch.Tensor)), type(x)
    # numpy in: a view of the caller's array, as documented (torchvision copies)
    assert np.shares_memory(T.ToImage()(rgb).numpy(), rgb)
    # a batch (list) in, a list out; each as torchvision's
    got = T.ToImage()([rgb, gray])
    assert isinstance(got, list) and all(torch.equal(g, V2.ToImage()(x).as_subclass(torch.Tensor))
                                         for g, x in zip(got, [rgb, gray]))
    # in a fused Compose it only says "torch tensors out"
    t = T.Compose([T.ToImage(), T.Letterbox(64)])
    assert t.fused
    got = t([rgb])[0]
    assert isinstance(got, torch.Tensor) and got.shape == (3, 64, 64)
    assert torch.equal(got, T.ToImage()(T.Letterbox(64)(rgb)))


def test_fused_uint8_chain_gives_torch_chw_like_the_eager_one(photos):
    img = photo(photos)   # (3, 251, 333)
    for t in (T.Compose([T.Letterbox(64)]), T.Compose([T.Resize((40, 50)), T.RandomHorizontalFlip(1.0)])):
        assert t.fused
        eager = img
        for s in t.transforms:
            eager = s(eager)
        assert eager.shape[0] == 3
        assert torch.equal(t(img), eager) and torch.equal(t([img])[0], eager)
        assert torch.equal(t(img[None])[0], eager)


def _inside(a, shape):
    """Output pixels at least one pixel inside the rotated image's edge (torchvision's NEAREST
    rotation of an all-255 image, eroded by one with the outside counted as out)."""
    import cv2

    ones = torch.full((1,) + shape, 255, dtype=torch.uint8)
    m = (TF.rotate(ones, a, interpolation=V2.InterpolationMode.NEAREST)[0] == 255).numpy().astype(np.uint8)
    return torch.from_numpy(cv2.erode(m, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT,
                                      borderValue=0)).bool()


def _a_crop_of_the_quarter_turn(got, img, a):
    """got (C, H, W) is torchvision's exact quarter turn (F.rotate(expand=True), a transpose and a
    flip) placed on the H x W canvas at one whole-pixel offset, (H - H')/2 and (W - W')/2 rounded
    one way or the other, in the whole overlap but its 1-pixel rim."""
    import math

    full = TF.rotate(img, a, expand=True)
    (h, w), (hr, wr) = got.shape[1:], full.shape[1:]
    for oy in {math.floor((h - hr) / 2), math.ceil((h - hr) / 2)}:
        for ox in {math.floor((w - wr) / 2), math.ceil((w - wr) / 2)}:
            y0, y1, x0, x1 = max(oy, 0) + 1, min(h, oy + hr) - 1, max(ox, 0) + 1, min(w, ox + wr) - 1
            if torch.equal(got[:, y0:y1, x0:x1], full[:, y0 - oy:y1 - oy, x0 - ox:x1 - ox]):
                return True
    return False


@pytest.mark.parametrize("interp", [V2.InterpolationMode.NEAREST, V2.InterpolationMode.BILINEAR])
def test_random_rotation_at_fixed_angles_vs_torchvision(photos, interp):
    """RandomRotation((a, a)) rotates by exactly a, counter-clockwise, as v2.RandomRotation does
    (docs/exactness.md, "Sampler", states these bounds)."""
    worst_frac, worst_in, worst_over1 = 0.0, 0, 0.0
    for name in ("chelsea_333x251.jpg", "coffee_500x375.jpg", "ladybird_375x500.jpg"):
        img = photo(photos, name)
        for a in (0, 90, -90, 180, 270, 30.0, -45.0, 13.7, 1.0, 0.3, 179.9, -123.4, 7.25):
            got = T.RandomRotation((a, a), interpolation=interp, fill=7)(img)
            want = V2.RandomRotation((a, a), interpolation=interp, fill=7)(img)
            d = (got.int() - want.int()).abs().amax(0)
            if interp == V2.InterpolationMode.NEAREST:
                if a % 90 == 0 and (img.shape[1] - img.shape[2]) % 2:
                    # a quarter turn of an image with W - H odd puts every source position on a
                    # half pixel: torch rounds those ties half to even (alternate rows repeat),
                    # OpenCV's fixed point always the same way (a true quarter turn, shifted by
                    # half a pixel)
                    assert _a_crop_of_the_quarter_turn(got, img, a), (name, a)
                    continue
                # whole turns otherwise map pixel centres onto pixel centres: exact
                if a % 90 == 0:
                    assert torch.equal(got, want), (name, a)
                # OpenCV's 1/32-pixel map against torch's float grid: a pixel whose source lies
                # within 1/64 of a pixel edge may take its neighbour
                worst_frac = max(worst_frac, (d > 0).float().mean().item())
            else:
                if a == 0:
                    assert torch.equal(got, want)
                # inside the image: OpenCV's 1/32-pixel bilinear weights against torch's float
                # ones; on the edge band torchvision blends the fill by its own mask arithmetic
                inside = _inside(a, tuple(img.shape[1:]))
                worst_in = max(worst_in, int(d[inside].max()))
                worst_over1 = max(worst_over1, (d[inside] > 1).float().mean().item())
            if 10 < abs(a) % 180 < 170:   # the direction: the other way round is far off
                mirrored = V2.RandomRotation((-a, -a), interpolation=interp, fill=7)(img)
                assert (got != mirrored).any(0).float().mean().item() > 0.05, (name, a)
    if interp == V2.InterpolationMode.NEAREST:
        assert worst_frac <= 0.005, worst_frac   # measured 0.0018
    else:
        assert worst_in <= 4 and worst_over1 <= 0.01, (worst_in, worst_over1)   # measured 4, 0.0028


def test_random_rotation_fused_equals_eager(photos):
    img = photo(photos, "coffee_500x375.jpg")
    B = V2.InterpolationMode.BILINEAR
    fused = T.Compose([T.Resize((375, 500)), T.RandomRotation((-20.0, 35.0), interpolation=B)], seed=5)
    assert fused.fused
    # sample_params reports the plan's angle, F.affine's (clockwise): the rotation is by -angle
    angles = [p["angle"] for p in fused.sample_params([(375, 500)] * 200, index=0)]
    assert -35.0 <= min(angles) < -30.0 and 15.0 < max(angles) <= 20.0
    rot = -fused.sample_params([(375, 500)], index=0)[0]["angle"]
    got = fused(img)
    assert torch.equal(got, T.RandomRotation((rot, rot), interpolation=B)(img))   # one plan, one map
    d = (got.int() - V2.RandomRotation((rot, rot), interpolation=B)(img).int()).abs().amax(0)
    assert d[_inside(rot, (375, 500))].max() <= 4
