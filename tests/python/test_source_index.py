"""The Python and Ray views of a source are the C pipeline's dataset index (pf_source_index,
issue 24 part 6): for folder, list and tar sources with the awkward cases of each kind
(hidden entries, nested and loose files, upper-case extensions, comments, relative paths,
labels with and without, non-image tar members), entry i of pixflow._samples.index, of
_pixflow.source_index and of pixflow.ray's datasource rows is sample i of a Loader epoch run
in dataset order (shuffle=False): same name, same label. Tar entries also locate the
member's bytes exactly."""
import io
import shutil
import tarfile

import numpy as np
import pytest

import pixflow
import pixflow._pixflow as P
import pixflow._samples as S
import pixflow.data as D

from conftest import photo_paths


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    root = tmp_path_factory.mktemp("srcindex")
    photos = photo_paths()
    folder = root / "folder"
    for k, p in enumerate(photos):
        d = folder / f"cls_{k % 3}"
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, d / p.name)
    shutil.copy(photos[0], folder / "loose.jpg")                      # in the root: label -1
    (folder / "cls_1" / "deeper").mkdir()
    shutil.copy(photos[1], folder / "cls_1" / "deeper" / "nested.JPG")  # its top folder's label
    (folder / ".hidden").mkdir()
    shutil.copy(photos[2], folder / ".hidden" / "skipped.jpg")          # hidden: not a sample
    shutil.copy(photos[2], folder / "cls_0" / ".skipped.jpg")
    (folder / "cls_2" / "notes.txt").write_text("not an image")
    lst = root / "lists" / "list.txt"
    lst.parent.mkdir()
    shutil.copy(photos[0], lst.parent / "relative.jpg")
    lst.write_text("# a comment\n\n" + "".join(f"{p} {k}\n" for k, p in enumerate(photos)) +
                   "relative.jpg\n   relative.jpg   5  \n")
    shards = []
    for s in range(2):
        path = root / f"shard-{s}.tar"
        with tarfile.open(path, "w") as t:
            for k, p in enumerate(photos[s::2]):
                members = [(f"s{s}/{k:04d}.json", b"{}"), (f"s{s}/{k:04d}{p.suffix}", p.read_bytes())]
                if k % 2 == 0:  # every other key labelled
                    members.append((f"s{s}/{k:04d}.cls", b"%d" % (10 * s + k)))
                for name, data in members:
                    ti = tarfile.TarInfo(name)
                    ti.size = len(data)
                    t.addfile(ti, io.BytesIO(data))
            ti = tarfile.TarInfo(f"s{s}/readme.txt")  # a key without an image: not a sample
            ti.size = 2
            t.addfile(ti, io.BytesIO(b"hi"))
        shards.append(str(path))
    return {"folder": str(folder), "list": str(lst), "tar": shards}


def pipeline_order(source):
    L = D.Loader(source, recipe="imagenet-eval", batch_size=4, workers=2, output="numpy", shuffle=False)
    return [(m["index"], m["name"], m["label"]) for b in L.batches() for m in b.meta]


@pytest.mark.parametrize("kind", ["folder", "list", "tar"])
def test_samples_index_is_the_pipelines_order(sources, kind):
    want = pipeline_order(sources[kind])
    assert [i for i, _, _ in want] == list(range(len(want)))
    got = S.index(sources[kind])
    assert [(i, n, lab) for i, (n, lab) in enumerate(got)] == want
    # the extension's own view, through the same source dict the Loader builds
    raw = P.source_index(D._source_dict(sources[kind], None))
    assert [(n, lab) for n, lab, _ in raw] == got
    if kind == "folder":
        names = [n for n, _ in got]
        assert not any("/." in n for n in names) and not any(n.endswith(".txt") for n in names)
        assert dict(got)[f"{sources[kind]}/loose.jpg"] == -1
        assert dict(got)[f"{sources[kind]}/cls_1/deeper/nested.JPG"] == 1
    if kind == "list":
        assert got[-2][1] == -1 and got[-1][1] == 5 and got[-1][0].endswith("lists/relative.jpg")


def test_loader_length_is_the_index_count(sources):
    for kind in ("folder", "list"):
        L = D.Loader(sources[kind], recipe="imagenet-eval", batch_size=4, output="numpy")
        assert len(L) == -(-len(S.index(sources[kind])) // 4)


def test_tar_entries_locate_the_member_bytes(sources):
    entries = S._index(sources["tar"], None)
    assert entries and all(loc is not None for _, _, loc in entries)
    for name, label, (shard, offset, size) in entries:
        shard_path, member = name.split(":", 1)
        assert shard_path == shard
        with tarfile.open(shard) as t:
            assert S._read_bytes(name, (shard, offset, size)) == t.extractfile(member).read()
    # labels: the .cls member when the key has one, else -1; keys without an image are no samples
    photos = photo_paths()
    want = [10 * s + k if k % 2 == 0 else -1 for s in range(2) for k in range(len(photos[s::2]))]
    assert [lab for _, lab, _ in entries] == want


def test_extensions_select_like_the_pipeline(sources):
    only_png = S.index(sources["folder"], extensions=["png"])
    assert only_png and all(n.lower().endswith(".png") for n, _ in only_png)
    L = D.Loader(sources["folder"], recipe="imagenet-eval", batch_size=4, output="numpy", shuffle=False,
                 extensions=["png"])
    assert [m["name"] for b in L.batches() for m in b.meta] == [n for n, _ in only_png]


def test_errors_name_the_argument(tmp_path):
    with pytest.raises(pixflow.IOError, match="nowhere"):
        P.source_index({"kind": "folder", "path": str(tmp_path / "nowhere")})
    with pytest.raises(pixflow.InvalidArgument, match=r"source.shard_count is 0"):
        P.source_index({"kind": "tar", "shards": []})
    with pytest.raises(pixflow.InvalidArgument, match=r"source\['kind'\]"):
        P.source_index({"kind": "video"})
    with pytest.raises(pixflow.InvalidArgument, match=r"source\['path'\]"):
        P.source_index({"kind": "list"})
    bad = tmp_path / "bad.txt"
    bad.write_text("a.jpg 1\nb.jpg -7\n")
    with pytest.raises(pixflow.InvalidArgument, match="line 2"):
        S.index(str(bad))
    assert P.source_index({"kind": "folder", "path": str(tmp_path)}) == []  # an empty index is valid


@pytest.mark.parametrize("kind", ["folder", "list", "tar"])
def test_ray_rows_are_the_pipelines_order(sources, kind):
    pytest.importorskip("ray")
    import pixflow.ray as pfr

    want = pipeline_order(sources[kind])
    ds = pfr.PixflowDatasource(sources[kind])
    rows = []
    for task in ds.get_read_tasks(3):
        for block in task():
            rows += zip(block.column("sample_id").to_pylist(), block.column("name").to_pylist(),
                        block.column("label").to_pylist(), block.column("bytes").to_pylist())
    assert [(i, n, lab) for i, n, lab, _ in rows] == want
    for i, name, _, data in rows:
        if kind != "tar":
            assert data == open(name, "rb").read()
    assert np.all(np.diff([i for i, _, _, _ in rows]) == 1)
