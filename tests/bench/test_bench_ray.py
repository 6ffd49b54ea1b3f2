"""`hiera bench --ray` on a local Ray cluster on loopback: a head and one more node, one CPU each,
started here and killed (with every process of theirs) at the end, also when a test fails.

A four-task suite runs over both nodes with the same records as a local run (placement and timing
aside) while one node is killed mid-task (Ray runs the task again on the other); an interrupted
run keeps what finished, cancels its Ray tasks, and `--resume` completes it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import fields
from pathlib import Path

import pytest
from helpers.bench import REPO, assert_outputs_agree
from helpers.engine import hiera

from hiera_core.bench.ray_runner import failed_on_cluster
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.runner import run_bench
from hiera_core.bench.suite import BenchTask, discover
from hiera_core.bench.task_run import BenchSettings
from hiera_core.errors import HieraError

try:
    import ray
except ImportError:
    ray = None
needs_ray = pytest.mark.skipif(ray is None, reason="Ray is not installed (pip install 'hiera[ray]')")

# A sum over a linear map's outputs: HIERA's first offline candidate computes it as x @ W.sum(0),
# hundreds of times faster than the reference, so most runs end in a proposal (see PLACEMENT_AND_TIMING).
TASK = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear({inputs}, {outputs})

    def forward(self, x):
        return self.fc(x).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn({rows}, {inputs})]


def get_init_inputs():
    return []
'''
SHAPES = [(256, 2048, 64), (192, 2048, 64), (256, 1536, 64), (128, 3072, 64)]  # (inputs, outputs, rows)
OFFLINE = {"HIERA_MODEL": "", "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
# The cluster and its drivers agree on no token, whatever ~/.ray/ holds (Ray turns token
# authentication on where a token file exists).
NO_TOKEN = {"RAY_AUTH_MODE": "disabled"}
SETTINGS = {"device": "cpu", "budget": 1, "timeout_s": 240.0, "compile_modes": ()}  # tiny tasks, no compile
# Fields that depend on where and when a task ran, not on what HIERA was given. Whether a verified
# candidate counts as faster is timing too (the judge's medians must not overlap, and its
# timing-window test must pass), which two tasks side by side on two busy cores can tip, so the
# fields that follow from the outcome are compared where both runs made a proposal.
PLACEMENT_AND_TIMING = {"node", "node_id", "gpu", "environment", "run", "wall_s", "worker_s", "timings", "eager_ms",
                        "hiera_ms", "paired_eager_ms", "speedup_eager", "speedup_eager_paired", "speedup_eager_direct",
                        "optimize_speedup", "roofline_pct",
                        "roofline_pct_eager", "best_speedup_by_sample", "samples_to_first_valid", "check", "correct",
                        "verification", "outcome", "space", "strategy", "proposal", "candidates", "regions"}
# Ray notices a dead node within a few seconds instead of the default half minute.
FAST_HEALTH_CHECK = {"RAY_health_check_initial_delay_ms": "0", "RAY_health_check_period_ms": "1000",
                     "RAY_health_check_timeout_ms": "1000", "RAY_health_check_failure_threshold": "2"}
RAY = str(Path(sys.executable).parent / "ray")
RAY_TASK_TITLE = b"ray::run_on_node"  # the process title of a Ray worker running a bench task
JOINED = "Ray runtime started."  # what `ray start` prints once its node has joined


def write_suite(folder: Path, shapes) -> Path:
    for number, (inputs, outputs, rows) in enumerate(shapes, start=1):
        path = folder / "level1" / f"{number}_Sum_Linear_{inputs}x{outputs}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(TASK.format(inputs=inputs, outputs=outputs, rows=rows))
    (folder / "pyproject.toml").write_text("[project]\nname = 'ray-suite'\n")  # the local store lands here
    return folder


def session_processes(session: int) -> list[int]:
    """The PIDs of the live processes in a session (a node started by `ray start --block` in its
    own); zombies are dead already (a container's init may be slow to reap them)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z" and os.getsid(int(entry)) == session:
                    found.append(int(entry))
            except (OSError, IndexError):
                pass
    return found


def running_bench_task(session: int) -> bool:
    for pid in session_processes(session):
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(RAY_TASK_TITLE):
                return True
        except OSError:
            pass
    return False


class LoopbackCluster:
    """A Ray head at 127.0.0.2 and a node at 127.0.0.3, each `ray start --block` in a session of
    its own, so that killing the session kills that node and nothing else on the machine."""

    def __init__(self, folder: Path):
        self.folder = folder
        with socket.socket() as probe:
            probe.bind(("127.0.0.2", 0))
            self.port = probe.getsockname()[1]
        self.address = f"127.0.0.2:{self.port}"
        self.environment = dict(os.environ, **OFFLINE, **NO_TOKEN, **FAST_HEALTH_CHECK, PYTHONPATH=str(REPO))
        self.started: list[subprocess.Popen] = []
        try:
            self.head = self._start("head", "--head", "--node-ip-address=127.0.0.2", f"--port={self.port}",
                                    "--include-dashboard=false", f"--temp-dir={folder}")
            self.head_id = self.alive_nodes(1)[0]
            self.start_node()
            self.node_id = next(node for node in self.alive_nodes(2) if node != self.head_id)
        except BaseException:
            self.stop()
            raise

    def _start(self, name: str, *options: str) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "ab")
        process = subprocess.Popen([RAY, "start", "--block", "--num-cpus=1", "--object-store-memory=100000000",
                                   "--disable-usage-stats", *options], stdout=log, stderr=subprocess.STDOUT,
                                   env=self.environment, start_new_session=True)
        self.started.append(process)
        return process

    def start_node(self) -> None:
        """(Re)start the second node and wait until it has joined (without connecting to the
        cluster: a test may be connected already, and a process holds one connection)."""
        log = self.folder / "node.log"
        before = log.read_text().count(JOINED) if log.exists() else 0
        # A temp folder of its own, as on a machine of its own: a node that starts cleans up its
        # runtime environments' files, which would be the head's in a shared folder.
        own = self.folder / f"node{len(self.started)}"
        self.node = self._start("node", f"--address={self.address}", "--node-ip-address=127.0.0.3",
                                f"--temp-dir={own}")
        deadline = time.monotonic() + 90
        while log.read_text().count(JOINED) == before:
            assert time.monotonic() < deadline and self.node.poll() is None, f"the node did not start: see {log}"
            time.sleep(0.5)

    def kill_node(self) -> None:
        self._kill(self.node)

    def alive_nodes(self, count: int, timeout_s: float = 90) -> list[str]:
        """The ids of the live nodes, once there are `count`."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                ray.init(address=self.address, log_to_driver=False, logging_level="error")
                alive = [node["NodeID"] for node in ray.nodes() if node["Alive"]]
            except ConnectionError:
                alive = []
            finally:
                ray.shutdown()
            if len(alive) >= count:
                return alive
            time.sleep(1)
        raise AssertionError(f"the Ray cluster did not reach {count} node(s); see {self.folder}/*.log")

    @staticmethod
    def _kill(process: subprocess.Popen) -> None:
        for _ in range(3):  # a second pass for what a dying raylet started
            for pid in session_processes(process.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.2)
        process.wait(timeout=30)

    def stop(self) -> None:
        for process in self.started:
            self._kill(process)
        assert not any(session_processes(process.pid) for process in self.started)


@pytest.fixture(scope="module")
def cluster():
    folder = Path(tempfile.mkdtemp(prefix="hiera-ray-"))  # short: Ray's socket paths live under it
    try:
        made = LoopbackCluster(folder)
        try:
            yield made
        finally:
            made.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """Offline mode (the nodes' workers get it from the environment of `ray start`)."""
    for name, value in {**OFFLINE, **NO_TOKEN}.items():
        monkeypatch.setenv(name, value)


def bench(suite: Path, out: Path, on_record=lambda record: None, **ray_settings):
    return run_bench(discover([str(suite)]), BenchSettings(**SETTINGS, **ray_settings), out, resume=False,
                     command=["hiera", "bench"], emit=lambda event: None, on_record=on_record)


def comparable(record: TaskRecord) -> dict:
    return {name.name: getattr(record, name.name) for name in fields(TaskRecord)
            if name.name not in PLACEMENT_AND_TIMING}


def proposal_code(record: TaskRecord, out: Path) -> tuple:
    """What a proposal is: its space, strategy, file and code (the header records paths and times)."""
    text = (out / record.proposal).read_text()
    return record.space, record.strategy, record.proposal, text[text.index("class ModelNew"):]


@needs_ray
@pytest.mark.slow
def test_a_suite_over_two_nodes_matches_a_local_run_when_a_node_dies(cluster, tmp_path):
    suite = write_suite(tmp_path / "suite", SHAPES)
    killed: list[str] = []

    def kill_the_node_mid_task() -> None:
        """Once the second node runs a task, kill it (its task is lost) and start a fresh one."""
        deadline = time.monotonic() + 120
        while not running_bench_task(cluster.node.pid):
            if time.monotonic() > deadline:
                return
            time.sleep(0.2)
        killed.append(cluster.node_id)
        cluster.kill_node()
        cluster.start_node()

    killer = threading.Thread(target=kill_the_node_mid_task)
    killer.start()
    try:
        on_ray = bench(suite, tmp_path / "ray", ray_address=cluster.address)
    finally:
        killer.join()
    assert killed, "the second node ran no task"
    cluster.node_id = next(node for node in cluster.alive_nodes(2) if node != cluster.head_id)
    records = {record.id: record for record in on_ray.tasks}
    # The task of the killed node ran again and finished: every task is there, none failed.
    assert len(records) == 4 and all(record.outcome in ("proposal", "no_improvement") for record in records.values()), \
        [(record.id, record.outcome, record.error) for record in records.values()]
    # The tasks went over both nodes (the head and the node started after the kill), none to the dead one.
    assert {record.node_id for record in records.values()} == {cluster.head_id, cluster.node_id}
    assert {record.node for record in records.values()} == {"127.0.0.2", "127.0.0.3"}
    assert all(record.path == str(suite / record.id) for record in records.values())
    saved = assert_outputs_agree(tmp_path / "ray")
    assert [task["node_id"] for task in saved["tasks"]] == [record.node_id for record in on_ray.tasks]
    assert all((tmp_path / "ray" / "logs" / f"{task_id.replace('/', '__')[:-3]}.log").is_file() for task_id in records)

    local = bench(suite, tmp_path / "local")
    assert [comparable(record) for record in local.tasks] == [comparable(record) for record in on_ray.tasks]
    both = [(here, there) for here, there in zip(local.tasks, on_ray.tasks)
            if here.outcome == there.outcome == "proposal"]
    assert both, [(record.id, record.outcome) for record in [*local.tasks, *on_ray.tasks]]
    assert all(proposal_code(here, tmp_path / "local") == proposal_code(there, tmp_path / "ray")
               for here, there in both)
    assert all(record.node is None and record.node_id is None for record in local.tasks)


@needs_ray
@pytest.mark.slow
def test_an_interrupted_run_cancels_its_tasks_and_resumes(cluster, tmp_path):
    suite = write_suite(tmp_path / "suite", SHAPES[:2])
    out = tmp_path / "out"
    command = [sys.executable, "-m", "hiera_core.cli.main", "bench", str(suite), "--device", "cpu", "--budget", "1",
               "--compile-modes", "", "--out", str(out), "--ray", cluster.address]
    environment = dict(os.environ, **OFFLINE, **NO_TOKEN, PYTHONPATH=str(REPO))
    first = subprocess.Popen(command, cwd=tmp_path, env=environment, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and first.poll() is None:
            if (out / "results.json").exists() and json.loads((out / "results.json").read_text())["tasks"]:
                break
            time.sleep(0.5)
        first.send_signal(signal.SIGINT)
        console = first.communicate(timeout=60)[0]
    finally:
        first.kill()
    assert first.returncode == 130, console
    kept = json.loads((out / "results.json").read_text())["tasks"]
    assert len(kept) == 1, console
    # The other task was cancelled on the cluster: no node runs a bench task any more.
    deadline = time.monotonic() + 30
    while any(running_bench_task(process.pid) for process in (cluster.head, cluster.node)):
        assert time.monotonic() < deadline, "a cancelled Ray task still runs"
        time.sleep(0.5)

    again = subprocess.run([*command, "--resume"], check=False, cwd=tmp_path, env=environment, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    data = assert_outputs_agree(out)
    assert [task["id"] for task in data["tasks"]] == [task.id for task in discover([str(suite)])]
    assert next(task for task in data["tasks"] if task["id"] == kept[0]["id"]) == kept[0]  # kept as it was
    assert all(task["outcome"] in ("proposal", "no_improvement") and task["node_id"] for task in data["tasks"])


def test_without_ray_the_run_says_how_to_install_it(tmp_path, monkeypatch):
    suite = write_suite(tmp_path / "suite", SHAPES[:1])
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(HieraError) as raised:
        bench(suite, tmp_path / "out", ray_address="auto")
    assert "needs Ray" in str(raised.value) and "pip install 'hiera[ray]'" in raised.value.hint


def test_ray_usage_errors_name_the_option(tmp_path):
    suite = write_suite(tmp_path / "suite", SHAPES[:1])
    offline = dict(os.environ, **OFFLINE)
    with_gpus = hiera("bench", str(suite), "--gpus", "0", "--ray", "auto", cwd=tmp_path, env=offline)
    assert with_gpus.returncode == 2 and "--gpus" in with_gpus.stderr, with_gpus.stderr
    # `--ray` followed by the suite takes the suite for the address; the error says how to write it.
    swallowed = hiera("bench", str(suite), "--ray", str(suite), cwd=tmp_path, env=offline)
    assert swallowed.returncode == 2 and "--ray auto" in swallowed.stderr, swallowed.stderr


@needs_ray
def test_a_task_ray_could_not_finish_is_an_error_with_its_cause():
    task = BenchTask("level1/1_Sum.py", "/suite/level1/1_Sum.py", 1)
    cause = ray.exceptions.NodeDiedError("Task failed because the node it was running on is dead: 127.0.0.3")
    record = failed_on_cluster(task, cause, {"device": "cpu"})
    assert record.outcome == "error" and not record.valid and record.id == task.id
    assert record.error["stage"] == "ray" and record.error["kind"] == "node_died"
    assert "Ray ran it 2 times" in record.error["message"] and "127.0.0.3" in record.error["message"]
    assert record.environment["device"] == "cpu"
