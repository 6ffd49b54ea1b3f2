"""Running a suite: per task `optimize`, then the timing op, one record each, saved as it goes;
with several GPUs (`--gpus`), one task per GPU at a time; on a Ray cluster (`--ray`), one Ray
task per bench task (ray_runner.py), saved here in the same way.

A task that fails (import error, timeout, out of memory, a crash in a worker) is recorded with
the stage and the error, and the run goes on. With `resume`, tasks already in the output
folder's results.json are skipped; new records are added to it.
"""

from __future__ import annotations

import os
import queue
import shutil
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from hiera_core.bench.environment import (
    host_environment,
    llm_environment,
    redact_endpoint,
    task_environment,
)
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.results import BenchResults, check_resumable, load, save
from hiera_core.bench.suite import BenchTask
from hiera_core.errors import HieraError
from hiera_core.events import Emit, Event, stopwatch
from hiera_core.worker.isolate import Placement, run_worker, stop_running_workers
from hiera_core.llm.config import Overrides as LLMOverrides
from hiera_core.loop.optimize import Settings, llm_config_for, optimize
from hiera_core.store import Store, find_workspace_root
from hiera_core.profile.timing import METHOD_VERSION as TIMING_METHOD


@dataclass
class BenchSettings:
    device: str
    budget: int  # offline expert candidates per task, as `hiera optimize --budget`
    timeout_s: float  # per worker step, as in `hiera optimize`
    # Model flags, None when not given (the engine then reads env, pyproject.toml, editor settings).
    model: str | None = None
    base_url: str | None = None
    samples: int | None = None
    # GPUs to spread the tasks over, one task per GPU at a time (`--gpus`); empty: the workers' default GPU.
    gpus: tuple[str, ...] = ()
    compile_modes: tuple[str, ...] = ("default",)  # torch.compile modes the reference is timed in
    # `--ray`: the cluster's address ("auto": the one this host belongs to), None for a local run;
    # each task then asks Ray for one GPU (device cuda) and `ray_cpus` CPU cores.
    ray_address: str | None = None
    ray_cpus: int = 1

    def engine_settings(self, placement: Placement | None = None) -> Settings:
        # cache=False: a bench measures; it never reads a spec, outcome or confirmation an earlier run
        # cached (it still writes them, for a later `hiera optimize`).
        return Settings(device=self.device, budget=self.budget, timeout_s=self.timeout_s, placement=placement,
                        cache=False,
                        llm=LLMOverrides(model=self.model, base_url=self.base_url, samples=self.samples))


def placements(gpus: Sequence[str], sysfs: Path = Path("/sys/devices/system/cpu")) -> list[Placement | None]:
    """One placement per GPU; with several, each gets an equal share of this process's physical
    CPU cores (both hyperthreads of a core go to the same GPU, and consecutive cores of a socket
    together), so one task's compiling does not slow the host side of another's timing. [None]
    when no GPU is named."""
    if not gpus:
        return [None]
    cores = physical_cores(sorted(os.sched_getaffinity(0)), sysfs)
    if len(gpus) == 1 or len(cores) < len(gpus):
        return [Placement(gpu) for gpu in gpus]
    share = len(cores) // len(gpus)
    return [Placement(gpu, tuple(sorted(cpu for core in cores[number * share:(number + 1) * share] for cpu in core)))
            for number, gpu in enumerate(gpus)]


def physical_cores(cpus: list[int], sysfs: Path) -> list[tuple[int, ...]]:
    """`cpus` grouped by physical core (hyperthread siblings together), ordered by socket, then
    core; one CPU per group where the topology cannot be read."""
    def read(cpu: int, name: str) -> str | None:
        try:
            return (sysfs / f"cpu{cpu}" / "topology" / name).read_text().strip()
        except OSError:
            return None

    groups: dict[tuple, list[int]] = {}
    for cpu in cpus:
        package, siblings = read(cpu, "physical_package_id"), read(cpu, "thread_siblings_list")
        key = (int(package), siblings) if package is not None and siblings is not None else (-1, str(cpu))
        groups.setdefault(key, []).append(cpu)
    return [tuple(group) for _, group in sorted(groups.items(), key=lambda item: (item[0][0], item[1][0]))]


def slug(task_id: str) -> str:
    """A file name for a task id: 'level1/3_Conv2d_3x3.py' -> 'level1__3_Conv2d_3x3'."""
    return task_id.removesuffix(".py").replace("/", "__").replace("\\", "__")


def run_bench(tasks: Sequence[BenchTask], settings: BenchSettings, out: Path, *, resume: bool, command: list[str],
              emit: Emit, on_record: Callable[[TaskRecord], None], stop_after_s: float | None = None,
              rerun: Collection[str] = ()) -> BenchResults:
    """Run the tasks not yet in `out`, and those of `rerun` (ids) again: each new record replaces
    the old one when it is saved, so an interrupted rerun keeps the old; with `stop_after_s`, start
    no task once that many seconds have passed (a run cut into slices of a GPU lease goes on with
    `resume`)."""
    started = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    # Resolved once up front, so a bad model setting (a missing key) stops the run before any task.
    config = llm_config_for(settings.engine_settings(), find_workspace_root(tasks[0].path if tasks else "."))
    host = host_environment(settings.device, llm_environment(config))
    run_settings = {"device": settings.device, "budget": settings.budget, "timeout_s": settings.timeout_s,
                    "timing_method": TIMING_METHOD, "compile_modes": list(settings.compile_modes),
                    "model": host["model"], "endpoint": host["endpoint"],
                    "samples": config.samples if config.enabled else None}
    results = load(out)
    if results is not None and not (resume or rerun):
        raise HieraError(f"{out} already holds bench results", kind="usage",
                         hint="pass --resume to continue that run, or choose another --out folder")
    if results is None:
        results = BenchResults(settings=run_settings, environment=host, command=command)
    else:
        check_resumable(results, run_settings, out)
        results.environment, results.command = host, command
    finished = results.finished_ids() - set(rerun)
    todo = [task for task in tasks if task.id not in finished]
    order = {task.id: position for position, task in enumerate(tasks)}
    completed = 0  # tasks finished in this run

    def deliver(record: TaskRecord) -> None:
        """Save a finished task's record, kept in the suite's order (a rerun's new record replaces
        the old one); both schedulers call it from this thread."""
        nonlocal completed
        completed += 1
        results.tasks = [done for done in results.tasks if done.id != record.id] + [record]
        results.tasks.sort(key=lambda done: order.get(done.id, len(order)))
        save(out, results)
        on_record(record)

    skipped = len(tasks) - len(todo)
    if settings.ray_address is not None:
        from hiera_core.bench.ray_runner import run_on_ray

        not_started = run_on_ray(todo, settings, out, host, emit, deliver, stop_after_s, skipped)
    else:
        not_started = _run_locally(todo, settings, host, out, emit, deliver, started, stop_after_s, skipped)
    if not_started:
        rerun_left = sorted(set(rerun) & set(not_started))
        again = f" (and --rerun {' --rerun '.join(rerun_left)}: their old records stand)" if rerun_left else ""
        emit(Event("log", stage="load", message=f"stopped after {stop_after_s:g} s with {len(not_started)} "
                   f"task(s) left: run again with --resume to go on{again}", progress=1 - len(not_started) / len(todo)))
    if not completed:
        save(out, results)  # nothing ran: still write the outputs (the report follows the current code)
    return results


def _run_locally(todo: Sequence[BenchTask], settings: BenchSettings, host: dict, out: Path, emit: Emit,
                 deliver: Callable[[TaskRecord], None], started: float, stop_after_s: float | None,
                 skipped: int) -> list[str]:
    """Run `todo` on this host, one task per placement at a time (threads; each thread's workers
    use its GPU), and `deliver` each record in the calling thread as it finishes. Returns the ids of
    the tasks not started because `stop_after_s` had passed."""
    places = placements(settings.gpus)
    spread = f", {len(places)} at a time on GPUs {', '.join(p.gpu for p in places)}" if len(places) > 1 else ""
    emit(Event("start", stage="load", message=f"{len(todo)} task(s) to run, {skipped} already finished in "
               f"{out}{spread}", progress=0.0, data={"tasks": len(todo), "skipped": skipped}))
    lock = threading.Lock()
    free: queue.SimpleQueue[Placement | None] = queue.SimpleQueue()
    for place in places:
        free.put(place)
    partial: dict[str, float] = {}  # progress of the running tasks
    completed = 0  # tasks finished (read by forward(), counted below)
    not_started: list[str] = []
    interrupted = threading.Event()  # then the tasks still winding down in threads report nothing

    def attempt(task: BenchTask) -> TaskRecord | None:
        if stop_after_s is not None and time.monotonic() - started > stop_after_s:
            with lock:
                not_started.append(task.id)
            return None
        place = free.get()

        def forward(event: Event) -> None:
            if event.event in ("stage", "candidate") and not interrupted.is_set():
                with lock:
                    partial[task.id] = event.progress or 0.0
                    progress = (completed + sum(partial.values())) / len(todo)
                    emit(Event(event.event, stage=event.stage, message=f"{task.id}: {event.message}",
                               progress=progress, data={"task": task.id}))
        try:
            return run_task(task, settings, host, out, forward, place)
        finally:
            free.put(place)

    with ThreadPoolExecutor(max_workers=len(places), thread_name_prefix="hiera-bench") as pool:
        futures = [pool.submit(attempt, task) for task in todo]
        try:
            for future in as_completed(futures):
                record = future.result()
                if record is None:
                    continue
                with lock:
                    partial.pop(record.id, None)
                    completed += 1
                deliver(record)  # outside the lock: the report's plots take a while, the tasks go on
        except BaseException:  # Ctrl-C: what finished is saved; the running tasks end at their next worker
            interrupted.set()
            pool.shutdown(wait=False, cancel_futures=True)
            stop_running_workers()
            raise
    return not_started


def run_task(task: BenchTask, settings: BenchSettings, host: dict, out: Path, emit: Emit,
             placement: Placement | None = None) -> TaskRecord:
    started = time.monotonic()
    gpu = placement.gpu if placement else None
    record = TaskRecord(id=task.id, level=task.level, path=task.path, outcome="error", gpu=gpu)
    try:
        result = optimize(task.path, settings.engine_settings(placement), emit)
    except HieraError as error:
        return _failed(record, "optimize", error, host, started, gpu)
    _record_optimize(record, result, out)
    spec = Store.for_file(task.path).run(result["run"]).read_json("spec.json") or {}
    emit(Event("stage", stage="profile", message=f"timing eager, torch.compile ({', '.join(settings.compile_modes)}) and the proposal", progress=0.99))
    proposal = str((out / record.proposal).resolve()) if record.proposal else None
    try:
        with stopwatch(record.worker_s.setdefault("bench_time", {}), "total"):
            timed = run_worker("bench_time", {"address": result["address"], "device": settings.device,
                                              "proposal_paths": [proposal] if proposal else [],
                                              "compile_modes": list(settings.compile_modes)},
                               timeout_s=settings.timeout_s, device=settings.device, doing=f"timing {task.id}",
                               log_path=out / "logs" / f"{slug(task.id)}.log", placement=placement)
    except HieraError as error:
        return _failed(record, "timing", error, host, started, gpu)
    record.worker_s["bench_time"].update(timed.get("seconds", {}))
    _record_timing(record, timed, spec)
    record.environment = task_environment(host, timed["environment"], gpu)
    if result.get("llm"):  # the model this task's run actually used (pyproject.toml may differ per folder)
        record.environment.update(model=result["llm"]["model"], endpoint=redact_endpoint(result["llm"]["endpoint"]))
    record.wall_s = time.monotonic() - started
    return record


def _failed(record: TaskRecord, stage: str, error: HieraError, host: dict, started: float,
            gpu: str | None) -> TaskRecord:
    record.outcome = "error"
    record.correct = False
    record.error = {"stage": stage, "kind": error.kind, "message": str(error)}
    record.environment = task_environment(host, None, gpu)
    record.wall_s = time.monotonic() - started
    return record


def _record_optimize(record: TaskRecord, result: dict, out: Path) -> None:
    record.outcome = result["status"]
    record.run = result["run"]
    record.worker_s = dict(result.get("worker_seconds", {}))
    record.space, record.strategy = result.get("space"), result.get("strategy")
    record.verification = result.get("verification")
    record.optimize_speedup = result.get("speedup")
    candidates = result.get("candidates", [])
    record.samples = len(candidates)
    best: float | None = None
    for number, candidate in enumerate(candidates, start=1):
        if candidate["status"] == "verified" and candidate.get("speedup"):
            if record.samples_to_first_valid is None:
                record.samples_to_first_valid = number
            best = max(best or 0.0, candidate["speedup"])
        record.best_speedup_by_sample.append(best)
    record.tokens = result["llm"]["tokens"]["total"] if result.get("llm") else 0  # offline mode spends none
    if result.get("proposal_path"):
        target = out / "proposals" / f"{slug(record.id)}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(result["proposal_path"], target)  # the output folder stands on its own
        record.proposal = str(target.relative_to(out))


def _record_timing(record: TaskRecord, timed: dict, spec: dict) -> None:
    record.eager_ms = timed["eager"]["median_ms"]
    record.compile_modes_ms = {mode: timing["median_ms"] if timing else None for mode, timing in timed["compile"].items()}
    record.compile_errors = timed["compile_errors"]
    record.compile_ms = record.compile_modes_ms.get("default")
    record.compile_error = record.compile_errors.get("default")
    ran = {mode: ms for mode, ms in record.compile_modes_ms.items() if ms}
    if ran:
        record.best_compile_mode = min(ran, key=ran.get)
        record.best_compile_ms = ran[record.best_compile_mode]
    proposal = timed["proposals"][0] if timed["proposals"] else {"check": None, "hiera": None, "eager": None}
    record.timings = {"eager": timed["eager"], **{f"compile:{mode}": timing for mode, timing in timed["compile"].items()
                                                  if timing}}
    if proposal["hiera"]:
        record.timings.update(hiera=proposal["hiera"], paired_eager=proposal["eager"])
    if record.outcome == "proposal":
        check = proposal["check"]
        record.correct, record.check = check["correct"], check["message"]
        if record.correct:
            record.hiera_ms, record.paired_eager_ms = proposal["hiera"]["median_ms"], proposal["eager"]["median_ms"]
    else:  # no candidate beat the reference: HIERA keeps it, so the delivered module is the reference
        record.correct, record.check = True, "reference kept: no verified candidate beat it"
        record.hiera_ms = record.paired_eager_ms = record.eager_ms
    if record.correct and record.hiera_ms:
        record.speedup_eager = record.paired_eager_ms / record.hiera_ms
        # over a mode: (its time / eager's, one process) x (eager's / the proposal's, one pairing)
        record.speedup_compile = record.speedup_eager * record.compile_ms / record.eager_ms if record.compile_ms else None
        if record.best_compile_ms:
            record.speedup_best_compile = record.speedup_eager * record.best_compile_ms / record.eager_ms
    roofline = spec.get("roofline") or {}
    record.flops, record.bytes, record.intensity = spec.get("flops"), spec.get("bytes_min"), spec.get("intensity")
    record.workload_class = spec.get("workload_class")
    record.roofline_device = roofline.get("device_name")
    record.peak_flops, record.peak_bw = roofline.get("peak_flops"), roofline.get("peak_bw")
    record.roofline_bound_ms = roofline.get("bound_ms")
    if record.roofline_bound_ms:
        record.roofline_pct_eager = 100 * record.roofline_bound_ms / record.eager_ms
        if record.hiera_ms:
            record.roofline_pct = 100 * record.roofline_bound_ms / record.hiera_ms
