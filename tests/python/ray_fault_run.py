"""The raylet-kill fault run (tests/python/test_ray_fault.py starts it, inside a private
network and PID namespace when `unshare` allows, so Ray's wildcard listeners reach
loopback only and nothing outlives the run).

    python ray_fault_run.py LIST_FILE OUT_JSON --reps 2 --no-retry-reps 2

1. A head node alone: one epoch through pixflow.ray.iter_torch_batches -> the
   single-node sha256 of every sample's bytes.
2. Each repetition: a second node joins (a fresh one each time) and the epoch
   runs with one pixflow actor per node (SPREAD). The read tasks of the second
   half of the sample ids are held at a gate (Gate below: they read their block,
   then wait for a file this driver creates), so the epoch cannot end before the
   kill, whatever the timing. Once a batch is in and a held read task runs on
   the second node, that node's raylet gets SIGKILL, and then the gate opens.
   The rest of the epoch must still come: every sample_id exactly once, each
   hash equal to step 1.
3. --no-retry-reps more of the same with Ray's task retries, object
   reconstruction and actor restarts off: the read task held on the killed
   node then fails for good, the iterator raises, and
   pixflow.ray.iter_torch_batches must resume over the missing ids.
Writes what it saw as JSON; the test asserts on it. Every wait is bounded.

Nothing of the user's Ray state is read or written: this driver and the
cluster run with their own HOME, token auth off and none of the caller's
RAY_* variables (ray_cluster.private_env), so a ~/.ray/auth_token that an
earlier ray.init() left does not matter.
"""
import argparse
import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ray_cluster import IP, LoopbackCluster, private_env  # noqa: E402

# before Ray is imported: it reads HOME (~/.ray/auth_token) and RAY_* there
DRIVER_ROOT = tempfile.mkdtemp(prefix="pfray-drv-", dir="/tmp")
_env = private_env(DRIVER_ROOT)
os.environ.clear()
os.environ.update(_env)

import ray  # noqa: E402
from ray.data.datasource import ReadTask  # noqa: E402

import pixflow.ray as pfr  # noqa: E402
import pixflow.transforms as T  # noqa: E402
import torch  # noqa: E402


def transform():
    return T.Compose([T.RandomResizedCrop(48), T.RandomHorizontalFlip(), T.ColorJitter(0.4, 0.4, 0.4),
                      T.ToDtype(torch.float32, scale=True),
                      T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])

# ------------------------------------------------------------------- gate


def _held_read(read_fn, gate_dir, first, timeout):
    """read_fn, then, if its block has a sample_id >= first, a wait until gate_dir/open exists
    (at most timeout s). While it waits, gate_dir/held-PID names the worker process."""
    def read():
        blocks = list(read_fn())
        if any(max(b.column("sample_id").to_pylist(), default=-1) >= first for b in blocks):
            mark = os.path.join(gate_dir, f"held-{os.getpid()}")
            open(mark, "w").close()
            deadline = time.monotonic() + timeout
            while not os.path.exists(os.path.join(gate_dir, "open")) and time.monotonic() < deadline:
                time.sleep(0.02)
            with contextlib.suppress(OSError):
                os.remove(mark)
        return blocks
    return read


class GatedDatasource(pfr.PixflowDatasource):
    """pixflow's datasource, each read task wrapped by _held_read (the library's read tasks
    are what runs: only the wait is added)."""

    def __init__(self, *args, gate, **kw):
        super().__init__(*args, **kw)
        self._gate = gate

    def get_read_tasks(self, parallelism, per_task_row_limit=None, data_context=None):
        return [ReadTask(_held_read(t.read_fn, *self._gate), t.metadata, schema=t.schema,
                         per_task_row_limit=t.per_task_row_limit)
                for t in super().get_read_tasks(parallelism, per_task_row_limit, data_context)]


class Gate:
    """Holds the read tasks of sample ids >= first until open(). In use (`with gate:`),
    pixflow.ray.read (what iter_torch_batches builds each attempt's dataset with) reads
    through GatedDatasource; the gate lives in a folder every node of this one-machine
    cluster sees. A held task opens by itself after timeout s, so nothing hangs.

    After a kill (`killed` set), the next attempt's dataset is built only once the GCS has
    marked the node dead (`node_gone`): the iterator can fail within milliseconds of the
    kill, while the GCS needs its health checks (~1.5 s here) to notice, and a resume
    started before then may place its actors on the dead node and fail again."""

    def __init__(self, first, timeout):
        self.dir = tempfile.mkdtemp(prefix="pfgate-", dir="/tmp")
        self.first, self.timeout = first, timeout
        self.killed, self.node_gone = threading.Event(), threading.Event()

    def read(self, source, epochs=0, extensions=None, samples=None, override_num_blocks=None, **read_args):
        if self.killed.is_set():
            self.node_gone.wait(self.timeout)
        ds = GatedDatasource(source, epochs, extensions, samples, gate=(self.dir, self.first, self.timeout))
        return ray.data.read_datasource(ds, override_num_blocks=override_num_blocks, **read_args)

    def held(self):
        """PIDs of the worker processes whose read task waits at the gate now."""
        return [int(f[5:]) for f in os.listdir(self.dir) if f.startswith("held-")]

    def open(self):
        open(os.path.join(self.dir, "open"), "w").close()

    def __enter__(self):
        self._read, pfr.read = pfr.read, self.read
        return self

    def __exit__(self, *exc):
        pfr.read = self._read
        self.open()
        shutil.rmtree(self.dir, ignore_errors=True)


def node_alive(port):
    """The GCS's view of the node whose raylet has this node-manager port."""
    return any(n["Alive"] for n in ray.nodes() if n["NodeManagerPort"] == port)


def kill_when_held(cluster, worker, gate, progress, killed, timeout):
    """Once a batch is in and a read task is held on `worker`: SIGKILL of its raylet, the gate
    opens, and once the GCS has marked the node dead, gate.node_gone. The gate opens and
    node_gone is set in any case, also when a wait runs out."""
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and "raylet" not in killed:
            if progress["batches"] >= 1:
                mine = set(worker.pids())
                held = gate.held()
                on_worker = [p for p in held if p in mine]
                if on_worker:
                    gate.killed.set()  # first: the iterator may fail within milliseconds
                    killed["raylet"] = cluster.kill_raylet(worker)
                    t = time.monotonic()
                    killed.update(after_batch=progress["batches"], delivered=progress["samples"],
                                  held=len(held), held_on_worker=len(on_worker),
                                  after_first_batch_s=t - progress["t_first"])
                    break
            time.sleep(0.02)
        else:
            killed["timeout"] = f"no read task held on the second node within {timeout} s (held: {gate.held()})"
            return
        gate.open()
        deadline = t + 60
        while time.monotonic() < deadline and node_alive(worker.ports["node_manager"]):
            time.sleep(0.05)
        killed["node_dead_s"] = time.monotonic() - t
    except Exception as e:  # recorded; the test asserts on it
        killed["error"] = repr(e)
    finally:
        gate.open()
        gate.node_gone.set()

# ------------------------------------------------------------------- runs


def epoch(source, args, concurrency, on_batch=None, stats=None, no_retry=False):
    seen, hashes = [], {}
    # read tasks ask for half a logical CPU: with a whole one, while two reads
    # waited at the gate on the head, Ray Data's resource budget often
    # admitted no third one for 10-16 s, and the kill waited for a read held
    # on the second node that long
    read_args = {"num_cpus": 0.5}
    extra = {}
    if no_retry:
        # Ray may neither retry tasks, rebuild lost objects nor restart
        # actors, so a node's death reaches the iterator as an error and
        # pixflow.ray.iter_torch_batches has to resume over the missing ids.
        # (max_retries must go in ray_remote_args: read_datasource hands
        # other keywords to the datasource, where max_retries is ignored.)
        read_args["ray_remote_args"] = {"max_retries": 0}
        extra["max_restarts"] = 0
    it = pfr.iter_torch_batches(source, epoch=args.epoch, transform=transform(), seed=args.seed,
                                batch_size=args.batch, concurrency=concurrency, override_num_blocks=args.blocks,
                                stats=stats, scheduling_strategy="SPREAD", read_args=read_args, **extra)
    for b in it:
        ids = b["sample_id"].tolist()
        for sid, img in zip(ids, b["image"]):
            seen.append(sid)
            hashes[sid] = hashlib.sha256(img.contiguous().numpy().tobytes()).hexdigest()
        if on_batch:
            on_batch(len(ids))
    return seen, hashes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("out")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--epoch", type=int, default=3)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--blocks", type=int, default=24)
    ap.add_argument("--no-retry-reps", type=int, default=0,
                    help="extra repetitions with Ray's retries, reconstruction and actor restarts off")
    ap.add_argument("--gate-timeout", type=float, default=120)
    args = ap.parse_args()
    n = len(pfr.index(args.source))
    result = {"n": n, "blocks": args.blocks, "reps": []}
    t0 = time.monotonic()
    # the head: 1 logical CPU for an actor, 1 for an actor restarted from the
    # dead node, 1 for read tasks (two at a time; the machine has 2 cores,
    # these are slots)
    cluster = LoopbackCluster(num_cpus=3, timeout=60)
    try:
        result["s_cluster"] = time.monotonic() - t0
        ray.init(address=cluster.address, _node_ip_address=IP, log_to_driver=False,
                 logging_level="ERROR")
        result["s_init"] = time.monotonic() - t0
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        ctx.print_on_execution_start = False
        seen, ref = epoch(args.source, args, concurrency=1)
        result["single_node"] = {"count": len(seen), "unique": len(set(seen)), "s": time.monotonic() - t0}
        result["ref"] = ref
        for rep in range(args.reps + args.no_retry_reps):
            no_retry = rep >= args.reps
            t1 = time.monotonic()
            worker = cluster.add_node(num_cpus=2)
            t_up = time.monotonic()
            killed, progress, stats = {}, {"batches": 0, "samples": 0}, {}

            def on_batch(rows, progress=progress):
                progress.setdefault("t_first", time.monotonic())
                progress["samples"] += rows
                progress["batches"] += 1

            with Gate(first=n // 2, timeout=args.gate_timeout) as gate:
                killer = threading.Thread(target=kill_when_held, daemon=True,
                                          args=(cluster, worker, gate, progress, killed, args.gate_timeout))
                killer.start()
                seen, hashes = epoch(args.source, args, concurrency=2, on_batch=on_batch, stats=stats,
                                     no_retry=no_retry)
                killer.join(timeout=args.gate_timeout + 10)
            t_epoch = time.monotonic()
            cluster.stop_node(worker)
            result["reps"].append({
                "count": len(seen), "unique": len(set(seen)), "ids_ok": sorted(seen) == list(range(n)),
                "bytes_equal": sum(hashes.get(i) == ref.get(i) for i in range(n)),
                "no_retry": no_retry, "killed": killed, "attempts": stats.get("attempts"),
                "duplicates": stats.get("duplicates"), "errors": stats.get("errors"), "s": time.monotonic() - t1,
                "s_parts": {"add_node": t_up - t1, "epoch": t_epoch - t_up, "stop_node": time.monotonic() - t_epoch}})
            print(f"rep {rep}: {result['reps'][-1]['s']:.1f} s, killed {killed}, attempts {stats.get('attempts')}, "
                  f"duplicates dropped {stats.get('duplicates')}", flush=True)
        ray.shutdown()
    finally:
        if ray.is_initialized():
            ray.shutdown()
        result["hard_killed"] = len(cluster.stop())
        result["left"] = cluster.pids()
        result["s"] = time.monotonic() - t0
        shutil.rmtree(DRIVER_ROOT, ignore_errors=True)
        with open(args.out, "w") as f:
            json.dump(result, f)


if __name__ == "__main__":
    main()
