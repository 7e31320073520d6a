"""pixflow.data.Loader and pixflow.torch.ImageDataset: exact resume,
sharding (world 1/2/3 x DataLoader workers 0/2 cover every sample),
batch lifetime, errors with the sample's path, RSS over 20 epochs."""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import pixflow
import pixflow.data as D
import pixflow.torch as PT
from conftest import cuda

N = 23


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """N tiny PPM images, each in its own class folder: the label names the sample."""
    root = tmp_path_factory.mktemp("ds")
    rng = np.random.default_rng(0)
    for i in range(N):
        d = root / f"c{i:03d}"
        d.mkdir()
        h, w = int(rng.integers(20, 60)), int(rng.integers(20, 60))
        px = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        (d / "img.ppm").write_bytes(b"P6\n%d %d\n255\n" % (w, h) + px.tobytes())
    return root


def small(folder, **kw):
    t_desc = dict(batch_size=4, workers=2, seed=5)
    t_desc.update(kw)
    return D.Loader(folder, **t_desc)


def test_len_and_one_epoch(folder):
    L = small(folder)
    batches = [(x.clone(), y.clone()) for x, y in L]  # batches are lent: copy what you keep
    assert len(batches) == len(L) == 6
    labels = torch.cat([b[1] for b in batches])
    assert sorted(labels.tolist()) == list(range(N))
    assert batches[0][0].shape == (4, 3, 224, 224) and batches[0][0].dtype == torch.float32


def test_exact_resume(folder):
    full = [(x.clone(), y.clone()) for x, y in small(folder)]
    L = small(folder)
    it = iter(L)
    first = [next(it) for _ in range(2)]
    state = L.state_dict()
    it.close()
    R = small(folder)
    R.load_state_dict(state)
    rest = list(R)
    got = [b for b in first] + rest
    assert len(got) == len(full)
    for (a, la), (b, lb) in zip(got, full):
        assert torch.equal(la, lb) and torch.equal(a, b)


def test_worker_count_does_not_change_bits(folder):
    a = [x.clone() for x, _ in small(folder, workers=1)]
    b = [x.clone() for x, _ in small(folder, workers=3)]
    assert all(torch.equal(x, y) for x, y in zip(a, b))


def test_epochs_differ_and_set_epoch_repeats(folder):
    L = small(folder)
    e0 = torch.cat([y for _, y in L])
    e1 = torch.cat([y for _, y in L])
    assert not torch.equal(e0, e1)
    L.set_epoch(0)
    assert torch.equal(torch.cat([y for _, y in L]), e0)


def worker_timeout(workers):
    """seconds a DataLoader waits for a worker's batch: a stuck worker fails the test (once
    seen under heavy load: the parent waiting on a worker's shared-memory fd) instead of
    stalling the whole test command"""
    return 120 if workers else 0


@pytest.mark.parametrize("world", [1, 2, 3])
@pytest.mark.parametrize("workers", [0, 2])
def test_sharding_covers_every_sample(folder, world, workers):
    seen, counts = [], []
    for rank in range(world):
        ds = PT.ImageDataset(folder, batch_size=3, seed=1, rank=rank, world_size=world)
        dl = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=workers, timeout=worker_timeout(workers))
        got = [y for _, y in dl]
        counts.append(len(got))
        seen += torch.cat(got).tolist()
    shards = world * max(workers, 1)
    per = -(-N // shards)
    assert len(seen) == per * shards          # equal shares: padded as DistributedSampler
    assert set(seen) == set(range(N))         # every sample
    assert len(seen) - len(set(seen)) == per * shards - N  # repeats are only the padding
    assert len(set(counts)) == 1              # equal batch counts per rank


def test_batch_memory_is_held_while_referenced(folder):
    L = small(folder, batch_size=2)
    kept = []
    with pytest.raises(pixflow.InvalidArgument, match="still referenced"):
        for x, _ in L:
            kept.append(x)  # never dropped: the pool runs dry
    first = kept[0].clone()
    del kept
    gc.collect()
    assert first.shape[0] == 2


def test_batch_objects_and_stats(folder):
    L = small(folder)
    for b in L.batches():
        assert b.count == len(b.meta) and b.meta[0]["name"].endswith("img.ppm")
        s = L.stats()
        assert set(s["stages"]) >= {"read", "decode_augment", "collate"}
        break


def test_errors_name_the_sample(tmp_path):
    d = tmp_path / "bad" / "c0"
    d.mkdir(parents=True)
    (d / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not a jpeg")
    (d / "ok.ppm").write_bytes(b"P6\n2 2\n255\n" + bytes(12))
    L = D.Loader(tmp_path / "bad", batch_size=1, workers=1, on_error="raise", output="numpy")
    with pytest.raises(pixflow.CorruptData, match="broken.jpg"):
        list(L)
    L = D.Loader(tmp_path / "bad", batch_size=1, workers=1, output="numpy")
    assert len(list(L)) == 1  # skipped
    with pytest.raises(pixflow.IOError):
        D.Loader(tmp_path / "missing")


def test_rss_flat_over_20_epochs(folder):
    # glibc keeps freed multi-MiB blocks in per-thread arenas (its mmap threshold grows after
    # the first free), and every epoch starts new pipeline threads: RSS then wobbles by tens
    # of MiB without a leak. With the threshold and arenas pinned, RSS is what is live; a
    # leaked pipeline per epoch (~24 MiB of batch buffers) would add ~480 MiB over 20 epochs.
    code = f"""
import gc, pixflow.data as D
def rss():
    return int(open('/proc/self/statm').read().split()[1]) * 4
L = D.Loader({str(folder)!r}, batch_size=4, workers=2, seed=5, output="numpy")
def epoch():
    for x, y in L:  # the last batch lives on into the next epoch (two pipelines at once)
        pass
for _ in range(5):
    epoch()
gc.collect(); r0 = rss()
for _ in range(20):
    epoch()
gc.collect(); print(rss() - r0)
"""
    env = dict(os.environ, MALLOC_ARENA_MAX="2", MALLOC_MMAP_THRESHOLD_="65536")
    grew = int(subprocess.check_output([sys.executable, "-c", code], env=env, cwd="/tmp"))
    assert grew < 4 * 1024, f"RSS grew by {grew} KiB over 20 epochs"


def test_one_pipeline_serves_consecutive_epochs(folder):
    # consecutive epochs (and a loop that stopped early and goes on) reuse the running
    # pipeline; the bits are those of a fresh Loader at the same point
    L = small(folder)
    e0 = [(x.clone(), y.clone()) for x, y in L]
    pipe = L._pipe
    it = iter(L)
    head = [tuple(t.clone() for t in next(it)) for _ in range(2)]
    del it
    tail = [(x.clone(), y.clone()) for x, y in L]  # the rest of epoch 1, same pipeline
    assert L._pipe is pipe
    F = small(folder)
    F.set_epoch(1)
    e1 = [(x.clone(), y.clone()) for x, y in F]
    assert len(head) + len(tail) == len(e1) == len(e0)
    for (a, la), (b, lb) in zip(head + tail, e1):
        assert torch.equal(la, lb) and torch.equal(a, b)
    L.set_epoch(0)  # another point: a new pipeline, the same bits as the first epoch
    again = [(x.clone(), y.clone()) for x, y in L]
    assert L._pipe is not pipe
    assert all(torch.equal(a, b) and torch.equal(la, lb) for (a, la), (b, lb) in zip(again, e0))


def test_pin_memory_through_the_pipeline_allocator(folder):
    # the batch buffers come from the pipeline's own allocator (pf_malloc PF_ALLOC_PINNED of the
    # pin device: the CPU device here, cudaMallocHost with a GPU), not from a copy per batch
    ref = [(x.clone(), y.clone()) for x, y in small(folder)]
    L = small(folder, pin_memory=True)
    assert L.pin_device == ("cuda" if pixflow.cuda_device_count() > 0 else "cpu")
    got = []
    for x, y in L:
        pinned, s = L._pipe.pinned, L.stats()
        assert pinned == {"buffers": s["buffers"], "bytes": s["buffers"] * s["batch_bytes"]}
        base = x.data_ptr()
        got.append((x.clone(), y.clone()))
        del x, y
    assert base % 64 == 0
    assert len(got) == len(ref)
    assert all(torch.equal(a, b) and torch.equal(la, lb) for (a, la), (b, lb) in zip(got, ref))
    plain = small(folder)
    next(iter(plain))
    assert plain._pipe.pinned == {"buffers": 0, "bytes": 0}
    with pytest.raises(pixflow.InvalidArgument, match="pin_memory"):
        small(folder, pin_memory="gpu")
    with pytest.raises(pixflow.InvalidArgument, match="pin_memory"):
        small(folder, pin_memory=True, device="cpu")


@cuda
def test_pin_memory_cuda_batches_are_page_locked(folder):
    L = small(folder, pin_memory="cuda:0")
    for x, y in L:
        assert x.is_pinned()  # cudaMallocHost memory, seen by torch as pinned
        g = x.to("cuda:0", non_blocking=True)
        torch.cuda.synchronize()
        assert torch.equal(g.cpu(), x)


@pytest.mark.parametrize("workers", [0, 2])
def test_stateful_dataloader_resumes_the_exact_remaining_batches(folder, workers):
    # torchdata's StatefulDataLoader snapshots ImageDataset in each worker after every batch;
    # a state saved mid-epoch (and round-tripped through torch.save) resumes with exactly the
    # batches the uninterrupted epoch had left, bit for bit
    import io

    from torchdata.stateful_dataloader import StatefulDataLoader

    def make():
        return StatefulDataLoader(PT.ImageDataset(folder, batch_size=2, seed=3), batch_size=None,
                                  num_workers=workers, timeout=worker_timeout(workers))

    full = [(x.clone(), y.clone()) for x, y in make()]
    assert len(full) >= 6
    dl = make()
    it = iter(dl)
    head = [tuple(t.clone() for t in next(it)) for _ in range(3)]
    buf = io.BytesIO()
    torch.save(dl.state_dict(), buf)
    del it, dl
    dl = make()
    dl.load_state_dict(torch.load(io.BytesIO(buf.getvalue()), weights_only=True))
    rest = [(x.clone(), y.clone()) for x, y in dl]
    got = head + rest
    assert [y.tolist() for _, y in got] == [y.tolist() for _, y in full]
    assert all(torch.equal(a, b) for (a, _), (b, _) in zip(got, full))
    # and the epoch after a resumed one is the uninterrupted run's next epoch
    dl_full = make()
    assert sum(1 for _ in dl_full) == len(full)
    nxt = [y.tolist() for _, y in dl_full]
    assert [y.tolist() for _, y in dl] == nxt
