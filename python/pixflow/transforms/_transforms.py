"""The transform classes and the compiler of a Compose into (desc, policy)."""
import enum
import math

import numpy as np

from .. import _pixflow as _P
from . import functional as F
from ._images import join_batch, pil_float_check, split_batch, tv_image, wrap_like


class InterpolationMode(enum.Enum):
    """torchvision's InterpolationMode values."""
    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    LANCZOS = "lanczos"


def _pair(size, name):
    if isinstance(size, int):
        return size, size
    s = list(size)
    if len(s) == 1:
        return s[0], s[0]
    if len(s) != 2:
        raise _P.InvalidArgument(f"{name}: size must be an int or (h, w)")
    return int(s[0]), int(s[1])


def _range(v, name, center=1.0, bound=None):
    """torchvision ColorJitter's _check_input: None, a number or (lo, hi)."""
    if v is None:
        return None
    if isinstance(v, (int, float)):
        if v < 0:
            raise _P.InvalidArgument(f"ColorJitter: {name} = {v} must be non-negative")
        lo, hi = center - v, center + v
        if center == 1.0:
            lo = max(lo, 0.0)
    else:
        lo, hi = float(v[0]), float(v[1])
    if bound is not None and not (bound[0] <= lo <= hi <= bound[1]):
        raise _P.InvalidArgument(f"ColorJitter: {name} range ({lo}, {hi}) must lie in {bound}")
    return None if lo == hi == center else (lo, hi)


class Transform:
    """Base class: one image, a batch (list, NCHW tensor, NHWC array) or a PIL image in;
    the same kind out. Random transforms draw from Philox keyed by (seed, epoch, index)."""

    seed = 0

    def __init__(self):
        self._epoch = 0
        self._index = 0

    def set_epoch(self, epoch):
        self._epoch = int(epoch)
        self._index = 0

    def _policy(self):
        """The policy fields this transform sets (random ones), or None."""
        return None

    def _draw(self, sizes):
        pol = dict(_P.defaults()[1], **(self._policy() or {}))
        p = _P.aug_sample(pol, self.seed, self._epoch, self._index, [s[1] for s in sizes], [s[0] for s in sizes])
        self._index += len(sizes)
        return p

    def _one(self, a, params):
        raise NotImplementedError

    def __call__(self, x):
        imgs, kind, is_batch = split_batch(x)
        self._check(kind)
        params = self._draw([a.shape[:2] for a in imgs]) if self._policy() is not None else [None] * len(imgs)
        return wrap_like(join_batch([self._one(a, p) for a, p in zip(imgs, params)], kind, is_batch, x), x)

    def _check(self, kind):
        """Raises when this transform has no result of the input's kind."""

    def __repr__(self):
        return f"{type(self).__name__}()"


def _as_image(t):
    """torchvision's ToImage type (tv_tensors.Image) where torchvision is installed, else the tensor."""
    try:
        return tv_image(t)
    except ImportError:
        return t


class ToImage(Transform):
    """v2.ToImage: numpy HWC / PIL / tensor -> a CHW tv_tensors.Image (a plain tensor without
    torchvision; a view for numpy)."""

    def __call__(self, x):
        import torch

        imgs, kind, is_batch = split_batch(x)
        outs = [torch.from_numpy(np.array(a) if not a.flags.writeable else a) for a in imgs]
        outs = [o.unsqueeze(0) if o.ndim == 2 else o.permute(2, 0, 1) for o in outs]
        if not is_batch:
            return _as_image(outs[0])
        return [_as_image(o) for o in outs] if isinstance(x, (list, tuple)) else _as_image(torch.stack(outs))


class ToDtype(Transform):
    """v2.ToDtype(dtype, scale=False) for images (uint8 <-> float32)."""

    def __init__(self, dtype, scale=False):
        super().__init__()
        self.dtype, self.scale = dtype, scale

    def _check(self, kind):
        if str(self.dtype).replace("torch.", "") != "uint8":
            pil_float_check(kind, f"ToDtype({self.dtype})")

    def _one(self, a, p):
        return F.to_dtype(a, self.dtype, self.scale)


class Normalize(Transform):
    """v2.Normalize(mean, std) of float images."""

    def __init__(self, mean, std, inplace=False):
        super().__init__()
        self.mean, self.std, self.inplace = list(mean), list(std), inplace

    def _one(self, a, p):
        return F.normalize(a, self.mean, self.std, self.inplace)


class Resize(Transform):
    """v2.Resize(size, interpolation=BILINEAR, max_size=None, antialias=True)."""

    def __init__(self, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
        super().__init__()
        self.size, self.interpolation, self.max_size, self.antialias = size, interpolation, max_size, antialias

    def _one(self, a, p):
        return F.resize(a, self.size, self.interpolation, self.max_size, self.antialias)


class CenterCrop(Transform):
    """v2.CenterCrop(size)."""

    def __init__(self, size):
        super().__init__()
        self.size = _pair(size, "CenterCrop")

    def _one(self, a, p):
        return F.center_crop(a, self.size)


class Pad(Transform):
    """v2.Pad(padding, fill=0, padding_mode='constant')."""

    def __init__(self, padding, fill=0, padding_mode="constant"):
        super().__init__()
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def _one(self, a, p):
        return F.pad(a, self.padding, self.fill, self.padding_mode)


class RandomHorizontalFlip(Transform):
    """v2.RandomHorizontalFlip(p=0.5)."""

    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def _policy(self):
        return {"hflip_p": self.p}

    def _one(self, a, p):
        return F.horizontal_flip(a) if p["flip_h"] else a


class RandomVerticalFlip(Transform):
    """v2.RandomVerticalFlip(p=0.5)."""

    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def _policy(self):
        return {"vflip_p": self.p}

    def _one(self, a, p):
        return F.vertical_flip(a) if p["flip_v"] else a


class RandomResizedCrop(Transform):
    """v2.RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3), interpolation=BILINEAR,
    antialias=True)."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0),
                 interpolation=InterpolationMode.BILINEAR, antialias=True):
        super().__init__()
        self.size = _pair(size, "RandomResizedCrop")
        self.scale, self.ratio, self.interpolation, self.antialias = tuple(scale), tuple(ratio), interpolation, antialias

    def _policy(self):
        return {"random_resized_crop": True, "rrc_scale": self.scale, "rrc_ratio": self.ratio}

    def _one(self, a, p):
        return F.resized_crop(a, p["crop_y"], p["crop_x"], p["crop_h"], p["crop_w"], self.size,
                              self.interpolation, self.antialias)


class ColorJitter(Transform):
    """v2.ColorJitter(brightness=None, contrast=None, saturation=None, hue=None): the four in a
    random order, each factor uniform in its range."""

    def __init__(self, brightness=None, contrast=None, saturation=None, hue=None):
        super().__init__()
        self.brightness = _range(brightness, "brightness")
        self.contrast = _range(contrast, "contrast")
        self.saturation = _range(saturation, "saturation")
        self.hue = _range(hue, "hue", center=0.0, bound=(-0.5, 0.5))

    def _policy(self):
        return {"color_jitter": True, "brightness": self.brightness or (1, 1), "contrast": self.contrast or (1, 1),
                "saturation": self.saturation or (1, 1), "hue": self.hue or (0, 0)}

    def _one(self, a, p):
        ops = {0: ("brightness", F.adjust_brightness, 1), 1: ("contrast", F.adjust_contrast, 1),
               2: ("saturation", F.adjust_saturation, 1), 3: ("hue", F.adjust_hue, 0)}
        for k in p["jitter_order"]:
            name, fn, ident = ops[k]
            if p[name] != ident:
                a = fn(a, p[name])
        return a


class RandomGrayscale(Transform):
    """v2.RandomGrayscale(p=0.1): 3-channel gray."""

    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def _policy(self):
        return {"grayscale_p": self.p}

    def _one(self, a, p):
        return F.rgb_to_grayscale(a, 3) if p["grayscale"] else a


class RandomAffine(Transform):
    """v2.RandomAffine(degrees, translate=None, scale=None, shear=None, interpolation=NEAREST,
    fill=0, center=None) about the image centre."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation=InterpolationMode.NEAREST,
                 fill=0, center=None):
        super().__init__()
        if center is not None:
            raise _P.Unsupported("RandomAffine: center is not supported (the image centre is used)")
        d = (-degrees, degrees) if isinstance(degrees, (int, float)) else tuple(degrees)
        self.degrees = (float(d[0]), float(d[1]))
        self.translate = tuple(translate) if translate is not None else (0.0, 0.0)
        self.scale_range = tuple(scale) if scale is not None else (1.0, 1.0)
        if shear is None:
            sh = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, (int, float)):
            sh = (-shear, shear, 0.0, 0.0)
        elif len(shear) == 2:
            sh = (shear[0], shear[1], 0.0, 0.0)
        else:
            sh = tuple(shear)
        self.shear = tuple(float(v) for v in sh)
        self.interpolation, self.fill = interpolation, fill
        self._plans = {}

    def _affine_degrees(self):
        """The range of F.affine's angle (clockwise) that this transform's angle is drawn from."""
        return self.degrees

    def _policy(self):
        return {"random_affine": True, "degrees": self._affine_degrees(), "translate": self.translate,
                "scale_range": self.scale_range, "shear": self.shear}

    def _draw(self, sizes):
        out = []
        for h, w in sizes:  # the translate bound is a fraction of each image's size
            pol = dict(_P.defaults()[1], **self._policy(), affine_width=w, affine_height=h)
            out += _P.aug_sample(pol, self.seed, self._epoch, self._index, [w], [h])
            self._index += 1
        return out

    def _one(self, a, p):
        h, w = a.shape[:2]
        c = 1 if a.ndim == 2 else a.shape[2]
        if a.dtype != np.uint8 or c not in (1, 3):
            raise _P.Unsupported(f"{type(self).__name__}: uint8 images with 1 or 3 channels")
        key = (w, h, c)
        if key not in self._plans:
            fill = [float(self.fill)] * 4 if isinstance(self.fill, (int, float)) else list(self.fill) + [0] * 4
            self._plans[key] = _P.Plan({"out_width": w, "out_height": h, "out_channels": c, "out_dtype": _P.U8,
                                        "out_layout": _P.HWC, "interp": F._interp(self.interpolation),
                                        "pad_value": tuple(fill[:4])})
        params = dict(_P.defaults()[2], affine=True, angle=p["angle"], translate_x=p["translate_x"],
                      translate_y=p["translate_y"], scale=p["scale"], shear_x=p["shear_x"], shear_y=p["shear_y"])
        out = np.asarray(self._plans[key].run([a], [params]))[0]
        return out[..., 0] if a.ndim == 2 else out


class RandomRotation(RandomAffine):
    """v2.RandomRotation(degrees, interpolation=NEAREST, expand=False, center=None, fill=0): the angle
    is drawn from degrees and the image rotated counter-clockwise by it, as F.rotate does."""

    def __init__(self, degrees, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=0):
        if expand:
            raise _P.Unsupported("RandomRotation: expand=True is not supported")
        super().__init__(degrees, interpolation=interpolation, fill=fill, center=center)

    def _affine_degrees(self):
        # F.rotate(a) is F.affine(angle=-a): the plan's (affine) angle is drawn from the mirrored
        # range, so RandomRotation((a, a)) rotates by exactly a, counter-clockwise
        lo, hi = self.degrees
        return (-hi, -lo)


def rect_size(width, height, size, stride=32):
    """(out_h, out_w) of ultralytics' rect letterbox (LetterBox(auto=True)): the image scaled by
    r = min(H / h, W / w) into size (H, W), rounded, then padded only up to the next multiple of
    stride on each side (so a 16:9 frame into 320 gives 192 x 320, not 320 x 320)."""
    H, W = _pair(size, "Letterbox")
    if int(stride) < 1:
        raise _P.InvalidArgument(f"Letterbox: stride {stride}; it must be >= 1")
    if width < 1 or height < 1:
        raise _P.InvalidArgument(f"Letterbox: image of {width}x{height}")
    r = min(H / height, W / width)
    uw, uh = int(round(width * r)), int(round(height * r))
    return uh + (H - uh) % int(stride), uw + (W - uw) % int(stride)


class Letterbox(Transform):
    """pixflow's letterbox (ultralytics): keep the aspect ratio, resize into size (h, w),
    pad with fill (114), centred. auto=True is ultralytics' rect inference mode: the pad
    only reaches the next multiple of stride, so the output size follows each image
    (rect_size); the plan of each output size is built once and kept. The plan scales by
    min(out_h / h, out_w / w) of that padded size, which is ultralytics' r except when a
    side's rounded size is already a stride multiple below its exact size (then the
    other side may be one pixel narrower than ultralytics'). Compose does not fuse an
    auto Letterbox (no fixed output size); the detect app fuses it per shape."""

    def __init__(self, size, fill=114, interpolation=InterpolationMode.BILINEAR, auto=False, stride=32):
        super().__init__()
        self.size, self.fill, self.interpolation = _pair(size, "Letterbox"), fill, interpolation
        self.auto, self.stride = bool(auto), int(stride)
        if self.stride < 1:
            raise _P.InvalidArgument(f"Letterbox: stride {stride}; it must be >= 1")
        self._plans = {}

    def out_size(self, width, height):
        """(out_h, out_w) for an image of width x height."""
        return rect_size(width, height, self.size, self.stride) if self.auto else self.size

    def _one(self, a, p):
        c = 1 if a.ndim == 2 else a.shape[2]
        oh, ow = self.out_size(a.shape[1], a.shape[0])
        key = (c, oh, ow)
        if key not in self._plans:
            self._plans[key] = _P.Plan({"out_width": ow, "out_height": oh, "out_channels": c,
                                        "out_dtype": _P.U8, "out_layout": _P.HWC, "letterbox": True,
                                        "interp": F._interp(self.interpolation),
                                        "pad_value": (float(self.fill),) * 4})
        out = np.asarray(self._plans[key].run([a]))[0]
        return out[..., 0] if a.ndim == 2 else out


# --------------------------------------------------------------- Compose

_GEOMETRY = (RandomResizedCrop, Resize, CenterCrop, Letterbox)


def _compile(transforms):
    """(desc, policy) of a fusable chain, or (None, reason)."""
    desc, policy, _ = _P.defaults()
    desc = dict(desc, out_dtype=_P.U8, out_layout=_P.HWC, scale=1.0)  # u8 HWC unless ToDtype/Normalize
    stage = 0  # 0 geometry, 1 flips, 2 affine, 3 colour, 4 gray, 5 dtype, 6 normalize
    size = None
    ts = [t for t in transforms if not isinstance(t, ToImage)]
    i = 0
    while i < len(ts):
        t = ts[i]
        if isinstance(t, _GEOMETRY):
            if stage > 0 or size is not None:
                return None, f"{type(t).__name__} after other transforms"
            if isinstance(t, RandomResizedCrop):
                size = t.size
                policy.update(random_resized_crop=True, rrc_scale=t.scale, rrc_ratio=t.ratio)
                desc.update(interp=F._interp(t.interpolation), antialias=bool(t.antialias),
                            flavor=_P.RESIZE_TORCHVISION)
            elif isinstance(t, Letterbox):
                if t.auto:
                    return None, "Letterbox(auto=True) has no fixed output size (it follows each image)"
                size = t.size
                desc.update(letterbox=True, pad_value=(float(t.fill),) * 4, interp=F._interp(t.interpolation))
            elif isinstance(t, Resize):
                nxt = ts[i + 1] if i + 1 < len(ts) else None
                if isinstance(t.size, int) and isinstance(nxt, CenterCrop) and t.max_size is not None:
                    # the plan's shorter-side rule has no long-side cap: fusing would drop max_size
                    return None, "Resize(int, max_size=...) + CenterCrop has no fused form"
                if isinstance(t.size, int) and isinstance(nxt, CenterCrop):
                    # resize-then-crop as torchvision does it (the whole image resized, then the window)
                    policy.update(resize_shorter=t.size, center_crop_w=nxt.size[1], center_crop_h=nxt.size[0],
                                  flavor=_P.RESIZE_TORCHVISION)
                    size = nxt.size
                    i += 1
                elif not isinstance(t.size, int) and t.max_size is None:
                    size = _pair(t.size, "Resize")
                else:
                    return None, "Resize(int) without a CenterCrop has no fixed output size"
                desc.update(interp=F._interp(t.interpolation), antialias=bool(t.antialias),
                            flavor=_P.RESIZE_TORCHVISION)
            else:
                return None, "CenterCrop without a Resize before it has no fused form"
            stage = 1
        elif isinstance(t, RandomHorizontalFlip) and stage <= 1:
            policy["hflip_p"] = t.p
        elif isinstance(t, RandomVerticalFlip) and stage <= 1:
            policy["vflip_p"] = t.p
        elif isinstance(t, RandomAffine) and stage <= 2 and size is not None:
            if F._interp(t.interpolation) != desc["interp"]:
                return None, f"{type(t).__name__}'s interpolation differs from the resize's"
            policy.update(random_affine=True, degrees=t._affine_degrees(), translate=t.translate,
                          scale_range=t.scale_range, shear=t.shear, affine_width=size[1], affine_height=size[0])
            fill = t.fill if not isinstance(t.fill, (int, float)) else [t.fill] * 3
            desc["pad_value"] = tuple(float(v) for v in (list(fill) + [0, 0, 0, 0])[:4])
            stage = 3
        elif isinstance(t, ColorJitter) and stage <= 3:
            policy.update(t._policy())
            stage = 4
        elif isinstance(t, RandomGrayscale) and stage <= 4:
            policy["grayscale_p"] = t.p
            stage = 5
        elif isinstance(t, ToDtype) and stage <= 5:
            name = str(t.dtype).replace("torch.", "")
            if name == "float32" and t.scale:
                desc.update(out_dtype=_P.F32, scale=1.0 / 255.0)
            elif name == "uint8":
                pass
            else:
                return None, f"ToDtype({t.dtype}, scale={t.scale}) has no fused form"
            stage = 6
        elif isinstance(t, Normalize) and stage == 6 and desc["out_dtype"] == _P.F32 and len(t.mean) <= 4:
            m, s = list(t.mean) * (3 if len(t.mean) == 1 else 1), list(t.std) * (3 if len(t.std) == 1 else 1)
            desc.update(mean=tuple((m + [0] * 4)[:4]), std=tuple((s + [1] * 4)[:4]))
            stage = 7
        else:
            return None, f"{type(t).__name__} at position {i} is out of the fused order"
        i += 1
    if size is None:
        return None, "no geometry transform fixes the output size"
    desc.update(out_height=size[0], out_width=size[1])
    if desc["out_dtype"] == _P.F32:
        desc["out_layout"] = _P.CHW  # float results are torchvision's CHW
    return (desc, policy), None


class Compose(Transform):
    """v2.Compose(transforms), fused when the chain allows (see the module doc); seed keys
    every random draw."""

    def __init__(self, transforms, seed=0):
        super().__init__()
        self.transforms = list(transforms)
        self.seed = int(seed)
        for t in self.transforms:
            t.seed = self.seed
        spec, self.why_not_fused = _compile(self.transforms)
        self._spec = spec
        self._plan = _P.Plan(spec[0]) if spec else None
        # the plan per output layout: torch results are CHW (torchvision's), numpy and PIL HWC
        self._plans = {spec[0]["out_layout"]: self._plan} if spec else {}

    @property
    def fused(self):
        return self._plan is not None

    def set_epoch(self, epoch):
        super().set_epoch(epoch)
        for t in self.transforms:
            t.set_epoch(epoch)

    def pipeline_spec(self):
        """(desc, policy) for pixflow.data.Loader; raises when the chain cannot be fused."""
        if self._spec is None:
            raise _P.Unsupported(f"Compose cannot run in the fused pipeline: {self.why_not_fused}")
        return dict(self._spec[0]), dict(self._spec[1])

    def sample_params(self, sizes, index=None, epoch=None):
        """The parameters samples get: sizes is a list of (h, w); index the first sample's
        index (default: the next one this Compose would use)."""
        if self._spec is None:
            raise _P.Unsupported(f"sample_params needs a fused Compose: {self.why_not_fused}")
        first = self._index if index is None else int(index)
        return _P.aug_sample(self._spec[1], self.seed, self._epoch if epoch is None else epoch, first,
                             [s[1] for s in sizes], [s[0] for s in sizes])

    def __call__(self, x):
        if self._plan is None:
            for t in self.transforms:
                x = t(x)
            return x
        imgs, kind, is_batch = split_batch(x)
        for a in imgs:
            if a.dtype != np.uint8:
                raise _P.InvalidArgument(f"the fused Compose takes uint8 images, got {a.dtype}")
        to_image = any(isinstance(t, ToImage) for t in self.transforms)
        to_torch = kind == "torch" or to_image
        if self._spec[0]["out_dtype"] != _P.U8 and not to_torch:
            pil_float_check(kind, "Compose")
        layout = _P.CHW if to_torch else _P.HWC  # CHW for tensors (as torchvision), HWC for numpy and PIL
        if layout not in self._plans:
            self._plans[layout] = _P.Plan(dict(self._spec[0], out_layout=layout))
        params = self.sample_params([a.shape[:2] for a in imgs])
        self._index += len(imgs)
        out = self._plans[layout].run(imgs, params)
        if to_torch:
            import torch

            res = torch.from_dlpack(out)
            wrap = _as_image if to_image else (lambda t: t)
            if not is_batch:
                return wrap_like(wrap(res[0]), x)
            return wrap_like([wrap(r) for r in res], x) if isinstance(x, (list, tuple)) else wrap_like(wrap(res), x)
        res = np.asarray(out)
        if kind == "pil":
            from PIL import Image

            outs = [Image.fromarray(r) for r in res]
            return outs if is_batch else outs[0]
        if not is_batch:
            return res[0]
        return list(res) if isinstance(x, (list, tuple)) else res

    def __repr__(self):
        inner = ", ".join(repr(t) for t in self.transforms)
        return f"Compose([{inner}], seed={self.seed}, fused={self.fused})"
