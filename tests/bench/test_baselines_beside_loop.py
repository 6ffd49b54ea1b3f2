"""`hiera bench` on a GPU times a task's baselines (eager, each torch.compile mode) beside its optimize
loop, once the loop has prepared its reference; the record is the one a task timed after its loop
gets, and a loop that fails stops the baselines' worker. Run here on the CPU with warm workers turned
on, as a GPU would have them."""

from __future__ import annotations

import os
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.engine import SIMPLE_TASK, workspace, write_task
from helpers.processes import command_line, descendants, wait_until

import hiera_core.bench.task_run as task_run
from hiera_core.bench.baselines import BaselineTiming
from hiera_core.bench.suite import BenchTask
from hiera_core.bench.task_run import BenchSettings, run_task
from hiera_core.bench.worker_ops import op_bench_time
from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Event
from hiera_core.worker.requests import BenchTimeRequest
from hiera_core.worker.warm import WarmPool

TASK = textwrap.dedent(SIMPLE_TASK).lstrip()


def _workers() -> set[int]:
    return {pid for pid in descendants(os.getpid()) if "hiera_core.worker.ops" in command_line(pid)}


@pytest.fixture
def earlier_workers():
    """Worker processes already running (another test's) when the test starts: not this test's leftovers."""
    return _workers()


@pytest.fixture
def task(tmp_path, monkeypatch):
    monkeypatch.setattr(task_run, "default_warm_workers", lambda device, jobs, placement: 1)
    path = write_task(workspace(tmp_path), "task.py", TASK)
    return BenchTask(id="level1/1_task.py", path=str(path), level=1)


class _Pool:
    def __init__(self):
        self.claims = 0

    def claim(self, python, request, placement):
        self.claims += 1


def test_the_baselines_start_once_the_reference_is_prepared_and_only_once(tmp_path):
    pool = _Pool()
    baselines = BaselineTiming({"address": "task.py", "device": "cpu"}, ["default"], str(tmp_path / "lock"), tmp_path,
                               pool, doing="timing", log_path=tmp_path / "log", placement=None)
    baselines.on_event(Event("stage", stage="spec", message="running the reference"))
    assert pool.claims == 0
    baselines.on_event(Event("stage", stage="plan", message="the plan"))
    baselines.on_event(Event("stage", stage="plan", message="the plan again"))
    assert pool.claims == 1
    assert not baselines.started  # no warm worker was left: the bench times them after the loop


def test_an_autotuning_mode_compiles_only_once_the_loop_is_done(task, tmp_path, monkeypatch):
    """A gated mode (hiera bench's max-autotune: its autotuning would hold the device for minutes while
    the loop's candidates wait to be timed) waits for the gate; the modes before it do not."""
    # Compiled in this process (a worker's op, run in a thread): its own inductor folder, whatever
    # earlier tests in this process left in inductor's state (full runs failed here with
    # "BackendCompilerFailed: backend='inductor' raised:", never alone or with tests/bench; inductor's
    # global precompiled headers, once found built wrong, are off for the tests: conftest).
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    gate = tmp_path / "loop-done"
    request = BenchTimeRequest(address=task.path, device="cpu", compile_modes=["default"], gated_modes=["default"],
                               gate=str(gate), time_reference=False)
    with ThreadPoolExecutor(max_workers=1) as pool:
        timed = pool.submit(op_bench_time, request)
        time.sleep(2.0)
        gate.touch()
        result = timed.result(timeout=300)
    assert result.seconds["wait_for_gate"] >= 1.5
    assert result.compile["default"] is not None and result.compile["default"].median_ms > 0, result.compile_errors


def test_a_task_timed_beside_its_loop_records_every_baseline_and_the_proposal(task, tmp_path, earlier_workers):
    events: list[Event] = []
    settings = BenchSettings(device="cpu", budget=1, timeout_s=300)
    record = run_task(task, settings, {}, tmp_path / "out", events.append)
    assert record.error is None, record.error
    assert "bench_baselines" in record.worker_s and "compile_default" in record.worker_s["bench_baselines"]
    assert record.correct and record.eager_ms > 0 and record.compile_ms > 0 and record.hiera_ms > 0
    assert record.speedup_compile is not None
    timing = [e.message for e in events if e.stage == "profile" and e.progress == 0.99]
    assert timing == ["timing the proposal; the baselines began beside the loop"]
    wait_until(lambda: not _workers() - earlier_workers, timeout=10)


def _never_ending_task(folder):
    """A reference whose calls never end: its baselines would run to their time limit if left alone."""
    return write_task(folder, "slow.py", TASK.replace("return torch.relu(x)", "time.sleep(3600)\n"
                                                      "        return torch.relu(x)").replace("import torch",
                                                                                              "import time\nimport torch", 1))


def test_baselines_unfinished_within_the_limit_after_the_loop_are_stopped_with_a_timeout(tmp_path, earlier_workers):
    slow = _never_ending_task(workspace(tmp_path))
    pool = WarmPool(tmp_path / "warm", device="cpu")
    try:
        pool.add(1, 0)
        baselines = BaselineTiming({"address": str(slow), "device": "cpu"}, ["default"], str(tmp_path / "lock"),
                                   tmp_path, pool, doing="timing slow.py's baselines", log_path=tmp_path / "log",
                                   placement=None)
        baselines.start()
        assert baselines.started
        baselines.loop_done()
        with pytest.raises(HieraError) as raised:
            baselines.result(timeout_s=2)
        assert raised.value.kind == ErrorKind.TIMEOUT and "of the loop's end" in str(raised.value)
        assert not _workers() - earlier_workers
    finally:
        pool.close()


def test_a_mode_unfinished_at_the_limit_is_recorded_as_failed_and_the_figures_timed_stand(task, tmp_path,
                                                                                           earlier_workers):
    """max-autotune still compiling when the limit after the loop comes (here: its gate never opens,
    as a compile that never ends): eager's figure stands, the mode is recorded as failed with why."""
    pool = WarmPool(tmp_path / "warm", device="cpu")
    try:
        pool.add(1, 0)
        baselines = BaselineTiming({"address": task.path, "device": "cpu"}, ["max-autotune-no-cudagraphs"],
                                   str(tmp_path / "lock"), tmp_path, pool, doing="timing task.py's baselines",
                                   log_path=tmp_path / "log", placement=None)
        baselines.start()
        wait_until(lambda: (tmp_path / "baselines-so-far.json").exists(), timeout=120)  # eager timed
        result = baselines.result(timeout_s=1)
        assert result.eager is not None and result.eager.median_ms > 0
        assert result.compile == {"max-autotune-no-cudagraphs": None}
        assert "did not finish compiling and timing within 1 s" in result.compile_errors["max-autotune-no-cudagraphs"]
        assert not _workers() - earlier_workers
    finally:
        pool.close()


def test_a_loop_that_fails_after_its_plan_stops_the_baselines_worker(task, tmp_path, monkeypatch, earlier_workers):
    slow = _never_ending_task(tmp_path)

    def failing_optimize(path, settings, emit):
        emit(Event("stage", stage="plan", message="the plan"))
        time.sleep(1.0)  # the baselines' worker has its request
        raise HieraError("the loop failed", kind=ErrorKind.CRASH)

    monkeypatch.setattr(task_run, "optimize", failing_optimize)
    started = time.monotonic()
    record = run_task(BenchTask(id="level1/2_slow.py", path=str(slow), level=1),
                      BenchSettings(device="cpu", budget=1, timeout_s=300), {}, tmp_path / "out", lambda e: None)
    assert record.outcome == "error" and record.error["stage"] == "optimize"
    assert "the loop failed" in record.error["message"]
    assert time.monotonic() - started < 120  # stopped, not waited for
    assert not _workers() - earlier_workers
