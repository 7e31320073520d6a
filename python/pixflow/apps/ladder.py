"""The precision ladder of `python -m pixflow detect --latency-budget MS`.

A controller over the rungs the accuracy contract accepted (most accurate
first: fp32, fp16, int8, minus the refused or unbuilt ones). After each batch
it gets the batch's per-frame latency; over the last ``window`` batches run on
the current rung it takes the p90 and

* steps one rung down when p90 > budget;
* steps one rung up when p90 < budget * up_frac (hysteresis: the faster rung
  must leave enough room that the slower one fits, or the two would alternate);
* otherwise stays.

The window is emptied at each switch, so a switch needs ``window`` fresh
batches on the new rung: at most one switch per window. A step up that had
to be undone (the next switch went back down) doubles the number of
consecutive qualifying batches the next step up from that rung needs
(window, 2 x window, 4 x window, ...; back to one window when a step up
held for HOLD windows or more): without it a load between the two rungs
alternates them every two windows (measured: 7 switches in 24 batches under
the CPU hog of docs/performance.md). Each switch is recorded with the batch
index and its reason, for the stage table and the trace."""
import collections

import numpy as np

from .. import _pixflow as _P

HOLD = 4   # a step up undone within HOLD windows did not hold (the back-off doubles)


class Ladder:
    def __init__(self, rungs, budget_ms, window=8, up_frac=0.5, start=0):
        if not rungs:
            raise _P.InvalidArgument("latency budget: no usable precision variant to run")
        budget = float(budget_ms)
        if not budget > 0:   # also NaN
            raise _P.InvalidArgument(f"--latency-budget {budget_ms}: the budget must be > 0 ms")
        if int(window) < 1:
            raise _P.InvalidArgument(f"ladder window {window}; it must be >= 1")
        if not 0 < float(up_frac) < 1:
            raise _P.InvalidArgument(f"ladder up_frac {up_frac}; it must be in (0, 1)")
        self.rungs, self.budget, self.window, self.up_frac = list(rungs), budget, int(window), float(up_frac)
        self.i = min(max(int(start), 0), len(self.rungs) - 1)
        self.lat = collections.deque(maxlen=self.window)
        self.batch = 0
        self.switches = []   # (batch index the new rung starts at, from, to, reason)
        self.backoff = [1] * len(self.rungs)   # per rung: windows of qualifying batches a step up needs
        self.calm = 0        # consecutive evaluations under the step-up threshold on this rung

    @property
    def rung(self):
        return self.rungs[self.i]

    def observe(self, per_frame_ms):
        """One batch done on the current rung; returns the rung of the next batch (and records a switch)."""
        self.batch += 1
        self.lat.append(float(per_frame_ms))
        if len(self.lat) < self.window:
            return self.rung
        p90 = float(np.percentile(np.asarray(self.lat), 90))
        to, why = self.i, None
        self.calm = self.calm + 1 if p90 < self.budget * self.up_frac else 0
        need = self.window * self.backoff[self.i]
        if p90 > self.budget and self.i + 1 < len(self.rungs):
            to, why = self.i + 1, f"p90 {p90:.1f} ms > budget {self.budget:g} ms over {self.window} batches"
            last = self.switches[-1] if self.switches else None
            if last is not None and last[1] == self.rungs[to] and last[2] == self.rung:
                # the last step up (to -> here) is being undone: it did not hold if that was within
                # HOLD windows; then wait twice as long before the next step up from `to`
                held = self.batch - last[0]
                self.backoff[to] = self.backoff[to] * 2 if held < HOLD * self.window else 1
        elif self.i > 0 and self.calm >= need - self.window + 1:
            to, why = self.i - 1, (f"p90 {p90:.1f} ms < {self.up_frac:g} x budget {self.budget:g} ms over "
                                   f"{need} batches")
        if to != self.i:
            self.switches.append((self.batch, self.rungs[self.i], self.rungs[to], why))
            self.i = to
            self.lat.clear()
            self.calm = 0
        return self.rung
