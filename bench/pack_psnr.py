"""The loss of `pixflow pack`: PSNR of each packed sample against its original, decoded and
resized the way the packer resizes it (cv2.INTER_AREA to the stored size; pixflow's AREA
resize equals OpenCV's bit for bit), so the figure is the re-encoding's loss alone.

    /usr/bin/python3 bench/pack_psnr.py PACK [PACK ...]

Reads the .pfpack index itself (docs/architecture.md "Packed datasets": the 128-byte header,
48-byte entries), decodes with OpenCV (pixflow's JPEG decode equals cv2.imdecode), prints per
pack: samples, the median / minimum / mean PSNR in dB over the JPEG samples, and the number of
raw samples that are exact (PSNR infinite: max difference 0).
"""
import math
import struct
import sys

import cv2
import numpy as np


def entries(blob):
    assert blob[:8] == b"PFPACK\0\0", "not a .pfpack"
    count, = struct.unpack_from("<Q", blob, 16)
    ioff, noff = struct.unpack_from("<QQ", blob, 32)
    for i in range(count):
        off, size, _sum, name, label, w, h, fmt = struct.unpack_from("<QQQQiiiI", blob, ioff + 48 * i)
        end = blob.index(b"\0", noff + name)
        yield blob[noff + name:end].decode(), off, size, fmt


def psnr(a, b):
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def main():
    for path in sys.argv[1:]:
        blob = open(path, "rb").read()
        vals, raw_exact, raw_total = [], 0, 0
        for name, off, size, fmt in entries(blob):
            orig = cv2.imread(name, cv2.IMREAD_COLOR)
            data = np.frombuffer(blob, np.uint8, size, off)
            if fmt == 2:  # raw PPM: must be the original's pixels exactly
                raw_total += 1
                stored = cv2.imdecode(data, cv2.IMREAD_COLOR)
                raw_exact += int(stored.shape == orig.shape and np.array_equal(stored, orig))
                continue
            stored = cv2.imdecode(data, cv2.IMREAD_COLOR)
            h, w = stored.shape[:2]
            ref = orig if orig.shape[:2] == (h, w) else cv2.resize(orig, (w, h), interpolation=cv2.INTER_AREA)
            vals.append(psnr(stored, ref))
        line = f"{path}: {len(vals) + raw_total} samples"
        if vals:
            line += (f"; JPEG PSNR median {np.median(vals):.2f} dB, min {min(vals):.2f} dB, "
                     f"mean {np.mean(vals):.2f} dB over {len(vals)}")
        if raw_total:
            line += f"; raw exact {raw_exact}/{raw_total}"
        print(line)


if __name__ == "__main__":
    main()
