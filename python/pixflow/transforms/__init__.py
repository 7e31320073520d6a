"""pixflow.transforms: torchvision.transforms.v2 names, arguments and
defaults, compiled into pixflow's fused preprocess and Philox sampler.

    import pixflow.transforms as T
    t = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(),
                   T.ToDtype(torch.float32, scale=True),
                   T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])], seed=0)
    batch = t(list_of_images)            # one fused pass: NCHW float32
    t.sample_params([(500, 375)])       # what sample 0 gets
    loader = pixflow.data.Loader("train/", transform=t)   # the same plan on C threads

A Compose whose transforms follow the fused order (geometry: one of
RandomResizedCrop / Resize [+ CenterCrop] / CenterCrop / Letterbox; then
flips, RandomAffine or RandomRotation, ColorJitter, RandomGrayscale, ToDtype,
Normalize) runs as one pass per batch. Any other Compose runs each transform
as its own op, in order. A transform that cannot do what torchvision would
raises, naming itself: nothing is ever passed through untransformed.

Randomness: each call draws from Philox keyed by (seed, epoch, sample index),
the index counting the samples this Compose has transformed (set_epoch()
and sample_params(index=...) as the Loader does), so the draws are
torchvision's distributions but not torch's generator.
"""
from ._transforms import (  # noqa: F401
    CenterCrop, ColorJitter, Compose, InterpolationMode, Letterbox, Normalize, Pad, RandomAffine,
    RandomGrayscale, RandomHorizontalFlip, RandomResizedCrop, RandomRotation, RandomVerticalFlip, Resize,
    ToDtype, ToImage, Transform,
)
from . import functional  # noqa: F401
