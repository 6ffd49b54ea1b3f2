"""Warm workers: started before their request, with the candidates' runners started ahead; a request
they fit runs in one and gets the answer a cold worker gives, with its output in the request's log;
nothing they start outlives the pool or the step."""

from __future__ import annotations

import os
import textwrap
import threading
import time
from pathlib import Path

import pytest
from helpers.engine import GOOD_MODULE, SIMPLE_TASK, WRONG_MODULE, workspace, write_task
from helpers.processes import descendants, runners_below, wait_until

from hiera_core.errors import HieraError
from hiera_core.store import Store
from hiera_core.worker.isolate import kill_group, process_alive, run_worker
from hiera_core.worker.requests import BenchTimeRequest, PrepareRequest
from hiera_core.worker.warm import WarmPool

# The reference prints, so its output shows in the step's log.
TASK = textwrap.dedent(SIMPLE_TASK.replace("return torch.relu(x)", "print(\"the reference's forward ran\")\n"
                                                                   "            return torch.relu(x)")).lstrip()


@pytest.fixture
def pool(tmp_path):
    warm = WarmPool(tmp_path / "warm", device="cpu")
    yield warm
    warm.close()


@pytest.fixture
def task(tmp_path):
    folder = workspace(tmp_path)
    path = write_task(folder, "task.py", TASK)
    good = write_task(folder, "good.py", TASK + "\n\n" + GOOD_MODULE.split("\n\n\n", 1)[1] + "\n")
    wrong = write_task(folder, "wrong.py", TASK + "\n\n" + WRONG_MODULE.split("\n\n\n", 1)[1] + "\n")
    return path, good, wrong


def _retime_request(path: Path, proposals: list[Path], cache_root: str | None = None) -> BenchTimeRequest:
    return BenchTimeRequest(address=str(path), device="cpu", cache_root=cache_root,
                            proposal_paths=[str(p) for p in proposals], time_reference=False)


def test_a_request_in_a_warm_worker_gets_the_cold_workers_answer_and_its_log(task, pool, tmp_path):
    path, good, wrong = task
    pool.add(1, 2)
    worker = pool._idle[0]
    wait_until(lambda: len(runners_below(worker.process.pid)) == 2)  # started before any request exists
    request = _retime_request(path, [good, wrong])
    warm_log, cold_log = tmp_path / "warm.log", tmp_path / "cold.log"
    warm = run_worker(request, timeout_s=120, doing="re-timing", log_path=warm_log,
                      claimed=pool.claim(None, request, None))
    cold = run_worker(request, timeout_s=120, doing="re-timing", log_path=cold_log)
    assert [p.check.correct for p in warm.proposals] == [p.check.correct for p in cold.proposals] == [True, False]
    assert "the reference's forward ran" in warm_log.read_text()
    assert not process_alive(worker.process.pid)
    assert not list((tmp_path / "warm").iterdir())  # its log moved to the request's


def test_only_a_request_the_warm_worker_was_started_for_is_sent_to_it(task, pool, tmp_path):
    path, good, _ = task
    pool.add(1, 1)
    # Another store (inductor's caches are set before torch is imported), another device.
    assert pool.claim(None, _retime_request(path, [good], str(tmp_path / "other")), None) is None
    assert pool.claim(None, PrepareRequest(address=str(path), device="cuda"), None) is None
    assert pool.claim(None, _retime_request(path, [good]), None) is not None
    assert pool.claim(None, _retime_request(path, [good]), None) is None  # none left


def test_a_claim_starts_a_replacement_only_while_replacements_last(task, pool):
    path, good, _ = task
    request = _retime_request(path, [good])
    pool.add(1, 1)
    pool.replacements = 1
    first = pool.claim(None, request, None)
    wait_until(lambda: pool._idle)  # the replacement, started from the pool's thread
    second = pool.claim(None, request, None)
    assert first is not None and second is not None and pool.claim(None, request, None) is None
    assert pool.started(runners=1) == 2
    for worker in (first, second):
        kill_group(worker.process)


def test_a_replacement_outlives_the_thread_whose_claim_started_it(task, pool):
    # A child's parent-death signal fires when the thread that started it ends: a candidate's thread
    # ends before the replacement its claim started is claimed by the next wave.
    path, good, _ = task
    pool.add(1, 1)
    pool.replacements = 1
    claimed: list = []

    def candidate_thread():
        claimed.append(pool.claim(None, _retime_request(path, [good]), None))
        # As a candidate's evaluation: the thread lives on past the replacement's start.
        wait_until(lambda: pool._idle and runners_below(pool._idle[0].process.pid))

    thread = threading.Thread(target=candidate_thread)
    thread.start()
    thread.join()
    kill_group(claimed[0].process)
    replacement = pool._idle[0].process
    time.sleep(1.0)
    assert replacement.poll() is None
    assert pool.claim(None, _retime_request(path, [good]), None).process is replacement
    kill_group(replacement)


def test_a_warm_worker_that_died_while_waiting_is_not_claimed(task, pool):
    path, good, _ = task
    pool.add(1, 1)
    os.killpg(pool._idle[0].process.pid, 9)
    pool._idle[0].process.wait(timeout=10)
    assert pool.claim(None, _retime_request(path, [good]), None) is None


def test_closing_the_pool_ends_every_unclaimed_worker_and_its_runners(pool):
    pool.add(2, 2)
    leaders = [worker.process.pid for worker in pool._idle]
    wait_until(lambda: all(len(runners_below(pid)) == 2 for pid in leaders))
    processes = leaders + [pid for leader in leaders for pid in descendants(leader)]
    pool.close()
    wait_until(lambda: not any(process_alive(pid) for pid in processes), timeout=15)
    pool.add(1, 1)  # a closed pool starts nothing
    assert pool.started(runners=1) == 0


def test_closing_the_pool_ends_a_claimed_worker_whose_request_never_came(task, pool):
    path, good, _ = task
    pool.add(1, 1)
    claimed = pool.claim(None, _retime_request(path, [good]), None)
    # Closed at once: the parent-death signal, set by the worker once it runs, would not end it.
    pool.close()
    wait_until(lambda: not process_alive(claimed.process.pid), timeout=15)


def test_a_claimed_worker_that_hangs_is_stopped_with_its_runners(task, pool):
    path, _, _ = task
    hangs = write_task(path.parent, "hangs.py", TASK + "\n\nimport time\nwhile True:\n    time.sleep(1)\n")
    pool.add(1, 1)
    worker = pool._idle[0]
    wait_until(lambda: runners_below(worker.process.pid))
    processes = [worker.process.pid, *descendants(worker.process.pid)]
    request = _retime_request(path, [hangs])
    with pytest.raises(HieraError, match="did not finish within 20 s") as caught:
        run_worker(request, timeout_s=20, doing="re-timing", claimed=pool.claim(None, request, None))
    assert caught.value.kind == "timeout"
    wait_until(lambda: not any(process_alive(pid) for pid in processes), timeout=15)


def test_optimize_runs_its_candidates_and_confirmation_in_warm_workers_and_leaves_none(tmp_path, monkeypatch):
    from hiera_core.loop.optimize import optimize
    from hiera_core.loop.session import Settings

    path = write_task(workspace(tmp_path), "task.py", TASK)
    claims: list[tuple[str, bool]] = []
    claim = WarmPool.claim

    def recorded(self, python, request, placement):
        worker = claim(self, python, request, placement)
        claims.append((request.op, worker is not None))
        return worker

    monkeypatch.setattr(WarmPool, "claim", recorded)
    started: list[WarmPool] = []
    add = WarmPool.add
    monkeypatch.setattr(WarmPool, "add", lambda self, count, runners: (started.append(self), add(self, count, runners)))
    result = optimize(str(path), Settings(device="cpu", budget=1, warm_workers=1, cache=False), lambda event: None)
    assert result.status in ("proposal", "no_improvement")
    # The reference's step starts its own worker; the candidate and the confirmation get warm ones.
    assert claims[0] == ("evaluate", True)
    assert ("bench_time", True) in claims or result.status == "no_improvement"
    assert not started[0]._idle  # the unclaimed ones were killed, and their logs removed
    assert not list(Store.for_file(path).run(result.run).path.joinpath("logs", "warm").iterdir())


@pytest.mark.parametrize("memory_mib, warm", [(143771, 4), (81559, 4), (24576, 1), (12288, 0), (None, 0)])
def test_a_gpu_gets_as_many_warm_workers_as_its_memory_holds_contexts_for(memory_mib, warm, tmp_path, monkeypatch):
    from hiera_core.loop.session import default_warm_workers

    if memory_mib is not None:  # else no nvidia-smi on PATH: the GPU's memory cannot be told
        script = tmp_path / "nvidia-smi"
        script.write_text(f"#!/bin/sh\necho 'NVIDIA GPU, 580.159.04, 1980, 3201, 1980, 3201, P0, 41, 121, 700, "
                          f"{memory_mib}'\n")
        script.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert default_warm_workers("cuda", 4) == warm
    assert default_warm_workers("cpu", 4) == 0
