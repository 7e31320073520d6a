#!/usr/bin/env python3
"""The GPU benchmark workloads through torchvision and CV-CUDA, for the
side-by-side table of bench/gpu/run_device_checks.sh.

Workloads (inputs already on the GPU, timed with CUDA events, median of
--iters runs after warm-up):
  preprocess: batch 256 of 500x375 u8 RGB -> resize 224x224 bilinear ->
              /255, ImageNet mean/std -> NCHW f32 (pixflow's fused
              preprocess does this in one launch);
  letterbox:  one 1920x1080 NV12 frame -> RGB -> 640x360 resize -> pad to
              640x640 (114) -> /255 -> CHW f16 (CV-CUDA only: torchvision
              has no NV12 conversion).
Prints markdown rows "| library | workload | median ms | per-unit figure |".
Libraries that are not importable are reported as such, never guessed.
"""
import argparse
import statistics
import sys

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def timed(torch, fn, iters, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def bench_torchvision(torch, iters, batch):
    try:
        import torchvision.transforms.v2.functional as F
    except Exception as e:  # noqa: BLE001 - report any import failure
        print(f"| torchvision | preprocess | not importable ({e}) | |")
        return
    g = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randint(0, 256, (batch, 3, 375, 500), dtype=torch.uint8, device="cuda", generator=g)
    mean = torch.tensor(MEAN, device="cuda").view(1, 3, 1, 1)
    std = torch.tensor(STD, device="cuda").view(1, 3, 1, 1)

    def run():
        y = F.resize(x, [224, 224], antialias=False)
        return (y.float() - mean) / std

    ms = timed(torch, run, iters)
    print(f"| torchvision {torchvision_version()} | preprocess b{batch} 500x375->224 f32 | {ms:.3f} | "
          f"{batch / (ms / 1e3):,.0f} images/s |")


def torchvision_version():
    try:
        import torchvision
        return torchvision.__version__
    except Exception:  # noqa: BLE001
        return "?"


def bench_cvcuda(torch, iters, batch):
    try:
        import cvcuda
    except Exception as e:  # noqa: BLE001
        print(f"| CV-CUDA | preprocess, letterbox | not importable ({e}); carry the cvcuda-cu13 wheel | |")
        return
    g = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randint(0, 256, (batch, 375, 500, 3), dtype=torch.uint8, device="cuda", generator=g)
    src = cvcuda.as_tensor(x, "NHWC")
    mean = cvcuda.as_tensor(torch.tensor(MEAN, device="cuda").view(1, 1, 1, 3), "NHWC")
    std = cvcuda.as_tensor(torch.tensor(STD, device="cuda").view(1, 1, 1, 3), "NHWC")

    def run():
        r = cvcuda.resize(src, (batch, 224, 224, 3), cvcuda.Interp.LINEAR)
        f = cvcuda.convertto(r, cvcuda.Type.F32)
        n = cvcuda.normalize(f, base=mean, scale=std, flags=cvcuda.NormalizeFlags.SCALE_IS_STDDEV)
        return cvcuda.reformat(n, "NCHW")

    ms = timed(torch, run, iters)
    print(f"| CV-CUDA {getattr(cvcuda, '__version__', '?')} | preprocess b{batch} 500x375->224 f32 (op chain) | "
          f"{ms:.3f} | {batch / (ms / 1e3):,.0f} images/s |")

    nv12 = torch.randint(0, 256, (1, 1080 * 3 // 2, 1920, 1), dtype=torch.uint8, device="cuda", generator=g)
    yuv = cvcuda.as_tensor(nv12, "NHWC")

    def letterbox():
        rgb = cvcuda.cvtcolor(yuv, cvcuda.ColorConversion.YUV2RGB_NV12)
        r = cvcuda.resize(rgb, (1, 360, 640, 3), cvcuda.Interp.LINEAR)
        p = cvcuda.copymakeborder(r, border_mode=cvcuda.Border.CONSTANT, border_value=[114, 114, 114],
                                  top=140, bottom=140, left=0, right=0)
        f = cvcuda.convertto(p, cvcuda.Type.F16, scale=1 / 255.0)
        return cvcuda.reformat(f, "NCHW")

    ms = timed(torch, letterbox, iters)
    print(f"| CV-CUDA | letterbox 1080p NV12 -> 640 CHW f16, batch 1 | {ms:.3f} | {ms * 1e3:.0f} us/frame |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--batch", type=int, default=256)
    a = ap.parse_args()
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        print(f"| torch | all | not importable ({e}) | |")
        return 0
    if not torch.cuda.is_available():
        print("| torch | all | no CUDA device visible to torch | |")
        return 0
    bench_torchvision(torch, a.iters, a.batch)
    bench_cvcuda(torch, a.iters, a.batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
