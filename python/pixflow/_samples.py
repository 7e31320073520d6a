"""Sample-level access to a pixflow source, keyed like the C pipeline: the
dataset index (pf_source_index: the C pipeline's own table, the same order
and labels, built by the same code), the bytes of sample i, and `KeyedAugmenter`,
which turns (bytes, epoch, index) into the exact tensor the pipeline makes
for that sample: C decode, the C Philox sampler keyed by (seed, epoch,
index), the C fused plan. Used by pixflow.ray (augment actors) and by
pixflow.torch (the rest of an epoch re-sharded over a new world size)."""
from . import _pixflow as _P
from .data import _pipeline_spec, _source_dict

# ------------------------------------------------------------------ index


def index(source, extensions=None):
    """The samples of a pixflow source as [(name, label)], in the C pipeline's dataset order:
    entry i is sample_id i (the index the Loader's augmentation is keyed by)."""
    return [(n, lab) for n, lab, _ in _index(source, extensions)]


def _index(source, extensions):
    # pf_source_index: the table pf_pipeline_create builds, by the same C
    # code (pipeline_source.c, pipeline_tar.c); entries are (name, label,
    # None) for files and (name, label, (shard, offset, size)) for tar members
    return _P.source_index(_source_dict(source, extensions))


def _read_bytes(name, loc):
    if loc is None:
        with open(name, "rb") as f:
            return f.read()
    path, off, size = loc
    with open(path, "rb") as f:
        f.seek(off)
        return f.read(size)


class KeyedAugmenter:
    """bytes -> the pipeline's tensor for (seed, epoch, index): pf_decode (RGB, stored
    orientation, as pf_decode_augment without DCT scaling, the Loader's setting, which is
    bit-identical to it) -> pf_aug_sample on the decoded size -> pf_preprocess_run, one
    plan run over the batch. desc/policy: as Loader (recipe or transform), or spec: the
    (desc, policy) dicts of transform.pipeline_spec() (plain data: what travels to actors)."""

    def __init__(self, transform=None, recipe=None, seed=0, on_error="raise", spec=None):
        if on_error not in ("skip", "raise"):
            raise _P.InvalidArgument(f"on_error = {on_error!r}; use 'skip' or 'raise'")
        if sum(x is not None for x in (transform, recipe, spec)) > 1:
            raise _P.InvalidArgument("pass one of transform, recipe or spec")
        if spec is not None:
            self.desc, self.policy = dict(spec[0]), dict(spec[1])
        else:
            self.desc, self.policy = _pipeline_spec(transform, recipe)
        self.plan = _P.Plan(self.desc)
        self.seed, self.on_error = int(seed), on_error
        self.skipped = 0

    def decode(self, data, name):
        try:
            return _P.decode(data)
        except _P.Error as e:
            if self.on_error == "raise":
                raise type(e)(f"{name}: {e}") from None
            self.skipped += 1
            return None

    def params(self, images, epochs, ids):
        # one Philox draw per sample keyed by (seed, epoch, index): the
        # pipeline workers' call (pf_aug_sample), on the decoded size
        return [_P.aug_sample(self.policy, self.seed, int(e), int(i), [im.shape[1]], [im.shape[0]])[0]
                for im, e, i in zip(images, epochs, ids)]

    def __call__(self, datas, epochs, ids, names=None, out=None):
        """Returns (tensor or None, kept positions): the samples that decoded, in order."""
        images, keep = [], []
        for k, data in enumerate(datas):
            img = self.decode(data, names[k] if names is not None else f"sample {int(ids[k])}")
            if img is not None:
                images.append(img)
                keep.append(k)
        if not images:
            return None, keep
        ep = [epochs[k] for k in keep]
        ix = [ids[k] for k in keep]
        return self.plan.run(images, self.params(images, ep, ix), out=out), keep
