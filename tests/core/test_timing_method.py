"""The GPU timing method, run here against a simulated device: kernels occupy a virtual GPU
timeline (per stream), events take the time the stream reaches them, synchronisation waits for
every stream. Checks what a user sees: a GPU-bound call is timed by its GPU work, a host-bound
call by its host time, whatever the harness's own host work; work hidden on a side stream fails
the streams check. (The real device runs tests/adversarial/test_timing_gpu.py.)"""

from __future__ import annotations

import time

import pytest
import torch

from hiera_core.profile import harness, timing
from hiera_core.verify.verdicts import streams_check

SPIN_CYCLES_PER_MS = 1e6


def _now_ms() -> float:
    return time.perf_counter() * 1000


class SimulatedGPU:
    def __init__(self):
        self.free = {"main": 0.0, "side": 0.0}  # when each stream's queued work ends, host clock ms

    def launch(self, ms: float, stream: str = "main") -> None:
        self.free[stream] = max(_now_ms(), self.free[stream]) + ms

    def wait_until(self, when: float) -> None:
        while _now_ms() < when:
            pass

    def synchronize(self) -> None:
        self.wait_until(max(self.free.values()))


@pytest.fixture
def gpu(monkeypatch):
    device = SimulatedGPU()

    class Event:
        def __init__(self, enable_timing=False):
            self.at = None

        def record(self):
            self.at = max(_now_ms(), device.free["main"])

        def synchronize(self):
            device.wait_until(self.at)

        def elapsed_time(self, end):
            return end.at - self.at

    class Flush:
        def __call__(self):
            device.launch(0.01)

    monkeypatch.setattr(torch.cuda, "Event", Event)
    monkeypatch.setattr(torch.cuda, "synchronize", device.synchronize)
    monkeypatch.setattr(torch.cuda, "_sleep", lambda cycles: device.launch(cycles / SPIN_CYCLES_PER_MS))
    monkeypatch.setattr(timing, "L2Flush", Flush)
    monkeypatch.setattr(timing, "_disable_l2_persistence", lambda: None)
    monkeypatch.setattr(harness.HeadStart, "cycles_per_ms", None)
    return device


def _busy(ms: float) -> None:
    end = _now_ms() + ms
    while _now_ms() < end:
        pass


def test_a_gpu_bound_call_is_timed_by_its_gpu_work(gpu):
    def call(x):
        gpu.launch(0.2)
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.bound == "gpu" and timed.median_ms == timed.gpu_median_ms
    assert 0.19 <= timed.gpu_median_ms < 0.3
    assert timed.iterations >= 30 and streams_check(timed, "set").passed


def test_a_host_bound_call_is_timed_by_its_host_time_and_its_gpu_work_apart(gpu):
    def call(x):
        _busy(0.4)  # Python and launch overhead
        gpu.launch(0.05)
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.bound == "host" and timed.median_ms == timed.host_median_ms >= 0.4
    assert timed.gpu_median_ms < 0.2  # the spin ahead of each call hid the host's time from the events
    assert streams_check(timed, "set").passed


def test_work_on_a_side_stream_fails_the_streams_check(gpu):
    def call(x):
        gpu.launch(0.5, stream="side")  # nothing makes the timed stream wait for it
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.gpu_median_ms < 0.05 and timed.host_median_ms >= 0.45
    assert timed.median_ms >= 0.45  # and the time reported is the device's, not the events'
    check = streams_check(timed, "set")
    assert not check.passed and "side streams" in check.message
