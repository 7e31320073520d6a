"""Time of `import pixflow` in a fresh interpreter (issue 15's target: under
100 ms), next to `import cv2` and `import torchvision` measured in the same
run as anchors. Each figure is the median of N fresh interpreters.

    /opt/pixflow-venv/bin/python bench/python/bench_import.py [--runs 15]
"""
import argparse
import statistics
import subprocess
import sys


def import_seconds(module):
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return float(subprocess.check_output([sys.executable, "-c", code]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    modules = ["pixflow", "cv2", "torchvision"]
    times = {m: [] for m in modules}
    for _ in range(args.runs):  # interleaved, so load changes hit every module alike
        for m in modules:
            times[m].append(import_seconds(m))
    print(f"{'module':<12} {'median ms':>10} {'min ms':>8}  ({args.runs} fresh interpreters each)")
    for m in modules:
        print(f"{m:<12} {statistics.median(times[m]) * 1e3:>10.1f} {min(times[m]) * 1e3:>8.1f}")
    med = statistics.median(times["pixflow"]) * 1e3
    print(f"target: import pixflow < 100 ms: {'met' if med < 100 else 'NOT met'} (median {med:.1f} ms)")


if __name__ == "__main__":
    main()
