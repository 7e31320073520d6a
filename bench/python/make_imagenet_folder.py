"""Makes an ImageNet-like folder from the real photos in data/ (no download):
N JPEGs at ImageNet's typical sizes (long side 500: 500x375, 500x333,
375x500, 500x500, ...), each a random crop of one of the photos (20-100 %
of its area, at the target's aspect ratio), rescaled with INTER_AREA and
re-encoded at quality 90 with OpenCV, in 10 class folders. Deterministic:
the same seed gives the same files (numpy's PCG64, OpenCV's resize and
encoder); run it with Debian's python3 (OpenCV 4.6, as bench_loader.py
does): another OpenCV encodes other bytes. Average file 30 KiB (ImageNet's
train JPEGs average ~110 KiB: these photos are smoother, so every
loader's decode is cheaper than on ImageNet).

    /usr/bin/python3 bench/python/make_imagenet_folder.py OUT [--count 600] [--seed 0]
"""
import argparse
import os
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
# ImageNet train: ~75 % of images are 4:3 or 3:2 landscape with a 500-pixel long side
SIZES = [((500, 375), 0.45), ((500, 333), 0.20), ((375, 500), 0.15), ((500, 500), 0.05),
         ((500, 400), 0.05), ((333, 500), 0.05), ((400, 300), 0.05)]


def photos():
    import cv2

    out = []
    for p in sorted((ROOT / "data").iterdir()):
        if p.suffix.lower() in (".jpg", ".jpeg", ".png"):
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is not None:
                out.append(img)
    return out


def make(out, count=600, seed=0, quality=90):
    """Writes the folder (skipped when a complete one with the same recipe is there)."""
    import cv2

    out = pathlib.Path(out)
    stamp = out / ".recipe"
    recipe = f"count={count} seed={seed} quality={quality} sizes={SIZES} opencv={cv2.__version__}"
    if stamp.exists() and stamp.read_text() == recipe:
        return out
    src = photos()
    rng = np.random.default_rng(seed)
    probs = np.array([p for _, p in SIZES])
    for i in range(count):
        (w, h) = SIZES[rng.choice(len(SIZES), p=probs / probs.sum())][0]
        img = src[int(rng.integers(len(src)))]
        H, W = img.shape[:2]
        # the largest crop of the target's aspect ratio, scaled to 45-100 % per side
        k = min(W / w, H / h) * float(rng.uniform(0.45, 1.0))
        cw, ch = max(1, int(w * k)), max(1, int(h * k))
        x, y = int(rng.integers(0, W - cw + 1)), int(rng.integers(0, H - ch + 1))
        crop = img[y:y + ch, x:x + cw]
        if rng.random() < 0.5:
            crop = crop[:, ::-1]
        interp = cv2.INTER_AREA if cw >= w else cv2.INTER_CUBIC
        pic = cv2.resize(np.ascontiguousarray(crop), (w, h), interpolation=interp)
        d = out / f"c{i % 10}"
        d.mkdir(parents=True, exist_ok=True)
        ok, buf = cv2.imencode(".jpg", pic, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        (d / f"{i:05d}.jpg").write_bytes(buf.tobytes())
    stamp.write_text(recipe)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    out = make(a.out, a.count, a.seed)
    files = [f for _, _, fs in os.walk(out) for f in fs if f.endswith(".jpg")]
    total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(out) for f in fs if f.endswith(".jpg"))
    print(f"{out}: {len(files)} JPEGs, {total / len(files) / 1024:.1f} KiB on average")


if __name__ == "__main__":
    main()
