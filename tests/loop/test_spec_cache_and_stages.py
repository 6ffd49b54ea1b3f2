"""Issue 24: the reference's spec cached in the store by content and versions, inductor's caches in
the store, and each candidate's own progress stages (compile, verify, time) in the event stream."""

from __future__ import annotations

import json
import threading
import time

import pytest
from click.testing import CliRunner
from helpers.engine import SIMPLE_TASK, workspace, write_task

from hiera_core.cli import main as cli
from hiera_core.events import CANDIDATE_STAGES, following_stages, stage_announcer
from hiera_core.loop import reference as engine
from hiera_core.loop.optimize import optimize
from hiera_core.loop.reference import cached_prepared, spec_cache_parts
from hiera_core.loop.session import Session, Settings
from hiera_core.store import Store, cache_key, source_digest
from hiera_core.worker.isolate import store_cache_environment


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """An offline CPU optimize of a small module, twice (cold, then warm), with no inductor or
    Triton folder of the user's: (workspace, [(result, events), ...] as JSON)."""
    folder = workspace(tmp_path_factory.mktemp("cached"))
    task = write_task(folder, "simple.py", SIMPLE_TASK)
    runs = []
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
        patch.delenv("TRITON_CACHE_DIR", raising=False)
        for _ in range(2):
            events = []
            result = optimize(str(task), Settings(device="cpu", budget=1), events.append)
            runs.append((result.to_dict(), [json.loads(event.to_json()) for event in events]))
    return folder, runs


@pytest.mark.slow
def test_a_second_run_on_an_unchanged_module_uses_the_cached_spec_and_says_so(two_runs):
    folder, ((first, _), (second, second_events)) = two_runs
    assert not first["spec_cache"]["used"] and "measured and cached" in first["spec_cache"]["note"]
    key = first["spec_cache"]["key"]
    assert second["spec_cache"]["used"] and second["spec_cache"]["key"] == key
    # The reference was not run again: no prepare step at all.
    assert "prepare" in first["worker_seconds"] and "prepare" not in second["worker_seconds"]
    # Nor any candidate (their outcomes and the confirmation are cached too: hiera_core.loop.outcome_cache).
    assert second["worker_seconds"] == {} and all(c["cache"]["used"] for c in second["candidates"])
    said = [e["message"] for e in second_events if e["event"] == "stage" and e["stage"] == "spec"]
    assert len(said) == 1 and said[0].startswith(f"spec from cache (key {key[:12]}, measured ")
    runs = folder / ".hiera" / "runs"
    assert json.loads((runs / second["run"] / "run.json").read_text())["spec_cache"]["used"]
    first_spec, second_spec = (json.loads((runs / r["run"] / "spec.json").read_text()) for r in (first, second))
    assert second_spec == first_spec
    assert [c["name"] for c in second["candidates"]] == [c["name"] for c in first["candidates"]]


@pytest.mark.slow
def test_workers_keep_inductors_caches_in_the_store(two_runs):
    folder, _ = two_runs
    inductor = folder / ".hiera" / "cache" / "inductor"
    assert inductor.is_dir() and any(path.is_file() for path in inductor.rglob("*"))


@pytest.mark.slow
def test_each_candidate_reports_its_stages_in_order_before_its_outcome(two_runs):
    folder, runs = two_runs
    for result, events in runs:
        assert result["candidates"]
        recorded = [json.loads(line) for line in
                    (folder / ".hiera" / "runs" / result["run"] / "events.jsonl").read_text().splitlines()]
        assert [e["event"] for e in recorded] == [e["event"] for e in events]
        for outcome in result["candidates"]:
            mine = [(i, e) for i, e in enumerate(events)
                    if e["event"] == "stage" and e.get("data", {}).get("candidate") == outcome["name"]]
            stages = [e["data"]["candidate_stage"] for _, e in mine]
            if (outcome["cache"] or {}).get("used"):  # the warm run's outcomes: nothing compiled, verified or timed
                assert stages == [], stages
                continue
            if outcome["status"] == "verified":
                assert stages == list(CANDIDATE_STAGES), stages
            else:
                assert stages == list(CANDIDATE_STAGES[:len(stages)]) and stages, stages
            assert all(outcome["name"] in e["message"] for _, e in mine)
            done = next(i for i, e in enumerate(events) if e["event"] == "candidate"
                        and e["data"]["name"] == outcome["name"])
            assert mine[-1][0] < done
            progress = [e["progress"] for _, e in mine]
            assert progress == sorted(progress) and 0.4 <= progress[0] and progress[-1] < 0.95


# ---- the cache's key, each part of it -----------------------------------------------------------

HELPED_TASK = SIMPLE_TASK.replace("    import torch.nn as nn\n", "    import torch.nn as nn\n    from helpers import OFFSET\n")


@pytest.fixture
def keyed(tmp_path, two_runs, monkeypatch):
    """A module importing a sibling, a real prepared result to hand out as the worker's, and
    prepare(**settings) -> (prepared, whether the worker ran), on a pretend H200."""
    folder = workspace(tmp_path)
    write_task(folder, "helpers.py", "OFFSET = 1.0\n")
    write_task(folder, "notes.py", "TEXT = 'not imported'\n")
    task = write_task(folder, "simple.py", HELPED_TASK)
    source_folder, ((first, _), _) = two_runs
    entry = Store(source_folder).read_cache(engine.SPEC_CACHE, first["spec_cache"]["key"])
    monkeypatch.setattr(engine, "worker_versions", lambda python: {"torch": "2.13.0", "custom_cuda": True})
    monkeypatch.setattr(engine, "device_model", lambda settings: "NVIDIA H200")

    def prepare(path=task, **settings):
        session = Session(str(path), "optimize", Settings(**{"device": "cuda", "budget": 1, **settings}),
                          lambda event: None)
        ran = []

        def worker(kind, doing, log_name, **arguments):
            ran.append(kind.op)
            return kind.result_type.from_dict(json.loads(json.dumps(entry["prepared"])))
        session.worker = worker
        return engine.prepare_reference(session), bool(ran), session
    return folder, task, prepare


CHANGES = {
    "source": lambda folder, task, patch: task.write_text(task.read_text().replace("+ 1.0", "+ 2.0")),
    "imported sibling": lambda folder, task, patch: (folder / "helpers.py").write_text("OFFSET = 2.0\n"),
    "torch version": lambda folder, task, patch: patch.setattr(
        engine, "worker_versions", lambda python: {"torch": "2.14.0", "custom_cuda": True}),
    "custom CUDA installed": lambda folder, task, patch: patch.setattr(
        engine, "worker_versions", lambda python: {"torch": "2.13.0", "custom_cuda": False}),
    "GPU": lambda folder, task, patch: patch.setattr(engine, "device_model", lambda settings: "NVIDIA H100 80GB HBM3"),
    "hiera version": lambda folder, task, patch: patch.setattr(engine, "hiera_version", lambda: "0.1.0+edited"),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_source_sibling_torch_gpu_or_hiera_misses_the_cache(keyed, monkeypatch, change):
    folder, task, prepare = keyed
    assert prepare()[1]  # measured, and cached
    assert not prepare()[1]  # unchanged: from the cache
    CHANGES[change](folder, task, monkeypatch)
    assert prepare()[1], f"a changed {change} must be measured afresh"
    assert not prepare()[1]  # and that is cached in turn


@pytest.mark.parametrize("settings", [{"budget": 2}, {"device": "cpu"}, {"gpu": "a100"}])
def test_settings_that_shape_the_spec_miss_the_cache(keyed, settings):
    _, _, prepare = keyed
    assert prepare()[1] and not prepare()[1]
    assert prepare(**settings)[1]


def test_an_unrelated_sibling_or_a_renamed_copy_still_hits(keyed):
    folder, task, prepare = keyed
    assert prepare()[1]
    (folder / "notes.py").write_text("TEXT = 'changed, and still not imported'\n")
    assert not prepare()[1]
    copy = folder / "copy_of_simple.py"
    copy.write_text(task.read_text())
    prepared, ran, session = prepare(copy)
    assert not ran and prepared.spec.file == str(copy)
    assert source_digest(copy) == source_digest(task)


def test_no_cache_measures_afresh_and_caches_that(keyed):
    _, _, prepare = keyed
    assert prepare()[1] and not prepare()[1]
    _, ran, session = prepare(cache=False)
    assert ran and "measured and cached" in session.state.spec_cache["note"]
    assert not prepare()[1]


@pytest.mark.parametrize("damage", ["garbage", "half written", "not a prepared spec", "other parts"])
def test_a_corrupt_or_partial_entry_is_measured_afresh_and_replaced(keyed, damage):
    folder, _, prepare = keyed
    _, _, session = prepare()
    key = session.state.spec_cache["key"]
    path = session.store.cache_path(engine.SPEC_CACHE, key)
    text = path.read_text()
    entry = json.loads(text)
    path.write_text({"garbage": "\x00\x01 not json",
                     "half written": text[:len(text) // 2],
                     "not a prepared spec": json.dumps({**entry, "prepared": {"spec": {"file": "x"}}}),
                     "other parts": json.dumps({**entry, "parts": {**entry["parts"], "torch": "1.0"}})}[damage])
    _, ran, session = prepare()
    assert ran  # no crash: measured again
    parts, _ = spec_cache_parts(session)
    assert cache_key(parts) == key and cached_prepared(session.store.read_cache(engine.SPEC_CACHE, key), parts)
    assert not prepare()[1]


def test_no_cache_flag_reaches_the_run(tmp_path, monkeypatch):
    folder = workspace(tmp_path)
    task = write_task(folder, "simple.py", SIMPLE_TASK)
    seen = []

    def fake_optimize(address, settings, emit):
        seen.append(settings.cache)
        return {"status": "no_improvement"}
    monkeypatch.setattr(cli, "optimize", fake_optimize)
    for flags, cache in (([], True), (["--no-cache"], False)):
        CliRunner().invoke(cli.main, ["optimize", str(task), "--device", "cpu", "--json", *flags])
        assert seen[-1] is cache


def test_inductor_and_triton_caches_go_to_the_store_and_headers_stay_unshared_unless_the_user_says(tmp_path):
    # a worker's environment, not this process's: inductor here would keep the folder for later tests
    env = {"TRITON_CACHE_DIR": "/my/triton"}
    store_cache_environment(env, str(tmp_path / "cache"))
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "cache" / "inductor")
    assert env["TRITON_CACHE_DIR"] == "/my/triton"
    assert env["TORCHINDUCTOR_CPP_CACHE_PRECOMPILE_HEADERS"] == "0"  # global headers, once built wrong
    mine = {"TORCHINDUCTOR_CPP_CACHE_PRECOMPILE_HEADERS": "1"}
    store_cache_environment(mine, None)
    assert mine == {"TORCHINDUCTOR_CPP_CACHE_PRECOMPILE_HEADERS": "1"}


# ---- stages: the worker's file, followed -----------------------------------------------------------

def test_following_a_stage_file_reports_every_stage_once_in_order(tmp_path):
    path = tmp_path / "candidate.stages.jsonl"
    announce = stage_announcer(path)
    seen: list[str] = []

    def worker():
        announce("compile")
        time.sleep(0.4)  # past one poll
        with open(path, "a") as handle:
            handle.write("not json\n{\"stage\": \"sneaky\"}\n")
        announce("verify")
        announce("time")  # just before the step ends: reported after the block

    with following_stages(path, seen.append):
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
    assert seen == ["compile", "verify", "time"]


def test_the_progress_message_names_every_candidate_in_flight(tmp_path):
    folder = workspace(tmp_path)
    task = write_task(folder, "simple.py", SIMPLE_TASK)
    events = []
    session = Session(str(task), "optimize", Settings(device="cpu"), events.append)
    session.candidate_stage("a", "compile", 0, 3)
    session.candidate_stage("b", "compile", 1, 3)
    session.candidate_stage("a", "time", 0, 3)
    session.candidate_finished("a")
    session.candidate_stage("b", "verify", 1, 3)
    messages = [event.message for event in events]
    assert messages == ["compiling a (1/3)", "compiling b (2/3); compiling a (1/3)",
                        "timing a (1/3); compiling b (2/3)", "verifying b (2/3)"]
    progress = [event.progress for event in events]
    assert progress == sorted(progress)
    assert events[-1].data["in_flight"] == {"b": "verify"} and events[-1].data["candidate_stage"] == "verify"
