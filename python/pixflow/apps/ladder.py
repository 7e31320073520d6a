"""The precision ladder of `python -m pixflow detect --latency-budget MS`.

A controller over the rungs the accuracy contract accepted (most accurate
first: fp32, fp16, int8, minus the refused or unbuilt ones). After each batch
it gets the batch's per-frame latency and looks at the p90 over the last
``window`` batches run on the current rung:

* **down** when that p90 is over the budget. It does not wait for the window
  to fill when the outcome is already certain: the p90 of the batches so far,
  with the rest of the window counted as 0 ms, is a lower bound of the full
  window's p90, and once that bound is over the budget no later batch can
  bring the window under it. So one batch far over the budget (a CPU hog
  arriving) moves at once instead of after a window of misses: under a p99
  goal, a window of 2% of the frames over the budget is already a miss.
* **up** when the window is full and its p90 leaves room (below), for as
  many consecutive evaluations as the rung's back-off asks;
* otherwise stay.

With ``costs`` (each rung's measured ms per frame at the start, from
detect's warm-up runs) the ladder also

* **drops the rungs that buy no speed**: a rung not at least ``min_gain``
  faster than the more accurate rung kept above it (a negative ``min_gain``
  keeps every rung) (FP16 on ONNX Runtime's
  CPU provider runs most ops through casts and is no faster than FP32, so
  stepping to it only loses accuracy); ``dropped`` says why, per rung;
* **steps by prediction**: latency is taken to scale with the rungs' cost
  ratio, so a step down goes to the most accurate rung whose predicted p90
  (the window's p90 x cost ratio) fits the budget (the last rung when none
  does), and a step up needs the upper rung's predicted slowest batch (the
  window's slowest x cost ratio) under ``up_frac_measured`` x budget;

without costs it moves one rung at a time and steps up when the p90 is under
``up_frac`` x budget (the hysteresis: the faster rung must leave enough room
that the slower one fits, or the two would alternate).

The window is emptied at each switch, so a step up needs a full window of
fresh batches on its rung: at most one step up per window, while steps down
may follow each other as fast as the evidence allows. A step up that had to
be undone (the next switch went back down) doubles the number of consecutive
qualifying evaluations the next step up from that rung needs (window, 2 x
window, 4 x window, ...; back to one window when a step up held for HOLD
windows or more): without it a load between the two rungs alternates them
every two windows (measured: 7 switches in 24 batches under the CPU hog of
docs/performance.md). Each switch is recorded with the batch index and its
reason, for the stage table and the trace."""
import collections

import numpy as np

from .. import _pixflow as _P

HOLD = 4   # a step up undone within HOLD windows did not hold (the back-off doubles)


class Ladder:
    def __init__(self, rungs, budget_ms, window=8, up_frac=0.5, start=0, costs=None, min_gain=0.1,
                 up_frac_measured=0.8):
        if not rungs:
            raise _P.InvalidArgument("latency budget: no usable precision variant to run")
        budget = float(budget_ms)
        if not budget > 0:   # also NaN
            raise _P.InvalidArgument(f"--latency-budget {budget_ms}: the budget must be > 0 ms")
        if int(window) < 1:
            raise _P.InvalidArgument(f"ladder window {window}; it must be >= 1")
        if not 0 < float(up_frac) < 1:
            raise _P.InvalidArgument(f"ladder up_frac {up_frac}; it must be in (0, 1)")
        if not 0 < float(up_frac_measured) < 1:
            raise _P.InvalidArgument(f"ladder up_frac_measured {up_frac_measured}; it must be in (0, 1)")
        if not float(min_gain) < 1:   # negative: slower rungs are kept too
            raise _P.InvalidArgument(f"--ladder-min-gain {min_gain}; it must be < 1")
        self.budget, self.window, self.up_frac = budget, int(window), float(up_frac)
        self.up_frac_measured, self.min_gain = float(up_frac_measured), float(min_gain)
        self.rungs, self.dropped, self.costs = list(rungs), {}, None
        self.i = min(max(int(start), 0), len(self.rungs) - 1)
        self.lat = collections.deque(maxlen=self.window)
        self.batch = 0
        self.switches = []   # (batch index the new rung starts at, from, to, reason)
        self.backoff = [1] * len(self.rungs)   # per rung: windows of qualifying batches a step up needs
        self.calm = 0        # consecutive evaluations under the step-up threshold on this rung
        if costs is not None:
            self.calibrate(costs)

    def calibrate(self, costs):
        """Each rung's measured ms per frame ({rung: ms}), before the first batch: drops the rungs that
        are not min_gain faster than the rung above and turns on the predicted steps."""
        if self.batch:
            raise _P.InvalidArgument("ladder calibrate: the ladder has already observed batches")
        start = self.rung
        for r in self.rungs:
            c = costs.get(r)
            if c is None or not float(c) > 0:
                raise _P.InvalidArgument(f"ladder costs: {r} has no measured cost > 0 ms (got {c!r})")
        min_gain, kept = self.min_gain, [self.rungs[0]]
        for r in self.rungs[1:]:
            above = kept[-1]
            if costs[r] <= costs[above] * (1.0 - min_gain):
                kept.append(r)
            else:
                self.dropped[r] = (f"dropped: {costs[r]:.2f} ms/frame is not {min_gain:.0%} faster than "
                                   f"{above}'s {costs[above]:.2f} ms (measured at the start)")
        self.rungs = kept
        self.costs = {r: float(costs[r]) for r in kept}
        self.i = kept.index(start) if start in kept else 0
        self.backoff = [1] * len(self.rungs)

    @property
    def rung(self):
        return self.rungs[self.i]

    def _down_target(self, p90):
        if self.costs is None:
            return self.i + 1, ""
        cur = self.costs[self.rung]
        for j in range(self.i + 1, len(self.rungs)):
            pred = p90 * self.costs[self.rungs[j]] / cur
            if pred <= self.budget:
                return j, f"; predicted {pred:.1f} ms on {self.rungs[j]}"
        j = len(self.rungs) - 1
        return j, f"; predicted {p90 * self.costs[self.rungs[j]] / cur:.1f} ms on {self.rungs[j]}, the fastest"

    def _up_room(self, p90):
        """(room for a step up, its reason). With costs it predicts the upper rung's slowest batch of the
        window, not its p90: a step up that lets the tail over the budget costs more than it gains
        (measured under a CPU hog: stepping up on the predicted p90 alternated fp32 and int8 7-10 times
        in 96 batches, and each stay on fp32 put its slow batches in the p99)."""
        if self.costs is None:
            return p90 < self.budget * self.up_frac, (f"p90 {p90:.1f} ms < {self.up_frac:g} x budget "
                                                      f"{self.budget:g} ms")
        up = self.rungs[self.i - 1]
        worst = max(self.lat)
        pred = worst * self.costs[up] / self.costs[self.rung]
        return pred < self.budget * self.up_frac_measured, (
            f"slowest {worst:.1f} ms, predicted {pred:.1f} ms on {up} < {self.up_frac_measured:g} x budget "
            f"{self.budget:g} ms")

    def observe(self, per_frame_ms):
        """One batch done on the current rung; returns the rung of the next batch (and records a switch)."""
        self.batch += 1
        self.lat.append(float(per_frame_ms))
        full = len(self.lat) >= self.window
        # not full: the rest of the window counted as 0 ms gives a lower bound of the window's p90
        bound = float(np.percentile(np.asarray(list(self.lat) + [0.0] * (self.window - len(self.lat))), 90))
        p90 = float(np.percentile(np.asarray(self.lat), 90))   # the estimate the steps use
        to, why = self.i, None
        if bound > self.budget and self.i + 1 < len(self.rungs):
            to, pred = self._down_target(p90)
            over = f"over {self.window} batches" if full else (f"certain after {len(self.lat)} of {self.window} "
                                                               f"batches")
            why = f"p90 {p90:.1f} ms > budget {self.budget:g} ms {over}{pred}"
            last = self.switches[-1] if self.switches else None
            if last is not None and last[1] == self.rungs[to] and last[2] == self.rung:
                # the last step up (to -> here) is being undone: it did not hold if that was within
                # HOLD windows; then wait twice as long before the next step up from `to`
                held = self.batch - last[0]
                self.backoff[to] = self.backoff[to] * 2 if held < HOLD * self.window else 1
        elif full and self.i > 0:
            room, reason = self._up_room(p90)
            self.calm = self.calm + 1 if room else 0
            need = self.window * self.backoff[self.i]
            if room and self.calm >= need - self.window + 1:
                to, why = self.i - 1, f"{reason} over {need} batches"
        if to != self.i:
            self.switches.append((self.batch, self.rungs[self.i], self.rungs[to], why))
            self.i = to
            self.lat.clear()
            self.calm = 0
        return self.rung
