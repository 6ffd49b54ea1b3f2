"""`hiera optimize --resume RUN`: a run interrupted by Ctrl-C while the model was out, continued
against the same scripted server, which counts every request: nothing answered before is asked
again (the answers replay from the cache), nothing evaluated before is evaluated again."""

import json
import signal
import subprocess
import sys
import time

import pytest
from helpers.chat_server import Answer, ChatServer, Hang, plan_answer, python_answer
from helpers.engine import GOOD_MODULE, WRONG_MODULE, hiera
from helpers.llm import clean_env, tiny_workspace

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]


def interrupt_at_request(folder, server, count: int, *args: str, evaluated: tuple[str, ...] = ()) -> None:
    """Start `hiera optimize ARGS` and send it SIGINT once the server has received `count` requests
    and the candidates `evaluated` have their records (an evaluation cut short is done again)."""
    env = {**clean_env(OPENAI_API_KEY="sk-test-resume"), "PYTHONPATH": str(REPO)}
    cli = subprocess.Popen([sys.executable, "-m", "hiera_core.cli.main", "optimize", *args], cwd=folder, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        def ready() -> bool:
            records = {path.stem for path in (folder / ".hiera" / "runs").glob("*/candidates/*.json")}
            return len(server.requests) >= count and records >= set(evaluated)

        while not ready() and time.monotonic() < deadline and cli.poll() is None:
            time.sleep(0.1)
        assert len(server.requests) == count, f"the run sent {len(server.requests)} requests, not {count}"
        cli.send_signal(signal.SIGINT)
        _, stderr = cli.communicate(timeout=60)
    finally:
        cli.kill()
    assert cli.returncode == 130, stderr


@pytest.mark.slow
def test_an_interrupted_run_resumes_without_asking_or_evaluating_again(tmp_path):
    folder = tiny_workspace(tmp_path, "concurrency = 1\nsamples = 2\nreflection = false")
    # Plan, a wrong first draft (rejected), then the refinement request hangs: Ctrl-C while it is out.
    with ChatServer([Answer(plan_answer()), Answer(python_answer(WRONG_MODULE))], then=Hang()) as server:
        interrupt_at_request(folder, server, 3, "tiny.py", "--device", "cpu", "--budget", "1", "--model", "scripted",
                             "--base-url", server.url, evaluated=("pytorch.compile_default", "llm.s01"))
        [interrupted] = list((folder / ".hiera" / "runs").iterdir())
        assert json.loads((interrupted / "run.json").read_text())["status"] == "interrupted"
        hung = server.requests[2]

        server.script, server.then = [Answer(python_answer(GOOD_MODULE))], Answer("no more answers scripted")
        run = hiera("optimize", "--resume", interrupted.name, "--json", cwd=folder,
                    env=clean_env(OPENAI_API_KEY="sk-test-resume"))
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    # One new request: the one that never got its answer, sent again word for word.
    assert len(server.requests) == 4 and server.requests[3].messages == hung.messages
    llm = result["llm"]
    assert (llm["cache_hits"], llm["requests"]["calls"]) == (2, 1)
    assert [(e["stage"], e["cached"]) for e in llm["exchanges"]] == [("plan", True), ("implement", True),
                                                                      ("refine", False)]
    # The same kind of result as the uninterrupted run of test_llm_optimize_cli.
    assert (llm["samples"], llm["verified"], llm["valid_rate"], llm["samples_to_first_valid"]) == (2, 1, 0.5, 2)
    assert llm["cost_to_first_valid"]["calls"] == 1
    by_name = {c["name"]: c for c in result["candidates"]}
    assert by_name["llm.s01"]["status"] == "rejected" and by_name["llm.s02"]["status"] == "verified"
    # The offline candidate and the first draft come from the interrupted run's records: no worker ran them.
    resumed = folder / ".hiera" / "runs" / result["run"]
    assert sorted(path.stem for path in (resumed / "logs").glob("*.log")
                  if path.stem.startswith(("llm.", "pytorch."))) == ["llm.s02"]
    assert json.loads((resumed / "run.json").read_text())["settings"]["resume"] == str(interrupted)


def test_resume_of_an_unknown_run_says_which_runs_there_are(tmp_path):
    folder = tiny_workspace(tmp_path)
    run = hiera("optimize", "--resume", "no-such-run", cwd=folder, env=clean_env())
    assert run.returncode == 2 and "--resume no-such-run: no such run" in run.stderr and "Traceback" not in run.stderr
