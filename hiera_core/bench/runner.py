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
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from hiera_core.bench.environment import (
    host_environment,
    llm_environment,
)
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.results import BenchResults, check_resumable, load, save
from hiera_core.bench.suite import BenchTask
from hiera_core.bench.task_run import BenchSettings, run_task
from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Emit, Event
from hiera_core.loop.session import llm_config_for
from hiera_core.profile.timing import METHOD_VERSION as TIMING_METHOD
from hiera_core.store import find_workspace_root
from hiera_core.worker.isolate import Placement, stop_running_workers


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
        raise HieraError(f"{out} already holds bench results", kind=ErrorKind.USAGE,
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
