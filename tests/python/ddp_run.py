"""One rank of the DDP test (tests/python/test_ddp.py runs it under torchrun with gloo on the
CPU). The list file's labels are the sample indices, so a batch's labels say which samples
it holds.

    torchrun --nproc_per_node=2 ddp_run.py full LIST OUT_DIR     one epoch + a saved resume point
    torchrun --nproc_per_node=N ddp_run.py resume LIST OUT_DIR   the rest of that epoch on N ranks

Every batch goes through a DistributedDataParallel step (its allreduce would hang if the
ranks had unequal batch counts; the process group has a timeout so it fails instead)."""
import datetime
import gc
import hashlib
import json
import os
import sys

import torch
import torch.distributed as dist

import pixflow.torch as PT
import pixflow.transforms as T

SEED, EPOCH, BATCH, STOP_AFTER = 5, 1, 3, 2


def dataset(source, shuffle=True, **kw):
    t = T.Compose([T.RandomResizedCrop(32), T.RandomHorizontalFlip(), T.ColorJitter(0.3, 0.3, 0.3),
                   T.ToDtype(torch.float32, scale=True)])
    ds = PT.ImageDataset(source, transform=t, batch_size=BATCH, seed=SEED, shuffle=shuffle, **kw)
    ds.set_epoch(EPOCH)
    return ds


def digest(images):
    return [hashlib.sha256(x.contiguous().numpy().tobytes()).hexdigest() for x in images]


def train(ds, model, opt, limit=None):
    """DDP steps over ds; returns [(labels, hashes)] per batch."""
    out = []
    for images, labels in ds:
        loss = model(images.mean((2, 3))).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        out.append((labels.tolist(), digest(images)))
        if limit is not None and len(out) == limit:
            break
    return out


def stage(rank, what):
    """A line on stderr per step: if a rank dies (CI once saw rank 0 abort with libstdc++'s
    'terminate called without an active exception' and nothing else), the test's failure
    message shows how far each rank got; PYTHONFAULTHANDLER (set by test_ddp.py) adds the
    Python stack of the abort."""
    print(f"ddp_run rank {rank}: {what}", file=sys.stderr, flush=True)


def main():
    mode, source, out_dir = sys.argv[1:4]
    stage(os.environ.get("RANK", "?"), "init_process_group")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    rank, world = dist.get_rank(), dist.get_world_size()
    stage(rank, f"{mode}: training, world {world}")
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(3, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    res = {"rank": rank, "world": world}
    if mode == "full":
        res["plain"] = train(dataset(source, shuffle=False), model, opt)
        res["full"] = train(dataset(source), model, opt)
        # stop after STOP_AFTER batches, save, resume with the same world size
        ds = dataset(source)
        res["head"] = train(ds, model, opt, limit=STOP_AFTER)
        state = ds.state_dict()
        again = dataset(source)
        again.load_state_dict(state)
        res["tail"] = train(again, model, opt)
        # what a checkpoint holds: every rank's shard positions, merged
        states = [None] * world
        dist.all_gather_object(states, state)
        if rank == 0:
            merged = {"epoch": state["epoch"], "world_size": state["world_size"], "shards": {}}
            for s in states:
                merged["shards"].update(s["shards"])
            with open(os.path.join(out_dir, "state.json"), "w") as f:
                json.dump(merged, f)
    else:
        with open(os.path.join(out_dir, "state.json")) as f:
            state = json.load(f)
        ds = dataset(source)
        ds.load_state_dict(state)
        res["rest"] = train(ds, model, opt)
    with open(os.path.join(out_dir, f"{mode}-{world}-{rank}.json"), "w") as f:
        json.dump(res, f)
    stage(rank, "results written; barrier")
    dist.barrier()
    # Tear down in dependency order while the interpreter is whole: the datasets and the
    # DDP model (its reducer holds the process group) go first, then the group itself, so
    # no gloo work or tensor outlives it into interpreter finalization (pytorch#179291
    # describes gloo's threads aborting the process there).
    ds = again = model = opt = None
    gc.collect()
    dist.destroy_process_group()
    stage(rank, "process group destroyed")


if __name__ == "__main__":
    main()
    # Every result is on disk (closed above) and every rank passed the barrier: nothing the
    # test checks is left, so the rank leaves without running torch's C++ static and thread
    # destructors at interpreter exit, the one step of this script whose failure (an abort
    # in a destructor) would say nothing about pixflow.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
