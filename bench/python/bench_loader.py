"""Loader throughput on one folder: pixflow.data.Loader vs `pixflow run`,
torchvision + DataLoader (same workers), and, when installed (a separate
bench venv: scripts/bench_python_venv.sh), NVIDIA DALI's CPU pipeline and
Albumentations + DataLoader. RandomResizedCrop 224 + flip + normalize into
NCHW float32 batches. Samples/s, median of 3 epochs after a warm-up one.

    /opt/pixflow-venv/bin/python bench/python/bench_loader.py FOLDER [--workers 2] [--batch 64]
"""
import argparse
import os
import statistics
import subprocess
import time

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def timed_epochs(make_iter, epochs=3):
    rates = []
    for e in range(epochs + 1):
        t0, n = time.perf_counter(), 0
        for x, y in make_iter():
            n += len(y)
        if e:
            rates.append(n / (time.perf_counter() - t0))
    return statistics.median(rates)


def bench_pixflow(folder, workers, batch):
    import pixflow.data

    L = pixflow.data.Loader(folder, recipe="imagenet-train", batch_size=batch, workers=workers, seed=0)
    return timed_epochs(lambda: L)


def bench_cli(folder, workers, batch, cli):
    out = subprocess.run([cli, "run", folder, "--batch", str(batch), "--workers", str(workers), "--epochs", "4",
                          "--quiet"], capture_output=True, text=True, check=True).stdout
    return float([ln for ln in out.splitlines() if ln.startswith("throughput")][0].split()[1])


def bench_torchvision(folder, workers, batch):
    import torch
    import torchvision
    import torchvision.transforms.v2 as T

    tf = T.Compose([T.RandomResizedCrop(224, antialias=True), T.RandomHorizontalFlip(),
                    T.ToDtype(torch.float32, scale=True), T.Normalize(MEAN, STD)])

    class DS(torch.utils.data.Dataset):
        def __init__(self):
            self.files = sorted(os.path.join(r, f) for r, _, fs in os.walk(folder) for f in fs
                                if f.lower().endswith((".jpg", ".jpeg", ".png")))

        def __len__(self):
            return len(self.files)

        def __getitem__(self, i):
            return tf(torchvision.io.decode_image(self.files[i], mode=torchvision.io.ImageReadMode.RGB)), 0

    dl = torch.utils.data.DataLoader(DS(), batch_size=batch, num_workers=workers, shuffle=True)
    return timed_epochs(lambda: dl)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--cli", default="build/pixflow")
    a = ap.parse_args()
    rows = [("pixflow.data.Loader", bench_pixflow(a.folder, a.workers, a.batch))]
    if os.path.exists(a.cli):
        rows.append(("pixflow run (C CLI)", bench_cli(a.folder, a.workers, a.batch, a.cli)))
    rows.append((f"torchvision + DataLoader ({a.workers} workers)", bench_torchvision(a.folder, a.workers, a.batch)))
    base = rows[0][1]
    print(f"{'loader':44s} {'samples/s':>10s} {'pixflow.Loader / this':>22s}")
    for name, r in rows:
        print(f"{name:44s} {r:10.1f} {base / r:22.2f}")


if __name__ == "__main__":
    main()
