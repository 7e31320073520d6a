"""pixflow.data.Loader: the C data pipeline (pf_pipeline) as a Python
iterable of (images, labels) batches.

    loader = pixflow.data.Loader("train/", recipe="imagenet-train", batch_size=256, workers=8,
                                 shuffle=True, seed=0)
    for epoch in range(90):
        loader.set_epoch(epoch)
        for images, labels in loader:        # images: NCHW float32 torch tensor, zero-copy
            ...

Threads: reading, decoding and augmenting run on C threads; the GIL is free
while the loop waits for a batch (Ctrl-C still interrupts within 100 ms).
One pipeline serves consecutive epochs (its threads, buffers and folder index
are made once, and it prepares the next epoch's first batches while the
loop finishes the current one); ``close()`` stops it, and ``set_epoch`` to
any other epoch or ``load_state_dict`` to another point starts a new one.

Batch lifetime: ``images`` shares memory with the pipeline's batch buffer.
The buffer returns to the pipeline only when every view of it (the tensor,
arrays or tensors made from it) is gone, so a batch you still hold is never
overwritten. The pool has ``buffers`` batches (``stats()["buffers"]``); a
loop that keeps more than ``buffers - 1`` batches alive would starve the
pipeline, so the Loader raises pixflow.InvalidArgument naming the count
instead of waiting forever: copy (``.clone()``) what you keep.

Determinism: the order and the augmentation of every sample are pure
functions of (seed, epoch, sample index, rank, world_size): the same for any
worker count, and ``state_dict()`` / ``load_state_dict()`` resume exactly
(same samples, same bits).
"""
import atexit
import math
import os
import re
import sys
import time
import weakref

import numpy as _np

from . import _pixflow as _P

_live = weakref.WeakSet()


@atexit.register
def _close_all():
    # interpreter exit: stop every pipeline's threads before Python goes
    for p in list(_live):
        p.close()


def _source_dict(source, extensions):
    if isinstance(source, (list, tuple)):
        shards = [os.fspath(s) for s in source]
        if not shards or not all(s.endswith(".tar") for s in shards):
            raise _P.InvalidArgument("source: a list must hold .tar shard paths")
        d = {"kind": "tar", "shards": shards}
    else:
        path = os.fspath(source)
        if os.path.isdir(path):
            d = {"kind": "folder", "path": path}
        elif path.endswith(".tar"):
            d = {"kind": "tar", "shards": [path]}
        elif path.endswith(".pfpack"):
            d = {"kind": "pack", "path": path}
        elif os.path.isfile(path):
            d = {"kind": "list", "path": path}
        else:
            raise _P.IOError(f"source {path!r} is neither a folder, a list file, a .tar shard nor a .pfpack")
    if extensions is not None:
        d["extensions"] = ",".join(extensions) if not isinstance(extensions, str) else extensions
    return d


def _count_samples(src):
    """Samples the pipeline will index (folders and lists): pf_source_index's count, the C
    pipeline's own table; None for tar shards (their length is per shard file)."""
    if src["kind"] == "tar":
        return None
    return len(_P.source_index(src))


class _Progress:
    def __init__(self, total, desc):
        try:
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc=desc, unit="batch")
        except ImportError:
            self.bar, self.n, self.total, self.desc, self.t0 = None, 0, total, desc, time.monotonic()

    def update(self, samples):
        if self.bar is not None:
            self.bar.update(1)
            return
        self.n += 1
        rate = self.n / max(time.monotonic() - self.t0, 1e-9)
        sys.stderr.write(f"\r{self.desc}: {self.n}/{self.total or '?'} batches, {rate:.1f} batches/s")
        sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()
        else:
            sys.stderr.write("\n")


def _pipeline_spec(transform, recipe):
    """(desc, policy) dicts of the fused plan: from a pixflow.transforms chain, or a recipe
    (default imagenet-train). Shared by the Loader, pixflow.torch and pixflow.ray."""
    if transform is not None and recipe is not None:
        raise _P.InvalidArgument("pass transform or recipe, not both")
    if transform is not None:
        spec = getattr(transform, "pipeline_spec", None)
        if spec is None:
            raise _P.InvalidArgument(f"transform: {type(transform).__name__} is not a pixflow.transforms "
                                     "transform (it has no pipeline_spec())")
        return spec()
    return _P.recipe(recipe or "imagenet-train")


class Loader:
    """Batches of a folder (ImageFolder layout: sub-folders are classes), a list file
    ("path [label]" lines) or .tar shards (WebDataset layout), decoded and augmented by
    pixflow's pipeline.

    transform: a pixflow.transforms.Compose that compiles into the fused plan (its
    ``pipeline_spec()``), or None with recipe: "imagenet-train" (default), "imagenet-eval",
    "yolo". workers: decode+augment threads (0: one per CPU). rank/world_size shard
    exactly (DistributedSampler's padding, or dropping with shard_mode="drop").
    device: None (host batches), "cpu", "cuda[:N]" (augment on the GPU) or "opencl[:N]"
    (augment on OpenCL device N, as ``pixflow info`` lists them; the batches are
    pixflow.Tensor objects in that device's memory: ``images.to_host()`` copies one to the
    host). on_error: "skip" (bad samples are counted and skipped) or "raise" (a batch
    holding one raises, naming the file). output: "torch" (tensors; needs torch), "numpy",
    or "tensor" (the pixflow.Tensor itself, any device); None (default): "tensor" with an
    OpenCL device (neither torch nor numpy takes OpenCL memory), else "torch". Labels are
    int64: a torch tensor with "torch", a numpy array otherwise.
    pin_memory: the pipeline allocates its batch buffers as page-locked memory (pf_malloc
    PF_ALLOC_PINNED: cudaMallocHost), so ``images.to("cuda", non_blocking=True)`` is an
    asynchronous copy and no pinned copy of each batch is made (torch's ``.pin_memory()``).
    True pins for CUDA device 0 when there is a GPU and falls back to the CPU device's
    ordinary host memory (the same allocator path) when there is none; "cuda:N" or "cpu"
    name the device. Not with device= (those batches are device memory already).
    metrics_port: serve Prometheus metrics (pixflow.metrics: the C snapshot of the running
    pipeline) at http://metrics_addr:metrics_port/metrics (loopback by default; 0 picks a free
    port, see ``loader.metrics.port``; close() stops it); needs prometheus_client.
    devices: a list of devices (strings such as "cpu", "opencl:0", "cuda:0", or pixflow.Device
    objects) or "auto": each batch's fused preprocess is spread over them by pf_dispatch
    (include/pixflow/dispatch.h, as ``pixflow run --devices``), placed by measured cost; the
    batches are host batches with the same bytes as devices=["cpu"] for any split. Not with
    device= or pin_memory.
    rules: with devices, op classes placed on devices over the measured choice, as
    ``pixflow run --dispatch-rules``: a dict such as {"geometry": "opencl:0", "pointwise": "cpu"}
    (or the string "geometry=opencl:0,pointwise=cpu"). Both classes on different devices split
    each sample's chain (resampling on one, colour + normalisation on the other, the u8 image
    moved between them); one class, or both on one device, keeps the chain whole there. Same
    bytes either way. A bad class or a device not in devices raises pixflow.InvalidArgument
    naming it; stats()["dispatch"] has "rules", "split_batches" and "moved_bytes"."""

    def __init__(self, source, transform=None, recipe=None, batch_size=32, workers=0, shuffle=True, seed=0,
                 drop_last=False, rank=0, world_size=1, device=None, on_error="skip", pin_memory=False,
                 progress=False, output=None, extensions=None, shard_mode="pad", prefetch_batches=0,
                 metrics_port=None, metrics_addr="127.0.0.1", devices=None, rules=None):
        if on_error not in ("skip", "raise"):
            raise _P.InvalidArgument(f"on_error = {on_error!r}; use 'skip' or 'raise'")
        output = self._output(output, device)
        if shard_mode not in ("pad", "drop"):
            raise _P.InvalidArgument(f"shard_mode = {shard_mode!r}; use 'pad' or 'drop'")
        self._desc, self._policy = _pipeline_spec(transform, recipe)
        self._source = _source_dict(source, extensions)
        self._nsamples_cache = None  # _count_samples, when len() or progress first asks
        workers = int(workers) or (os.cpu_count() or 1)
        # prefetch_batches 0: pf_pipeline's default, as `pixflow run` has: 2 + ceil(2 * workers /
        # batch) buffers filling plus 2 for the consumer (a `for x, y in loader` loop holds one
        # batch while it waits for the next). Every buffer is allocated and touched when the
        # pipeline starts (RSS at its cap from the first batch), so spare buffers cost start-up
        # time (~20 ms per 37 MiB batch here) as well as memory.
        self._config = {"batch_size": int(batch_size), "workers": workers, "shuffle": bool(shuffle),
                        "seed": int(seed), "drop_last": bool(drop_last), "rank": int(rank),
                        "world_size": int(world_size), "on_error": 0 if on_error == "skip" else 1,
                        "shard_mode": 0 if shard_mode == "pad" else 1, "prefetch_batches": max(int(prefetch_batches), 0)}
        self.batch_size, self.device, self.output = int(batch_size), device, output
        self.pin_device = self._pin_device(pin_memory, device)  # None, "cpu", "cuda", "cuda:N"
        self.devices = self._devices(devices, device, self.pin_device)  # None or "cpu,opencl:0" / "auto"
        self.rules = self._rules(rules, self.devices)  # None or "geometry=opencl:0,pointwise=cpu"
        self.pin_memory, self.progress = self.pin_device is not None, progress
        self._epoch, self._position = 0, 0
        self._pipe, self._pipe_at, self._iter_id = None, None, 0
        self.metrics = None
        if metrics_port is not None:
            from . import metrics as _metrics

            self.metrics = _metrics.serve(self, port=metrics_port, addr=metrics_addr)

    @staticmethod
    def _output(output, device):
        opencl = isinstance(device, str) and device.startswith("opencl")
        if output is None:
            return "tensor" if opencl else "torch"
        if output not in ("torch", "numpy", "tensor"):
            raise _P.InvalidArgument(f"output = {output!r}; use 'torch', 'numpy' or 'tensor'")
        if opencl and output != "tensor":
            # DLPack's kDLOpenCL is a device neither torch nor numpy opens: a silent download per
            # batch would undo the device placement, so say what to do instead
            raise _P.InvalidArgument(f"output = {output!r} with device = {device!r}: {output} cannot hold "
                                     "OpenCL memory; use output='tensor' (pixflow.Tensor on the device; "
                                     "images.to_host() copies it to the host) or device=None")
        return output

    @staticmethod
    def _devices(devices, device, pin_device):
        if devices is None:
            return None
        if device is not None or pin_device is not None:
            raise _P.InvalidArgument(f"devices = {devices!r} with {'device' if device is not None else 'pin_memory'}: "
                                     "the dispatcher writes host batches; pass devices alone")
        if isinstance(devices, str):
            names = [devices] if devices == "auto" else devices.split(",")
        elif isinstance(devices, (list, tuple)):
            names = [str(d) if isinstance(d, _P.Device) else d for d in devices]
        else:
            names = []
        if not names or not all(isinstance(n, str) and n for n in names):
            raise _P.InvalidArgument(f"devices = {devices!r}; pass a list such as ['cpu', 'opencl:0'] or 'auto'")
        return ",".join(names)

    @staticmethod
    def _rules(rules, devices):
        if rules is None:
            return None
        if devices is None:
            raise _P.InvalidArgument(f"rules = {rules!r} without devices: rules place op classes on the "
                                     "dispatcher's devices; pass devices=[...] too")
        if isinstance(rules, dict):
            parts = []
            for k, v in rules.items():
                if not isinstance(k, str) or not isinstance(v, (str, _P.Device)):
                    raise _P.InvalidArgument(f"rules = {rules!r}: entry {k!r}: {v!r}; use op class names "
                                             "('geometry', 'pointwise') mapped to device names")
                parts.append(f"{k}={v}")
            return ",".join(parts)  # the C parser names a bad class or device
        if isinstance(rules, str):
            return rules
        raise _P.InvalidArgument(f"rules = {rules!r}; pass a dict such as "
                                 "{'geometry': 'opencl:0', 'pointwise': 'cpu'}")

    @staticmethod
    def _pin_device(pin_memory, device):
        if pin_memory is False or pin_memory is None:
            return None
        if device is not None:
            raise _P.InvalidArgument(f"pin_memory = {pin_memory!r} with device = {device!r}: those batches are "
                                     "device memory, not host buffers that could be pinned")
        if pin_memory is True:
            return "cuda" if _P.cuda_device_count() > 0 else "cpu"
        if isinstance(pin_memory, str) and re.fullmatch(r"cpu|cuda(:[0-9]+)?", pin_memory):
            return pin_memory
        raise _P.InvalidArgument(f"pin_memory = {pin_memory!r}; use True, False, 'cpu', 'cuda' or 'cuda:N'")

    # ------------------------------------------------------------ epochs
    def set_epoch(self, epoch):
        """Makes the next iteration run epoch `epoch` from its start (as DistributedSampler)."""
        self._epoch, self._position = int(epoch), 0

    @property
    def _nsamples(self):
        if self._nsamples_cache is None and self._source["kind"] != "tar":
            self._nsamples_cache = _count_samples(self._source)
        return self._nsamples_cache

    def __len__(self):
        """Batches per epoch for this rank (folders and list files)."""
        if self._nsamples is None:
            raise TypeError("len() of a Loader over .tar shards is unknown before indexing")
        n, w = self._nsamples, self._config["world_size"]
        per_rank = math.ceil(n / w) if self._config["shard_mode"] == 0 else n // w
        b = self.batch_size
        return per_rank // b if self._config["drop_last"] else math.ceil(per_rank / b)

    def state_dict(self):
        """The resume point: the batch after the last one delivered."""
        return {"epoch": self._epoch, "position": self._position, "seed": self._config["seed"],
                "rank": self._config["rank"], "world_size": self._config["world_size"]}

    def load_state_dict(self, state):
        """Resumes from state_dict(): the next iteration delivers exactly the batches that followed."""
        for k in ("seed", "rank", "world_size"):
            if k in state and state[k] != self._config[k]:
                raise _P.InvalidArgument(f"state_dict[{k!r}] = {state[k]} but this Loader has {self._config[k]}")
        self._epoch, self._position = int(state["epoch"]), int(state["position"])

    # ----------------------------------------------------------- iterate
    def _take_pipe(self):
        """The pipeline to iterate from (epoch, position): the running one when it is exactly
        there (consecutive epochs, or a loop that stopped early and goes on), else a new one.
        One pipeline serves every consecutive epoch (epochs=0: endless): its threads, buffers
        and folder index are made once, and it fills the next epoch's first batches while the
        consumer finishes the current one, as persistent DataLoader workers do."""
        self._iter_id += 1
        at = (self._epoch, self._position)
        p = self._pipe
        if p is not None and (self._pipe_at != at or p.state() != "running"):
            p.close()
            p = None
        if p is None:
            cfg = dict(self._config, start_epoch=self._epoch, start_position=self._position, epochs=0)
            p = _P.Pipeline(self._source, self._desc, self._policy, cfg, self.device, self.pin_device,
                            self.devices, self.rules)
            _live.add(p)
        self._pipe, self._pipe_at = p, at
        return p, self._iter_id

    def _batches(self):
        """Yields (pixflow.Batch, last of its epoch) for the current epoch, from its resume point."""
        pipe, me = self._take_pipe()
        while self._iter_id == me:  # a newer iteration of this Loader took the pipeline over
            try:
                b = pipe.next()
            except BaseException:
                # a failed batch (on_error="raise"), Ctrl-C, ...: the next iteration starts a new
                # pipeline at the last delivered batch, as if this one had never run past it
                self._pipe_at = None
                raise
            if b is None:
                break
            self._epoch, self._position = b.next_epoch, b.next_position
            self._pipe_at = (self._epoch, self._position)
            last = b.next_epoch != b.epoch
            yield b, last
            if last:
                break

    def _convert(self, batch):
        images, labels = batch.images, batch.labels
        if self.output == "tensor":
            return images, _np.asarray(labels).astype(_np.int64)
        if self.output == "numpy":
            return _np.asarray(images), _np.asarray(labels).astype(_np.int64)
        import torch

        # zero-copy: with pin_memory the buffer itself is pinned (torch sees cudaMallocHost memory
        # as pinned: t.is_pinned())
        return torch.from_dlpack(images), torch.from_numpy(_np.asarray(labels).astype(_np.int64))

    def __iter__(self):
        """The current epoch's (images, labels) batches, from its resume point to its end."""
        bar = _Progress(len(self) if self._nsamples is not None else None,
                        f"epoch {self._epoch}") if self.progress else None
        try:
            for b, _ in self._batches():
                out = self._convert(b)
                del b
                if bar:
                    bar.update(len(out[1]))
                yield out
        finally:
            if bar:
                bar.close()

    def batches(self):
        """Like iteration, but yields pixflow.Batch objects (images, labels, meta, resume point)."""
        for b, _ in self._batches():
            yield b

    def stats(self):
        """The pipeline's stage table and counters as a dict (cumulative over the consecutive
        epochs it served); with devices=, "dispatch" holds the dispatcher's stats (per device:
        samples, busy time, utilization, transfer bytes, cost, share and the reason for it)."""
        if self._pipe is None:
            raise _P.InvalidArgument("stats(): no epoch has run (or the Loader was closed)")
        return self._pipe.stats()

    def errors(self):
        """The most recent sample failures of the running epoch (path and reason)."""
        return self._pipe.errors() if self._pipe is not None else []

    def close(self):
        """Stops the pipeline's threads and frees its buffers once no batch is referenced (also
        done on del and at interpreter exit); the next iteration starts a new one."""
        p, self._pipe, self._pipe_at = self._pipe, None, None
        if p is not None:
            p.close()
        m, self.metrics = getattr(self, "metrics", None), None
        if m is not None:
            m.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def pack(source, out, max_side=320, quality=90, raw_below=0, threads=0, chunk_kib=1024, progress=None,
         extensions=None):
    """Stores ``source`` (a folder, a list file, .tar shard paths) once at training resolution in
    one ``.pfpack`` file ``out`` (the C ``pf_pack_write``; ``pixflow pack`` on the command line):
    JPEGs re-encoded at ``quality`` with the longer side ``max_side`` (lossy: docs/performance.md
    "Packed datasets" gives the PSNR per quality), images whose longer side is below
    ``raw_below`` as raw RGB pixels (exact). Sample i of the pack is sample i of the source (same
    name and label), so ``Loader(out, ...)`` reads it like the source, through mmap, in a
    chunk-then-sample shuffled order. ``threads`` 0: the CPU count. ``progress``: a callable
    ``(done, total)`` called after each sample is written, or True for a bar on stderr (drawn
    only when stderr is a terminal). The write is crash-safe (a temporary file renamed when
    complete). Returns the counts: samples, jpeg_reencoded, jpeg_kept, raw, chunks,
    input_bytes, output_bytes."""
    src = _source_dict(source, extensions)
    if src["kind"] == "pack":
        raise _P.InvalidArgument("source: already a .pfpack; pack a folder, a list file or .tar shards")
    if progress is True:
        progress = None
        if sys.stderr.isatty():
            t0 = time.monotonic()

            def progress(done, total):
                if done == total or done % 64 == 0:
                    rate = done / max(time.monotonic() - t0, 1e-9)
                    sys.stderr.write(f"\rpack: {done}/{total} samples, {rate:.0f} samples/s")
                    sys.stderr.write("\n" if done == total else "")
                    sys.stderr.flush()
    elif progress is False:
        progress = None
    return _P.pack(src, os.fspath(out), max_side=max_side, quality=quality, raw_below=raw_below,
                   threads=threads, chunk_kib=chunk_kib, progress=progress)


__all__ = ["Loader", "pack"]
