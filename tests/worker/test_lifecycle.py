"""Every worker tree ends with its job (issue 20): SIGTERM, Ctrl-C or a crash of `hiera optimize`
leaves no worker behind, and the run is recorded as interrupted. Checked by PID: the task's forward
writes its worker's PID and that of a child it starts (standing in for inductor's compile workers),
then spins or sleeps."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.engine import REPO, SIMPLE_TASK, workspace, write_task
from helpers.processes import command_line, descendants, runners_below, wait_until

from hiera_core.store import Store
from hiera_core.worker import isolate
from hiera_core.worker.isolate import process_alive

HANGING_FORWARD = {
    "spinning": "while True:\n                pass",
    "sleeping": "time.sleep(3600)",
}


def hanging_task(folder: Path, how: str) -> Path:
    """A task whose forward records its PID and its child's in pids.txt, then hangs."""
    pids = folder / "pids.txt"
    body = (f"import os, subprocess, time\n"
            f"            child = subprocess.Popen(['sleep', '3600'])\n"
            f"            open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
            f"            {HANGING_FORWARD[how]}")
    return write_task(folder, "hang.py", SIMPLE_TASK.replace("return torch.relu(x) * self.scale + 1.0", body))


def start_optimize(folder: Path, task: Path, *flags: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "hiera_core.cli.main", "optimize", str(task), "--device", "cpu",
                             *flags], cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def worker_pids(folder: Path) -> list[int]:
    text = wait_until(lambda: (folder / "pids.txt").exists() and (folder / "pids.txt").read_text())
    return [int(pid) for pid in text.split()]


def only_run(folder: Path) -> dict:
    store = Store(folder)
    [run_id] = store.runs()
    return store.run(run_id).read_json("run.json")


@pytest.mark.parametrize("stop, how, code", [(signal.SIGTERM, "spinning", 143), (signal.SIGINT, "sleeping", 130)])
def test_a_stopped_optimize_kills_its_workers_and_records_the_run(tmp_path, stop, how, code):
    folder = workspace(tmp_path)
    cli = start_optimize(folder, hanging_task(folder, how))
    try:
        pids = worker_pids(folder)
        assert all(process_alive(pid) for pid in pids)
        cli.send_signal(stop)  # to the CLI only, as `kill` or the editor's cancel sends it
        _, stderr = cli.communicate(timeout=60)
    finally:
        cli.kill()
    wait_until(lambda: not any(process_alive(pid) for pid in pids), timeout=10)

    assert cli.returncode == code
    assert "Aborted!" not in stderr and "Traceback" not in stderr
    [line] = [line for line in stderr.splitlines() if "interrupted" in line]
    assert line.startswith("hiera: interrupted by ") and "recorded as interrupted" in line
    record = only_run(folder)
    assert record["status"] == "interrupted" and record["finished"] >= record["started"]
    assert record["stage"] == "spec" and record["candidates"] == []
    [index] = (folder / ".hiera" / "index").glob("*.json")
    assert json.loads(index.read_text())["last_run"]["status"] == "interrupted"


def test_a_killed_optimize_takes_its_workers_with_it(tmp_path):
    folder = workspace(tmp_path)
    cli = start_optimize(folder, hanging_task(folder, "spinning"))
    try:
        pids = worker_pids(folder)
        cli.send_signal(signal.SIGKILL)  # a crash: no handler runs, only the kernel's parent-death signal
        cli.wait(timeout=30)
        wait_until(lambda: not any(process_alive(pid) for pid in pids), timeout=10)
    finally:
        for pid in pids if "pids" in locals() else []:
            if process_alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_warm_workers_and_their_runners_end_with_a_stopped_or_killed_optimize(tmp_path, stop):
    folder = workspace(tmp_path)
    cli = start_optimize(folder, hanging_task(folder, "sleeping"), "--warm-workers", "2")
    try:
        worker_pids(folder)  # the reference's worker hangs in its forward, the warm ones wait
        # Two for the candidates with a runner each, one for the confirmation with two.
        wait_until(lambda: len(runners_below(cli.pid)) >= 4)
        started = descendants(cli.pid)
        assert sum("hiera_core.worker.ops --warm" in command_line(pid) for pid, parent in started.items()
                   if parent == cli.pid) == 3
        cli.send_signal(stop)
        cli.communicate(timeout=60)
        wait_until(lambda: not any(process_alive(pid) for pid in started), timeout=15)
    finally:
        cli.kill()
        for pid in started if "started" in locals() else []:
            if process_alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("parent, survives", [("2**22 + 1", False), ("os.getppid()", True)])
def test_a_child_whose_parent_is_already_gone_ends_at_once(parent, survives):
    # The race die_with_parent closes: the parent died before the child asked for the signal
    # (2**22 + 1 is above the kernel's largest PID, so never running).
    code = (f"import os, sys; sys.path.insert(0, {str(REPO)!r})\n"
            "from hiera_core.worker.isolate import die_with_parent\n"
            f"die_with_parent({parent})\n"
            "print('still here')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            start_new_session=True)
    assert (result.returncode, "still here" in result.stdout) == ((0, True) if survives else (137, False))


def test_the_worker_environment_is_an_allowlist(monkeypatch):
    for name, value in {"OPENAI_API_KEY": "sk-1", "AWS_SECRET_ACCESS_KEY": "a", "GITHUB_TOKEN": "g",
                        "HIERA_API_KEY": "h", "DATABASE_URL": "postgres://u:p@h/db", "TORCH_HUB_TOKEN": "t",
                        "CUDA_HOME": "/usr/local/cuda", "TORCHINDUCTOR_CACHE_DIR": "/tmp/ind", "OMP_NUM_THREADS": "2",
                        "LC_ALL": "C.UTF-8", "HIERA_LSP_LOG": "INFO", "TRITON_CACHE_DIR": "/tmp/tr"}.items():
        monkeypatch.setenv(name, value)
    env = isolate.worker_environment()
    assert not {"OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "HIERA_API_KEY", "DATABASE_URL",
                "TORCH_HUB_TOKEN"} & set(env)
    assert {"CUDA_HOME", "TORCHINDUCTOR_CACHE_DIR", "OMP_NUM_THREADS", "LC_ALL", "HIERA_LSP_LOG", "TRITON_CACHE_DIR",
            "PATH", "PYTHONPATH"} <= set(env)
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(REPO)
