"""pixflow.data.pack: the C pack writer from Python, and Loader over the pack.

A pack keeps the source's indices, names and labels; a raw pack gives the
source's samples bit for bit (compared by dataset index, the order differs);
bad arguments and a truncated pack are errors naming the argument or field.
"""
import os
import shutil

import numpy as np
import pytest

import pixflow
import pixflow.data as pdata
from pixflow import _pixflow as _P

from conftest import DATA

PHOTOS = ["chelsea_333x251.jpg", "coffee_500x375.jpg", "ladybird_375x500.jpg", "chelsea_rgba_320x240.png"]


@pytest.fixture()
def folder(tmp_path):
    """Two class folders of real photos (labels 0 and 1)."""
    for i, name in enumerate(PHOTOS):
        d = tmp_path / "src" / f"class_{i % 2}"
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / name, d / name)
    return tmp_path / "src"


def _by_index(loader):
    """{dataset index: (image array, label)} over one epoch (batch 1)."""
    out = {}
    for b in loader.batches():
        images, labels = np.asarray(b.images), np.asarray(b.labels)
        for k, m in enumerate(b.meta):
            out[m["index"]] = (images[k].copy(), int(labels[k]))
        del b, images, labels
    return out


def test_pack_keeps_index_and_counts(folder, tmp_path):
    out = tmp_path / "a.pfpack"
    calls = []
    st = pdata.pack(folder, out, max_side=200, quality=90, threads=2, progress=lambda d, t: calls.append((d, t)))
    assert st["samples"] == 4 and st["jpeg_reencoded"] == 4 and st["raw"] == 0
    assert st["output_bytes"] == os.path.getsize(out)
    assert calls[-1] == (4, 4) and len(calls) == 4
    src = _P.source_index({"kind": "folder", "path": str(folder)})
    pk = _P.source_index({"kind": "pack", "path": str(out)})
    assert [(n, l) for n, l, _ in src] == [(n, l) for n, l, _ in pk]
    for _, _, loc in pk:  # (pack path, offset, size): the packed sample's bytes
        assert loc[0] == str(out) and loc[2] > 0


def test_raw_pack_equals_folder_by_index(folder, tmp_path):
    out = tmp_path / "raw.pfpack"
    st = pdata.pack(str(folder), str(out), raw_below=1 << 30, threads=2)
    assert st["raw"] == 4
    kw = dict(recipe="imagenet-train", batch_size=1, workers=2, seed=5, output="numpy")
    a = _by_index(pdata.Loader(str(folder), **kw))
    b = _by_index(pdata.Loader(str(out), **kw))
    assert sorted(a) == sorted(b) == [0, 1, 2, 3]
    for i in a:
        assert a[i][1] == b[i][1]
        np.testing.assert_array_equal(a[i][0], b[i][0])


def test_pack_errors(folder, tmp_path):
    with pytest.raises(pixflow.InvalidArgument, match="opts.quality"):
        pdata.pack(folder, tmp_path / "q.pfpack", quality=0)
    with pytest.raises(pixflow.InvalidArgument, match="progress"):
        pdata.pack(folder, tmp_path / "p.pfpack", progress=3)
    good = tmp_path / "g.pfpack"
    pdata.pack(folder, good, threads=1)
    with pytest.raises(pixflow.InvalidArgument, match="already a .pfpack"):
        pdata.pack(good, tmp_path / "again.pfpack")
    cut = tmp_path / "cut.pfpack"
    cut.write_bytes(good.read_bytes()[:1000])
    with pytest.raises(pixflow.CorruptData, match="header.file_size"):
        _P.source_index({"kind": "pack", "path": str(cut)})
    assert not list(tmp_path.glob("*.tmp.*"))  # no temporary file left behind
