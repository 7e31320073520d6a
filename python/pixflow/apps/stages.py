"""Per-stage timing for the apps: latency p50/p99 per stage, throughput per
stream, Chrome trace events (--trace; open in Perfetto or chrome://tracing)
and core pinning (--pin) of each stage thread."""
import collections
import json
import os
import queue
import sys
import threading
import time

import numpy as np

KEEP = 1 << 16   # per-stage latencies kept for the percentiles
STAGES = ("decode", "h2d", "preprocess", "inference", "d2h", "post")


def now_us():
    return time.perf_counter_ns() / 1000.0


class Recorder:
    """Collects (stage, start, duration) spans from any thread."""

    def __init__(self, trace=False):
        self.lock = threading.Lock()
        self.spans = {}          # stage -> the latest KEEP per-item ms (bounded memory on long runs)
        self.events = [] if trace else None
        self.t0 = now_us()
        self.frames = {}         # stream -> frames done
        self.first_us = None
        self.last_us = None
        self.means = {}          # stage -> mean ms per item, where only totals are known (the C video source)
        self.totals = {}         # stage -> [items, seconds] over the whole run (--metrics counters)

    def add(self, stage, start_us, dur_us, items=1, args=None):
        """One span of dur_us covering `items` items (per-item latency = dur / items)."""
        with self.lock:
            self._list(stage).extend([dur_us / 1000.0 / max(items, 1)] * max(items, 1))
            t = self.totals.setdefault(stage, [0, 0.0])
            t[0] += max(items, 1)
            t[1] += dur_us / 1e6
            if self.events is not None:
                self.events.append({"name": stage, "cat": "stage", "ph": "X", "ts": start_us - self.t0,
                                    "dur": dur_us, "pid": os.getpid(), "tid": threading.get_native_id(),
                                    "args": args or {}})

    def instant(self, name, args):
        """A point event in the trace (the ladder's switches)."""
        if self.events is not None:
            with self.lock:
                self.events.append({"name": name, "cat": "control", "ph": "i", "s": "p", "ts": now_us() - self.t0,
                                    "pid": os.getpid(), "tid": threading.get_native_id(), "args": args})

    def add_ms(self, stage, values_ms):
        """Per-item latencies measured elsewhere (the C video source's split)."""
        with self.lock:
            self._list(stage).extend(values_ms)

    def _list(self, stage):
        if stage not in self.spans:
            self.spans[stage] = collections.deque(maxlen=KEEP)
        return self.spans[stage]

    def totals_snapshot(self):
        """({stage: (items, seconds)}, {stream: frames}) so far, from any thread (pixflow.metrics.app_text)."""
        with self.lock:
            return {k: tuple(v) for k, v in self.totals.items()}, dict(self.frames)

    def span(self, stage, items=1, args=None):
        return _Span(self, stage, items, args)

    def done(self, stream, n=1):
        t = now_us()
        with self.lock:
            self.frames[stream] = self.frames.get(stream, 0) + n
            self.first_us = t if self.first_us is None else self.first_us
            self.last_us = t

    def thread_name(self, name):
        if self.events is not None:
            with self.lock:
                self.events.append({"name": "thread_name", "ph": "M", "pid": os.getpid(),
                                    "tid": threading.get_native_id(),
                                    "args": {"name": name, "cpus": sorted(os.sched_getaffinity(0))}})

    def summary(self):
        rows = {}
        for s in list(STAGES) + sorted(set(self.spans) - set(STAGES)):
            v = self.spans.get(s)
            if v:
                a = np.asarray(list(v))
                rows[s] = {"items": len(a), "p50_ms": float(np.percentile(a, 50)),
                           "p99_ms": float(np.percentile(a, 99)), "mean_ms": float(a.mean())}
        wall = max((self.last_us or self.t0) - self.t0, 1.0) / 1e6
        per_stream = {int(k): v / wall for k, v in sorted(self.frames.items())}
        total = sum(self.frames.values())
        for k, v in self.means.items():
            rows.setdefault(k, {"mean_ms": v})
        return {"stages": rows, "frames": total, "wall_s": wall, "fps": total / wall, "fps_per_stream": per_stream}

    def print_table(self, file=sys.stderr, title=None):
        s = self.summary()
        if title:
            print(f"\n{title}", file=file)
        print(f"\n{'stage':<26} {'items':>8} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9}", file=file)
        for name, r in s["stages"].items():
            if "items" not in r:
                continue   # mean-only rows (below)
            print(f"{name:<26} {r['items']:>8} {r['p50_ms']:>9.3f} {r['p99_ms']:>9.3f} {r['mean_ms']:>9.3f}", file=file)
        for name, v in self.means.items():
            print(f"{name:<26} {'-':>8} {'-':>9} {'-':>9} {v:>9.3f}   (C source totals: mean only)", file=file)
        for name in STAGES:
            if name not in s["stages"] and name not in self.means:
                print(f"{name:<26} {'-':>8} {'-':>9} {'-':>9} {'-':>9}   (not a separate stage here)", file=file)
        fs = " ".join(f"{k}:{v:.1f}" for k, v in s["fps_per_stream"].items())
        print(f"\n{s['frames']} frames in {s['wall_s']:.2f} s: {s['fps']:.1f} frames/s; per stream {fs}", file=file)
        return s

    def write_trace(self, path):
        with open(path, "w") as f:
            json.dump({"traceEvents": self.events or [], "displayTimeUnit": "ms"}, f)


class _Span:
    def __init__(self, rec, stage, items, args):
        self.rec, self.stage, self.items, self.args = rec, stage, items, args

    def __enter__(self):
        self.t = now_us()
        return self

    def __exit__(self, *exc):
        self.rec.add(self.stage, self.t, now_us() - self.t, self.items, self.args)
        return False


def pin_plan(n_stages, pin):
    """Cores for each stage thread: --pin gives stage i the core i % ncores of the allowed set."""
    if not pin:
        return [None] * n_stages
    cores = sorted(os.sched_getaffinity(0))
    return [{cores[i % len(cores)]} for i in range(n_stages)]


def pin_self(cores):
    if cores:
        os.sched_setaffinity(0, cores)   # pid 0: the calling thread (Linux)


_END = object()


class Progress:
    """One status line on stderr (a tty) at most every 0.5 s."""

    def __init__(self, enabled=True, total=None):
        self.enabled = enabled and sys.stderr.isatty()
        self.total, self.n, self.t0, self.last = total, 0, time.perf_counter(), 0.0

    def step(self, n=1):
        self.n += n
        t = time.perf_counter()
        if self.enabled and t - self.last > 0.5:
            self.last = t
            tot = f"/{self.total}" if self.total else ""
            print(f"\r{self.n}{tot} frames, {self.n / max(t - self.t0, 1e-9):.1f} frames/s", end="", file=sys.stderr)

    def close(self):
        if self.enabled:
            print(file=sys.stderr)


def run_stages(source, stages, rec, pin=False, depth=2):
    """A pipeline of threads joined by bounded queues: source() yields items, each stage fn(item) returns
    the next item (None drops it). Returns when every item went through; re-raises the first error."""
    plan = pin_plan(len(stages) + 1, pin)
    qs = [queue.Queue(maxsize=depth) for _ in stages]
    errors = []

    def feed():
        pin_self(plan[0])
        rec.thread_name("source")
        try:
            for it in source():
                if errors:
                    break
                qs[0].put(it)
        except BaseException as e:  # noqa: BLE001  (handed to the caller)
            errors.append(e)
        qs[0].put(_END)

    def work(i, name, fn):
        pin_self(plan[i + 1])
        rec.thread_name(name)
        while True:
            it = qs[i].get()
            if it is _END:
                break
            if errors:
                continue
            try:
                out = fn(it)
            except BaseException as e:  # noqa: BLE001
                errors.append(e)
                continue
            if i + 1 < len(qs) and out is not None:
                qs[i + 1].put(out)
        if i + 1 < len(qs):
            qs[i + 1].put(_END)

    ts = [threading.Thread(target=feed, daemon=True)]
    ts += [threading.Thread(target=work, args=(i, n, f), daemon=True) for i, (n, f) in enumerate(stages)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]
