"""Loader throughput on one folder, side by side: pixflow.data.Loader,
`pixflow run` (the C CLI, same pipeline), torchvision + DataLoader, NVIDIA
DALI's CPU pipeline and Albumentations + DataLoader. Every loader does
RandomResizedCrop 224 + horizontal flip + normalize into NCHW float32
batches of --batch, with --workers worker processes / threads.

    bash scripts/bench_python_venv.sh            # /opt/pixflow-bench-venv: test venv + DALI + Albumentations
    /opt/pixflow-bench-venv/bin/python bench/python/bench_loader.py [FOLDER] [--workers 2] [--batch 64]
        [--rounds 5] [--epochs 2] [--warm 0|1]

FOLDER defaults to a folder made here from data/ (bench/python/make_imagenet_folder.py:
600 JPEGs at ImageNet sizes, quality 90, deterministic). Each round starts every loader cold
(a new pixflow Loader, a new `pixflow run` process, a new DALI pipeline; the DataLoaders
keep persistent workers, their best case), runs --warm untimed epochs, then times --epochs
epochs, in a rotated order. --warm 0 times the cold start too (pipeline creation touches
every batch buffer: ~0.1-0.2 s for pixflow); --warm 1 is a running loader's steady state
(`pixflow run`'s: the difference of a 1-epoch and a 1+E-epoch run). The table has the
median samples/s over rounds, the median of the per-round ratios (pixflow.data.Loader /
other), and CPU time per sample (all the loader's processes). DALI and Albumentations rows
need the bench venv. --decode-bound 1 (the default) also times, once per round after the
loaders, the decode bound of the same files (class DecodeBound: ROI decode + fused
preprocess per sample, one thread) and prints `pixflow run`'s fraction of it, by wall time
and by CPU time per sample.
"""
import argparse
import faulthandler
import hashlib
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def files_of(folder):
    return sorted(os.path.join(r, f) for r, _, fs in os.walk(folder) for f in fs if f.lower().endswith(".jpg"))


def own_cpu():
    return time.process_time()


def proc_cpu(pid):
    """CPU seconds of another process so far (utime + stime from /proc)."""
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError):
        return 0.0


def children_cpu():
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Case:
    """One loader: run(epochs, warm, start) -> samples timed (start() marks where timing begins),
    or (samples, seconds, CPU seconds) when the loader times itself. cpu() is the
    CPU seconds its processes have used so far: samples per CPU second is the figure that
    other jobs on a shared machine disturb least."""

    def __init__(self, name, run):
        self.name, self.rates, self.cpu_ms = name, [], []
        self._run, self._cpu = run if callable(run) else run[0], own_cpu if callable(run) else run[1]

    def measure(self, epochs, warm):
        """epochs timed after warm untimed ones, all from one cold start."""
        at = {}

        def start():
            at["c"], at["t"] = self._cpu(), time.perf_counter()

        if not warm:
            start()
        r = self._run(epochs, warm, start)
        t1, c1 = time.perf_counter(), self._cpu()
        n, dt, dc = r if isinstance(r, tuple) else (r, t1 - at["t"], c1 - at["c"])
        self.rates.append(n / dt)
        self.cpu_ms.append(dc * 1e3 / n)


# ---------------------------------------------------------------- pixflow
def pixflow_case(folder, workers, batch, transform):
    import torch

    import pixflow.data
    import pixflow.transforms as T

    if transform:
        # torchvision's names and defaults (RandomResizedCrop antialias=True, as torchvision's row)
        tf = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToDtype(torch.float32, scale=True),
                        T.Normalize(MEAN, STD)])
        kw = dict(transform=tf)
    else:
        kw = dict(recipe="imagenet-train")

    def run(epochs, warm, start):
        # a new Loader per measurement (cold start, as a new `pixflow run`); its one pipeline
        # then serves the consecutive epochs
        L = pixflow.data.Loader(folder, batch_size=batch, workers=workers, seed=0, **kw)
        n = 0
        for e in range(warm + epochs):
            if e == warm:
                start()
            for x, y in L:
                n += len(y) if e >= warm else 0
        L.close()
        return n

    run(1, 0, lambda: None)  # warm-up: page cache, imports
    return run


def cli_case(folder, workers, batch, cli):
    def once(epochs):
        c0 = children_cpu()
        out = subprocess.run([cli, "run", folder, "--batch", str(batch), "--workers", str(workers), "--epochs",
                              str(epochs), "--quiet"], capture_output=True, text=True, check=True).stdout
        lines = out.splitlines()
        n = int([ln for ln in lines if ln.startswith("batches ")][0].split()[3].rstrip(","))
        wall = float([ln for ln in lines if ln.startswith("consumer starvation")][0].split("of ")[1].split()[0])
        return n, wall, children_cpu() - c0

    def run(epochs, warm, start):
        # its own wall clock (pipeline creation to the last batch); with warm epochs, the
        # difference of a warm-only run and a warm + timed run
        n, wall, cpu = once(warm + epochs)
        if warm:
            n0, wall0, cpu0 = once(warm)
            n, wall, cpu = n - n0, wall - wall0, cpu - cpu0
        return n, wall, cpu

    run(1, 0, None)
    return run


# ------------------------------------------------------- torch DataLoaders
def dataloader_run(ds, workers, batch):
    import torch

    dl = torch.utils.data.DataLoader(ds, batch_size=batch, num_workers=workers, shuffle=True,
                                     persistent_workers=workers > 0, worker_init_fn=_one_thread)

    def run(epochs, warm, start):
        n = 0
        for e in range(warm + epochs):
            if e == warm:
                start()
            for x, y in dl:
                n += len(y) if e >= warm else 0
        return n

    run(1, 0, lambda: None)

    def cpu():
        # this process (the DataLoader's main side) + its persistent workers
        it = dl._iterator
        return own_cpu() + sum(proc_cpu(w.pid) for w in (getattr(it, "_workers", None) or []))

    return run, cpu


def _one_thread(_):
    # each worker is one of the --workers cores: no library thread pool on top
    import torch

    torch.set_num_threads(1)
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:
        pass


def torchvision_case(folder, workers, batch):
    import torch
    import torchvision
    import torchvision.transforms.v2 as T

    tf = T.Compose([T.RandomResizedCrop(224, antialias=True), T.RandomHorizontalFlip(),
                    T.ToDtype(torch.float32, scale=True), T.Normalize(MEAN, STD)])
    files = files_of(folder)

    class DS(torch.utils.data.Dataset):
        def __len__(self):
            return len(files)

        def __getitem__(self, i):
            img = torchvision.io.decode_jpeg(torchvision.io.read_file(files[i]), mode=torchvision.io.ImageReadMode.RGB)
            return tf(img), 0

    return dataloader_run(DS(), workers, batch)


def albumentations_case(folder, workers, batch):
    import albumentations as A
    import cv2
    import torch
    from albumentations.pytorch import ToTensorV2

    tf = A.Compose([A.RandomResizedCrop(size=(224, 224), scale=(0.08, 1.0)), A.HorizontalFlip(p=0.5),
                    A.Normalize(mean=MEAN, std=STD), ToTensorV2()])
    files = files_of(folder)

    class DS(torch.utils.data.Dataset):
        def __len__(self):
            return len(files)

        def __getitem__(self, i):
            img = cv2.cvtColor(cv2.imread(files[i], cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
            return tf(image=img)["image"], 0

    return dataloader_run(DS(), workers, batch)


# ------------------------------------------------------------ decode bound
ROW_MARGIN = 128  # bytes around each decoded row, as src/pipeline/decode_augment.c


def margin_stride(w):
    return (w * 3 + ROW_MARGIN + 63) // 64 * 64


def margin_bytes(w, h):
    """Size of a buffer holding a w x h RGB image laid out by margin_view."""
    return margin_stride(w) * h + 2 * ROW_MARGIN


def margin_view(buf, w, h):
    """The (h, w, 3) view of buf that pf_decode_augment's workers decode into: ROW_MARGIN
    bytes before the first row and after the last, rows 64-byte-rounded apart with a margin
    between them (for decode(..., row_margin=ROW_MARGIN))."""
    s = margin_stride(w)
    return buf[ROW_MARGIN:ROW_MARGIN + s * h].reshape(h, s)[:, :w * 3].reshape(h, w, 3)


class DecodeBound:
    """The decode bound of `pixflow run` on this folder: per sample, the ROI decode
    (pf_decode of the RandomResizedCrop rectangle, RGB, in place into a reused buffer with
    row margins (opts.row_margin, as the pipeline's workers decode): what pf_decode_augment
    decodes without DCT scaling, which a 224 output uses only for crops of >= 448 px on both
    axes, counted) followed at once by the fused preprocess of that ROI (pf_preprocess_run of
    one sample into a reused tensor, pixflow.set_num_threads(1)), as a pipeline worker does:
    decode, then fuse while the ROI is in cache (decoding a whole batch first and fusing it
    after measured ~2x the fused time: the ROIs left the cache).
    Crops drawn by pf_aug_sample keyed by (seed 0, epoch = the round, index), as the
    pipeline draws them. Bytes are read into memory first (no file I/O, no index, no queue:
    a bound, not a loader). Python adds a call and two clock reads per step (a few us per
    sample, counted: it lowers the bound).
    threads: 1 times the steps alone on one core; N > 1 runs N such workers at once (Python
    threads, each with its own buffer and plan; pixflow releases the GIL in both calls), each
    on every N-th file, so the per-sample time is one core's while every core is busy, as in
    the pipeline (on the shared 2-vCPU VM measured, busy cores ran 0-20 % slower than one
    alone, varying from minute to minute: docs/performance.md). Per-sample times are each
    worker's own (wall, and CPU from its thread clock), summed over the workers / files.
    bound = cores / (decode + fused) samples/s, from wall time and from CPU time."""

    def __init__(self, folder, batch, threads=1):
        import numpy as np

        from pixflow import _pixflow as P

        self.P, self.threads = P, threads
        self.datas = [open(f, "rb").read() for f in files_of(folder)]
        self.wh = [(z["width"], z["height"]) for z in (P.probe(d) for d in self.datas)]
        desc, self.policy = P.recipe("imagenet-train")
        # ROIs decode in place into a buffer with ROW_MARGIN bytes around each row, as
        # pf_decode_augment's workers do (pf_decode_opts.row_margin: no per-row copy)
        size = max(margin_bytes(w, h) for w, h in self.wh)
        self.workers = [(np.empty(size, np.uint8), P.Plan(desc)) for _ in range(threads)]
        self.dec_ms, self.fused_ms, self.dec_cpu_ms, self.fused_cpu_ms, self.scaled = [], [], [], [], 0
        self.measure(0, record=False)  # warm-up: page cache of the library, the plans' scratch

    def _steps(self, k, params, sums):
        """Worker k: files k, k + threads, ...; its wall and thread-CPU seconds into sums[k]."""
        P, clock, cpu = self.P, time.perf_counter, time.thread_time
        buf, plan = self.workers[k]
        td = tf = cd = cf = 0.0
        out = None
        for i in range(k, len(self.datas), self.threads):
            d, p = self.datas[i], params[i]
            w, h = p["crop_w"], p["crop_h"]
            roi = margin_view(buf, w, h)
            local = dict(p, crop_x=0, crop_y=0)  # the crop is the decoded ROI itself
            c0, t0 = cpu(), clock()
            P.decode(d, roi=(p["crop_x"], p["crop_y"], w, h), dst=roi, row_margin=ROW_MARGIN)
            t1, c1 = clock(), cpu()
            if out is None:
                out = plan.run([roi], [local])
            else:
                plan.run([roi], [local], out=out)
            t2, c2 = clock(), cpu()
            td, tf, cd, cf = td + t1 - t0, tf + t2 - t1, cd + c1 - c0, cf + c2 - c1
        sums[k] = (td, tf, cd, cf)

    def measure(self, epoch, record=True):
        import threading

        P, n = self.P, len(self.datas)
        params = [P.aug_sample(self.policy, 0, epoch, i, [w], [h])[0] for i, (w, h) in enumerate(self.wh)]
        # DCT scaling would apply to a crop of >= 2 x 224 on both axes: counted, to show how rare it is
        self.scaled = sum(min(p["crop_w"], p["crop_h"]) >= 448 for p in params)
        threads = P.get_num_threads()
        P.set_num_threads(1)
        sums = [None] * self.threads
        try:
            if self.threads == 1:
                self._steps(0, params, sums)
            else:
                ts = [threading.Thread(target=self._steps, args=(k, params, sums)) for k in range(self.threads)]
                for t in ts:
                    t.start()
                for t in ts:
                    t.join()
        finally:
            P.set_num_threads(threads)
        if None in sums:
            raise RuntimeError("decode bound: a worker thread failed (its traceback is above)")
        td, tf, cd, cf = (sum(x[j] for x in sums) for j in range(4))
        if record:
            self.dec_ms.append(td * 1e3 / n)
            self.fused_ms.append(tf * 1e3 / n)
            self.dec_cpu_ms.append(cd * 1e3 / n)
            self.fused_cpu_ms.append(cf * 1e3 / n)


# -------------------------------------------------------------------- DALI
def dali_case(folder, workers, batch):
    from nvidia.dali import fn, pipeline_def, types

    @pipeline_def(batch_size=batch, num_threads=workers, device_id=None, seed=0)
    def pipe():
        jpegs, labels = fn.readers.file(file_root=folder, random_shuffle=True, name="Reader")
        images = fn.decoders.image_random_crop(jpegs, device="cpu", output_type=types.RGB,
                                               random_area=[0.08, 1.0], random_aspect_ratio=[3 / 4, 4 / 3])
        images = fn.resize(images, resize_x=224, resize_y=224)  # linear, antialiased (DALI's default)
        images = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="CHW",
                                          mean=[m * 255 for m in MEAN], std=[s * 255 for s in STD],
                                          mirror=fn.random.coin_flip())
        return images, labels

    n_files = len(files_of(folder))

    def run(epochs, warm, start):
        # a new pipeline per measurement (DALI prefetches ahead on its own threads: a kept
        # pipeline would work during the other loaders' turns); the batch is made dense
        # (as_tensor) as the other loaders' are
        p = pipe()
        p.build()
        n, steps = 0, -(-warm * n_files // batch)
        for i in range(steps + -(-epochs * n_files // batch)):
            if i == steps and warm:
                start()
            images, labels = p.run()
            images.as_tensor()
            n += len(labels) if i >= steps else 0
        del p
        return n

    run(1, 0, lambda: None)
    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=2, help="epochs timed per measurement")
    ap.add_argument("--warm", type=int, default=0,
                    help="untimed epochs before them (1: the steady state of a running loader; 0: from a cold start)")
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "..", "build", "pixflow"))
    ap.add_argument("--only", default="", help="comma-separated case names (prefixes) to run")
    ap.add_argument("--decode-bound", type=int, default=1,
                    help="1: also time the decode bound each round (ROI decode + fused preprocess, 1 thread)")
    ap.add_argument("--bound-threads", type=int, default=1,
                    help="workers the decode bound runs at once (1: alone on one core; the core count: "
                         "one core's time while all are busy, as in the pipeline)")
    a = ap.parse_args()
    folder = a.folder
    if folder is None:
        # made by Debian's python3 + OpenCV 4.6 whatever venv runs this (the bench venv's
        # opencv-python-headless encodes other bytes), so the folder is the same everywhere
        folder = "/tmp/pixflow_bench_imagenet600"
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "make_imagenet_folder.py"), folder], check=True,
                       stderr=subprocess.DEVNULL)
    # a loader that hangs shows where (a DataLoader worker, DALI's threads, a pipeline)
    faulthandler.dump_traceback_later(600, repeat=True)
    n = len(files_of(folder))
    digest = hashlib.sha256(b"".join(open(f, "rb").read() for f in files_of(folder))).hexdigest()[:16]
    print(f"folder {folder}: {n} JPEGs (content sha256 {digest}); RandomResizedCrop 224 + flip + normalize -> NCHW f32, batch {a.batch}, "
          f"{a.workers} workers; {a.rounds} rounds x {a.epochs} epochs timed after {a.warm} untimed; load average {os.getloadavg()[0]:.1f}")
    w, b = a.workers, a.batch
    makers = [("pixflow.data.Loader", lambda: pixflow_case(folder, w, b, False)),
              ("pixflow.data.Loader (transforms, antialias)", lambda: pixflow_case(folder, w, b, True)),
              ("pixflow run (C CLI)", lambda: cli_case(folder, w, b, a.cli) if os.path.exists(a.cli) else None),
              (f"torchvision + DataLoader", lambda: torchvision_case(folder, w, b)),
              ("DALI CPU pipeline", lambda: dali_case(folder, w, b)),
              ("Albumentations + DataLoader", lambda: albumentations_case(folder, w, b))]
    only = [s.strip() for s in a.only.split(",") if s.strip()]
    cases = []
    for name, make in makers:
        if only and not any(name.startswith(o) for o in only):
            continue
        try:
            run = make()
        except ImportError as e:
            print(f"  {name}: skipped ({e}; use the bench venv: scripts/bench_python_venv.sh)")
            continue
        if run is None:
            print(f"  {name}: skipped (no {a.cli}; build the CLI first)")
            continue
        cases.append(Case(name, run))
    bound = None
    if a.decode_bound:
        try:
            bound = DecodeBound(folder, b, a.bound_threads)
        except ImportError as e:
            print(f"  decode bound: skipped ({e})")
    for r in range(a.rounds):
        k = r % len(cases)
        for c in cases[k:] + cases[:k]:
            c.measure(a.epochs, a.warm)
        if bound is not None:
            # in the same rotation as the loaders (after them this round), epoch r's crops
            bound.measure(r)
        print(f"  round {r + 1}: " + ", ".join(f"{c.name} {c.rates[-1]:.0f}" for c in cases)
              + (f", decode {bound.dec_ms[-1]:.3f} + fused {bound.fused_ms[-1]:.3f} ms/sample"
                 if bound is not None else ""), flush=True)
    base = cases[0]
    print(f"\n{'loader':44s} {'samples/s':>10s} {'min..max':>13s} {'ratio':>7s} {'CPU ms/sample':>14s} "
          f"{'CPU ratio':>9s}")
    for c in cases:
        ratio = statistics.median(x / y for x, y in zip(base.rates, c.rates))
        cratio = statistics.median(y / x for x, y in zip(base.cpu_ms, c.cpu_ms))
        print(f"{c.name:44s} {statistics.median(c.rates):10.0f} {min(c.rates):6.0f}..{max(c.rates):<6.0f} "
              f"{ratio:7.2f} {statistics.median(c.cpu_ms):14.3f} {cratio:9.2f}")
    print(f"ratio: {base.name} samples/s / this (median of the per-round ratios); CPU ratio: this CPU time "
          f"per sample / {base.name}'s")
    if bound is not None:
        med = statistics.median
        d, f, dc, fc = med(bound.dec_ms), med(bound.fused_ms), med(bound.dec_cpu_ms), med(bound.fused_cpu_ms)
        print(f"\ndecode bound ({bound.threads} thread{'s at once' if bound.threads > 1 else ''}, {len(bound.datas)} files in memory, median of {len(bound.dec_ms)} rounds): "
              f"ROI decode {d:.3f} ms + fused {f:.3f} ms = {d + f:.3f} ms/sample wall "
              f"(CPU {dc:.3f} + {fc:.3f} = {dc + fc:.3f}); DCT-scalable crops in the last round: {bound.scaled}")
        wall_bound, cpu_bound = w * 1e3 / (d + f), w * 1e3 / (dc + fc)
        print(f"bound = {w} cores / per-sample time: {wall_bound:.0f} samples/s (wall), {cpu_bound:.0f} (CPU)")
        for c in cases:
            if c.name.startswith("pixflow run"):
                # per round: the CLI's rate over that round's bound (same round, adjacent in time)
                per = [rate / (w * 1e3 / (x + y)) for rate, x, y in zip(c.rates, bound.dec_ms, bound.fused_ms)]
                print(f"{c.name}: {med(c.rates):.0f} samples/s = {med(c.rates) / wall_bound:.3f} of the wall bound "
                      f"(median of per-round fractions {med(per):.3f}, {min(per):.3f}..{max(per):.3f}); "
                      f"CPU per sample {med(c.cpu_ms):.3f} ms vs the bound's {dc + fc:.3f}: "
                      f"{(dc + fc) / med(c.cpu_ms):.3f} of the CPU bound")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
