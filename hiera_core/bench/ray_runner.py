"""`hiera bench --ray`: the suite's tasks as Ray tasks on a cluster, records saved here as they finish.

Each bench task is one Ray task asking for one GPU (`--device cuda`) or `--ray-cpus` cores
(`--device cpu`); on its node it runs what a local run does (task_run.run_task: optimize, then the
timing worker, the workers on the GPU Ray gave it). Nothing needs a shared disk: the task files
(each in a folder of its own, with its workspace's pyproject.toml, so the engine reads the same
settings) and the hiera_core package travel in the job's runtime environment (`working_dir`,
`py_modules`); the task's store (`.hiera/`) stays on the node, and what comes back is
self-contained: the record, the proposal's text and the timing worker's log, which are written
into the output folder here exactly where a local run writes them.

A task whose node or worker died is retried once (Ray's `max_retries`), then recorded as an error
with Ray's account of the cause. Ctrl-C cancels this run's Ray tasks and keeps what finished.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import hiera_core
from hiera_core.bench.environment import host_environment, task_environment
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.suite import BenchTask
from hiera_core.bench.task_run import BenchSettings, run_task, slug
from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Emit, Event, discard
from hiera_core.store import find_workspace_root
from hiera_core.worker.isolate import Placement

MAX_RETRIES = 1  # a task whose node died runs once more, elsewhere if the node is gone
WAIT_S = 1.0  # ray.wait's timeout, so that Ctrl-C is seen within a second
INSTALL_HINT = "pip install 'hiera[ray]' (on this host and on every node of the cluster)"
# Ray's errors that end a task for a reason outside the task -> the record's error kind
RAY_ERROR_KINDS = {"NodeDiedError": ErrorKind.NODE_DIED, "WorkerCrashedError": ErrorKind.WORKER_CRASHED,
                   "RuntimeEnvSetupError": ErrorKind.RUNTIME_ENV, "OutOfMemoryError": ErrorKind.OOM,
                   "TaskUnschedulableError": ErrorKind.UNSCHEDULABLE, "ObjectLostError": ErrorKind.NODE_DIED,
                   "OwnerDiedError": ErrorKind.NODE_DIED}


def require_ray():
    """The ray module, or a usage error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise HieraError("--ray needs Ray, which is not installed", kind=ErrorKind.USAGE, hint=INSTALL_HINT) from None
    return ray


def stage_tasks(tasks: Sequence[BenchTask], folder: Path) -> dict[str, str]:
    """Copy each task file into `folder/tasks/<slug>/`, next to its workspace's pyproject.toml (a
    marker file when it has none, so the task's store lands in that folder on the node); returns
    each task id's file relative to `folder`, which Ray ships as the job's working directory."""
    staged: dict[str, str] = {}
    for task in tasks:
        target = folder / "tasks" / slug(task.id)
        target.mkdir(parents=True)
        shutil.copyfile(task.path, target / os.path.basename(task.path))
        pyproject = find_workspace_root(task.path) / "pyproject.toml"
        if pyproject.is_file():
            shutil.copyfile(pyproject, target / "pyproject.toml")
        else:
            (target / "pyproject.toml").write_text("# one bench task's workspace on a Ray node\n")
        staged[task.id] = str((target / os.path.basename(task.path)).relative_to(folder))
    return staged


def run_on_node(task: BenchTask, staged: str, settings: BenchSettings, llm: dict,
                deadline: float | None) -> dict | None:
    """The Ray task: run one bench task on this node (the working directory is the staged suite).
    Returns {"record", "proposal", "log"} (the record as a dict, the proposal's and the timing
    log's text or None), or None when it started after `deadline` (`--stop-after`, wall clock)."""
    import ray

    if deadline is not None and time.time() > deadline:
        return None
    gpus = ray.get_gpu_ids() if settings.device == "cuda" else []
    placement = Placement(str(gpus[0])) if gpus else None
    host = host_environment(settings.device, llm)  # this node's CPU, platform and GPU, the run's model
    node_task = BenchTask(task.id, os.path.abspath(staged), task.level)
    with tempfile.TemporaryDirectory(prefix="hiera-bench-task-") as scratch:
        record = run_task(node_task, settings, host, Path(scratch), discard, placement)
        proposal = (Path(scratch) / record.proposal).read_text(encoding="utf-8") if record.proposal else None
        log_path = Path(scratch) / "logs" / f"{slug(task.id)}.log"
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else None
    record.path = task.path  # the task as this run's user named it, not the node's copy
    record.node, record.node_id = ray.util.get_node_ip_address(), ray.get_runtime_context().get_node_id()
    record.environment["hostname"] = socket.gethostname()
    return {"record": record.to_dict(), "proposal": proposal, "log": log}


def run_on_ray(todo: Sequence[BenchTask], settings: BenchSettings, out: Path, host: dict, emit: Emit,
               deliver: Callable[[TaskRecord], None], stop_after_s: float | None, skipped: int) -> list[str]:
    """Run `todo` on the cluster at settings.ray_address and `deliver` each record in this thread
    as its Ray task finishes. Returns the ids of the tasks that started after `stop_after_s`."""
    ray = require_ray()
    if not todo:  # all recorded already: no need of the cluster
        emit(Event("start", stage="load", message=f"0 task(s) to run, {skipped} already finished in {out}",
                   progress=1.0, data={"tasks": 0, "skipped": skipped}))
        return []
    with tempfile.TemporaryDirectory(prefix="hiera-bench-ray-") as stage:
        staged = stage_tasks(todo, Path(stage))
        _connect(ray, settings.ray_address, {
            "working_dir": stage, "py_modules": [os.path.dirname(hiera_core.__file__)],
            "excludes": ["__pycache__/"]})
        try:
            where = _check_cluster(ray, settings)
            emit(Event("start", stage="load", message=f"{len(todo)} task(s) to run on the Ray cluster "
                       f"({where}), {skipped} already finished in {out}", progress=0.0,
                       data={"tasks": len(todo), "skipped": skipped}))
            remote = ray.remote(run_on_node).options(
                num_gpus=1 if settings.device == "cuda" else 0, num_cpus=settings.ray_cpus,
                max_retries=MAX_RETRIES, retry_exceptions=False)
            deadline = time.time() + stop_after_s if stop_after_s is not None else None
            llm = {"model": host["model"], "endpoint": host["endpoint"]}
            pending = {remote.remote(task, staged[task.id], settings, llm, deadline): task for task in todo}
            return _collect(ray, pending, out, host, emit, deliver)
        finally:
            ray.shutdown()


def _collect(ray, pending: dict, out: Path, host: dict, emit: Emit,
             deliver: Callable[[TaskRecord], None]) -> list[str]:
    total, done = len(pending), 0
    not_started: list[str] = []
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=WAIT_S)
            for reference in ready:
                task = pending.pop(reference)
                try:
                    outcome = ray.get(reference)
                except ray.exceptions.RayError as error:
                    record = failed_on_cluster(task, error, host)
                else:
                    if outcome is None:
                        not_started.append(task.id)
                        continue
                    record = bring_back(outcome, out)
                done += 1
                deliver(record)
                emit(Event("stage", stage="load", message=f"{done}/{total} task(s) finished on the cluster",
                           progress=done / total, data={"task": task.id}))
    except BaseException:  # Ctrl-C: what finished is saved; stop this run's tasks on the cluster
        for reference in pending:
            # Where the connection is gone already, so are the tasks: the error to report is the first.
            with contextlib.suppress(Exception):
                ray.cancel(reference, force=True)
        raise
    return not_started


def bring_back(outcome: dict, out: Path) -> TaskRecord:
    """The record of a task run on a node, its proposal and timing log written into `out` where a
    local run writes them (proposals/<slug>.py, logs/<slug>.log)."""
    record = TaskRecord.from_dict(outcome["record"])
    if outcome["proposal"] is not None:
        target = out / record.proposal
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(outcome["proposal"], encoding="utf-8")
    if outcome["log"] is not None:
        log = out / "logs" / f"{slug(record.id)}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(outcome["log"], encoding="utf-8")
    return record


def failed_on_cluster(task: BenchTask, error: Exception, host: dict) -> TaskRecord:
    """A task Ray could not finish (its node died again after the retry, its worker crashed, the
    runtime environment could not be set up), recorded as an error with Ray's account of why."""
    name = type(error).__name__
    kind = RAY_ERROR_KINDS.get(name, ErrorKind.RAY)
    retried = f" (Ray ran it {MAX_RETRIES + 1} times)" if kind in (ErrorKind.NODE_DIED, ErrorKind.WORKER_CRASHED) else ""
    detail = str(error).strip() or name
    return TaskRecord(id=task.id, level=task.level, path=task.path, outcome="error",
                      error={"stage": "ray", "kind": kind, "message": f"{name}{retried}: {detail}"[:4000]},
                      environment=task_environment(host, None))


def _connect(ray, address: str, runtime_env: dict) -> None:
    try:
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, ValueError, RuntimeError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise HieraError(f"cannot connect to a Ray cluster at {address}: {first}", kind=ErrorKind.USAGE,
                         hint="start one (`ray start --head` on the head node, `ray start --address=HEAD:6379` "
                              "on the others; docs/bench.md), then pass its address or `auto` on a node of it"
                         ) from None


def _check_cluster(ray, settings: BenchSettings) -> str:
    """Refuse what could never be scheduled (no GPU for a GPU run, no node with --ray-cpus cores);
    returns the cluster's size in words."""
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    gpus = sum(node["Resources"].get("GPU", 0) for node in nodes)
    most_cpus = max((node["Resources"].get("CPU", 0) for node in nodes), default=0)
    if settings.device == "cuda" and not gpus:
        raise HieraError("the Ray cluster has no GPU, and each task asks for one (--device cuda)", kind=ErrorKind.USAGE,
                         hint="start the nodes on GPU machines, or run on CPU cores with --device cpu")
    if most_cpus < settings.ray_cpus:
        raise HieraError(f"no node of the Ray cluster has {settings.ray_cpus} CPU cores (the most is "
                         f"{most_cpus:g}), which each task asks for", kind=ErrorKind.USAGE,
                         hint=f"pass --ray-cpus {max(1, int(most_cpus))} or less")
    return f"{len(nodes)} node(s), {gpus:g} GPU(s), {sum(node['Resources'].get('CPU', 0) for node in nodes):g} CPU(s)"
