#!/usr/bin/python3
"""Pillow column for `pixflow bench decode` (docs/performance.md): JPEG
bytes in memory -> 224x224 CHW f32 imagenet-train-style sample, one thread:
Image.open + convert RGB + RandomResizedCrop-style crop/resize (BILINEAR,
Pillow's antialiased filter) + flip + normalize + HWC->CHW, with and without
Image.draft (Pillow's own DCT scaling, same 'decoded crop >= 224' rule).
Crops are drawn like torchvision's RandomResizedCrop from a fixed seed.
    /usr/bin/python3 bench/bench_decode_pillow.py [data_dir] [rounds]"""
import io, math, os, random, sys, time
import numpy as np
from PIL import Image

MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def rrc(rng, w, h):
    area = w * h
    for _ in range(10):
        a = area * rng.uniform(0.08, 1.0)
        r = math.exp(rng.uniform(math.log(3 / 4), math.log(4 / 3)))
        cw, ch = int(round(math.sqrt(a * r))), int(round(math.sqrt(a / r)))
        if 0 < cw <= w and 0 < ch <= h:
            return rng.randint(0, w - cw), rng.randint(0, h - ch), cw, ch
    return 0, 0, w, h


def sample(data, crop, flip, draft):
    im = Image.open(io.BytesIO(data))
    x, y, cw, ch = crop
    if draft:  # largest reduction keeping the crop >= 224 (Pillow picks scale >= requested size)
        w0, h0 = im.size
        s = min(cw / 224, ch / 224)
        im.draft("RGB", (max(1, int(w0 / s)), max(1, int(h0 / s))))
        f = im.size[0] / w0
        x, y, cw, ch = x * f, y * f, cw * f, ch * f
    im = im.convert("RGB").resize((224, 224), Image.BILINEAR, box=(x, y, x + cw, y + ch))
    if flip:
        im = im.transpose(Image.FLIP_LEFT_RIGHT)
    a = (np.asarray(im, np.float32) / 255.0 - MEAN) / STD
    return np.ascontiguousarray(a.transpose(2, 0, 1))


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sets = {"500x375": ["astronaut_500x375.jpg", "coffee_500x375.jpg", "rocket_500x375.jpg", "yellow_flower_500x375.jpg"],
            "1080p": ["green_leaf_1920x1080.jpg", "storm_road_1920x1080.jpg", "water_drop_1920x1080.jpg"]}
    print(f"Pillow {Image.__version__}, numpy {np.__version__}; ms per image, median of {rounds} rounds, 1 thread")
    for name, files in sets.items():
        blobs = [open(os.path.join(data_dir, f), "rb").read() for f in files]
        rng = random.Random(42)
        jobs = []
        for i in range(32 if name == "500x375" else 12):
            b = blobs[i % len(blobs)]
            w, h = Image.open(io.BytesIO(b)).size
            jobs.append((b, rrc(rng, w, h), rng.random() < 0.5))
        for draft in (False, True):
            t = []
            for _ in range(rounds):
                t0 = time.perf_counter()
                for b, c, f in jobs:
                    sample(b, c, f, draft)
                t.append((time.perf_counter() - t0) / len(jobs) * 1e3)
            print(f"{name:8s} Pillow open+crop/resize{' + draft' if draft else '        '}: {sorted(t)[len(t) // 2]:.3f} ms/image")


if __name__ == "__main__":
    main()
