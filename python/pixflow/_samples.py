"""Sample-level access to a pixflow source, keyed like the C pipeline: the
dataset index (the same order and labels as src/pipeline/pipeline_source.c
and pipeline_tar.c build), the bytes of sample i, and `KeyedAugmenter`,
which turns (bytes, epoch, index) into the exact tensor the pipeline makes
for that sample: C decode, the C Philox sampler keyed by (seed, epoch,
index), the C fused plan. Used by pixflow.ray (augment actors) and by
pixflow.torch (the rest of an epoch re-sharded over a new world size)."""
import os
import tarfile


from . import _pixflow as _P
from .data import _DEFAULT_EXT, _pipeline_spec, _source_dict

# ------------------------------------------------------------------ index


def _ext_match(name, exts):
    base = name.rsplit("/", 1)[-1]
    if "." not in base or base.endswith("."):
        return False
    return base.rsplit(".", 1)[1].lower() in exts


def _index_folder(root, exts):
    # src/pipeline/pipeline_source.c: recursive, hidden entries skipped,
    # full paths sorted by strcmp (Python's str order on UTF-8 names is the
    # same), label = rank of the first folder under the root among the
    # sorted top-level folders, -1 for files directly in the root
    root = root.rstrip("/") or "/"
    files, classes = [], []

    def walk(d, depth):
        for e in os.listdir(d):
            if e.startswith("."):
                continue
            p = f"{d}/{e}"
            if os.path.isdir(p):
                if depth == 0:
                    classes.append(e)
                walk(p, depth + 1)
            elif _ext_match(p, exts):
                files.append(p)

    walk(root, 0)
    files.sort(key=os.fsencode)
    cls = {c: i for i, c in enumerate(sorted(classes, key=os.fsencode))}
    out = []
    for f in files:
        rel = f[len(root) + 1:]
        label = cls.get(rel.split("/", 1)[0], -1) if "/" in rel else -1
        out.append((f, label, None))
    return out


def _index_list(path):
    # pipeline_source.c open_list: "path [label]" lines, '#' comments,
    # relative paths are relative to the list's folder
    d = os.path.dirname(path)
    out = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            label, p = -1, s
            parts = s.rsplit(None, 1)
            if len(parts) == 2:
                try:
                    label, p = int(parts[1]), parts[0].rstrip()
                except ValueError:
                    pass
            if not p.startswith("/") and d:
                p = f"{d}/{p}"
            out.append((p, label, None))
    return out


def _index_tar(shards, exts):
    # pipeline_tar.c: members grouped by key (path up to the first '.' of
    # its last component); a key with an image member is a sample, its
    # ".cls" member the label; samples in shard order, then file order
    out = []
    for path in shards:
        with tarfile.open(path, "r:") as t:
            key, img, label = None, None, -1
            for m in t:
                if not m.isreg():
                    continue
                base = m.name.rsplit("/", 1)[-1]
                k = m.name[:len(m.name) - len(base)] + base.split(".", 1)[0]
                if k != key:
                    if img is not None:
                        out.append((img, label, None))
                    key, img, label = k, None, -1
                ext = m.name[len(k):]
                if ext == ".cls" and m.size < 32:
                    label = int(t.extractfile(m).read().decode().strip() or -1)
                elif img is None and _ext_match(m.name, exts):
                    img = (path, m.name, m.offset_data, m.size)
            if img is not None:
                out.append((img, label, None))
    return [(f"{p}:{n}", label, (p, off, size)) for (p, n, off, size), label, _ in out]


def index(source, extensions=None):
    """The samples of a pixflow source as [(name, label)], in the C pipeline's dataset order:
    entry i is sample_id i (the index the Loader's augmentation is keyed by)."""
    return [(n, lab) for n, lab, _ in _index(source, extensions)]


def _index(source, extensions):
    src = _source_dict(source, extensions)
    if extensions is None:
        exts = set(_DEFAULT_EXT)
    else:
        exts = {e.lower() for e in (extensions.split(",") if isinstance(extensions, str) else extensions)}
    if src["kind"] == "folder":
        return _index_folder(src["path"], exts)
    if src["kind"] == "list":
        return _index_list(src["path"])
    return _index_tar(src["shards"], exts)


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
