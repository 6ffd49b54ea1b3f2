"""Issue 24: a second run on an unchanged module evaluates no candidate. Each candidate's outcome
(its verdict, checks and timing) and the fresh-process confirmation of the best are cached in the
store; a changed module, torch version or --no-cache evaluates again; a failed worker is never
cached; a corrupt entry is replaced. `hiera spec` and `hiera plan` share optimize's spec cache.

The workers are stood in for (the orchestrator's only way to run user code is hiera_core.worker.isolate's
run_worker): each test counts what would have run, and the prepared spec is a real one, built once."""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import replace

import pytest
from click.testing import CliRunner
from helpers.engine import SIMPLE_TASK, workspace, write_task

from hiera_core.cli import main as cli
from hiera_core.errors import HieraError
from hiera_core.loop import reference
from hiera_core.loop import session as engine
from hiera_core.loop.optimize import optimize
from hiera_core.loop.outcome_cache import CONFIRMATION_CACHE, OUTCOME_CACHE
from hiera_core.loop.session import Settings
from hiera_core.profile.stats import Timing
from hiera_core.propose.proposal_file import parse_header
from hiera_core.store import Store
from hiera_core.task.load import split_address
from hiera_core.verify.verdicts import Check, Verification
from hiera_core.worker.requests import (
    BenchTimeResult,
    EvaluateResult,
    KernelBenchCheck,
    PrepareResult,
    ProposalTiming,
    WorkerRequest,
)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A real `prepare` result for SIMPLE_TASK on the CPU, with a second candidate beside its own."""
    from hiera_core.worker.ops import op_prepare
    from hiera_core.worker.requests import PrepareRequest

    folder = workspace(tmp_path_factory.mktemp("prepared"))
    task = write_task(folder, "simple.py", SIMPLE_TASK)
    result = op_prepare(PrepareRequest(address=str(task), device="cpu", implement=True, budget=4))
    first = result.candidates[0]
    result.candidates = [first, replace(first, name=f"{first.name}_again", code=first.code + "\n# again\n")]
    return result


def timing(ms: float) -> Timing:
    return Timing(device="cpu", median_ms=ms, mean_ms=ms, min_ms=ms, stdev_ms=ms / 100, iqr_ms=ms / 100,
                  iterations=5, host_median_ms=ms, method="wall-clock")


class Workers:
    """Stands in for run_worker: counts each op (evaluations by candidate); `evaluate` answers with a
    verified 2x (0.5 ms against 1 ms) unless `answers[name]` says otherwise: a HieraError is raised
    (the worker failed), a check's name rejects the candidate by that check."""

    def __init__(self, prepared: PrepareResult):
        self.prepared = prepared
        self.answers: dict[str, object] = {}
        self.calls: list[str] = []
        self.evaluated: list[str] = []

    def __call__(self, request: WorkerRequest, **options):
        op = request.op
        self.calls.append(op)
        if op == "prepare":
            result = copy.deepcopy(self.prepared)
            result.spec.file = split_address(request.address)[0]
            return result
        if op == "bench_time":
            return BenchTimeResult(environment={}, proposals=[
                ProposalTiming(path, KernelBenchCheck(True, "5 random trials", 0.0, 5), hiera=timing(0.5),
                               eager=timing(1.0)) for path in request.proposal_paths])
        assert op == "evaluate", op
        name = next(c.name for c in self.prepared.candidates if c.code == request.candidate_source)
        self.evaluated.append(name)
        answer = self.answers.get(name)
        if isinstance(answer, HieraError):
            raise answer
        checks = [Check("static", True)]
        if isinstance(answer, str):
            checks.append(Check(answer, False, f"{answer} failed", "seed 1"))
        return EvaluateResult(verification=Verification(not answer, checks, input_sets=5, max_abs_error=1e-7),
                              speedup=2.0, candidate=timing(0.5), baseline=timing(1.0), significant=True,
                              timing_verdict="faster beyond the spread", seconds={"evaluate": 0.1})


@pytest.fixture
def task(tmp_path):
    return write_task(workspace(tmp_path), "simple.py", SIMPLE_TASK)


@pytest.fixture
def workers(prepared, monkeypatch):
    fake = Workers(prepared)
    monkeypatch.setattr(engine, "run_worker", fake)
    return fake


def run(task, **settings) -> tuple[dict, list[dict]]:
    """One offline CPU optimize: (its result, its events), as JSON."""
    events = []
    result = optimize(str(task), Settings(**{"device": "cpu", "budget": 4, **settings}), events.append)
    return result.to_dict(), [json.loads(event.to_json()) for event in events]


def evaluations_of(workers: Workers, task, **settings) -> list[str]:
    """The candidates one run evaluates."""
    before = len(workers.evaluated)
    run(task, **settings)
    return workers.evaluated[before:]


def test_a_second_run_on_an_unchanged_module_evaluates_no_candidate_and_says_so(task, workers):
    first, _ = run(task)
    names = [c.name for c in workers.prepared.candidates]
    assert sorted(workers.evaluated) == sorted(names) and first["status"] == "proposal"
    assert workers.calls.count("bench_time") == 1
    calls = len(workers.calls)

    second, events = run(task)
    assert workers.calls[calls:] == []  # no worker at all: spec, outcomes and confirmation from the cache
    assert [c["name"] for c in second["candidates"]] == [c["name"] for c in first["candidates"]]
    for outcome, before in zip(second["candidates"], first["candidates"]):
        assert outcome["cache"]["used"] and outcome["cache"]["run"] == first["run"]
        assert {k: v for k, v in outcome.items() if k != "cache"} == {k: v for k, v in before.items() if k != "cache"}
    said = [e["message"] for e in events if e["event"] == "log"]
    for outcome in second["candidates"]:
        cache = outcome["cache"]
        assert (f"candidate {outcome['name']}: outcome from cache (key {cache['key'][:12]}, evaluated "
                f"{cache['evaluated']} in run {first['run']}; --no-cache re-evaluates)") in said
    assert not any(e["event"] == "stage" and "candidate_stage" in e.get("data", {}) for e in events)
    shown = [e["message"] for e in events if e["event"] == "candidate"]  # the lines a terminal and the editor show
    assert sorted(shown) == sorted(f"{c['name']}: verified, 0.5 ms vs 1 ms eager (2.00x) (from cache, evaluated "
                                   f"{c['cache']['evaluated']})" for c in second["candidates"])
    recorded = json.loads((Store(task.parent).root / "runs" / second["run"] / "run.json").read_text())
    assert all(c["cache"]["used"] for c in recorded["candidates"])
    assert second["outcome_cache"]["used"] == [c["name"] for c in second["candidates"]]
    assert second["outcome_cache"]["evaluated"] == []


def test_a_warm_proposal_says_its_confirmed_figure_is_from_an_earlier_run(task, workers):
    first, _ = run(task)
    assert "re-timed in a fresh process" in first["message"] and "earlier" not in first["message"]
    second, _ = run(task)
    confirmed = first["confirmation"]["confirmed"]
    assert second["confirmation"]["cache"]["used"] and second["speedup"] == first["speedup"]
    assert f"confirmed earlier ({confirmed}) in a fresh process" in second["message"]
    runs = Store(task.parent).root / "runs"
    header = parse_header((runs / second["run"] / "proposal.py").read_text())
    assert f"confirmed earlier ({confirmed}) in a fresh process" in header.speedup
    assert header.cached.startswith("outcome evaluated ") and f"(run {first['run']})" in header.cached
    assert parse_header((runs / first["run"] / "proposal.py").read_text()).cached == ""


def test_no_cache_evaluates_and_confirms_again_and_caches_that(task, workers):
    run(task)
    calls = len(workers.calls)
    result, _ = run(task, cache=False)
    assert sorted(workers.calls[calls:]) == ["bench_time", "evaluate", "evaluate", "prepare"]
    assert not any(c["cache"]["used"] for c in result["candidates"]) and "earlier" not in result["message"]
    calls = len(workers.calls)
    warm, _ = run(task)
    assert workers.calls[calls:] == []
    assert {c["cache"]["run"] for c in warm["candidates"]} == {result["run"]}


def changed_source(task, patch) -> dict:
    task.write_text(task.read_text().replace("+ 1.0", "+ 2.0"))
    return {}


def changed_torch(task, patch) -> dict:
    patch.setattr(reference, "worker_versions", lambda python: {"torch": "2.99.0", "custom_cuda": False})
    return {}


# Each makes a change and returns the settings of the runs after it.
CHANGES = {"source": changed_source, "torch version": changed_torch,
           "timeout": lambda task, patch: {"timeout_s": 300.0}}


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_source_torch_version_or_timeout_evaluates_again(task, workers, monkeypatch, change):
    assert len(evaluations_of(workers, task)) == 2
    assert evaluations_of(workers, task) == []
    settings = CHANGES[change](task, monkeypatch)
    assert len(evaluations_of(workers, task, **settings)) == 2, f"a changed {change} must evaluate again"
    assert evaluations_of(workers, task, **settings) == []  # and that is cached in turn


def test_a_changed_candidate_alone_is_evaluated_again(task, workers, prepared):
    run(task)
    workers.prepared = copy.deepcopy(prepared)
    workers.prepared.candidates[1].code += "# edited\n"
    shutil.rmtree(Store(task.parent).cache_root / "spec")  # so the spec is prepared anew, with the edited candidate
    assert evaluations_of(workers, task) == [prepared.candidates[1].name]


@pytest.mark.parametrize("failure", [
    HieraError("the worker did not finish within 120 s", kind="timeout"),
    HieraError("the worker crashed (signal 11)", kind="crash"),
    "timeout", "timing-window"])
def test_a_failed_worker_or_an_unsettled_rejection_is_not_cached(task, workers, failure):
    name = workers.prepared.candidates[0].name
    workers.answers[name] = failure
    first, _ = run(task)
    outcome = next(c for c in first["candidates"] if c["name"] == name)
    assert outcome["status"] in ("failed", "rejected") and not outcome["cache"]["used"]
    assert outcome["cache"]["note"].startswith("not cached")
    assert evaluations_of(workers, task) == [name]  # the other candidate came from the cache


def test_a_rejection_by_the_candidates_own_outputs_is_cached(task, workers):
    name = workers.prepared.candidates[0].name
    workers.answers[name] = "values"
    first, _ = run(task)
    assert next(c for c in first["candidates"] if c["name"] == name)["status"] == "rejected"
    second, _ = run(task)
    assert evaluations_of(workers, task) == []
    rejected = next(c for c in second["candidates"] if c["name"] == name)
    assert rejected["status"] == "rejected" and rejected["reason"] == "values: values failed" and rejected["cache"]["used"]


def test_a_failed_re_timing_is_not_cached(task, workers, monkeypatch):
    def failing_retime(request, **options):
        if request.op == "bench_time":
            workers.calls.append(request.op)
            raise HieraError("the re-timing worker crashed", kind="crash")
        return workers(request, **options)
    monkeypatch.setattr(engine, "run_worker", failing_retime)
    first, _ = run(task)
    assert first["confirmation"]["unsettled"] and first["status"] == "no_improvement"
    monkeypatch.setattr(engine, "run_worker", workers)
    calls = len(workers.calls)
    second, _ = run(task)
    assert workers.calls[calls:] == ["bench_time"] and second["status"] == "proposal"
    assert "earlier" not in second["message"]


@pytest.mark.parametrize("damage", ["garbage", "half written", "not an outcome", "other parts", "a failure"])
def test_a_corrupt_outcome_entry_is_evaluated_again_and_replaced(task, workers, damage):
    first, _ = run(task)
    name, key = first["candidates"][0]["name"], first["candidates"][0]["cache"]["key"]
    path = Store(task.parent).cache_path(OUTCOME_CACHE, key)
    text = path.read_text()
    entry = json.loads(text)
    path.write_text({"garbage": "\x00\x01 not json",
                     "half written": text[:len(text) // 2],
                     "not an outcome": json.dumps({**entry, "outcome": {"name": name, "status": "verified"}}),
                     "other parts": json.dumps({**entry, "parts": {**entry["parts"], "time_limits": {}}}),
                     "a failure": json.dumps({**entry, "outcome": {**entry["outcome"], "status": "failed"}})}[damage])
    assert evaluations_of(workers, task) == [name]
    assert json.loads(path.read_text())["outcome"]["status"] == "verified"  # replaced by a good entry
    assert evaluations_of(workers, task) == []


def test_a_corrupt_confirmation_entry_is_re_timed_and_replaced(task, workers):
    run(task)
    folder = Store(task.parent).cache_root / CONFIRMATION_CACHE
    (entry_path,) = folder.glob("*.json")
    entry_path.write_text('{"format": 1, "parts": ')
    calls = len(workers.calls)
    run(task)
    assert workers.calls[calls:] == ["bench_time"]
    assert json.loads(entry_path.read_text())["confirmation"]["held"]


# ---- hiera spec and hiera plan share the spec cache --------------------------------------------------

def cli_run(*args: str) -> dict:
    outcome = CliRunner().invoke(cli.main, [*args, "--device", "cpu", "--json"])
    assert outcome.exit_code == 0, outcome.output
    return json.loads(outcome.output)


@pytest.mark.parametrize("command", ["spec", "plan"])
def test_spec_and_plan_use_the_spec_cache_and_no_cache_measures_afresh(task, workers, command):
    first = cli_run(command, str(task))
    assert workers.calls == ["prepare"]
    assert cli_run(command, str(task)) == first and workers.calls == ["prepare"]
    assert cli_run(command, str(task), "--no-cache") == first and workers.calls == ["prepare", "prepare"]


def test_a_spec_built_by_hiera_spec_serves_the_next_optimize(task, workers):
    cli_run("spec", str(task))
    result, _ = run(task)
    assert workers.calls.count("prepare") == 1 and result["spec_cache"]["used"]
