"""Candidates evaluated side by side: each compiles and verifies while others may, timing is one at
a time on the device, and the results are the serial run's."""

from __future__ import annotations

import threading
import time

import pytest

from hiera_core.loop.evaluate import evaluate_side_by_side
from hiera_core.loop.session import default_jobs
from hiera_core.worker import devicelock


def test_outcomes_keep_the_plans_order_and_a_slow_candidate_holds_only_its_own_thread():
    finished: list[str] = []

    def evaluate(index, candidate):
        if candidate == "hangs":
            time.sleep(1.0)  # until its worker's time limit, in a real run
        finished.append(candidate)
        return f"{candidate}:{index}"

    candidates = ["hangs", "fast", "also-fast"]
    assert evaluate_side_by_side(candidates, evaluate, jobs=3) == ["hangs:0", "fast:1", "also-fast:2"]
    assert finished[-1] == "hangs"  # the others did not wait for it
    assert evaluate_side_by_side(candidates[1:], evaluate, jobs=1) == ["fast:0", "also-fast:1"]


def test_a_candidate_that_raises_stops_the_run_as_in_a_serial_run():
    def evaluate(index, candidate):
        if candidate == "bug":
            raise KeyboardInterrupt
        return candidate

    with pytest.raises(KeyboardInterrupt):
        evaluate_side_by_side(["ok", "bug", "ok2"], evaluate, jobs=2)


def test_verifications_share_the_device_and_timing_has_it_alone(tmp_path):
    lock = str(tmp_path / "device.lock")
    log: list[str] = []
    inside = threading.Barrier(2, timeout=5)

    def verify(name):
        with devicelock.verifying(lock):
            inside.wait()  # both hold the shared lock at once, or this times out
            log.append(f"verified {name}")

    threads = [threading.Thread(target=verify, args=(n,)) for n in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(log) == ["verified a", "verified b"]

    timing_started = threading.Event()
    release = threading.Event()

    def time_one():
        with devicelock.timing(lock):
            timing_started.set()
            release.wait(5)
            log.append("timed")

    timer = threading.Thread(target=time_one)
    timer.start()
    assert timing_started.wait(5)
    waiting = threading.Thread(target=verify, args=("late",))
    inside = threading.Barrier(1, timeout=5)
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive()  # a verification waits while a candidate is timed
    release.set()
    timer.join()
    waiting.join(5)
    assert log[-2:] == ["timed", "verified late"]


def test_without_a_lock_file_nothing_is_locked():
    with devicelock.verifying(None), devicelock.timing(None):
        pass


def test_default_jobs_per_device(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(16)))
    assert default_jobs("cuda") == 4 and default_jobs("cpu") == 1
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    assert default_jobs("cuda") == 1
