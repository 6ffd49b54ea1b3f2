"""`hiera optimize --model M --base-url http://127.0.0.1:PORT/v1` end to end on CPU, against a real
scripted chat-completions server: real workers verify and time the model's candidates."""

import json

import pytest
from helpers.chat_server import Answer, ChatServer, Status, plan_answer, python_answer
from helpers.engine import GOOD_MODULE, WRONG_MODULE, hiera
from helpers.llm import clean_env, every_file_text, tiny_workspace

KEY = "sk-test-e2e-secret-5f3c1d"
CRITIQUE = "Bottleneck: the offset is 1.5 where the reference adds 1.0. Next change: add 1.0."


@pytest.mark.slow
def test_optimize_with_a_scripted_model(tmp_path):
    folder = tiny_workspace(tmp_path, "concurrency = 1\nsamples = 2")
    script = [Answer(plan_answer("pytorch", "one fused expression")), Answer(python_answer(WRONG_MODULE)),
              Answer(CRITIQUE), Answer(python_answer(GOOD_MODULE))]
    with ChatServer(script) as server:
        run = hiera("optimize", "tiny.py", "--device", "cpu", "--budget", "1", "--model", "scripted",
                    "--base-url", server.url, "--json", cwd=folder, env=clean_env(OPENAI_API_KEY=KEY))
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    assert result["mode"].startswith(f"HIERA: model scripted at {server.url} (from CLI flags)")
    llm = result["llm"]
    assert llm["plan_choice"]["source"] == "model" and llm["plan_choice"]["strategy"] == "one fused expression"
    assert (llm["samples"], llm["verified"], llm["valid_rate"], llm["samples_to_first_valid"]) == (2, 1, 0.5, 2)
    assert llm["stop_reason"] == "sample budget spent (2 samples)" and llm["tokens"]["total"] > 0
    assert [e["stage"] for e in llm["exchanges"]] == ["plan", "implement", "reflect", "refine"]
    assert llm["reflections"] == 1 and llm["cache_hits"] == 0 and llm["requests"]["calls"] == 4
    by_name = {c["name"]: c for c in result["candidates"]}
    assert by_name["llm.s01"]["status"] == "rejected" and by_name["llm.s01"]["failed_check"]["check"] == "values"
    assert by_name["llm.s02"]["status"] == "verified" and by_name["llm.s02"]["speedup"] > 0
    assert len(by_name) == 3  # the offline candidate raced too
    assert [point["source"] for point in llm["best_speedup_over_time"]].count("llm") == 2

    # The failed check was reviewed, and check and review reached the model before it answered with the fix.
    review = server.requests[2].last_user
    assert "Review one attempt" in review and WRONG_MODULE in review and "check 'values' failed" in review
    feedback = server.requests[3].last_user
    assert "It was rejected: check 'values' failed: output 0:" in feedback and "Reproducer: run seed" in feedback
    script = by_name["llm.s01"]["failed_check"]["script"]  # the runnable reproducer, path and text
    assert script.endswith("candidates/llm.s01.repro.py") and f"`python {script}`" in feedback
    assert "rebuild_set(task, DEVICE" in feedback
    assert f"## Review of it\n{CRITIQUE}" in feedback and "## Techniques for its bottleneck\nBottleneck by" in feedback
    assert {k.lower(): v for k, v in server.requests[0].headers.items()}["authorization"] == f"Bearer {KEY}"

    # Every prompt and answer is in the store; the key is nowhere in it, nor in the output.
    run_folder = folder / ".hiera" / "runs" / result["run"]
    exchanges = sorted((run_folder / "llm").glob("*.json"))
    assert [p.name for p in exchanges] == ["001-plan.json", "002-implement.json", "003-reflect.json", "004-refine.json"]
    stored = [json.loads(p.read_text()) for p in exchanges]
    assert [s["messages"][-1]["content"] for s in stored] == [r.last_user for r in server.requests]
    assert stored[3]["answer"] == python_answer(GOOD_MODULE)
    assert json.loads((run_folder / "llm.json").read_text())["samples_to_first_valid"] == 2
    assert KEY not in every_file_text(folder / ".hiera") and KEY not in run.stdout + run.stderr
    if result["status"] == "proposal" and result["strategy"].startswith("llm"):
        assert "class ModelNew(nn.Module)" in (run_folder / "proposal.py").read_text()


@pytest.mark.slow
def test_a_rejected_key_is_one_line_and_the_offline_run_goes_on(tmp_path):
    folder = tiny_workspace(tmp_path, 'model = "scripted"')
    with ChatServer([Status(401, f"Incorrect API key provided: {KEY}")]) as server:
        run = hiera("optimize", "tiny.py", "--device", "cpu", "--budget", "1", cwd=folder,
                    env=clean_env(OPENAI_API_KEY=KEY, OPENAI_BASE_URL=server.url))
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert lines[0] == (f"HIERA: model scripted at {server.url} (from pyproject.toml [tool.hiera]); budget 8 samples, "
                        "400000 tokens, 1800 s")
    one_line = f"{server.url} rejected the API key (401): set OPENAI_API_KEY to a valid key for this endpoint"
    assert any(line.endswith(f"{one_line}; going on with the offline candidates") for line in lines)
    assert "pytorch.compile_default" in run.stdout and "stopped: model unavailable" in run.stdout
    run_folder = next((folder / ".hiera" / "runs").iterdir())
    assert json.loads((run_folder / "llm.json").read_text())["error"]["kind"] == "llm-auth"
    assert KEY not in every_file_text(folder / ".hiera")


def test_without_a_model_the_run_says_offline_mode(tmp_path):
    folder = tiny_workspace(tmp_path)
    run = hiera("optimize", "tiny.py", "--device", "cpu", "--budget", "1", cwd=folder, env=clean_env())
    assert run.stderr.splitlines()[0] == "HIERA: no model configured, offline expert mode"
    assert not (next((folder / ".hiera" / "runs").iterdir()) / "llm.json").exists()
