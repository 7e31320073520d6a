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
StatefulDataLoader saves from each worker."""
import torch.utils.data as _tud

from .data import Loader


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

    def loader(self):
        """This shard's pixflow.data.Loader."""
        shard, shards = self._shard()
        loader = Loader(rank=shard, world_size=shards, **self._args)
        st = self._resume.get(shard)
        loader.load_state_dict(dict(st, rank=shard, world_size=shards) if st else
                               {"epoch": self._epoch, "position": 0, "rank": shard, "world_size": shards})
        return loader

    def __iter__(self):
        loader = self.loader()
        shard = loader.state_dict()["rank"]
        for batch in loader:
            self._resume[shard] = {"epoch": loader.state_dict()["epoch"],
                                   "position": loader.state_dict()["position"]}
            yield batch

    def state_dict(self):
        return {"epoch": self._epoch, "shards": dict(self._resume)}

    def load_state_dict(self, state):
        self._epoch = int(state["epoch"])
        self._resume = {int(k): v for k, v in state.get("shards", {}).items()}


__all__ = ["ImageDataset"]
