"""The GPU timing method, run here against a simulated device on a virtual clock: kernels occupy
a GPU timeline (per stream), events take the time the stream reaches them, synchronisation waits
for every stream, and the host's time passes only as the test says (each clock read costs a
microsecond, so the harness's own loops advance). Checks what a user sees: a GPU-bound call is
timed by its GPU work, a host-bound call by its host time, whatever the harness's own host work;
work hidden on a side stream fails the streams check. No figure depends on the machine's load.
(The real device runs tests/adversarial/test_timing_gpu.py.)"""

from __future__ import annotations

import types

import pytest
import torch

from hiera_core.profile import harness, timing
from hiera_core.verify.verdicts import streams_check

SPIN_CYCLES_PER_MS = 1e6
CLOCK_READ_MS = 0.001


class VirtualClock:
    """The host's clock in ms: a read costs CLOCK_READ_MS, busy work and waits move it on."""

    def __init__(self):
        self.now = 0.0

    def read_ms(self) -> float:
        self.now += CLOCK_READ_MS
        return self.now

    def perf_counter(self) -> float:
        return self.read_ms() / 1000

    def advance(self, ms: float) -> None:
        self.now += ms

    def wait_until(self, when: float) -> None:
        self.now = max(self.now, when)


class SimulatedGPU:
    def __init__(self, clock: VirtualClock):
        self.clock = clock
        self.free = {"main": 0.0, "side": 0.0}  # when each stream's queued work ends, host clock ms

    def launch(self, ms: float, stream: str = "main") -> None:
        self.free[stream] = max(self.clock.read_ms(), self.free[stream]) + ms

    def synchronize(self) -> None:
        self.clock.wait_until(max(self.free.values()))


@pytest.fixture
def clock(monkeypatch):
    virtual = VirtualClock()
    monkeypatch.setattr(timing, "time", types.SimpleNamespace(perf_counter=virtual.perf_counter))
    return virtual


@pytest.fixture
def gpu(monkeypatch, clock):
    device = SimulatedGPU(clock)

    class Event:
        def __init__(self, enable_timing=False):
            self.at = None

        def record(self):
            self.at = max(clock.read_ms(), device.free["main"])

        def synchronize(self):
            clock.wait_until(self.at)

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


def test_a_gpu_bound_call_is_timed_by_its_gpu_work(gpu):
    def call(x):
        gpu.launch(0.2)
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.bound == "gpu" and timed.median_ms == timed.gpu_median_ms
    assert timed.gpu_median_ms == pytest.approx(0.2, abs=0.005)
    assert timed.iterations >= 30 and streams_check(timed, "set").passed


def test_a_host_bound_call_is_timed_by_its_host_time_and_its_gpu_work_apart(gpu, clock):
    def call(x):
        clock.advance(0.4)  # Python and launch overhead
        gpu.launch(0.05)
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.bound == "host" and timed.median_ms == timed.host_median_ms == pytest.approx(0.4, abs=0.01)
    # the spin ahead of each call hid the host's time from the events: they see the kernel only
    assert timed.gpu_median_ms == pytest.approx(0.05, abs=0.005)
    assert streams_check(timed, "set").passed


def test_host_work_cached_on_input_pointers_is_timed_at_its_uncached_cost(gpu, clock):
    # The judge's host batches give every call inputs of its own; the baselines' must too, or a module
    # that skips host work when called again on the same input (a cache keyed on the last pointer)
    # queues faster as a baseline than as a proposal.
    last = []

    def call(x):
        clock.advance(0.01 if last == [x.data_ptr()] else 0.4)
        last[:] = [x.data_ptr()]
        gpu.launch(0.05)
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.bound == "host" and timed.median_ms == pytest.approx(0.4, abs=0.02)


def test_work_on_a_side_stream_fails_the_streams_check(gpu):
    def call(x):
        gpu.launch(0.5, stream="side")  # nothing makes the timed stream wait for it
        return x

    timed = timing.time_module(call, [torch.ones(4)], "cuda", profile=False)
    assert timed.gpu_median_ms < 0.005 and timed.host_median_ms == pytest.approx(0.5, abs=0.01)
    assert timed.median_ms == timed.host_median_ms  # and the time reported is the device's, not the events'
    check = streams_check(timed, "set")
    assert not check.passed and "side streams" in check.message
