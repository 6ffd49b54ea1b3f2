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


WAITING_WORKER = """
import sys, time
from hiera_core.worker import devicelock
devicelock.report_waits_to(sys.argv[2])
with devicelock.timing(sys.argv[1]):  # queued behind the test's hold on the device
    time.sleep(float(sys.argv[3]))  # its own work
"""


def _worker(tmp_path, lock: str, own_s: float):
    import subprocess
    import sys

    result = tmp_path / "result.json"
    process = subprocess.Popen([sys.executable, "-c", WAITING_WORKER, lock, str(result), str(own_s)])
    return process, result.with_name(devicelock.WAITS_FILE)


def _hold(lock: str, seconds: float) -> threading.Thread:
    held = threading.Event()

    def hold():
        with devicelock.timing(lock):
            held.set()
            time.sleep(seconds)

    thread = threading.Thread(target=hold)
    thread.start()
    assert held.wait(5)
    return thread


def test_a_workers_wait_for_the_device_does_not_count_against_its_time_limit(tmp_path):
    """Queued 4 s behind another candidate's timing, a worker with 3 s of its own limit and 0.5 s of
    its own work finishes; the record says how long it waited."""
    from hiera_core.worker.isolate import wait_own_time

    lock = str(tmp_path / "device.lock")
    holder = _hold(lock, 4.0)
    started = time.monotonic()
    process, waits = _worker(tmp_path, lock, 0.5)
    assert wait_own_time(process, 3.0, started, waits) == 0
    holder.join()
    assert 3.0 < devicelock.waited_seconds(waits, time.monotonic()) < 6.0
    assert time.monotonic() - started > 4.0


def test_a_worker_over_its_own_time_limit_is_still_stopped(tmp_path):
    import subprocess

    from hiera_core.worker.isolate import wait_own_time

    lock = str(tmp_path / "device.lock")
    holder = _hold(lock, 1.0)
    started = time.monotonic()
    process, waits = _worker(tmp_path, lock, 30.0)  # waits 1 s, then works far past its limit
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            wait_own_time(process, 3.0, started, waits)
        assert time.monotonic() - started < 10.0
    finally:
        process.kill()
        process.wait()
        holder.join()


def test_a_forged_wait_record_buys_at_most_the_limit_again(tmp_path):
    """A record claiming a wait since the machine started (written by a hostile candidate's process,
    say) extends a hanging worker's 2 s limit to 4 s at most: it is still stopped."""
    import json
    import subprocess
    import sys

    from hiera_core.worker.isolate import wait_own_time

    waits = tmp_path / devicelock.WAITS_FILE
    waits.write_text(json.dumps({"waited_s": 1e9, "since": 0.0}))
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            wait_own_time(process, 2.0, started, waits)
        assert 3.5 < time.monotonic() - started < 15.0
    finally:
        process.kill()
        process.wait()


def test_a_candidate_that_ran_out_of_memory_beside_others_is_evaluated_again_alone(monkeypatch):
    """KernelBench's large shapes: side by side, every candidate of a 6 GiB-a-call softmax ran out of
    GPU memory. Each such one gets a second evaluation with the device to itself, whose outcome
    replaces the first in the run's record; the others are not evaluated again."""
    from types import SimpleNamespace

    import hiera_core.loop.evaluate as evaluate_module
    from hiera_core.loop.run_result import CandidateOutcome

    session = SimpleNamespace(lock=threading.Lock(), state=SimpleNamespace(candidates=[]), emit=lambda event: None)
    calls: list[tuple[str, bool]] = []

    def run_candidate(session, candidate, spec, index, total, device_lock=None, alone=False):
        calls.append((candidate["name"], alone))
        if candidate["name"] == "big" and not alone:
            outcome = CandidateOutcome(name="big", status="failed", reason="ran out of memory",
                                       failed_check={"check": "oom", "message": "CUDA out of memory"})
        else:
            outcome = CandidateOutcome(name=candidate["name"], status="verified", speedup=1.5)
        with session.lock:
            session.state.candidates.append(vars(outcome))
        return outcome, 1

    monkeypatch.setattr(evaluate_module, "run_candidate", run_candidate)
    candidates = [{"name": "small"}, {"name": "big"}, {"name": "other"}]
    outcomes = evaluate_module.evaluate_candidates(session, None, candidates, "device.lock", jobs=3)
    assert [(o.name, o.status) for o in outcomes] == [("small", "verified"), ("big", "verified"), ("other", "verified")]
    assert sorted(calls) == [("big", False), ("big", True), ("other", False), ("small", False)]
    assert sorted(record["name"] for record in session.state.candidates) == ["big", "other", "small"]
    # Evaluated alone already (no lock: one at a time, nothing beside the loop), there is no retry.
    calls.clear()
    outcomes = evaluate_module.evaluate_candidates(session, None, [{"name": "big"}], None, jobs=1)
    assert outcomes[0].status == "failed" and calls == [("big", False)]


def test_candidates_of_a_task_that_fills_the_gpu_are_evaluated_one_at_a_time(monkeypatch):
    from types import SimpleNamespace

    import hiera_core.bench.environment as environment
    from hiera_core.loop.session import jobs_within_memory

    monkeypatch.setattr(environment, "gpu_snapshot", lambda gpu=None: {"memory_total_mib": 81559})  # an H100
    assert jobs_within_memory(3, SimpleNamespace(call_bytes=6 << 30)) == 1  # a (4096, 393216) softmax
    assert jobs_within_memory(3, SimpleNamespace(call_bytes=64 << 20)) == 3
    monkeypatch.setattr(environment, "gpu_snapshot", lambda gpu=None: {})  # nvidia-smi cannot say
    assert jobs_within_memory(3, SimpleNamespace(call_bytes=6 << 30)) == 3
