"""The raylet-kill fault run (tests/python/test_ray_fault.py starts it, inside a private
network and PID namespace when `unshare` allows, so Ray's wildcard listeners reach
loopback only and nothing outlives the run).

    python ray_fault_run.py LIST_FILE OUT_JSON --reps 2

1. A head node alone: one epoch through pixflow.ray.iter_torch_batches -> the
   single-node sha256 of every sample's bytes.
2. Each repetition: a second node joins (a fresh one each time), the epoch runs
   with one pixflow actor per node (SPREAD), and once a third of the batches
   are in, the second node's raylet gets SIGKILL. The rest of the epoch must
   still come; every sample_id exactly once, each hash equal to step 1.
3. --no-retry-reps more of the same with Ray's task retries, object
   reconstruction and actor restarts off: the iterator then fails, and
   pixflow.ray.iter_torch_batches must resume over the missing ids.
Writes what it saw as JSON; the test asserts on it. Every wait is bounded.
"""
import argparse
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ray  # noqa: E402

import pixflow.ray as pfr  # noqa: E402
import pixflow.transforms as T  # noqa: E402
import torch  # noqa: E402
from ray_cluster import IP, LoopbackCluster  # noqa: E402


def transform():
    return T.Compose([T.RandomResizedCrop(48), T.RandomHorizontalFlip(), T.ColorJitter(0.4, 0.4, 0.4),
                      T.ToDtype(torch.float32, scale=True),
                      T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])


def epoch(source, args, concurrency, on_batch=None, stats=None, no_retry=False):
    seen, hashes = [], {}
    # no_retry: Ray may neither retry tasks, rebuild lost objects nor restart
    # actors, so a node's death reaches the iterator as an error and
    # pixflow.ray.iter_torch_batches has to resume over the missing ids
    extra = dict(read_args={"max_retries": 0}, max_restarts=0) if no_retry else {}
    it = pfr.iter_torch_batches(source, epoch=args.epoch, transform=transform(), seed=args.seed,
                                batch_size=args.batch, concurrency=concurrency, override_num_blocks=args.blocks,
                                stats=stats, scheduling_strategy="SPREAD", **extra)
    for k, b in enumerate(it):
        for sid, img in zip(b["sample_id"].tolist(), b["image"]):
            seen.append(sid)
            hashes[sid] = hashlib.sha256(img.contiguous().numpy().tobytes()).hexdigest()
        if on_batch:
            on_batch(k)
    return seen, hashes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("out")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--epoch", type=int, default=3)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--blocks", type=int, default=12)
    ap.add_argument("--no-retry-reps", type=int, default=0,
                    help="extra repetitions with Ray's retries, reconstruction and actor restarts off")
    args = ap.parse_args()
    n = len(pfr.index(args.source))
    result = {"n": n, "reps": []}
    t0 = time.monotonic()
    # the head: 1 logical CPU for an actor, 1 for an actor restarted from the
    # dead node, 1 for read tasks (the machine has 2 cores; these are slots)
    cluster = LoopbackCluster(num_cpus=3, timeout=60)
    try:
        ray.init(address=cluster.address, _node_ip_address=IP, log_to_driver=False,
                 logging_level="ERROR")
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
            nb = -(-n // args.batch)
            killed = {}

            # a third of the way in; without Ray's recovery after the first
            # batch, while the second node's actor surely holds blocks
            at = 1 if no_retry else nb // 3

            def on_batch(k, worker=worker, killed=killed, at=at):
                if not killed and k + 1 >= at:
                    killed["raylet"] = cluster.kill_raylet(worker)
                    killed["after_batch"] = k + 1

            stats = {}
            seen, hashes = epoch(args.source, args, concurrency=2, on_batch=on_batch, stats=stats, no_retry=no_retry)
            cluster.stop_node(worker)
            result["reps"].append({
                "count": len(seen), "unique": len(set(seen)), "ids_ok": sorted(seen) == list(range(n)),
                "bytes_equal": sum(hashes.get(i) == ref.get(i) for i in range(n)),
                "no_retry": no_retry, "killed": killed, "attempts": stats.get("attempts"), "duplicates": stats.get("duplicates"),
                "errors": stats.get("errors"), "s": time.monotonic() - t1})
            print(f"rep {rep}: {result['reps'][-1]['s']:.1f} s, attempts {stats.get('attempts')}, "
                  f"duplicates dropped {stats.get('duplicates')}", flush=True)
        ray.shutdown()
    finally:
        if ray.is_initialized():
            ray.shutdown()
        result["hard_killed"] = len(cluster.stop())
        result["left"] = cluster.pids()
        result["s"] = time.monotonic() - t0
        with open(args.out, "w") as f:
            json.dump(result, f)


if __name__ == "__main__":
    main()
