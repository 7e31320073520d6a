"""pixflow.transforms gives back the kind that came in, for every input kind x fused / unfused
Compose x uint8 / float output, against torchvision.transforms.v2 0.29.2's output type and shape
(and its values where pixflow promises torchvision's bits).

Input kinds: a numpy HWC array, an NHWC numpy batch, a torch CHW tensor, an NCHW tensor batch, a
PIL image, a tv_tensors.Image (CHW and NCHW) and lists of each. torchvision gets the same images;
numpy arrays it does not take (it passes them through untransformed), so its counterpart is the
CHW tensor and pixflow's answer is that result back as HWC numpy (NHWC for a batch). With
ToImage() in the chain, torchvision's answer is a tv_tensors.Image whatever came in, and so is
pixflow's. A float result of a PIL image has no PIL form: torchvision's ToDtype leaves PIL images
as they are (and Normalize refuses them); pixflow raises instead of returning another kind.

Values: torch.equal with torchvision on the image tensors (PIL inputs too: torchvision resizes
those with Pillow, pixflow with torchvision's tensor arithmetic as documented, so the reference
is the tensor path); RandomResizedCrop with the crop pixflow drew (sample_params); the eager
Normalize within 1e-6 (test_transforms.py's bound)."""
import numpy as np
import pytest
import torch
import torchvision.transforms.v2 as V2
import torchvision.transforms.v2.functional as TF
from PIL import Image
from torchvision import tv_tensors

import pixflow
import pixflow.transforms as T

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
F32 = torch.float32


def _chains():
    """name -> (pixflow transforms, torchvision transforms, fused, exact values)."""
    def both(make):
        return make(T), make(V2)

    return {
        "fused_u8": both(lambda M: [M.Resize(224), M.CenterCrop(200)]) + (True, True),
        "fused_u8_random": both(lambda M: [M.RandomResizedCrop(64)]) + (True, False),
        "fused_float": both(lambda M: [M.Resize(224), M.CenterCrop(200), M.ToDtype(F32, scale=True),
                                       M.Normalize(MEAN, STD)]) + (True, True),
        "unfused_u8": both(lambda M: [M.Resize(224), M.CenterCrop(200), M.Pad(2)]) + (False, True),
        "unfused_float": both(lambda M: [M.Pad(2), M.CenterCrop(200), M.ToDtype(F32, scale=True),
                                         M.Normalize(MEAN, STD)]) + (False, True),
        "toimage_fused_u8": both(lambda M: [M.ToImage(), M.Resize(224), M.CenterCrop(200)]) + (True, True),
        "toimage_fused_float": both(lambda M: [M.ToImage(), M.Resize(224), M.CenterCrop(200),
                                               M.ToDtype(F32, scale=True)]) + (True, True),
        "toimage_unfused_float": both(lambda M: [M.ToImage(), M.Pad(2), M.ToDtype(F32, scale=True)]) + (False, True),
    }


CHAINS = _chains()
KINDS = ["numpy", "numpy_batch", "torch", "torch_batch", "pil", "tv_image", "tv_image_batch", "list_numpy",
         "list_torch", "list_pil", "list_tv_image"]


@pytest.fixture(scope="module")
def chw(photos):
    """Two RGB CHW uint8 photos of one size (251 x 333), as torchvision reads them."""
    out = []
    for name in ("chelsea_333x251.jpg", "coffee_500x375.jpg"):
        rgb = photos[name][..., ::-1][:251, :333]
        out.append(torch.from_numpy(np.ascontiguousarray(rgb)).permute(2, 0, 1).contiguous())
    return out


def _hwc(t):
    return np.ascontiguousarray(t.permute(1, 2, 0).numpy())


def make_input(kind, imgs):
    """(pixflow's input, torchvision's input) of the kind."""
    one = imgs[0]
    if kind == "numpy":
        return _hwc(one), one
    if kind == "numpy_batch":
        return np.stack([_hwc(i) for i in imgs]), torch.stack(imgs)
    if kind == "torch":
        return one, one
    if kind == "torch_batch":
        return torch.stack(imgs), torch.stack(imgs)
    if kind == "pil":
        p = Image.fromarray(_hwc(one))
        return p, p
    if kind == "tv_image":
        return tv_tensors.Image(one), tv_tensors.Image(one)
    if kind == "tv_image_batch":
        return tv_tensors.Image(torch.stack(imgs)), tv_tensors.Image(torch.stack(imgs))
    base = kind[len("list_"):]
    pairs = [make_input(base, [i]) for i in imgs]
    return [p for p, _ in pairs], [t for _, t in pairs]


def _dtype(x):
    return str(x.dtype).replace("torch.", "")


def struct(x):
    """What a result is: type, shape, dtype (PIL: size and mode), nested for lists."""
    if isinstance(x, list):
        return ["list", [struct(e) for e in x]]
    if isinstance(x, Image.Image):
        return ["PIL", x.size, x.mode]
    return [type(x).__name__, tuple(x.shape), _dtype(x)]


def as_numpy(s):
    """torchvision's tensor answer as pixflow gives it for numpy input: HWC / NHWC ndarray."""
    if s[0] == "list":
        return ["list", [as_numpy(e) for e in s[1]]]
    shape = s[1]
    hwc = shape[1:] + shape[:1] if len(shape) == 3 else (shape[0],) + shape[2:] + shape[1:2]
    return ["ndarray", hwc, s[2]]


def images_of(x):
    """Every image of a result as a CHW tensor (for the value checks)."""
    if isinstance(x, list):
        return [i for e in x for i in images_of(e)]
    if isinstance(x, Image.Image):
        return [torch.from_numpy(np.asarray(x).copy()).permute(2, 0, 1)]
    if isinstance(x, np.ndarray):
        return [torch.from_numpy(np.ascontiguousarray(a)).permute(2, 0, 1) for a in (x if x.ndim == 4 else [x])]
    t = x.as_subclass(torch.Tensor)
    return list(t.unbind(0)) if t.ndim == 4 else [t]


@pytest.mark.parametrize("chain", sorted(CHAINS))
@pytest.mark.parametrize("kind", KINDS)
def test_compose_gives_back_the_kind_that_came_in(chw, kind, chain):
    ours_t, theirs_t, fused, exact = CHAINS[chain]
    ours, theirs = T.Compose(ours_t, seed=5), V2.Compose(theirs_t)
    assert ours.fused == fused, ours.why_not_fused
    x, tx = make_input(kind, chw)
    has_image = chain.startswith("toimage")
    is_float = "float" in chain
    if "pil" in kind and is_float and not has_image:
        with pytest.raises(pixflow.InvalidArgument, match="no PIL form"):
            ours(x)
        return
    n = 1 if kind in ("numpy", "torch", "pil", "tv_image") else 2
    params = ours.sample_params([(251, 333)] * n, index=0) if ours.fused else None
    got = ours(x)
    # a list: each image on its own (torchvision's heuristic would transform only the first plain
    # tensor of a list and pass the others through)
    want = [theirs(e) for e in tx] if isinstance(tx, list) else theirs(tx)
    expect = struct(want)
    if kind.endswith("numpy") or kind == "numpy_batch":
        if not has_image:
            expect = as_numpy(expect)
    assert struct(got) == expect, (kind, chain)

    # the values: torchvision on the CHW tensors (no ToImage), per image
    ref_chain = V2.Compose([t for t in theirs_t if not isinstance(t, V2.ToImage)])
    got_imgs = images_of(got)
    assert len(got_imgs) == n
    for k, g in enumerate(got_imgs):
        if not exact:
            p = params[k]
            r = TF.resized_crop(chw[k], p["crop_y"], p["crop_x"], p["crop_h"], p["crop_w"], [64, 64],
                                antialias=True)
        else:
            r = ref_chain(chw[k])
        if chain == "unfused_float":
            torch.testing.assert_close(g, r, atol=1e-6, rtol=1e-6)
        else:
            assert torch.equal(g, r), (kind, chain, k)


def test_other_tv_tensors_are_not_images(chw):
    mask = tv_tensors.Mask(chw[0][:1])
    for t in (T.Compose([T.Resize(224), T.CenterCrop(200)]), T.Compose([T.Pad(2), T.CenterCrop(10)])):
        with pytest.raises(pixflow.Unsupported, match="tv_tensors.Mask"):
            t(mask)
