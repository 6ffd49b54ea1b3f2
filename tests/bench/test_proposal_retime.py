"""The bench's timing of a proposal: one of the judge's checks failing in its fresh process gets one
more process, and the second verdict stands (as in the loop's confirmation); a proposal failing
KernelBench's own check is not timed again."""

from __future__ import annotations

from pathlib import Path

import pytest

import hiera_core.bench.task_run as task_run
from hiera_core.bench.suite import BenchTask
from hiera_core.bench.task_run import BenchSettings
from hiera_core.profile.stats import Timing
from hiera_core.worker.requests import BenchTimeRequest, BenchTimeResult, KernelBenchCheck, ProposalTiming

TIMING = Timing(device="cuda", median_ms=0.1, mean_ms=0.1, min_ms=0.1, stdev_ms=0.0, iqr_ms=0.0, iterations=10,
                host_median_ms=0.1, method="events")
PASSED = KernelBenchCheck(correct=True, message="5 random trials within atol = rtol = 0.01", max_abs_error=1e-6, trials=5)
JUDGE = KernelBenchCheck(correct=False, message="while timed: revalidation: 1 of 802816 values out of tolerance",
                         max_abs_error=1.5e-3, trials=None, failed_in="judge")
TRIALS = KernelBenchCheck(correct=False, message="2 of 5 random trials outside the tolerance", max_abs_error=0.5,
                          trials=None, failed_in="trials")


def _result(check: KernelBenchCheck) -> BenchTimeResult:
    timed = check.correct
    return BenchTimeResult(environment={}, eager=TIMING, compile={"default": TIMING},
                           proposals=[ProposalTiming("/p.py", check, TIMING if timed else None, TIMING if timed else None)])


@pytest.fixture
def verdicts(monkeypatch):
    """The checks the fresh processes answer with, in turn; the requests they were sent."""
    answers: list[KernelBenchCheck] = []
    requests: list[BenchTimeRequest] = []

    def run_worker(request, **_):
        requests.append(request)
        return _result(answers.pop(0))

    monkeypatch.setattr(task_run, "run_worker", run_worker)
    return answers, requests


def _time() -> BenchTimeResult:
    request = BenchTimeRequest(address="task.py", device="cuda", proposal_paths=["/p.py"], compile_modes=["default"])
    return task_run._time(request, None, BenchSettings(device="cuda", budget=4, timeout_s=60),
                          BenchTask(id="level1/1_task.py", path="task.py", level=1), Path("log"), None)


def test_a_judge_check_failing_once_gets_a_second_process_whose_verdict_stands(verdicts):
    answers, requests = verdicts
    answers += [JUDGE, PASSED]
    timed = _time()
    assert timed.proposals[0].check.correct and timed.proposals[0].hiera is not None
    assert timed.compile["default"] is not None  # the baselines of the first process are kept
    # the second process times the proposal only
    assert len(requests) == 2 and requests[1].compile_modes == [] and not requests[1].time_reference


def test_a_judge_check_failing_twice_leaves_the_proposal_invalid(verdicts):
    answers, requests = verdicts
    answers += [JUDGE, JUDGE]
    assert not _time().proposals[0].check.correct
    assert len(requests) == 2


def test_a_proposal_failing_kernelbenchs_check_is_not_timed_again(verdicts):
    answers, requests = verdicts
    answers += [TRIALS]
    assert _time().proposals[0].check.failed_in == "trials"
    assert len(requests) == 1
