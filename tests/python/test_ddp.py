"""Exact DDP with pixflow.torch.ImageDataset under torchrun (gloo, CPU, loopback):
equal batch counts per rank (a DDP step per batch; unequal counts would hang, pytorch#141069),
the ranks together cover the padded epoch as torch's DistributedSampler does (the same
sequence without shuffle; with shuffle the same padding rule: the epoch's first samples
repeat), and resuming a saved state with the same world size (2) or another (3, 1; torchrun
restarts every worker with a new RANK/WORLD_SIZE) yields exactly the samples not yet
delivered, each with the bytes the uninterrupted epoch gave it."""
import collections
import json
import os
import pathlib
import socket
import subprocess
import sys

import pytest
import torch

from conftest import photo_paths

HERE = pathlib.Path(__file__).resolve().parent
N = 25  # odd: world 2 pads one sample
BATCH, STOP_AFTER = 3, 2  # as in ddp_run.py


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def torchrun(nproc, mode, lst, out):
    cmd = [sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={nproc}", "--nnodes=1",
           "--master_addr=127.0.0.1", f"--master_port={free_port()}", str(HERE / "ddp_run.py"), mode, str(lst),
           str(out)]
    # PYTHONFAULTHANDLER: a rank killed by a signal prints its Python stack (see ddp_run.stage)
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo", OMP_NUM_THREADS="1", PYTHONFAULTHANDLER="1")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env, start_new_session=True)
    assert p.returncode == 0, f"torchrun {mode} x{nproc} failed:\n{p.stdout[-3000:]}\n{p.stderr[-5000:]}"
    return [json.loads((out / f"{mode}-{nproc}-{r}.json").read_text()) for r in range(nproc)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("ddp")
    photos = photo_paths()
    lst = d / "list.txt"
    lst.write_text("".join(f"{photos[i % len(photos)]} {i}\n" for i in range(N)))
    full = torchrun(2, "full", lst, d)
    # world size 1: one process, no process group (rank/world_size given)
    sys.path.insert(0, str(HERE))
    import ddp_run

    ds = ddp_run.dataset(str(lst), rank=0, world_size=1)
    ds.load_state_dict(json.loads((d / "state.json").read_text()))
    one = [{"rank": 0, "world": 1, "rest": [(y.tolist(), ddp_run.digest(x)) for x, y in ds]}]
    return {"full": full, "resume3": torchrun(3, "resume", lst, d), "resume1": one}


def labels(batches):
    return [lab for b in batches for lab in b[0]]


def hashes(batches):
    return {lab: h for b in batches for lab, h in zip(*b)}


def test_ranks_match_distributed_sampler(runs):
    for r in runs["full"]:
        want = list(torch.utils.data.DistributedSampler(range(N), num_replicas=2, rank=r["rank"], shuffle=False))
        assert labels(r["plain"]) == want
    assert len({len(r["plain"]) for r in runs["full"]}) == 1


def test_shuffled_epoch_is_padded_like_distributed_sampler(runs):
    full = runs["full"]
    assert len({len(r["full"]) for r in full}) == 1, "unequal batch counts per rank"
    seqs = [labels(r["full"]) for r in full]
    assert len(seqs[0]) == len(seqs[1]) == -(-N // 2)
    count = collections.Counter(seqs[0] + seqs[1])
    assert set(count) == set(range(N))
    # the one padding sample is the epoch's first (DistributedSampler: indices += indices[:pad])
    assert [k for k, c in count.items() if c == 2] == [seqs[0][0]]
    assert seqs[0] != sorted(seqs[0])  # shuffled


def test_resume_same_world_size(runs):
    for r in runs["full"]:
        assert len(r["head"]) == STOP_AFTER
        assert r["head"] + r["tail"] == r["full"]


@pytest.mark.parametrize("world", [3, 1])
def test_resume_other_world_size(runs, world):
    full = runs["full"]
    done = set()
    for r in full:
        done |= set(labels(r["head"]))
    remaining = set(range(N)) - done
    rest = runs[f"resume{world}"]
    counts = {len(r["rest"]) for r in rest}
    assert len(counts) == 1, f"unequal batch counts per rank: {[len(r['rest']) for r in rest]}"
    per_rank = [labels(r["rest"]) for r in rest]
    assert len({len(s) for s in per_rank}) == 1
    got = collections.Counter(lab for s in per_rank for lab in s)
    assert set(got) == remaining  # exactly the rest: nothing delivered before, nothing missing
    assert sum(got.values()) == world * -(-len(remaining) // world)  # padded to equal lengths only
    ref = {}
    for r in full:
        ref.update(hashes(r["full"]))
    for r in rest:
        for lab, h in hashes(r["rest"]).items():
            assert h == ref[lab], f"sample {lab}: bytes differ from the uninterrupted epoch"
