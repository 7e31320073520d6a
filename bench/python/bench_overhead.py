"""Per-call overhead: flip of a 224x224x3 uint8 image with pixflow.cv,
cv2 and torchvision (tensor), against pixflow's kernel time (the same flip
batched: 256 images in one call, time per image). Medians of 2000 calls.

    /opt/pixflow-venv/bin/python bench/python/bench_overhead.py
"""
import statistics
import time

import numpy as np


def med_us(fn, n=2000, rep=5):
    best = []
    for _ in range(rep):
        t = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            fn()
            t.append(time.perf_counter_ns() - t0)
        best.append(statistics.median(t) / 1e3)
    return min(best)


def main():
    import cv2
    import torch
    import torchvision.transforms.v2.functional as TF

    import pixflow
    import pixflow.cv as pcv
    import pixflow.ops as ops

    pixflow.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    img = np.random.default_rng(0).integers(0, 256, (224, 224, 3), dtype=np.uint8)
    dst = np.empty_like(img)
    t = torch.from_numpy(img).permute(2, 0, 1).contiguous()
    batch = [img] * 256
    outs = [dst] * 256  # one output buffer: the batch stays in cache, as the single call does
    kernel = med_us(lambda: ops.flip(batch, 1, dst=outs), n=200) / 256
    rows = [("pixflow.cv.flip", med_us(lambda: pcv.flip(img, 1))),
            ("pixflow.cv.flip(dst=)", med_us(lambda: pcv.flip(img, 1, dst))),
            ("cv2.flip", med_us(lambda: cv2.flip(img, 1))),
            ("cv2.flip(dst=)", med_us(lambda: cv2.flip(img, 1, dst))),
            ("torchvision F.horizontal_flip", med_us(lambda: TF.horizontal_flip(t)))]
    print(f"{'call':32s} {'median us':>10s} {'above kernel':>13s}")
    print(f"{'pixflow kernel (batched, /img)':32s} {kernel:10.2f} {'':>13s}")
    for name, us in rows:
        print(f"{name:32s} {us:10.2f} {us - kernel:13.2f}")


if __name__ == "__main__":
    main()
