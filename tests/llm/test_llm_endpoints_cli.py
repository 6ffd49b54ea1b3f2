"""The model loop survives any endpoint (issue 20), end to end on CPU against the scripted server:
bodies that are not chat completions, answers far past max-answer-tokens, a server that never
answers planning, candidates that hang; budgets hold; an interrupted run closes its exchanges."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.chat_server import Answer, ChatServer, Hang, Raw, plan_answer, python_answer
from helpers.engine import GOOD_MODULE, hiera
from helpers.llm import LLM_VARIABLES, clean_env, tiny_workspace

from hiera_core.events import discard
from hiera_core.llm.config import Overrides
from hiera_core.loop.optimize import optimize
from hiera_core.loop.session import Session, Settings
from hiera_core.store import Store
from hiera_core.worker.isolate import process_alive

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


def hanging_module(pid_file: Path) -> str:
    """GOOD_MODULE whose forward records its worker's PID, then spins."""
    return GOOD_MODULE.replace("        return torch.clamp(x, min=0) * self.scale + 1.0",
                               f"        import os\n        open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                               "        while True:\n            pass")


def llm_run(folder: Path) -> tuple[dict, dict]:
    store = Store(folder)
    [run_id] = store.runs()
    run = store.run(run_id)
    return run.read_json("run.json"), run.read_json("llm.json")


def test_plan_with_a_200_that_is_not_json_falls_back_without_a_traceback(tmp_path):
    folder = tiny_workspace(tmp_path)
    with ChatServer([Raw(b"<html><body>upstream timed out</body></html>")]) as server:
        run = hiera("plan", "tiny.py", "--device", "cpu", "--model", "scripted", "--base-url", server.url,
                    "--json", cwd=folder, env=clean_env())
    # Before: exit 1 with "AttributeError: 'str' object has no attribute 'choices'".
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    choice = json.loads(run.stdout)["choice"]
    assert choice["source"] == "fallback"
    assert choice["problem"].startswith("the server's answer is not a chat completion: '<html><body>upstream")


def test_planning_that_never_answers_does_not_hold_the_offline_candidates(tmp_path):
    folder = tiny_workspace(tmp_path, "request-timeout = 600\nconcurrency = 1\nsamples = 3\nreflection = false")
    with ChatServer([], then=Hang()) as server:
        run = hiera("optimize", "tiny.py", "--device", "cpu", "--budget", "1", "--model", "scripted",
                    "--base-url", server.url, "--time-budget", "16", "--json", cwd=folder, env=clean_env())
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr
    result = json.loads(run.stdout)
    llm = result["llm"]
    plan, *samples = llm["exchanges"]
    assert plan["status"] == "error" and plan["reason"].startswith("no answer")
    assert plan["done_s"] <= 8 + 5  # planning's own deadline: half the time budget (not 600 s x retries)
    # The offline candidate's evaluation began while planning was out (before: once it gave up).
    [offline] = [point for point in llm["best_speedup_over_time"] if point["source"] == "offline"]
    began = offline["t_s"] - result["worker_seconds"][offline["candidate"]]["total"]
    assert began < plan["done_s"]
    # Every request ended by the time budget, however long the request timeout.
    assert all(exchange["done_s"] <= 16 + 5 for exchange in llm["exchanges"])
    assert llm["stop_reason"] == "time budget spent (16 s)"


def test_huge_answers_and_a_hanging_candidate_stay_within_the_budgets(tmp_path):
    folder = tiny_workspace(tmp_path, "concurrency = 1\nsamples = 3\ntoken-budget = 60000\nreflection = false")
    pid_file = tmp_path / "candidate.pid"
    script = [Answer(plan_answer()), Answer("z" * 5_000_000),  # refused unread
              Answer(python_answer(GOOD_MODULE) + "#" * 4000, completion_tokens=1_310_000),  # cut, counted 8192
              Answer(python_answer(hanging_module(pid_file)))]
    with ChatServer(script) as server:
        run = hiera("optimize", "tiny.py", "--device", "cpu", "--budget", "1", "--model", "scripted",
                    "--base-url", server.url, "--time-budget", "75", "--timeout", "300", "--json",
                    cwd=folder, env=clean_env())
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr
    result = json.loads(run.stdout)
    llm = result["llm"]
    first, second, third = [e for e in llm["exchanges"] if e["stage"] != "plan"]
    assert first["status"] == "error" and "more than max-answer-tokens (8192) can hold: refused" in first["reason"]
    assert second["status"] == "verified"
    assert llm["tokens"]["total"] <= 60000  # before: 1.31M counted against the budget
    run_folder = next((folder / ".hiera" / "runs").iterdir())
    stored = json.loads((run_folder / second["record"]).read_text())
    assert (stored["completion_tokens"], stored["finish_reason"]) == (8192, "length")
    assert sum(path.stat().st_size for path in run_folder.rglob("*") if path.is_file()) < 2_000_000
    # The hanging candidate was stopped when the time budget ran out, not at --timeout (300 s).
    assert third["status"] == "not evaluated" and "time budget spent" in third["reason"]
    [hung] = [c for c in result["candidates"] if c["name"] == third["candidate"]]
    seconds = int(re.search(r"did not finish within (\d+) s", hung["reason"])[1])
    assert seconds <= 75
    assert not process_alive(int(pid_file.read_text()))


def test_a_hung_candidates_limit_derives_from_the_reference(tmp_path, monkeypatch):
    for name in LLM_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    folder = tiny_workspace(tmp_path, "concurrency = 1\nsamples = 1")
    pid_file = tmp_path / "candidate.pid"
    with ChatServer([Answer(plan_answer()), Answer(python_answer(hanging_module(pid_file)))]) as server:
        settings = Settings(device="cpu", budget=1, timeout_s=600, candidate_floor_s=8,
                            llm=Overrides(model="scripted", base_url=server.url))
        result = optimize(str(folder / "tiny.py"), settings, discard)
    [hung] = [c for c in result.candidates if c.name == "llm.s01"]
    # The tiny reference takes microseconds: its candidates get the floor, not the 600 s of --timeout.
    assert hung.status == "failed" and "did not finish within 8 s" in hung.reason
    assert not process_alive(int(pid_file.read_text()))


def test_the_limit_is_the_reference_time_times_calls_between_floor_and_timeout(tmp_path):
    folder = tiny_workspace(tmp_path)
    session = Session(str(folder / "tiny.py"), "optimize", Settings(timeout_s=600, candidate_floor_s=120), discard)

    def limit(reference_ms):
        return session.candidate_time_limit(type("SpecStub", (), {"reference_ms": reference_ms})())[0]

    assert (limit(0.05), limit(20.0), limit(1000.0), limit(None)) == (120, 200, 600, 600)


def test_ctrl_c_while_the_model_plans_closes_its_exchange(tmp_path):
    folder = tiny_workspace(tmp_path)
    with ChatServer([], then=Hang()) as server:
        env = {**clean_env(), "PYTHONPATH": str(REPO)}
        cli = subprocess.Popen([sys.executable, "-m", "hiera_core.cli.main", "optimize", "tiny.py", "--device", "cpu",
                                "--budget", "1", "--model", "scripted", "--base-url", server.url],
                               cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.1)
            assert server.requests, "planning never asked the model"
            cli.send_signal(signal.SIGINT)
            _, stderr = cli.communicate(timeout=60)
        finally:
            cli.kill()
    assert cli.returncode == 130 and "Aborted!" not in stderr and "Traceback" not in stderr, stderr
    record, llm = llm_run(folder)
    assert record["status"] == "interrupted" and record["finished"]
    assert llm["stop_reason"] == "interrupted (Ctrl-C (SIGINT))"
    assert [e["status"] for e in llm["exchanges"]] == ["interrupted"]
    assert os.path.exists(folder / ".hiera" / "index")
