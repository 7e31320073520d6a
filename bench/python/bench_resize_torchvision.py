"""pixflow.transforms.functional.resize (the torchvision flavour, bit-exact)
against torchvision.transforms.v2.functional.resize on uint8 CPU tensors,
1 thread on both sides (torch.set_num_threads(1) and
pixflow.set_num_threads(1): pixflow's Python ops otherwise split a call
over every online CPU), in this process, through Python on both sides;
each call's output is checked equal before timing. Inputs: the photos of data/ decoded by
torchvision.io (CHW tensors, what torchvision pipelines resize), the
RandomResizedCrop-style and Resize cases of ImageNet training / eval, and
the same on channels-last tensors. Rounds alternate the two libraries;
the table gives the median ms per call and the speed-up.

    /opt/pixflow-venv/bin/python bench/python/bench_resize_torchvision.py [--rounds 15] [--data DIR]
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch
import torchvision
import torchvision.transforms.v2.functional as TF
from torchvision.transforms import InterpolationMode as IM

import pixflow
import pixflow.transforms.functional as PF

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def per_call(fn, target_s=0.02):
    """Seconds per call, calibrated to ~target_s per round."""
    n, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
        if t >= target_s or n >= 1 << 14:
            return n
        n *= 2


def compare(a, b, rounds):
    na, nb = per_call(a), per_call(b)
    ta, tb = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(na):
            a()
        ta.append((time.perf_counter() - t0) / na)
        t0 = time.perf_counter()
        for _ in range(nb):
            b()
        tb.append((time.perf_counter() - t0) / nb)
    return statistics.median(ta) * 1e3, statistics.median(tb) * 1e3


def cases(photos):
    """(label, image, size, interpolation, antialias)."""
    out = []
    for name, img in photos:
        h, w = img.shape[1:]
        c = img[:, h // 8:h // 8 + h // 2, w // 6:w // 6 + (w * 2) // 3]  # a RandomResizedCrop-like crop
        out += [(f"{name} crop->224 bilinear aa", c, [224, 224], IM.BILINEAR, True),
                (f"{name} crop->224 bicubic aa", c, [224, 224], IM.BICUBIC, True),
                (f"{name} Resize(256) bilinear aa", img, 256, IM.BILINEAR, True),
                (f"{name} ->224 bilinear", img, [224, 224], IM.BILINEAR, False),
                (f"{name} ->224 bicubic", img, [224, 224], IM.BICUBIC, False)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    args = ap.parse_args()
    torch.set_num_threads(1)
    pixflow.set_num_threads(1)
    names = sorted(f for f in os.listdir(args.data) if f.endswith(".jpg"))
    photos = [(n.split("_")[0], torchvision.io.decode_image(os.path.join(args.data, n))) for n in names]
    photos = [p for p in photos if p[1].shape[0] == 3][:3]
    print(f"pixflow {pixflow.__version__}, torch {torch.__version__}, torchvision {torchvision.__version__}; "
          f"threads: torch {torch.get_num_threads()}, pixflow {pixflow.get_num_threads()}; median of "
          f"{args.rounds} rounds, ms per call")
    print(f"{'case':44s} {'layout':6s} {'torch':>8s} {'pixflow':>8s} {'speed-up':>8s}")
    ratios = {"CHW": [], "HWC": []}
    for label, img, size, mode, aa in cases(photos):
        for layout in ("CHW", "HWC"):
            x = img.contiguous() if layout == "CHW" else img.permute(1, 2, 0).contiguous().permute(2, 0, 1)
            want = TF.resize(x, size, interpolation=mode, antialias=aa)
            got = PF.resize(x, size, interpolation=mode, antialias=aa)
            assert torch.equal(got, want), label
            t_tv, t_pf = compare(lambda: TF.resize(x, size, interpolation=mode, antialias=aa),
                                 lambda: PF.resize(x, size, interpolation=mode, antialias=aa), args.rounds)
            ratios[layout].append(t_tv / t_pf)
            print(f"{label:44s} {layout:6s} {t_tv:8.3f} {t_pf:8.3f} {t_tv / t_pf:7.2f}x")
    for layout, r in ratios.items():
        print(f"{layout} tensors: speed-up min {min(r):.2f}x, median {statistics.median(r):.2f}x, "
              f"geomean {float(np.exp(np.mean(np.log(r)))):.2f}x over {len(r)} cases (every output bit-exact)")


if __name__ == "__main__":
    main()
