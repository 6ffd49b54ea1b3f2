"""`hiera plan --model M --base-url URL`: the model chooses the space, shown beside the offline
ranking; unusable answers and unreachable endpoints fall back to that ranking and say why; with no
model configured the command is the offline planner as before. The real CLI against a real
scripted chat-completions server, on CPU."""

import json
from pathlib import Path

import pytest
from helpers.chat_server import Answer, ChatServer, Status, plan_answer
from helpers.engine import copy_example, hiera
from helpers.llm import clean_env, every_file_text, tiny_workspace

from hiera_core.plan.planner import ExpertPlanner
from hiera_core.spec.model import Spec

KEY = "sk-test-plan-secret-9a71e4"
OFFLINE_FIELDS = {"planner", "workload_class", "summary", "spaces", "entries", "skipped", "choice", "regions"}


def plan_json(run) -> dict:
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def runs(folder: Path) -> list[Path]:
    return sorted((folder / ".hiera" / "runs").iterdir())


def offline_plan(run: Path) -> dict:
    """What the offline planner makes of the spec a `hiera plan` run recorded."""
    return ExpertPlanner().plan(Spec.from_dict(json.loads((run / "spec.json").read_text()))).to_dict()


def test_the_models_choice_is_shown_beside_the_offline_ranking(tmp_path):
    folder = tiny_workspace(tmp_path)
    copy_example(folder, "elementwise_chain.py")
    with ChatServer([Answer(plan_answer("pytorch", "one fused expression under torch.compile"))]) as server:
        run = hiera("plan", "elementwise_chain.py", "--device", "cpu", "--model", "M", "--base-url", server.url,
                    "--json", cwd=folder, env=clean_env(OPENAI_API_KEY=KEY))
    result = plan_json(run)
    (stored,) = runs(folder)
    offline = offline_plan(stored)
    assert result["choice"] == {"space": "pytorch", "strategy": "one fused expression under torch.compile",
                                "reason": "scripted choice", "source": "model", "problem": ""}
    assert result["planner"] == "llm" and "the model chose: pytorch / one fused expression" in result["summary"]
    # The offline ranking is all there, scores and reasons unchanged.
    assert result["spaces"] == offline["spaces"] and result["entries"] == offline["entries"]
    assert result["mode"] == f"HIERA: model M at {server.url} (from CLI flags)"
    assert result["llm"]["tokens"]["total"] > 0 and result["llm"]["error"] is None
    assert [(e["stage"], e["status"]) for e in result["llm"]["exchanges"]] == [("plan", "used")]

    # One request, to M, carrying the spec and the offline ranking, with the key as the bearer token.
    (request,) = server.requests
    assert request.body["model"] == "M"
    assert "Task elementwise_chain.py::Model" in request.last_user and "pytorch.compile_default" in request.last_user
    assert {k.lower(): v for k, v in request.headers.items()}["authorization"] == f"Bearer {KEY}"

    # The exchange and the plan are in the run's record; the key is nowhere, printed or stored.
    assert json.loads((stored / "plan.json").read_text())["choice"]["source"] == "model"
    assert json.loads((stored / "llm" / "001-plan.json").read_text())["answer"].count("scripted choice") == 1
    assert KEY not in every_file_text(folder / ".hiera") and KEY not in run.stdout + run.stderr


@pytest.mark.slow  # two CLI runs
def test_plan_model_and_precedence_as_for_optimize(tmp_path):
    # [tool.hiera] names the planning model; the environment names the model and the endpoint.
    folder = tiny_workspace(tmp_path, 'plan-model = "toml-planner"\nmodel = "toml-model"')
    script = [Answer(plan_answer("pytorch", "first")), Answer(plan_answer("pytorch", "second"))]
    with ChatServer(script) as server:
        env = clean_env(HIERA_MODEL="env-model", OPENAI_BASE_URL=server.url)
        by_layers = hiera("plan", "tiny.py", "--device", "cpu", cwd=folder, env=env)
        by_flag = hiera("plan", "tiny.py", "--device", "cpu", "--plan-model", "flag-planner", "--json",
                        cwd=folder, env=env)
    assert [r.body["model"] for r in server.requests] == ["toml-planner", "flag-planner"]
    assert by_layers.returncode == 0, by_layers.stderr
    assert by_layers.stderr.splitlines()[0] == (f"HIERA: model env-model at {server.url} (from environment), "
                                                "planning with toml-planner")
    assert "Chosen by the model: pytorch / first: scripted choice" in by_layers.stdout
    assert "Spaces (offline expert scores, the chosen one first):" in by_layers.stdout
    assert plan_json(by_flag)["choice"]["strategy"] == "second"


@pytest.mark.slow  # two CLI runs
def test_an_invalid_answer_falls_back_to_the_offline_ranking_and_says_so(tmp_path):
    folder = tiny_workspace(tmp_path)
    script = [Answer("A custom CUDA kernel, clearly."), Answer(plan_answer("custom_cuda"))]
    with ChatServer(script) as server:
        text = hiera("plan", "tiny.py", "--device", "cpu", "--model", "M", "--base-url", server.url,
                     cwd=folder, env=clean_env())
        as_json = hiera("plan", "tiny.py", "--device", "cpu", "--model", "M", "--base-url", server.url, "--json",
                        cwd=folder, env=clean_env())
    assert text.returncode == 0, text.stderr
    best = offline_plan(runs(folder)[0])["entries"][0]
    assert (f"Chosen by fallback to the offline ranking (no JSON object found (expected {{\"space\": ..., "
            f"\"strategy\": ..., \"reason\": ...}})): {best['space']} / {best['strategy']}") in text.stdout
    assert "offline ranking used (no usable answer from the model)" in text.stdout
    choice = plan_json(as_json)["choice"]
    assert choice["source"] == "fallback" and (choice["space"], choice["strategy"]) == (best["space"], best["strategy"])
    assert choice["problem"] == "space 'custom_cuda' needs a CUDA device; this run is on cpu"
    assert plan_json(as_json)["llm"]["exchanges"][0]["status"] == "invalid"


@pytest.mark.slow  # two CLI runs
def test_an_unreachable_endpoint_is_one_line_and_the_offline_ranking_is_shown(tmp_path):
    folder = tiny_workspace(tmp_path)
    with ChatServer([Status(401, f"Incorrect API key provided: {KEY}"), Status(404, "no such model")]) as server:
        rejected = hiera("plan", "tiny.py", "--device", "cpu", "--model", "M", "--base-url", server.url,
                         cwd=folder, env=clean_env(OPENAI_API_KEY=KEY))
        missing = hiera("plan", "tiny.py", "--device", "cpu", "--model", "M", "--base-url", server.url, "--json",
                        cwd=folder, env=clean_env(OPENAI_API_KEY=KEY))
    assert rejected.returncode == 0 and "Traceback" not in rejected.stderr
    one_line = f"{server.url} rejected the API key (401): set OPENAI_API_KEY to a valid key for this endpoint"
    assert f"{one_line}; showing the offline ranking" in rejected.stderr.splitlines()
    assert f"Chosen by fallback to the offline ranking ({one_line})" in rejected.stdout
    assert "Strategies (offline expert scores, the chosen one first):" in rejected.stdout
    result = plan_json(missing)
    assert result["choice"]["source"] == "fallback" and result["choice"]["problem"].startswith(
        f"model 'M' not found at {server.url} (404)")
    assert result["llm"]["error"]["kind"] == "llm-model" and missing.stderr == ""
    assert KEY not in every_file_text(folder / ".hiera") + rejected.stdout + rejected.stderr + missing.stdout


@pytest.mark.slow  # two CLI runs
def test_without_a_model_the_offline_planner_is_unchanged(tmp_path):
    folder = tiny_workspace(tmp_path)
    text = hiera("plan", "tiny.py", "--device", "cpu", cwd=folder, env=clean_env())
    as_json = hiera("plan", "tiny.py", "--device", "cpu", "--json", cwd=folder, env=clean_env())
    assert text.returncode == 0, text.stderr
    assert text.stderr.splitlines()[0] == "HIERA: no model configured, offline expert mode"
    assert text.stdout.startswith("Plan (expert): ") and "\nSpaces:\n" in text.stdout
    assert "Strategies, best first:" in text.stdout and "Chosen by" not in text.stdout
    result = plan_json(as_json)
    assert set(result) == OFFLINE_FIELDS and result["planner"] == "expert" and result["choice"] is None
    assert any(result == offline_plan(run) for run in runs(folder))  # the expert planner's plan, as it was
    assert as_json.stderr == ""
    assert not any((run / "llm.json").exists() for run in runs(folder))
