"""Loader start-up: time from pixflow.data.Loader(...) to its first batch, on data/ (imagenet-train,
batch 4, 2 workers, numpy output). The first Loader of the process is the cold figure (library
init, first pipeline, page faults of fresh buffers); the median of the next ones is the warm one.

    /opt/pixflow-venv/bin/python bench/python/bench_loader_startup.py [ROUNDS]
"""
import os
import sys, time, statistics
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data")
t0 = time.perf_counter()
import pixflow.data as D
t_imp = time.perf_counter() - t0
def once():
    t = time.perf_counter()
    L = D.Loader(DATA, recipe="imagenet-train", batch_size=4, workers=2, output="numpy")
    t_c = time.perf_counter() - t
    it = iter(L)
    x, y = next(it)
    t_first = time.perf_counter() - t
    L.close()
    return t_c, t_first
# at least 2: the first is the cold figure, the rest the warm one
res = [once() for _ in range(max(2, int(sys.argv[1]) if len(sys.argv) > 1 else 7))]
print(f"import {t_imp*1e3:.1f} ms; cold (first in process): construct {res[0][0]*1e3:.1f} ms, first batch {res[0][1]*1e3:.1f} ms")
print("warm: construct median %.1f ms, first batch median %.1f ms" % (statistics.median(r[0] for r in res[1:])*1e3, statistics.median(r[1] for r in res[1:])*1e3))
