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
