"""`hiera bench --gpus`: tasks side by side, one per GPU, each task's workers on its GPU and its own
CPU cores; records saved as they finish, in the suite's order; Ctrl-C starts no more workers."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers.bench import REPO
from helpers.engine import hiera

from hiera_core.bench import runner, task_run
from hiera_core.bench.environment import gpu_indices, task_environment
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.runner import placements, run_bench
from hiera_core.bench.suite import BenchTask
from hiera_core.bench.task_run import BenchSettings
from hiera_core.errors import HieraError
from hiera_core.events import Event
from hiera_core.worker.isolate import Placement, run_worker
from hiera_core.worker.requests import NcuRequest

OFFLINE = {"HIERA_MODEL": "", "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    for name, value in OFFLINE.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools") + os.pathsep + os.environ.get("PATH", ""))


def tasks(count: int, tmp_path) -> list[BenchTask]:
    made = []
    for number in range(count):
        path = tmp_path / "suite" / "level1" / f"{number}_Task.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# not run: run_task is replaced in these tests\n")
        made.append(BenchTask(id=f"level1/{number}_Task.py", path=str(path), level=1))
    return made


class FakeTasks:
    """Stands in for run_task: records where each task ran and when; task i takes durations[i] s."""

    def __init__(self, durations: list[float]):
        self.durations = durations
        self.ran: dict[str, tuple[Placement | None, float, float]] = {}
        self.lock = threading.Lock()

    def __call__(self, task, settings, host, out, emit, placement=None) -> TaskRecord:
        started = time.monotonic()
        emit(Event("stage", stage="plan", message="planning", progress=0.5))
        time.sleep(self.durations[int(task.id.split("/")[1].split("_")[0])])
        with self.lock:
            self.ran[task.id] = (placement, started, time.monotonic())
        return TaskRecord(id=task.id, level=task.level, path=task.path, outcome="no_improvement", correct=True,
                          eager_ms=1.0, hiera_ms=1.0, speedup_eager=1.0,
                          environment=task_environment({}, None, placement.gpu if placement else None))


def bench(todo, settings, out, **options):
    events, records = [], []
    results = run_bench(todo, settings, out, resume=options.pop("resume", False), command=["hiera", "bench"],
                        emit=events.append, on_record=records.append, **options)
    return results, events, records


def fake_topology(root, logical: int, sockets: int):
    """sysfs topology of a machine with hyperthreads: CPU i and i + logical/2 share a core."""
    half = logical // 2
    for cpu in range(logical):
        folder = root / f"cpu{cpu}" / "topology"
        folder.mkdir(parents=True)
        core = cpu % half
        (folder / "physical_package_id").write_text(f"{core * sockets // half}\n")
        (folder / "thread_siblings_list").write_text(f"{core},{core + half}\n")
    return root


def test_placements_give_each_gpu_whole_cores_of_one_socket(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(32)))
    sysfs = fake_topology(tmp_path / "cpu", logical=32, sockets=2)
    first, second = placements(("0", "1"), sysfs)
    assert (first.gpu, second.gpu) == ("0", "1")
    # Both hyperthreads of a core on one GPU's side, and each side on one socket.
    assert first.cpus == (*range(8), *range(16, 24)) and second.cpus == (*range(8, 16), *range(24, 32))
    # Without a readable topology: consecutive CPU numbers.
    first, second = placements(("0", "1"), tmp_path / "missing")
    assert first.cpus == tuple(range(16)) and second.cpus == tuple(range(16, 32))
    assert placements(("3",), sysfs) == [Placement("3")]  # one GPU: every core, as without --gpus
    assert placements((), sysfs) == [None]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert placements(("0", "1"), sysfs) == [Placement("0"), Placement("1")]  # fewer cores than GPUs: no split


def test_tasks_run_side_by_side_one_per_gpu_and_are_saved_in_suite_order(tmp_path, monkeypatch):
    fake = FakeTasks([1.5, 0.1, 0.1, 0.1])
    monkeypatch.setattr(runner, "run_task", fake)
    results, events, records = bench(tasks(4, tmp_path), BenchSettings("cuda", 1, 60, gpus=("0", "1")),
                                     tmp_path / "out")
    place = {task_id: placed for task_id, (placed, _, _) in fake.ran.items()}
    # Task 0 holds one GPU for 1.5 s; meanwhile tasks 1-3 run one after another on the other.
    assert place["level1/0_Task.py"] != place["level1/1_Task.py"]
    assert place["level1/1_Task.py"] == place["level1/2_Task.py"] == place["level1/3_Task.py"]
    assert fake.ran["level1/1_Task.py"][1] < fake.ran["level1/0_Task.py"][2]  # side by side
    assert not set(place["level1/0_Task.py"].cpus) & set(place["level1/1_Task.py"].cpus)  # cores of their own
    # Finished out of order, saved in the suite's order, each record with the GPU it ran on.
    assert [record.id for record in records][-1] == "level1/0_Task.py"
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [task["id"] for task in saved["tasks"]] == [f"level1/{n}_Task.py" for n in range(4)]
    assert {task["environment"]["gpu_index"] for task in saved["tasks"]} == {"0", "1"}
    assert "4 task(s) to run, 0 already finished" in events[0].message
    assert "2 at a time on GPUs 0, 1" in events[0].message
    progress = [event.progress for event in events if event.event == "stage"]
    assert progress and all(0 <= value <= 1 for value in progress)


def test_stop_after_with_several_gpus_leaves_the_rest_for_resume(tmp_path, monkeypatch):
    # The first wave must start before the stop and the second cannot (its GPUs are busy for 1 s): a
    # stop of 0.4 s leaves the set-up before the first start room on a loaded 2-core machine, where
    # 0.1 s did not (CI, 2026-12-07: no task started).
    fake = FakeTasks([1.0] * 6)
    monkeypatch.setattr(runner, "run_task", fake)
    todo = tasks(6, tmp_path)
    settings = BenchSettings("cuda", 1, 60, gpus=("0", "1"))
    results, events, _ = bench(todo, settings, tmp_path / "out", stop_after_s=0.4)
    assert len(results.tasks) == 2  # the first task on each GPU started; none after 0.4 s
    assert "stopped after 0.4 s with 4 task(s) left: run again with --resume" in events[-1].message
    results, _, _ = bench(todo, settings, tmp_path / "out", resume=True)
    assert [task.id for task in results.tasks] == [task.id for task in todo]


def test_rerun_replaces_the_named_tasks_records_and_keeps_the_others(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "run_task", FakeTasks([0.0] * 3))
    todo = tasks(3, tmp_path)
    first, _, _ = bench(todo, BenchSettings("cuda", 1, 60), tmp_path / "out")
    kept = {task.id: task.to_dict() for task in first.tasks}

    def remeasured(task, settings, host, out, emit, placement=None) -> TaskRecord:
        return TaskRecord(id=task.id, level=task.level, path=task.path, outcome="proposal", correct=True,
                          eager_ms=1.0, hiera_ms=0.5, speedup_eager=2.0)

    monkeypatch.setattr(runner, "run_task", remeasured)
    results, events, records = bench(todo, BenchSettings("cuda", 1, 60), tmp_path / "out",
                                     rerun=("level1/1_Task.py",))
    assert [record.id for record in records] == ["level1/1_Task.py"]
    assert "1 task(s) to run, 2 already finished" in events[0].message
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [task["id"] for task in saved["tasks"]] == [task.id for task in todo]  # one record each, suite order
    assert saved["tasks"][1]["speedup_eager"] == 2.0
    assert saved["tasks"][0] == kept["level1/0_Task.py"] and saved["tasks"][2] == kept["level1/2_Task.py"]
    # Cut short before a rerun starts: its old record stands, and the message says how to go on.
    _, events, _ = bench(todo, BenchSettings("cuda", 1, 60), tmp_path / "out", rerun=("level1/2_Task.py",),
                         stop_after_s=0)
    assert events[-1].message.endswith("run again with --resume to go on (and --rerun level1/2_Task.py: "
                                       "their old records stand)")
    assert json.loads((tmp_path / "out" / "results.json").read_text())["tasks"][2] == kept["level1/2_Task.py"]


def test_an_interrupt_keeps_what_finished_and_stops_the_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "run_task", FakeTasks([0.1, 1.0]))
    stopped = []
    monkeypatch.setattr(runner, "stop_running_workers", lambda: stopped.append(True))

    def interrupt(record):
        raise KeyboardInterrupt  # Ctrl-C while the first finished task is reported

    with pytest.raises(KeyboardInterrupt):
        run_bench(tasks(2, tmp_path), BenchSettings("cuda", 1, 60, gpus=("0", "1")), tmp_path / "out", resume=False,
                  command=["hiera", "bench"], emit=lambda event: None, on_record=interrupt)
    assert stopped == [True]
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [task["id"] for task in saved["tasks"]] == ["level1/0_Task.py"]


def test_every_worker_of_a_task_runs_on_its_placement(tmp_path, monkeypatch):
    import hiera_core.loop.session

    started = []

    def first_worker_only(request, **options):
        started.append((request.op, options.get("placement")))
        raise HieraError("stopped after the first worker, for the test")

    monkeypatch.setattr(hiera_core.loop.session, "run_worker", first_worker_only)
    [task] = tasks(1, tmp_path)
    Path(task.path).write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                               "    def forward(self, x):\n        return x * 2\n\n\n"
                               "def get_inputs():\n    return [torch.randn(4, 4)]\n\n\n"
                               "def get_init_inputs():\n    return []\n")
    placed = Placement("1", (0,))
    record = task_run.run_task(task, BenchSettings("cpu", 1, 60), {}, tmp_path / "out", lambda event: None, placed)
    assert started == [("prepare", placed)]  # the engine's own workers get the task's GPU and cores
    assert record.outcome == "error" and record.error["stage"] == "optimize"
    assert record.environment["gpu_index"] == "1"


def test_a_placed_worker_sees_only_its_gpu_and_runs_on_its_cores(tmp_path):
    # A stand-in interpreter: reports the environment and CPU affinity the worker got, as the note of
    # an ncu op's result (the op whose result is the smallest).
    reporter = tmp_path / "python"
    reporter.write_text(f"#!{sys.executable}\n"
                        "import json, os, sys, time\n"
                        "time.sleep(0.2)\n"
                        "got = {'visible': os.environ.get('CUDA_VISIBLE_DEVICES'), 'order': "
                        "os.environ.get('CUDA_DEVICE_ORDER'), 'cpus': sorted(os.sched_getaffinity(0))}\n"
                        "json.dump({'ok': True, 'result': {'note': json.dumps(got)}}, open(sys.argv[-1], 'w'))\n")
    reporter.chmod(reporter.stat().st_mode | stat.S_IEXEC)
    core = sorted(os.sched_getaffinity(0))[-1]
    request = NcuRequest(address="task.py", device="cuda", ncu="ncu", candidate_path="c.py")
    got = run_worker(request, timeout_s=30, doing="test", python=str(reporter), placement=Placement("1", (core,)))
    assert json.loads(got.note) == {"visible": "1", "order": "PCI_BUS_ID", "cpus": [core]}
    unplaced = json.loads(run_worker(request, timeout_s=30, doing="test", python=str(reporter)).note)
    assert unplaced["visible"] == os.environ.get("CUDA_VISIBLE_DEVICES")
    assert unplaced["cpus"] == sorted(os.sched_getaffinity(0))


def test_after_an_interrupt_no_worker_starts():
    # In a child process: stopping the workers is for a process that is ending.
    code = ("from hiera_core.worker.isolate import run_worker, stop_running_workers\n"
            "from hiera_core.errors import HieraError\n"
            "from hiera_core.worker.requests import PrepareRequest\n"
            "stop_running_workers()\n"
            "try:\n"
            "    run_worker(PrepareRequest(address='task.py', device='cpu'), timeout_s=30, doing='planning X')\n"
            "except HieraError as error:\n"
            "    print(error.kind, str(error))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert run.stdout.strip() == "cancelled planning X: stopped, the run was interrupted", run.stderr


def test_gpu_list_from_cuda_visible_devices_or_nvidia_smi(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,3")
    assert gpu_indices() == ["2", "3"]
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    smi = tmp_path / "nvidia-smi"
    smi.write_text("#!/bin/sh\nprintf '0\\n1\\n'\n")
    smi.chmod(smi.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert gpu_indices() == ["0", "1"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(HieraError, match="nvidia-smi was not found") as raised:
        gpu_indices()
    assert "--gpus 0,1" in raised.value.hint


def test_bad_gpus_options_are_usage_errors(tmp_path):
    (tmp_path / "suite" / "level1").mkdir(parents=True)
    (tmp_path / "suite" / "level1" / "1_Task.py").write_text("# not run\n")
    for args, message in ((["--gpus", "0", "--device", "cpu"], "so it does not go with --device cpu"),
                          (["--gpus", "0,0"], "expected GPU indices such as 0,1 (each once) or 'all'"),
                          (["--gpus", ","], "expected GPU indices")):
        run = hiera("bench", "suite", *args, "--out", "out", cwd=tmp_path,
                    env=dict(os.environ, **OFFLINE))
        assert run.returncode == 2 and message in " ".join(run.stderr.split()), (args, run.stderr)
    assert not (tmp_path / "out").exists()
