"""pixflow.torch: the pipeline as a torch IterableDataset that works inside
torch.utils.data.DataLoader (use batch_size=None: pixflow makes the batches).

    ds = pixflow.torch.ImageDataset("train/", recipe="imagenet-train", batch_size=256, seed=0)
    dl = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
    for epoch in range(90):
        ds.set_epoch(epoch)
        for images, labels in dl: ...

Sharding: the dataset is split over rank x DataLoader worker (rank and
world_size from torch.distributed when it is initialised, else the
arguments): shard = rank * num_workers + worker_id of world_size *
num_workers. Every shard gets the same number of samples (padding with the
epoch's first samples, as DistributedSampler, or dropping the tail with
shard_mode="drop"), hence equal batch counts per rank. state_dict() /
load_state_dict() hold (epoch, position) per shard, in the form torchdata's
StatefulDataLoader saves from each worker, and the shard count they were
taken with.

Resuming with another world size (torchrun elastic restarts every worker
with a new RANK/WORLD_SIZE): the samples the old shards had not delivered
(folder and list sources; from pixflow.epoch order of the saved sharding,
pf_epoch_order) are re-sharded over the new shards, padded again to equal
lengths (or dropped to them with shard_mode="drop"), and made by the same C
decode, sampler keyed by (seed, epoch, dataset index) and fused plan as the
pipeline, so each sample has the bytes the old run would have given it. The
next epoch runs the pipeline as usual.

torchdata.stateful_dataloader.StatefulDataLoader snapshots the dataset in
each worker after every batch it fetches and hands each worker its own
snapshot back on resume, so a run saved mid-epoch delivers exactly the
remaining batches, bit for bit; a snapshot taken at an epoch's end resumes
with the next epoch, as persistent workers (which never see set_epoch in
the main process) go on to it. In a worker one Loader per shard serves its
consecutive epochs (pixflow.data.Loader reuses its pipeline)."""
import math
import os

import numpy as _np
import torch.utils.data as _tud

from . import _pixflow as _P
from .data import Loader

_forked = []  # Loaders inherited through fork: kept referenced, never used


class ImageDataset(_tud.IterableDataset):
    """IterableDataset of (images, labels) batches; arguments as pixflow.data.Loader, with
    threads = pixflow decode threads per DataLoader worker."""

    def __init__(self, source, transform=None, recipe=None, batch_size=32, threads=1, shuffle=True, seed=0,
                 drop_last=False, rank=None, world_size=None, shard_mode="pad", on_error="skip"):
        super().__init__()
        self._args = dict(source=source, transform=transform, recipe=recipe, batch_size=batch_size,
                          workers=threads, shuffle=shuffle, seed=seed, drop_last=drop_last, on_error=on_error,
                          shard_mode=shard_mode)
        self._rank, self._world = rank, world_size
        self._epoch = 0
        self._resume = {}
        self._resume_shards = None  # the shard count self._resume was saved with
        self._reshard = None        # {"shards": S', "positions": {shard: samples delivered}}
        self._loaders, self._loaders_pid = {}, os.getpid()  # shard -> Loader of the iterating process

    def __getstate__(self):
        # spawned DataLoader workers get a copy without the parent's pipelines
        d = dict(self.__dict__)
        d["_loaders"] = {}
        return d

    def _shard(self):
        rank, world = self._rank, self._world
        if rank is None or world is None:
            import torch.distributed as dist

            if dist.is_available() and dist.is_initialized():
                rank, world = dist.get_rank(), dist.get_world_size()
            else:
                rank, world = rank or 0, world or 1
        info = _tud.get_worker_info()
        wid, nw = (info.id, info.num_workers) if info is not None else (0, 1)
        return rank * nw + wid, world * nw

    def set_epoch(self, epoch):
        """The epoch the next iteration runs (call it before each epoch, as DistributedSampler)."""
        self._epoch = int(epoch)
        self._resume = {}
        self._resume_shards = None
        self._reshard = None

    def loader(self):
        """This shard's pixflow.data.Loader, at the shard's resume point in this epoch."""
        shard, shards = self._shard()
        if self._loaders_pid != os.getpid():
            # a forked worker inherits the parent's Loaders, whose pipeline threads did not
            # fork: never touch (or free: that would join absent threads) them here
            _forked.append(self._loaders)
            self._loaders, self._loaders_pid = {}, os.getpid()
        loader = self._loaders.get(shard)
        if loader is None or loader.state_dict()["world_size"] != shards:
            loader = self._loaders[shard] = Loader(rank=shard, world_size=shards, **self._args)
        st = self._resume.get(shard) or {"epoch": self._epoch, "position": 0}
        loader.load_state_dict({"epoch": st["epoch"], "position": st["position"]})
        return loader

    def __iter__(self):
        shard, shards = self._shard()
        if self._resume_shards not in (None, shards) and self._resume:
            yield from self._resharded(shard, shards)
            return
        self._resume_shards = shards
        loader = self.loader()
        for batch in loader:
            st = loader.state_dict()
            self._resume[shard] = {"epoch": st["epoch"], "position": st["position"]}
            yield batch

    # ------------------------------------------------- another world size
    def _remaining(self):
        """Dataset indices the saved shards had not delivered this epoch, in the order of
        the saved epoch (position j = shard + shards * i), padding positions left out."""
        from ._samples import _index

        a = self._args
        if isinstance(a["source"], (list, tuple)) or str(a["source"]).endswith(".tar"):
            raise _P.Unsupported("load_state_dict: resuming tar shards with another world size is not "
                                 "supported (their order is per shard file); resume with the saved world size")
        self._entries = _index(a["source"], None)
        n, S = len(self._entries), self._resume_shards
        mode = 0 if a["shard_mode"] == "pad" else 1
        real = n if mode == 0 else S * (n // S)
        rows = []
        for s in range(S):
            order = _np.frombuffer(_P.epoch_order(n, a["seed"], self._epoch, a["shuffle"], s, S, mode), _np.uint64)
            st = self._resume.get(s, {"epoch": self._epoch, "position": 0})
            pos = len(order) if int(st["epoch"]) > self._epoch else int(st["position"])
            rows += [(s + S * i, int(order[i])) for i in range(pos, len(order)) if s + S * i < real]
        return [ix for _, ix in sorted(rows)]

    def _resharded(self, shard, shards):
        import torch

        from ._samples import KeyedAugmenter, _read_bytes

        a = self._args
        if self._reshard is not None and self._reshard["shards"] != shards:
            raise _P.Unsupported(f"load_state_dict: this epoch was already re-sharded over "
                                 f"{self._reshard['shards']} shards; resume it with that many")
        rest = self._remaining()
        if self._reshard is None:
            self._reshard = {"shards": shards, "positions": {}}
        if not rest:
            return
        L = math.ceil(len(rest) / shards) if a["shard_mode"] == "pad" else len(rest) // shards
        mine = [rest[(shard + shards * i) % len(rest)] for i in range(L)]
        aug = KeyedAugmenter(transform=a["transform"], recipe=a["recipe"], seed=a["seed"], on_error=a["on_error"])
        B = a["batch_size"]
        start = self._reshard["positions"].get(shard, 0)
        for p in range(start, L, B):
            ids = mine[p:p + B]
            if len(ids) < B and a["drop_last"]:
                break
            datas = [_read_bytes(self._entries[i][0], self._entries[i][2]) for i in ids]
            out, keep = aug(datas, [self._epoch] * len(ids), ids, names=[self._entries[i][0] for i in ids])
            self._reshard["positions"][shard] = p + len(ids)
            if out is None:
                continue
            labels = torch.tensor([self._entries[ids[k]][1] for k in keep], dtype=torch.int64)
            yield torch.from_dlpack(out), labels

    def state_dict(self):
        st = {"epoch": self._epoch, "shards": dict(self._resume), "world_size": self._resume_shards}
        if self._reshard is not None:
            st["reshard"] = {"shards": self._reshard["shards"], "positions": dict(self._reshard["positions"])}
        return st

    def load_state_dict(self, state):
        """Resumes from state_dict(): with the same shard count, the pipeline goes on from each
        shard's position; with another, the rest of the epoch is re-sharded (see above)."""
        self._epoch = int(state["epoch"])
        self._resume = {int(k): v for k, v in state.get("shards", {}).items()}
        self._resume_shards = state.get("world_size")
        r = state.get("reshard")
        self._reshard = None if r is None else {"shards": int(r["shards"]),
                                                "positions": {int(k): int(v) for k, v in r["positions"].items()}}


__all__ = ["ImageDataset"]
