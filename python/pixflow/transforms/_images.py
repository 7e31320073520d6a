"""Image kinds in and out of the transforms: torch CHW tensors, numpy HWC
arrays, PIL images, and batches (lists, NCHW tensors, NHWC arrays). Inside,
every image is a numpy HWC view (no copy for numpy, torch CPU and the
common layouts); results go back to the kind that came in."""
import numpy as np

from .. import _pixflow as _P


def kind_of(x):
    """"torch", "pil" or "numpy"; anything else raises (never passed through). A
    torchvision tv_tensors.Image is "torch" (wrap_like gives the wrapper back); the other
    tv_tensors (masks, boxes, videos) are not images and raise."""
    mod = type(x).__module__
    if mod.startswith("torchvision"):
        if type(x).__name__ != "Image":
            raise _P.Unsupported(f"pixflow transforms take images; a tv_tensors.{type(x).__name__} is not one")
        return "torch"
    if mod.startswith("torch"):
        return "torch"
    if mod.startswith("PIL"):
        return "pil"
    if isinstance(x, np.ndarray):
        return "numpy"
    raise _P.InvalidArgument(f"expected a torch tensor, a numpy array or a PIL image, got {type(x).__name__}; "
                             "pixflow transforms never pass an input through untransformed")


def to_hwc(x, kind):
    """A numpy (H, W[, C]) view of one image (no copy for numpy and CPU tensors)."""
    if kind == "torch":
        if not x.is_cpu:
            raise _P.Unsupported(f"pixflow.transforms: a tensor on {x.device} (CUDA tensors go through "
                                 "pixflow.data.Loader(device=...))")
        if x.ndim == 2:
            return x.numpy()
        if x.ndim != 3:
            raise _P.InvalidArgument(f"a torch image is (C, H, W); got shape {tuple(x.shape)}")
        # numpy's transpose of the (C, H, W) array, not torch's permute: the same view, ~1 us less per call
        return x.numpy().transpose(1, 2, 0)
    if kind == "pil":
        return np.asarray(x)
    if x.ndim not in (2, 3):
        raise _P.InvalidArgument(f"a numpy image is (H, W) or (H, W, C); got shape {x.shape}")
    return x


def from_hwc(a, kind):
    """An (H, W[, C]) array back to the kind that came in (torch: a CHW view)."""
    if kind == "torch":
        import torch

        if not a.flags.writeable:
            a = np.array(a)
        # a (C, H, W) view made by numpy before torch wraps it: torch's permute costs ~1 us a call
        return torch.from_numpy(a).unsqueeze(0) if a.ndim == 2 else torch.from_numpy(a.transpose(2, 0, 1))
    if kind == "pil" and a.dtype == np.uint8:
        from PIL import Image

        return Image.fromarray(a)
    return a


def is_tv_image(x):
    return type(x).__module__.startswith("torchvision") and type(x).__name__ == "Image"


def tv_image(t):
    """t as a torchvision tv_tensors.Image (what torchvision's ToImage returns), no copy."""
    from torchvision import tv_tensors

    return tv_tensors.Image(t)


def wrap_like(res, original):
    """torchvision gives a tv_tensors.Image back for one: wrap the result(s) the same way."""
    if isinstance(original, (list, tuple)):
        if isinstance(res, list):
            return [tv_image(r) if is_tv_image(o) and not is_tv_image(r) and _is_tensor(r) else r
                    for r, o in zip(res, original)]
        return res
    if is_tv_image(original) and _is_tensor(res) and not is_tv_image(res):
        return tv_image(res)
    return res


def _is_tensor(x):
    return type(x).__module__.startswith("torch")


def pil_float_check(kind, name):
    """PIL has no float RGB image: a float result of a PIL input has no kind to go back as."""
    if kind == "pil":
        raise _P.InvalidArgument(f"{name}: a float result of a PIL image has no PIL form; put ToImage() first "
                                 "(torchvision's ToDtype leaves PIL images as they are)")


def split_batch(x):
    """(images, kind, is_batch): a list/tuple or a 4-D tensor/array is a batch."""
    if isinstance(x, (list, tuple)):
        if not x:
            raise _P.InvalidArgument("an empty batch")
        k = kind_of(x[0])
        return [to_hwc(i, kind_of(i)) for i in x], k, True
    k = kind_of(x)
    if k != "pil" and x.ndim == 4:
        if k == "torch":
            return [to_hwc(i, k) for i in x.unbind(0)], k, True
        return list(x), k, True
    return [to_hwc(x, k)], k, False


def join_batch(outs, kind, is_batch, original):
    if not is_batch:
        return from_hwc(outs[0], kind)
    if isinstance(original, (list, tuple)):
        return [from_hwc(o, kind) for o in outs]
    if kind == "torch":
        import torch

        return torch.stack([from_hwc(o, kind) for o in outs])
    return np.stack(outs)
