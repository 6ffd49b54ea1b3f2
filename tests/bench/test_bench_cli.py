"""`hiera bench` end to end on CPU (what CI runs): two small tasks and a broken one, budget 1.

All outputs exist and agree, the broken task is recorded and the others still run, --resume
runs only what is new, and no API key reaches any output.
"""

import os

import pytest
from helpers.bench import assert_outputs_agree
from helpers.engine import hiera

TASK = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return {body}


def get_inputs():
    return [torch.randn(256, 256)]


def get_init_inputs():
    return []
'''
SECRET = "sk-bench-test-secret-1234"
# offline mode, with a key that must never be written
OFFLINE = dict(os.environ, HIERA_MODEL="", OPENAI_API_KEY=SECRET)


def _write(folder, name, source):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(source)


@pytest.mark.slow
def test_bench_runs_records_failures_and_resumes(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")  # the store lands in tmp_path
    level1 = tmp_path / "suite" / "level1"
    _write(level1, "1_Tanh_Residual.py", TASK.format(body="torch.tanh(x * 1.5) + 0.5 * x"))
    _write(level1, "2_Broken_Import.py", "import torch\nimport hiera_no_such_module\n" + TASK.format(body="x"))

    first = hiera("bench", "suite", "--device", "cpu", "--budget", "1", "--out", "out", cwd=tmp_path, env=OFFLINE)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "out"
    data = assert_outputs_agree(out)
    tasks = {task["id"]: task for task in data["tasks"]}
    assert list(tasks) == ["level1/1_Tanh_Residual.py", "level1/2_Broken_Import.py"]

    good = tasks["level1/1_Tanh_Residual.py"]
    assert good["outcome"] in ("proposal", "no_improvement") and good["correct"] and good["error"] is None
    assert good["eager_ms"] > 0 and good["compile_ms"] > 0 and good["hiera_ms"] > 0
    # Two estimates of each speedup, the lower claimed (CPU figures are not GPU time): paired (of one method each: the proposal
    # against its paired reference, compile against eager) and direct (the baselines' over the proposal's).
    assert good["speedup_eager_paired"] == pytest.approx(good["paired_eager_ms"] / good["hiera_ms"])
    assert good["speedup_eager_direct"] == pytest.approx(good["eager_ms"] / good["hiera_ms"])
    assert good["speedup_eager"] == min(good["speedup_eager_paired"], good["speedup_eager_direct"])
    assert good["timings"]["eager"]["median_ms"] == good["eager_ms"] and good["timings"]["eager"]["host_median_ms"] > 0
    assert good["speedup_compile_paired"] == pytest.approx(
        good["speedup_eager_paired"] * good["compile_ms"] / good["eager_ms"])
    assert good["speedup_compile"] == min(good["speedup_compile_paired"], good["compile_ms"] / good["hiera_ms"])
    # On a CPU the default mode is the only one timed, so it is the best.
    assert good["compile_modes_ms"] == {"default": good["compile_ms"]} and good["best_compile_mode"] == "default"
    assert good["speedup_best_compile"] == pytest.approx(good["speedup_compile"])
    assert good["samples"] == 1 and good["tokens"] == 0 and good["wall_s"] > 0
    # what the candidate measured and the plan's regions, in the record itself
    assert len(good["candidates"]) == 1 and good["candidates"][0]["status"] in ("verified", "rejected", "failed")
    assert good["regions"] and all(region["choices"] for region in good["regions"])
    assert good["roofline_pct"] == pytest.approx(100 * good["roofline_bound_ms"] / good["hiera_ms"])
    if good["outcome"] == "proposal":
        assert (out / good["proposal"]).read_text().count("class ModelNew") == 1
        assert good["check"].startswith("5 random trials within atol = rtol = 0.01")
    environment = good["environment"]
    assert environment["device"] == "cpu" and environment["torch"] and environment["hiera_version"]
    assert environment["model"] is None and environment["endpoint"] is None

    broken = tasks["level1/2_Broken_Import.py"]
    assert broken["outcome"] == "error" and not broken["correct"]
    assert broken["error"]["stage"] == "optimize" and broken["error"]["kind"] == "import"
    assert "hiera_no_such_module" in broken["error"]["message"]
    assert data["summary"]["overall"]["tasks"] == 2 and data["summary"]["overall"]["errors"] == 1
    assert data["summary"]["overall"]["validity"] == 0.5
    assert "level1/1_Tanh_Residual.py" in first.stdout and "overall" in first.stdout

    # A second task joins the suite: --resume runs it alone and keeps the first two records as they were.
    _write(level1, "3_Row_Softmax.py", TASK.format(body="torch.softmax(x, dim=-1)"))
    refused = hiera("bench", "suite", "--device", "cpu", "--budget", "1", "--out", "out", cwd=tmp_path, env=OFFLINE)
    assert refused.returncode == 2 and "already holds bench results" in " ".join(refused.stderr.split())
    second = hiera("bench", "suite", "--device", "cpu", "--budget", "1", "--out", "out", "--resume", cwd=tmp_path,
                   env=OFFLINE)
    assert second.returncode == 0, second.stderr
    assert "1 task(s) to run, 2 already finished" in " ".join(second.stderr.split())
    resumed = assert_outputs_agree(out)
    assert [task["id"] for task in resumed["tasks"]] == [*tasks, "level1/3_Row_Softmax.py"]
    assert resumed["tasks"][:2] == data["tasks"]
    assert resumed["tasks"][2]["outcome"] != "error" and resumed["summary"]["overall"]["tasks"] == 3

    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(errors="replace"), path


def test_bench_usage_errors(tmp_path):
    _write(tmp_path / "suite" / "level1", "1_Task.py", TASK.format(body="x * 2"))
    for args, message in ((["suite", "--levels", "2"], "no task files found"),
                          (["suite", "--levels", "two"], "expected levels such as 1,2,3"),
                          (["flat_folder_that_is_missing"], "no such file or folder"),
                          (["suite", "--rerun", "level1/9_Task.py"], "--rerun names no task of this suite: level1/9_Task.py")):
        run = hiera("bench", *args, "--device", "cpu", "--out", "out", cwd=tmp_path, env=OFFLINE)
        assert run.returncode == 2 and message in " ".join(run.stderr.split()), (args, run.stderr)
    assert not (tmp_path / "out" / "results.json").exists()
    run = hiera("bench", "suite", "--device", "cpu", "--budget", "1", "--out", "out", "--resume",
                cwd=tmp_path, env={"OPENAI_API_KEY": "", "HIERA_MODEL": "some-model", "OPENAI_BASE_URL": ""})
    assert run.returncode == 2 and "OPENAI_API_KEY is not set" in " ".join(run.stderr.split())


def test_stop_after_starts_no_task_once_the_time_is_spent(tmp_path):
    _write(tmp_path / "suite" / "level1", "1_Task.py", TASK.format(body="x * 2"))
    run = hiera("bench", "suite", "--device", "cpu", "--out", "out", "--stop-after", "0", cwd=tmp_path, env=OFFLINE)
    assert run.returncode == 0, run.stderr
    assert "stopped after 0 s with 1 task(s) left: run again with --resume" in " ".join(run.stderr.split())
    assert assert_outputs_agree(tmp_path / "out")["tasks"] == []


def test_a_bench_measures_afresh_and_never_reads_an_earlier_runs_cache():
    from hiera_core.bench.task_run import BenchSettings

    # A second bench over the same folder must time its candidates again, not report cached verdicts.
    assert BenchSettings("cuda", 4, 240).engine_settings().cache is False
