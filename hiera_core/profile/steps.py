"""Timing in steps, for a judge that alternates the reference and a candidate: `BatchTimer` runs one
module's timing loop a step at a time on `FreshValues`, the same code in the judge's process and in
a candidate's runner. Imports torch when used: workers only.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict

from hiera_core.profile.attribution import _profile_ops
from hiera_core.profile.harness import HeadStart, L2Flush, _disable_l2_persistence, fix_host_allocator


class FreshValues:
    """Inputs for timed calls that no other call saw: call (j, r) gets base set j with each of its
    floating-point tensors' elements rolled by r (a circular shift in row-major order) in a new
    allocation of the task's layout. The judge picks j and r, so a cache keyed on values never
    hits, no timed call sees a verification set's values, and the judge can recompute the
    reference's output of any timed call to check the candidate's."""

    def __init__(self, base_sets: list[list]):
        self.base_sets = base_sets

    def make(self, set_index: int, roll: int) -> list:
        import torch

        fresh = []
        for value in self.base_sets[set_index]:
            if not isinstance(value, torch.Tensor):
                fresh.append(value)
                continue
            out = torch.empty_like(value)
            shift = roll % value.numel() if value.is_floating_point() and value.numel() > 1 else 0
            if shift and value.is_contiguous() and out.is_contiguous():
                # The roll as two copies straight into the new allocation (torch.roll would make a third).
                source, target = value.view(-1), out.view(-1)
                target[:-shift].copy_(source[shift:])
                target[-shift:].copy_(source[:shift])
            elif shift:
                out.copy_(torch.roll(value, shifts=-shift))
            else:
                out.copy_(value)
            fresh.append(out)
        return fresh


class _PlannedRotation:
    """`next()` over a list of planned calls, for the profiler pass."""

    def __init__(self, values: FreshValues, calls: list[tuple[int, int]]):
        self.values, self.calls, self.index = values, calls, 0

    def next(self) -> list:
        set_index, roll = self.calls[self.index % len(self.calls)]
        self.index += 1
        return self.values.make(set_index, roll)


class BatchTimer:
    """One module's timing loop as steps (warm-up, host batch, event batch, CPU batch, profile).
    The same code times the reference in the judge's process and a candidate in its runner's; the
    judge alternates their steps so that drift in clocks or load falls on both. Each step's calls
    are (set, roll) pairs the judge chose; the outputs of the last step's calls stay alive until
    the next step, so the judge can ask for any of them after the fact."""

    def __init__(self, fn: Callable, values: FreshValues, device: str):
        self.fn = fn
        self.values = values
        self.device = device
        self.outputs: list = []
        self.flush = None
        if device == "cuda":
            _disable_l2_persistence()
            self.flush = L2Flush()
        else:
            fix_host_allocator()

    def run(self, step: str, calls: list[tuple[int, int]], head_start_ms: float = 0.0) -> dict:
        """One step; `harness_ms` in its figures is the time of the harness's own work in it (making
        fresh values, releasing the last step's outputs), which the judge holds to the reference's."""
        import torch

        released = time.perf_counter()
        self.outputs = []
        release_ms = (time.perf_counter() - released) * 1000
        with torch.no_grad():
            figures = getattr(self, f"_{step}")(calls, head_start_ms)
        figures["harness_ms"] = figures.pop("make_ms", 0.0) + release_ms
        return figures

    def _sync(self) -> None:
        import torch

        if self.device == "cuda":
            torch.cuda.synchronize()

    def _warm_up(self, calls, _head_start_ms) -> dict:
        started = time.perf_counter()
        for set_index, roll in calls:
            self.outputs.append(self.fn(*self.values.make(set_index, roll)))
            self._sync()
        return {"ms": (time.perf_counter() - started) * 1000 / max(len(calls), 1)}

    def _host_batch(self, calls, _head_start_ms, noop: bool = False) -> dict:
        """Back to back, every call on its own fresh values, the whole device synchronised. `make_ms`:
        the time to make the fresh values (the judge holds it to the reference's)."""
        made = time.perf_counter()
        staged = [self.values.make(set_index, roll) for set_index, roll in calls]
        self._sync()
        start = time.perf_counter()
        if not noop:
            self.outputs = [self.fn(*args) for args in staged]
        queued = (time.perf_counter() - start) * 1000 / len(calls)
        self._sync()
        return {"done_ms": (time.perf_counter() - start) * 1000 / len(calls), "queued_ms": queued,
                "make_ms": (start - made) * 1000}

    def _noop_host_batch(self, calls, head_start_ms) -> dict:
        return self._host_batch(calls, head_start_ms, noop=True)

    def _cpu_batch(self, calls, _head_start_ms, noop: bool = False) -> dict:
        """Per call the wall clock around it; `make_ms`: the time spent making the fresh values."""
        times, make_ms = [], 0.0
        for set_index, roll in calls:
            made = time.perf_counter()
            args = self.values.make(set_index, roll)
            start = time.perf_counter()
            make_ms += (start - made) * 1000
            if not noop:
                self.outputs.append(self.fn(*args))
            times.append((time.perf_counter() - start) * 1000)
        return {"times": times, "make_ms": make_ms}

    def _noop_cpu_batch(self, calls, head_start_ms) -> dict:
        return self._cpu_batch(calls, head_start_ms, noop=True)

    def _event_batch(self, calls, head_start_ms, noop: bool = False) -> dict:
        """As timing._cuda_batch: per call the input copy, the L2 flush and the head start, then events."""
        import torch

        head_start = HeadStart(head_start_ms)
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in calls]
        host_start = time.perf_counter()
        for (set_index, roll), (start_event, end_event) in zip(calls, events):
            args = self.values.make(set_index, roll)
            self.flush()
            head_start()
            start_event.record()
            if not noop:
                self.outputs.append(self.fn(*args))
            end_event.record()
        queued = (time.perf_counter() - host_start) * 1000 / len(calls)
        torch.cuda.synchronize()
        return {"times": [start.elapsed_time(end) for start, end in events], "queued_ms": queued}

    def _noop_event_batch(self, calls, head_start_ms) -> dict:
        return self._event_batch(calls, 0.0, noop=True)

    def _tail(self, calls, head_start_ms, noop: bool = False) -> dict:
        """Per call, queued as in an event batch (input copy, L2 flush, head start) but on its own:
        once the timed stream's end event is done, how long until the whole device is (work queued
        on other streams and never waited for)."""
        import torch

        head_start = HeadStart(head_start_ms)
        tails = []
        for set_index, roll in calls:
            args = self.values.make(set_index, roll)
            end_event = torch.cuda.Event()
            torch.cuda.synchronize()
            self.flush()
            head_start()
            if not noop:
                self.outputs.append(self.fn(*args))
            end_event.record()
            end_event.synchronize()
            after = time.perf_counter()
            torch.cuda.synchronize()
            tails.append((time.perf_counter() - after) * 1000)
        return {"tails": tails}

    def _noop_tail(self, calls, head_start_ms) -> dict:
        return self._tail(calls, head_start_ms, noop=True)

    def _profile(self, calls, _head_start_ms) -> dict:
        kernel_sum, kernels, per_call = _profile_ops(self.fn, _PlannedRotation(self.values, calls), self.flush,
                                                     calls=len(calls))
        return {"kernel_sum_ms": kernel_sum, "kernels": [asdict(k) for k in kernels], "kernels_per_call": per_call}
