"""The main job's Python part: pixflow.data.Loader on the bundled photos,
the same recipe, batch, epochs and seed as the `pixflow run` line before
it, printing throughput, the stage table and a checksum of the batches."""
import sys
import time

import numpy as np

import pixflow
import pixflow.data

src = sys.argv[1] if len(sys.argv) > 1 else "data"
loader = pixflow.data.Loader(src, recipe="imagenet-train", batch_size=8, seed=1, output="numpy")
t0, n, total = time.perf_counter(), 0, 0.0
for epoch in range(3):
    for images, labels in loader:
        n += len(labels)
        total += float(np.asarray(images, dtype=np.float64).sum())
wall = time.perf_counter() - t0
print(f"pixflow {pixflow.__version__} (C {pixflow.c_version}) Python Loader: {n} samples in 3 epochs, "
      f"{n / wall:.1f} samples/s, batches {tuple(images.shape)} {images.dtype}, checksum {total:.3f}")
