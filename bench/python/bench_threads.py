"""pixflow's Python resize on 1 thread vs the default stream (every online
CPU), in one process, rounds alternating: what the pool's hand-off costs on
small calls and what a second thread gains on large ones. Random uint8
images, the torchvision flavour; HWC (channels-last) and CHW tensors.

    /opt/pixflow-venv/bin/python bench/python/bench_threads.py [--rounds 9]

Prints, per case, the median us per call on 1 thread and on the default
thread count, and their ratio (below 1: the default is faster).
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch
from torchvision.transforms import InterpolationMode as IM

import pixflow
import pixflow.transforms.functional as PF

CASES = [  # (source h, w), (output h, w), antialias
    ((64, 64), (32, 32), True), ((128, 128), (224, 224), False), ((256, 256), (224, 224), True),
    ((187, 333), (224, 224), True), ((375, 500), (112, 112), True), ((375, 500), (224, 224), False),
    ((480, 640), (224, 224), True), ((224, 224), (320, 320), False), ((1080, 1920), (224, 224), True),
    ((375, 500), (750, 1000), False), ((1080, 1920), (540, 960), False)]


def per_call_us(f, n):
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t0) / n * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    torch.set_num_threads(1)
    default = os.cpu_count()
    rng = np.random.default_rng(0)
    print(f"pixflow {pixflow.__version__}; threads 1 vs {default} (the default); median of {args.rounds} rounds")
    for (sh, sw), (dh, dw), aa in CASES:
        for layout in ("HWC", "CHW"):
            a = torch.from_numpy(rng.integers(0, 256, (sh, sw, 3), dtype=np.uint8))
            x = a.permute(2, 0, 1) if layout == "HWC" else a.permute(2, 0, 1).contiguous()
            f = lambda: PF.resize(x, [dh, dw], interpolation=IM.BILINEAR, antialias=aa)
            n = max(3, int(20000 / (sh * sw / 1e4 + dh * dw / 1e4)))
            r = {1: [], default: []}
            for _ in range(args.rounds):
                for th in r:
                    pixflow.set_num_threads(th)
                    f()
                    r[th].append(per_call_us(f, n))
            m1, md = statistics.median(r[1]), statistics.median(r[default])
            print(f"{sw}x{sh} -> {dw}x{dh} antialias={int(aa)} {layout}: 1 thread {m1:8.1f} us, "
                  f"{default} threads {md:8.1f} us, ratio {md / m1:.2f}")
    pixflow.set_num_threads(0)


if __name__ == "__main__":
    main()
