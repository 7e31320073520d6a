"""pixflow.fuse(): a builder of the fused preprocess plan.

    plan = pixflow.fuse().resize(256, 256).normalize(mean, std).convert_to("float32").compile()

It gives the same pixflow.Plan (equal desc) as the equivalent
pixflow.transforms.Compose, because it builds that Compose and takes its
plan: the steps are placed in the fused order whatever order they were
called in (geometry, flip, dtype, normalize), as the plan runs them.
``normalize`` takes mean and std in the units of the float output
(torchvision's: ToDtype(float32, scale=True) then Normalize), so it needs
``convert_to("float32")``. A chain the plan cannot fuse raises Unsupported
with Compose's reason; so does compile() of a chain with per-sample
parameters (center_crop, random_horizontal_flip: the Compose's policy, not
the plan's): ``.compose()`` gives that Compose.
"""
from . import _pixflow as _P

_ORDER = ("geometry", "crop", "flip", "dtype", "normalize")


class Fuse:
    """The builder pixflow.fuse() returns; every step returns the builder."""

    def __init__(self):
        self._steps = {}

    def _set(self, stage, t):
        if stage in self._steps:
            raise _P.InvalidArgument(f"fuse(): {stage} is given twice")
        self._steps[stage] = t
        return self

    def resize(self, height, width=None, interpolation="bilinear", antialias=True):
        """Resize to (height, width) (torchvision's order); resize(n) alone needs center_crop."""
        from . import transforms as T

        size = int(height) if width is None else (int(height), int(width))
        return self._set("geometry", T.Resize(size, interpolation=T.InterpolationMode(interpolation),
                                              antialias=antialias))

    def center_crop(self, height, width=None):
        """The centre window after resize(shorter_side) (torchvision's Resize + CenterCrop)."""
        from . import transforms as T

        return self._set("crop", T.CenterCrop((int(height), int(height if width is None else width))))

    def random_horizontal_flip(self, p=0.5):
        from . import transforms as T

        return self._set("flip", T.RandomHorizontalFlip(p))

    def convert_to(self, dtype):
        """'float32' (scaled to [0, 1]) or 'uint8'."""
        from . import transforms as T

        name = str(dtype).replace("torch.", "")
        if name not in ("float32", "uint8"):
            raise _P.InvalidArgument(f"fuse().convert_to: dtype = {dtype!r}; the plan writes 'float32' or 'uint8'")
        return self._set("dtype", T.ToDtype(name, scale=name == "float32"))

    def normalize(self, mean, std):
        from . import transforms as T

        return self._set("normalize", T.Normalize(mean, std))

    def compose(self, seed=0):
        """The equivalent pixflow.transforms.Compose."""
        from . import transforms as T

        if "normalize" in self._steps and "dtype" not in self._steps:
            raise _P.InvalidArgument("fuse(): normalize needs convert_to('float32') (mean and std are in the float "
                                     "output's units, as torchvision's Normalize after ToDtype(float32, scale=True))")
        return T.Compose([self._steps[k] for k in _ORDER if k in self._steps], seed=seed)

    def compile(self):
        """The pixflow.Plan; Unsupported (with the reason) when the chain has no fused form."""
        c = self.compose()
        if not c.fused:
            raise _P.Unsupported(f"fuse(): the chain has no fused plan: {c.why_not_fused}")
        if c.pipeline_spec()[1] != _P.defaults()[1]:
            # a Plan runs with the parameters it is given: the crop / flip draws are the Compose's
            raise _P.Unsupported("fuse(): this chain sets per-sample parameters (center_crop, random flips) "
                                 "that a Plan alone does not hold; use .compose() for the Compose that draws them")
        return c._plan

    def __repr__(self):
        return f"pixflow.fuse({', '.join(repr(self._steps[k]) for k in _ORDER if k in self._steps)})"


def fuse():
    """A new builder of a fused preprocess plan (see the module doc)."""
    return Fuse()
