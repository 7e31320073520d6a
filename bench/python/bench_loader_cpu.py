"""CPU seconds per 1000 samples and samples/s: pixflow.data.Loader vs `pixflow run`, same folder,
recipe imagenet-train, batch 64, 2 workers, E epochs; interleaved rounds; medians. CPU time is
the Loader process's own (it runs the C pipeline's threads) and the CLI child's (utime + stime).

    /opt/pixflow-venv/bin/python bench/python/bench_loader_cpu.py FOLDER build/pixflow ROUNDS EPOCHS [torch|numpy]

FOLDER: e.g. the 600 JPEGs of bench/python/make_imagenet_folder.py."""
import os, resource, statistics, subprocess, sys, time
folder, cli, rounds, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
out = sys.argv[5] if len(sys.argv) > 5 else "torch"
import pixflow.data as D
if out == "torch":
    import torch
def self_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
def kids_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN); return r.ru_utime + r.ru_stime
def loader():
    c0, t0 = self_cpu(), time.perf_counter()
    L = D.Loader(folder, recipe="imagenet-train", batch_size=64, workers=2, seed=0, output=out)
    n = 0
    for e in range(epochs):
        for x, y in L: n += len(y)
    L.close()
    return n, time.perf_counter() - t0, self_cpu() - c0
def run_cli():
    c0, t0 = kids_cpu(), time.perf_counter()
    subprocess.run([cli, "run", folder, "--batch", "64", "--workers", "2", "--epochs", str(epochs), "--quiet"],
                   check=True, capture_output=True)
    return 600 * epochs, time.perf_counter() - t0, kids_cpu() - c0
loader(); run_cli()
rows = {"loader": [], "cli": []}
for r in range(rounds):
    order = [("loader", loader), ("cli", run_cli)] if r % 2 == 0 else [("cli", run_cli), ("loader", loader)]
    for k, f in order:
        n, wall, cpu = f(); rows[k].append((n / wall, cpu / n * 1000))
for k, v in rows.items():
    print(f"{k:7s} samples/s median {statistics.median(x[0] for x in v):8.1f}  cpu s per 1000 samples median {statistics.median(x[1] for x in v):.3f}")
ratio_t = statistics.median(a[0] / b[0] for a, b in zip(rows["loader"], rows["cli"]))
ratio_c = statistics.median(a[1] / b[1] for a, b in zip(rows["loader"], rows["cli"]))
print(f"loader/cli: throughput {ratio_t:.3f}, cpu per sample {ratio_c:.3f}")
