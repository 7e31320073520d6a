#!/usr/bin/env python3
"""Prints the golden table of tests/unit/test_resize_tv_golden.c.

Each case is an HWC u8 image from a 64-bit LCG (state = state * 6364136223846793005
+ 1442695040888963407, byte = state >> 56, seeded per case) resized by
torchvision.transforms.v2.functional.resize (CHW tensor, torch's native uint8
path) and hashed with FNV-1a 64 over the HWC output bytes. Run with the
torch / torchvision the flavour follows (2.15.0 / 0.29.2):

    python3 tests/parity/gen_resize_tv_golden.py > /tmp/golden.inc
"""
import numpy as np
import torch
import torchvision
import torchvision.transforms.v2.functional as F
from torchvision.transforms import InterpolationMode as IM

M64 = (1 << 64) - 1
MODES = {0: IM.NEAREST, 1: IM.BILINEAR, 2: IM.BICUBIC, 4: IM.LANCZOS, 6: IM.NEAREST_EXACT}


def lcg_bytes(seed, n):
    s, out = seed & M64, bytearray(n)
    for i in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) & M64
        out[i] = s >> 56
    return bytes(out)


def fnv1a(b):
    h = 0xCBF29CE484222325
    for x in b:
        h = ((h ^ x) * 0x100000001B3) & M64
    return h


def main():
    rng = np.random.default_rng(20260516)
    print(f"/* torch {torch.__version__}, torchvision {torchvision.__version__} */")
    n = 0
    while n < 96:
        def size():
            return int(rng.integers(1, 5)) if rng.random() < 0.15 else int(rng.integers(1, 260))
        sw, sh, dw, dh = size(), size(), size(), size()
        cn = int(rng.choice([1, 3, 4]))
        interp = int(rng.choice([1, 1, 2, 2, 4, 0, 6]))
        aa = interp == 4 or bool(rng.integers(0, 2))
        if interp in (0, 6):
            aa = False
        if cn == 3 and dw == 1 and dh == 1:
            continue  # torch 2.15 asserts on 3-channel 1x1 outputs
        seed = int(rng.integers(1, 1 << 62))
        img = np.frombuffer(lcg_bytes(seed, sw * sh * cn), np.uint8).reshape(sh, sw, cn)
        t = torch.from_numpy(img.copy()).permute(2, 0, 1).contiguous()
        out = F.resize(t, [dh, dw], interpolation=MODES[interp], antialias=aa)
        h = fnv1a(out.permute(1, 2, 0).contiguous().numpy().tobytes())
        print(f"    {{{sw}, {sh}, {cn}, {dw}, {dh}, {interp}, {int(aa)}, 0x{seed:x}ull, 0x{h:016x}ull}},")
        n += 1


if __name__ == "__main__":
    main()
