"""pixflow.ray: pixflow on a Ray cluster (Ray Data), with exactly reproducible samples.

    import ray, pixflow.ray as pfr
    ds = pfr.read("train/", epochs=3)                    # sample_id, epoch, label, name, bytes
    ds = pfr.augment(ds, recipe="imagenet-train", seed=0, batch_size=64)
    for batch in ds.iter_torch_batches(batch_size=64):
        images, labels, ids = batch["image"], batch["label"], batch["sample_id"]

Reading: a Ray Data datasource over the pixflow sources (a folder in the
ImageFolder layout, a list file, .tar shards in the WebDataset layout),
indexed by the C pipeline's own index (pf_source_index: same order, same
labels; sample_id here is the pipeline's dataset index). Its read tasks cover
contiguous ranges of that global index and emit the encoded bytes with
`sample_id` and `epoch` columns; decoding happens in the augment actors.

Augmenting: `Augment` is a callable class for `Dataset.map_batches`, so
Ray runs it as actors that build the fused plan once. Each sample's
parameters come from pixflow's Philox sampler keyed by (seed, epoch,
sample_id) and the pixels from the same C decode + fused preprocess as
pixflow.data.Loader, so a block that Ray retries on another node (its
retries are at-least-once) comes out byte-identical, and every sample's
tensor equals what the Loader makes for the same (seed, epoch, index).
Nothing here is augmentation written in Python: decode, sampling and the
fused pass are the C library's.

Exactly once: Ray re-runs tasks after a node dies (at-least-once), its
`DataIterator` is not fault tolerant (ray-project/ray#37633), and
`streaming_split(equal=True)` may drop rows. `iter_torch_batches` below
tracks sample_ids: it drops repeats and, if the iteration fails, reads the
missing ones again. tests/python/test_ray_fault.py kills a node's raylet
mid-epoch and checks every sample_id once, with single-node bytes. See
docs/scale-out.md.
"""
import os

import numpy as _np

from . import _pixflow as _P
from ._samples import KeyedAugmenter, _index, _read_bytes, index
from .data import _pipeline_spec

import ray as _ray
from ray.data.block import BlockMetadata as _BlockMetadata
from ray.data.datasource import Datasource as _Datasource
from ray.data.datasource import ReadTask as _ReadTask

# ------------------------------------------------------------- datasource


class PixflowDatasource(_Datasource):
    """A Ray Data datasource over a pixflow source. Each read task covers a contiguous range
    of the global sample index and emits the columns sample_id (int64), epoch (int64),
    label (int32), name (string) and bytes (binary, the encoded image).

    epochs: one int (default 0) or a range/list of epochs, read one after the other (each
    epoch's rows in sample_id order; shuffle with Dataset.random_shuffle or
    randomize_block_order if you want to). samples: an optional range or list of sample_ids
    to read (a resume point, a shard), in the order given."""

    def __init__(self, source, epochs=0, extensions=None, samples=None):
        super().__init__()
        self._entries = _index(source, extensions)
        n = len(self._entries)
        self._epochs = [int(epochs)] if isinstance(epochs, int) else [int(e) for e in epochs]
        self._ids = list(range(n)) if samples is None else [int(i) for i in samples]
        for i in self._ids:
            if not 0 <= i < n:
                raise _P.InvalidArgument(f"samples: sample_id {i} is outside the source's 0..{n - 1}")
        self._sizes = None

    def get_name(self):
        return "Pixflow"

    def __len__(self):
        return len(self._ids) * len(self._epochs)

    def _file_size(self, i):
        name, _, loc = self._entries[i]
        if loc is not None:
            return loc[2]
        try:
            return os.path.getsize(name)
        except OSError:
            return 0

    def estimate_inmemory_data_size(self):
        if self._sizes is None:
            self._sizes = {i: self._file_size(i) for i in set(self._ids)}
        return sum(self._sizes[i] for i in self._ids) * len(self._epochs)

    def get_read_tasks(self, parallelism, per_task_row_limit=None, data_context=None):
        rows = [(e, i) for e in self._epochs for i in self._ids]
        if not rows:
            return []
        self.estimate_inmemory_data_size()
        parallelism = max(1, min(int(parallelism), len(rows)))
        step = -(-len(rows) // parallelism)
        tasks = []
        for a in range(0, len(rows), step):
            chunk = rows[a:a + step]
            meta = _BlockMetadata(num_rows=len(chunk), size_bytes=sum(self._sizes[i] for _, i in chunk),
                                  input_files=None, exec_stats=None)
            entries = [(e, i) + self._entries[i] for e, i in chunk]
            tasks.append(_ReadTask(lambda entries=entries: [_read_block(entries)], meta,
                                   per_task_row_limit=per_task_row_limit))
        return tasks


def _read_block(entries):
    import pyarrow as pa

    return pa.table({
        "sample_id": pa.array([i for _, i, _, _, _ in entries], pa.int64()),
        "epoch": pa.array([e for e, _, _, _, _ in entries], pa.int64()),
        "label": pa.array([lab for _, _, _, lab, _ in entries], pa.int32()),
        "name": pa.array([n for _, _, n, _, _ in entries], pa.string()),
        "bytes": pa.array([_read_bytes(n, loc) for _, _, n, _, loc in entries], pa.binary()),
    })


def read(source, epochs=0, extensions=None, samples=None, override_num_blocks=None, **read_args):
    """ray.data.read_datasource over a PixflowDatasource (arguments as PixflowDatasource;
    read_args go to read_datasource: num_cpus, concurrency, ...)."""
    return _ray.data.read_datasource(PixflowDatasource(source, epochs, extensions, samples),
                                     override_num_blocks=override_num_blocks, **read_args)

# ---------------------------------------------------------------- augment


class Augment:
    """A callable class for Dataset.map_batches (batch_format="numpy"): rows with bytes,
    sample_id and epoch -> rows with image (the fused plan's output: NCHW float32 for the
    ImageNet recipes), label, sample_id and epoch.

    transform: a pixflow.transforms.Compose, or recipe: "imagenet-train" (default),
    "imagenet-eval", "yolo". seed: the augmentation seed. on_error: "raise" (a bad sample
    fails the block, naming it) or "skip" (its row is dropped). threads: pixflow threads for
    the fused pass (None: the logical CPUs Ray gave this actor, at least 1). Ray builds it
    once per actor; the work is pixflow._samples.KeyedAugmenter (C decode, C sampler, C
    fused plan)."""

    def __init__(self, transform=None, recipe=None, seed=0, on_error="raise", spec=None, threads=None):
        if threads is None:
            cpus = _ray.get_runtime_context().get_assigned_resources().get("CPU", 1) if _ray.is_initialized() else 1
            threads = max(1, int(cpus))
        _P.set_num_threads(int(threads))
        self._aug = KeyedAugmenter(transform=transform, recipe=recipe, seed=seed, on_error=on_error, spec=spec)

    def __call__(self, batch):
        ids, epochs = _np.asarray(batch["sample_id"]), _np.asarray(batch["epoch"])
        out, keep = self._aug(batch["bytes"], epochs, ids, names=batch["name"])
        keep = _np.asarray(keep, dtype=_np.int64)
        d = self._aug.desc
        image = (_np.asarray(out) if out is not None else
                 _np.zeros((0, d["out_channels"], d["out_height"], d["out_width"]), _np.float32))
        return {"image": image, "label": _np.asarray(batch["label"])[keep], "sample_id": ids[keep],
                "epoch": epochs[keep]}


def augment(ds, transform=None, recipe=None, seed=0, batch_size=32, concurrency=1, num_gpus=None,
            num_cpus=1, on_error="raise", **map_args):
    """ds.map_batches(Augment, ...): `concurrency` actors (one per node is the usual choice),
    each with num_cpus logical CPUs and num_gpus GPUs (None: 1 when the cluster has GPUs,
    else 0). The fused plan runs where its buffers live (host arrays here), so a GPU actor
    reserves the device for the training step that follows in the same actor or node."""
    if num_gpus is None:
        num_gpus = 1 if _ray.is_initialized() and _ray.cluster_resources().get("GPU", 0) > 0 else 0
    # the transform travels as its (desc, policy) dicts: a compiled plan is
    # C state, built again in each actor
    spec = _pipeline_spec(transform, recipe)
    return ds.map_batches(Augment, fn_constructor_kwargs=dict(spec=spec, seed=seed, on_error=on_error),
                          batch_size=batch_size, batch_format="numpy", concurrency=concurrency,
                          num_gpus=num_gpus, num_cpus=num_cpus, zero_copy_batch=True, **map_args)



def iter_torch_batches(source, epoch=0, transform=None, recipe=None, seed=0, batch_size=32, samples=None,
                       concurrency=1, max_attempts=3, override_num_blocks=None, stats=None, read_args=None,
                       **augment_args):
    """The epoch's samples as dicts of torch tensors (image, label, sample_id, epoch) through
    Dataset.iter_torch_batches, each sample_id of `samples` (default: all) exactly once.

    Ray retries are at-least-once and its DataIterator is not fault tolerant
    (ray-project/ray#37633): if the iteration raises a Ray error (a node died, an object was
    lost), the dataset is rebuilt over the samples not yet delivered and iteration goes on
    (at most max_attempts times); rows whose sample_id was already delivered are dropped.
    Samples are keyed by (seed, epoch, sample_id), so a re-made sample has the same bytes.
    Batches are in the datasource's order; a batch may be short after a restart. stats: a
    dict that receives attempts, errors (their repr) and duplicates dropped. read_args go to
    read() (e.g. num_cpus), augment_args to augment() and map_batches."""
    import torch

    ids = list(range(len(_index(source, augment_args.get("extensions"))))) if samples is None else \
        [int(i) for i in samples]
    st = stats if stats is not None else {}
    st.update(attempts=0, errors=[], duplicates=0)
    delivered = set()
    map_args = {k: v for k, v in augment_args.items() if k != "extensions"}
    while True:
        remaining = [i for i in ids if i not in delivered]
        if not remaining:
            return
        if st["attempts"] >= max_attempts:
            raise _P.Error(f"pixflow.ray.iter_torch_batches: {len(remaining)} samples still missing after "
                           f"{max_attempts} attempts; errors: {st['errors']}")
        st["attempts"] += 1
        ds = augment(read(source, epochs=epoch, samples=remaining, extensions=augment_args.get("extensions"),
                          override_num_blocks=override_num_blocks, **(read_args or {})),
                     transform=transform, recipe=recipe, seed=seed, batch_size=batch_size,
                     concurrency=concurrency, **map_args)
        try:
            for b in ds.iter_torch_batches(batch_size=batch_size):
                sid = b["sample_id"].tolist()
                fresh = [k for k, i in enumerate(sid) if i not in delivered]
                if len(fresh) < len(sid):
                    st["duplicates"] += len(sid) - len(fresh)
                    if not fresh:
                        continue
                    sel = torch.as_tensor(fresh)
                    b = {k: v[sel] for k, v in b.items()}
                delivered.update(b["sample_id"].tolist())
                yield b
        except _ray.exceptions.RayError as e:
            st["errors"].append(repr(e)[:300])


__all__ = ["PixflowDatasource", "Augment", "read", "augment", "index", "iter_torch_batches"]
