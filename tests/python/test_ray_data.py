"""pixflow.ray without a cluster: the datasource's index and read tasks, and the map_batches
class, against the C pipeline (pixflow.data.Loader) as the oracle: same sample order and
labels, and for every (seed, epoch, sample_id) the same bytes as the Loader's batch.
No Ray runtime starts here (the read tasks and Augment run in this process; nothing calls
ray.init), so no cluster and no ~/.ray/auth_token is involved."""
import io
import shutil
import tarfile

import numpy as np
import pytest

pytest.importorskip("ray")
import torch  # noqa: E402

import pixflow  # noqa: E402
import pixflow.data as D  # noqa: E402
import pixflow.ray as pfr  # noqa: E402
import pixflow.transforms as T  # noqa: E402

from conftest import photo_paths  # noqa: E402


def small_transform():
    return T.Compose([T.RandomResizedCrop(40), T.RandomHorizontalFlip(), T.ColorJitter(0.4, 0.4, 0.4, 0.1),
                      T.ToDtype(torch.float32, scale=True),
                      T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The sample photos as a class folder, a list file (repeated, labelled) and two tar shards."""
    root = tmp_path_factory.mktemp("raysrc")
    photos = photo_paths()
    folder = root / "folder"
    for k, p in enumerate(photos):
        d = folder / f"class_{k % 3}"
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, d / p.name)
    shutil.copy(photos[0], folder / "loose.jpg")  # a file in the root: label -1
    lst = root / "list.txt"
    lst.write_text("# comment\n" + "".join(f"{p} {k}\n" for k in range(3) for p in photos))
    shards = []
    for s in range(2):
        path = root / f"shard-{s}.tar"
        with tarfile.open(path, "w") as t:
            for k, p in enumerate(photos[s::2]):
                for name, data in ((f"s{s}/{k:04d}{p.suffix}", p.read_bytes()), (f"s{s}/{k:04d}.cls", b"%d" % k)):
                    ti = tarfile.TarInfo(name)
                    ti.size = len(data)
                    t.addfile(ti, io.BytesIO(data))
        shards.append(str(path))
    return {"folder": str(folder), "list": str(lst), "tar": shards}


def loader_meta(source, **kw):
    L = D.Loader(source, transform=small_transform(), batch_size=5, workers=2, output="numpy", **kw)
    out = []
    for b in L.batches():
        out += [(m["index"], m["name"], m["label"], np.asarray(b.images)[k].copy()) for k, m in enumerate(b.meta)]
    return out


@pytest.mark.parametrize("kind", ["folder", "list", "tar"])
def test_index_is_the_pipelines(sources, kind):
    got = pfr.index(sources[kind])
    meta = loader_meta(sources[kind], shuffle=False)
    assert [(i, n, lab) for i, n, lab, _ in meta] == [(i, n, lab) for i, (n, lab) in enumerate(got)]


def rows(ds, parallelism=5):
    """Every row of a datasource, by running its read tasks here (as Ray's workers would)."""
    out = []
    for task in ds.get_read_tasks(parallelism):
        for block in task():
            out.append(block)
    return out


def test_read_tasks_cover_contiguous_ranges(sources):
    ds = pfr.PixflowDatasource(sources["list"], epochs=[4, 5])
    n = len(pfr.index(sources["list"]))
    tasks = ds.get_read_tasks(5)
    assert len(tasks) == 5 and sum(t.metadata.num_rows for t in tasks) == 2 * n
    flat = []
    for t in tasks:
        (block,) = list(t())
        ids = block.column("sample_id").to_pylist()
        eps = block.column("epoch").to_pylist()
        assert t.metadata.num_rows == len(ids)
        flat += list(zip(eps, ids))
        # a task is one contiguous range of the global (epoch, sample) order
        pos = [e * n + i for e, i in zip(eps, ids)]
        assert pos == list(range(pos[0], pos[0] + len(pos)))
    assert flat == [(e, i) for e in (4, 5) for i in range(n)]
    assert ds.estimate_inmemory_data_size() == sum(t.metadata.size_bytes for t in tasks)


@pytest.mark.parametrize("kind", ["list", "tar"])
def test_augment_bytes_equal_the_loader(sources, kind):
    # the Loader shuffles and shards; each sample's tensor depends only on
    # (seed, epoch, index), so the actor's output for that sample_id must be
    # the same bytes
    seed, ep = 7, 2
    want = {}
    for rank in range(2):
        L = D.Loader(sources[kind], transform=small_transform(), batch_size=4, workers=2, output="numpy",
                     seed=seed, rank=rank, world_size=2)
        L.set_epoch(ep)
        for b in L.batches():
            for k, m in enumerate(b.meta):
                want[m["index"]] = np.asarray(b.images)[k].copy()
    aug = pfr.Augment(transform=small_transform(), seed=seed)
    got = {}
    for block in rows(pfr.PixflowDatasource(sources[kind], epochs=ep)):
        batch = {c: block.column(c).to_numpy(zero_copy_only=False) for c in block.column_names}
        out = aug(batch)
        assert out["image"].dtype == np.float32 and out["image"].shape[1:] == (3, 40, 40)
        assert (out["label"] == batch["label"]).all()
        for sid, img in zip(out["sample_id"], out["image"]):
            got[int(sid)] = img
    assert sorted(got) == sorted(want) == list(range(len(pfr.index(sources[kind]))))
    for sid in want:
        assert got[sid].tobytes() == want[sid].tobytes(), sid
    # another epoch draws other crops (the key has the epoch in it)
    other = aug({**batch, "epoch": batch["epoch"] + 1})
    assert not np.array_equal(other["image"], out["image"])


def test_bad_sample_is_named_or_skipped(sources, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not a jpeg")
    good = photo_paths()[0]
    lst = tmp_path / "l.txt"
    lst.write_text(f"{good} 0\n{bad} 1\n{good} 2\n")
    (block,) = rows(pfr.PixflowDatasource(str(lst)), 1)
    batch = {c: block.column(c).to_numpy(zero_copy_only=False) for c in block.column_names}
    with pytest.raises(pixflow.Error, match="bad.jpg"):
        pfr.Augment(recipe="imagenet-eval")(batch)
    out = pfr.Augment(recipe="imagenet-eval", on_error="skip")(batch)
    assert out["sample_id"].tolist() == [0, 2] and out["label"].tolist() == [0, 2]
    assert out["image"].shape == (2, 3, 224, 224)


def test_epoch_order_is_the_pipelines(sources):
    # pixflow.epoch_order (pf_epoch_order, what pixflow.torch re-shards with)
    # against the Loader's own order, and against torch's DistributedSampler
    # where they share semantics (no shuffle: the same padding by wrap-around)
    src = sources["list"]
    n = len(pfr.index(src))
    for shuffle in (False, True):
        for world, mode in ((3, "pad"), (5, "pad"), (5, "drop")):
            for rank in range(world):
                order = np.frombuffer(pixflow._pixflow.epoch_order(n, 9, 1, shuffle, rank, world,
                                                                   0 if mode == "pad" else 1), np.uint64)
                L = D.Loader(src, transform=small_transform(), batch_size=8, workers=1, output="numpy", seed=9,
                             shuffle=shuffle, rank=rank, world_size=world, shard_mode=mode)
                L.set_epoch(1)
                got = [m["index"] for b in L.batches() for m in b.meta]
                assert got == order.tolist()
                if not shuffle:
                    ds = torch.utils.data.DistributedSampler(range(n), num_replicas=world, rank=rank,
                                                             shuffle=False, drop_last=mode == "drop")
                    assert list(ds) == got
    with pytest.raises(pixflow.InvalidArgument, match="rank"):
        pixflow._pixflow.epoch_order(10, 0, 0, True, 3, 3)
