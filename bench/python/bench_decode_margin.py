"""ROI decode with and without pf_decode_opts.row_margin, one thread, files in memory: the
RandomResizedCrop rectangles pf_aug_sample draws (seed 0, epochs 0..E-1), decoded into a
reused buffer (packed rows, or a view into a buffer with 128-byte margins around each row).
Each mode runs in its own process, the order alternating per round, so neither inherits the
other's caches; prints CPU ms per ROI per round and the medians.

    /opt/pixflow-venv/bin/python bench/python/bench_decode_margin.py FOLDER [--rounds 3] [--epochs 8]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def one(folder, margin, epochs):
    import numpy as np

    from pixflow import _pixflow as P

    sys.path.insert(0, HERE)
    from bench_loader import ROW_MARGIN, files_of, margin_bytes, margin_view

    P.set_num_threads(1)
    datas = [open(f, "rb").read() for f in files_of(folder)]
    wh = [(z["width"], z["height"]) for z in (P.probe(d) for d in datas)]
    _, policy = P.recipe("imagenet-train")
    buf = np.empty(max(margin_bytes(w, h) for w, h in wh), np.uint8)
    out = []
    for ep in range(epochs):
        params = [P.aug_sample(policy, 0, ep, i, [w], [h])[0] for i, (w, h) in enumerate(wh)]
        t = time.process_time()
        for d, p in zip(datas, params):
            w, h, roi = p["crop_w"], p["crop_h"], (p["crop_x"], p["crop_y"], p["crop_w"], p["crop_h"])
            if margin:
                P.decode(d, roi=roi, dst=margin_view(buf, w, h), row_margin=ROW_MARGIN)
            else:
                P.decode(d, roi=roi, dst=buf[:w * h * 3].reshape(h, w, 3))
        out.append((time.process_time() - t) * 1e3 / len(datas))
    print(statistics.median(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one is not None:
        return one(a.folder, a.one, a.epochs)
    res = {0: [], 1: []}
    for r in range(a.rounds):
        for m in ((0, 1) if r % 2 == 0 else (1, 0)):
            p = subprocess.run([sys.executable, __file__, a.folder, "--epochs", str(a.epochs), "--one", str(m)],
                               capture_output=True, text=True, check=True)
            res[m].append(float(p.stdout.split()[-1]))
        print(f"round {r + 1}: packed rows {res[0][-1]:.4f} ms/ROI, row_margin {res[1][-1]:.4f} ms/ROI")
    a0, a1 = statistics.median(res[0]), statistics.median(res[1])
    print(f"median: packed {a0:.4f}, row_margin {a1:.4f} ms/ROI CPU; row_margin / packed {a1 / a0:.3f}")


if __name__ == "__main__":
    main()
