"""Ray scale-out: 1 node vs 2 nodes (a loopback cluster, tests/python/ray_cluster.py), one
augment actor per node (1 logical CPU each, SPREAD), throughput and scaling efficiency,
side by side in one run with the anchor: Ray's own `ray.data.read_images` + `map_batches`
with torchvision.transforms.v2 on the same files.

Both do the same work per sample: decode JPEG -> RandomResizedCrop(224, scale 0.08-1,
bilinear without antialias) -> horizontal flip p=0.5 -> float32 /255 -> Normalize -> CHW.
pixflow: pixflow.ray.read (bytes) + pixflow.ray.augment (C decode + the fused plan, one
thread per actor). Anchor: read_images (PIL decode in read tasks) + a callable class
applying torchvision v2 (torch threads 1). The driver consumes every batch through
iter_batches. Samples/s per configuration: median of --epochs timed epochs after a warm-up
one. Efficiency = 2-node rate / (2 x 1-node rate).

    /opt/pixflow-venv/bin/python bench/python/bench_ray_scaling.py [--copies 16] [--epochs 3]

Runs itself inside a private network + PID namespace when `unshare` allows (loopback only,
nothing outlives it). Note the host: on a 2-core machine two "nodes" share the same two
cores with Ray's own daemons, so 2-node efficiency is bounded by the cores, not by Ray.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


class TorchvisionAugment:
    """The anchor's map_batches class: torchvision.transforms.v2 on read_images' HWC uint8."""

    def __init__(self):
        import torch
        import torchvision.transforms.v2 as V

        torch.set_num_threads(1)
        self.torch = torch
        self.t = V.Compose([V.RandomResizedCrop(224, antialias=False), V.RandomHorizontalFlip(),
                            V.ToDtype(torch.float32, scale=True), V.Normalize(MEAN, STD)])

    def __call__(self, batch):
        torch = self.torch
        out = [self.t(torch.from_numpy(img).permute(2, 0, 1)) for img in batch["image"]]
        return {"image": torch.stack(out).numpy()}


def epoch_rate(make_ds, batch):
    """(samples, whole-epoch samples/s, steady samples/s): the whole epoch includes starting
    the actors and the first reads; steady counts from the first batch to the last."""
    t0, n, t1, n1 = time.perf_counter(), 0, None, 0
    for b in make_ds().iter_batches(batch_size=batch, batch_format="numpy"):
        n += len(b["image"])
        if t1 is None:
            t1, n1 = time.perf_counter(), n
    t2 = time.perf_counter()
    return n, n / (t2 - t0), (n - n1) / max(t2 - t1, 1e-9)


def run(folder, nodes, args):
    import ray

    import pixflow.ray as pfr

    def pixflow_ds():
        ds = pfr.read(folder, epochs=0, override_num_blocks=args.blocks)
        return pfr.augment(ds, recipe="imagenet-train", seed=0, batch_size=args.batch, concurrency=nodes,
                           num_cpus=1, scheduling_strategy="SPREAD")

    def anchor_ds():
        ds = ray.data.read_images(folder, mode="RGB", override_num_blocks=args.blocks)
        return ds.map_batches(TorchvisionAugment, batch_size=args.batch, batch_format="numpy", concurrency=nodes,
                              num_cpus=1, scheduling_strategy="SPREAD")

    out = {}
    for name, make in (("pixflow", pixflow_ds), ("ray read_images + torchvision", anchor_ds)):
        rates, steady = [], []
        for e in range(args.epochs + 1):
            n, r, s = epoch_rate(make, args.batch)
            if e:
                rates.append(r)
                steady.append(s)
        out[name] = {"samples": n, "rates": rates, "median": statistics.median(rates), "steady": steady,
                     "steady_median": statistics.median(steady)}
        print(f"{nodes} node(s) {name:32s} epoch {out[name]['median']:7.1f} samples/s, steady "
              f"{out[name]['steady_median']:7.1f}  (epochs: {', '.join(f'{x:.1f}' for x in rates)}; steady: "
              f"{', '.join(f'{x:.1f}' for x in steady)})", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=16, help="copies of each data/*.jpg in the folder")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--blocks", type=int, default=16)
    ap.add_argument("--json", default=None)
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    ns = ["unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child", "sh", "-c",
          'ip link set lo up && exec "$@"', "sh"]
    if not args.inside and shutil.which("unshare") and subprocess.run(ns + ["true"], capture_output=True).returncode == 0:
        sys.exit(subprocess.run(ns + [sys.executable, os.path.abspath(__file__), "--inside"] + sys.argv[1:]).returncode)
    if not args.inside:
        print("(unshare not allowed here: running without a private network namespace)", flush=True)
    import ray

    from ray_cluster import IP, LoopbackCluster

    folder = tempfile.mkdtemp(prefix="pfbench-")
    jpgs = sorted(f for f in os.listdir(os.path.join(ROOT, "data")) if f.endswith(".jpg"))
    for c in range(args.copies):
        for f in jpgs:
            shutil.copy(os.path.join(ROOT, "data", f), os.path.join(folder, f"{c:03d}_{f}"))
    print(f"{len(jpgs) * args.copies} JPEGs ({', '.join(jpgs)}) x{args.copies}; batch {args.batch}, "
          f"{args.blocks} read blocks, {os.cpu_count()} CPU cores on this host", flush=True)
    # each node: 1 logical CPU for its actor + 1 for read tasks
    cluster = LoopbackCluster(num_cpus=2, object_store_bytes=300_000_000, timeout=90)
    results = {}
    try:
        ray.init(address=cluster.address, _node_ip_address=IP, log_to_driver=False, logging_level="ERROR")
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        ctx.print_on_execution_start = False
        results[1] = run(folder, 1, args)
        cluster.add_node(num_cpus=2)
        results[2] = run(folder, 2, args)
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for key, what in (("median", "whole epoch"), ("steady_median", "steady (first batch to last)")):
        print(f"\nsamples/s, median, {what:30s} 1 node    2 nodes   efficiency")
        for name in results[1]:
            a, b = results[1][name][key], results[2][name][key]
            print(f"{name:50s} {a:8.1f}   {b:8.1f}   {b / (2 * a):6.2f}")
        an = "ray read_images + torchvision"
        print(f"pixflow / anchor: {results[1]['pixflow'][key] / results[1][an][key]:.2f}x (1 node), "
              f"{results[2]['pixflow'][key] / results[2][an][key]:.2f}x (2 nodes)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f)


if __name__ == "__main__":
    main()
