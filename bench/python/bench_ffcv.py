"""FFCV 1.0.2's loader on the same images and the same work as `pixflow run` on a pack, for
bench/pack_bench.sh: RandomResizedCrop 224 + horizontal flip + normalize into float32 batches
of 64 (NCHW view), `workers` threads, page-cached file (os_cache=True), random order.

    PYTHONPATH=.pydeps /opt/pixflow-venv/bin/python bench/python/bench_ffcv.py write FOLDER OUT.beton \
        [--max-side 320] [--quality 90]
    PYTHONPATH=.pydeps /opt/pixflow-venv/bin/python bench/python/bench_ffcv.py run OUT.beton \
        [--epochs 10] [--workers 2]

`write` stores FOLDER (ImageFolder layout) with RGBImageField(write_mode='jpg',
max_resolution, jpeg_quality): FFCV's equivalent of `pixflow pack --max-side --quality`.
`run` prints "throughput X samples/s" (the same line as `pixflow run`), timed over all
epochs after one untimed warm-up epoch (FFCV compiles its pipeline with numba on first use).
FFCV is built from its PyPI sdist into .pydeps (pip install --target .pydeps --no-deps, with
numba 0.58.1, llvmlite 0.41.1 and its small pure-Python dependencies; Debian's
libopencv-dev and libturbojpeg0-dev).
"""
import argparse
import os
import time

import numpy as np


def write(folder, out, max_side, quality):
    from ffcv.fields import IntField, RGBImageField
    from ffcv.writer import DatasetWriter
    from PIL import Image

    classes = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
    items = [(os.path.join(folder, c, f), k) for k, c in enumerate(classes)
             for f in sorted(os.listdir(os.path.join(folder, c)))]

    class DS:
        def __len__(self):
            return len(items)

        def __getitem__(self, i):
            p, label = items[i]
            return Image.open(p).convert("RGB"), label

    w = DatasetWriter(out, {"image": RGBImageField(write_mode="jpg", max_resolution=max_side, jpeg_quality=quality),
                            "label": IntField()}, num_workers=2)
    w.from_indexed_dataset(DS())


def run(path, epochs, workers, batch):
    from ffcv.fields.basics import IntDecoder
    from ffcv.fields.rgb_image import RandomResizedCropRGBImageDecoder
    from ffcv.loader import Loader, OrderOption
    from ffcv.transforms import NormalizeImage, RandomHorizontalFlip, ToTensor, ToTorchImage

    mean = np.array([0.485, 0.456, 0.406]) * 255
    std = np.array([0.229, 0.224, 0.225]) * 255
    pipelines = {
        "image": [RandomResizedCropRGBImageDecoder((224, 224)), RandomHorizontalFlip(),
                  NormalizeImage(mean, std, np.float32), ToTensor(), ToTorchImage()],
        "label": [IntDecoder(), ToTensor()],
    }
    loader = Loader(path, batch_size=batch, num_workers=workers, order=OrderOption.RANDOM, os_cache=True,
                    drop_last=False, pipelines=pipelines, seed=1)
    for _ in loader:  # warm-up epoch: numba compiles the pipeline
        pass
    n, t0 = 0, time.perf_counter()
    for _ in range(epochs):
        for images, labels in loader:
            n += images.shape[0]
    dt = time.perf_counter() - t0
    print(f"batches {n // batch}, samples {n}")
    print(f"throughput {n / dt:.1f} samples/s")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("write")
    a.add_argument("folder")
    a.add_argument("out")
    a.add_argument("--max-side", type=int, default=320)
    a.add_argument("--quality", type=int, default=90)
    r = sub.add_parser("run")
    r.add_argument("path")
    r.add_argument("--epochs", type=int, default=10)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--batch", type=int, default=64)
    args = ap.parse_args()
    if args.cmd == "write":
        write(args.folder, args.out, args.max_side, args.quality)
    else:
        import torch

        torch.set_num_threads(1)
        run(args.path, args.epochs, args.workers, args.batch)


if __name__ == "__main__":
    main()
