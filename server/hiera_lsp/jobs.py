"""Long jobs (`hiera optimize|profile|verify|spec ... --events`) as child processes.

Each job is a child process in its own process group (so cancelling kills whatever it started),
that dies with the server (it is told the server's PID, and asks the kernel for a parent-death
signal: hiera_core.worker.isolate.die_with_parent), and that the server kills when it exits or is
terminated (atexit and SIGTERM/SIGHUP handlers). Jobs are read with asyncio (never pygls's thread
pool, whose threads also read stdin). One job per module at a time and at most `max_parallel` overall; the rest wait in FIFO order. A job ends in one of
the states below with a message a user can act on; whatever the child does (crash, hang, out
of memory, garbage on stdout) the server carries on.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import itertools
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from hiera_core.events import Event
from hiera_core.loop import run_result

QUEUED, RUNNING = "queued", "running"
SUCCEEDED, NO_IMPROVEMENT, FAILED, CANCELLED = "succeeded", "no_improvement", "failed", "cancelled"
FINISHED = (SUCCEEDED, NO_IMPROVEMENT, FAILED, CANCELLED)

KILL_GRACE_S = 3.0  # SIGTERM first so the CLI can clean up, then SIGKILL
FINISHED_KEPT = 50  # finished jobs hiera.listJobs still shows
STDERR_TAIL_LINES = 40
_OOM_MARKERS = ("MemoryError", "out of memory", "OutOfMemoryError")
_ids = itertools.count(1)


@dataclass
class Job:
    kind: str  # optimize | profile | verify | spec
    path: str  # the module's file
    class_name: str
    argv: list[str]
    cwd: str
    env: dict[str, str]
    time_limit: float
    title: str
    id: str = field(default_factory=lambda: f"job-{next(_ids)}")
    state: str = QUEUED
    stage: str = ""
    progress: float = 0.0
    message: str = ""
    # The "result" event's data as its command's record (hiera_core.loop.run_result.command_result)
    result: run_result.CommandResult | None = None
    error: dict | None = None  # the "error" event's data (a HieraError dict)
    returncode: int | None = None
    stderr_tail: collections.deque = field(default_factory=lambda: collections.deque(maxlen=STDERR_TAIL_LINES))
    queued_at: float = field(default_factory=time.time)
    started_at: float | None = None
    finished_at: float | None = None
    process: asyncio.subprocess.Process | None = None
    done: asyncio.Future | None = None
    cancel_requested: bool = False
    timed_out: bool = False

    @property
    def module(self) -> str:
        return f"{self.path}::{self.class_name}"

    def describe(self) -> dict:
        """What `hiera.listJobs` shows."""
        return {"id": self.id, "kind": self.kind, "module": self.module, "title": self.title,
                "state": self.state, "stage": self.stage, "progress": round(self.progress, 3),
                "message": self.message, "queuedAt": self.queued_at, "startedAt": self.started_at,
                "finishedAt": self.finished_at}


Listener = Callable[[Job, Event | None], None]


class JobQueue:
    """Schedules jobs; `listener(job, event)` hears every event, and `(job, None)` on state changes."""

    def __init__(self, listener: Listener, max_parallel: int = 1):
        self.listener = listener
        self.max_parallel = max_parallel
        self.jobs: dict[str, Job] = {}
        _queues.add(self)
        _end_jobs_with_this_process()

    def set_max_parallel(self, count: int) -> None:
        self.max_parallel = count
        self._schedule()

    def submit(self, job: Job) -> Job:
        job.done = asyncio.get_running_loop().create_future()
        self.jobs[job.id] = job
        self._schedule()
        return job

    def active(self) -> list[Job]:
        return [job for job in self.jobs.values() if job.state in (QUEUED, RUNNING)]

    def blocking(self, job: Job) -> Job | None:
        """The running job a queued one waits for on the same module, if any."""
        return next((other for other in self.jobs.values()
                     if other.state == RUNNING and other.module == job.module), None)

    def cancel(self, job_id: str) -> bool:
        job = self.jobs.get(job_id)
        if job is None or job.state in FINISHED:
            return False
        job.cancel_requested = True
        if job.state == QUEUED:
            self._finish(job, CANCELLED, "cancelled before it started")
            self._schedule()
        else:
            _terminate(job)
        return True

    def kill_all(self) -> None:
        """At exit: no grace period, nothing of ours may outlive the server."""
        for job in self.jobs.values():
            if job.process is not None and job.process.returncode is None:
                _signal_group(job.process.pid, signal.SIGKILL)

    def _schedule(self) -> None:
        running = [job for job in self.jobs.values() if job.state == RUNNING]
        busy = {job.module for job in running}
        for job in list(self.jobs.values()):
            if len(running) >= self.max_parallel:
                break
            if job.state == QUEUED and job.module not in busy:
                job.state = RUNNING
                job.started_at = time.time()
                running.append(job)
                busy.add(job.module)
                asyncio.get_running_loop().create_task(self._run(job))

    async def _run(self, job: Job) -> None:
        # hiera_core.worker.isolate loads ctypes and subprocess: not before the first job.
        from hiera_core.worker.isolate import PARENT_PID_VARIABLE

        self.listener(job, None)
        try:
            job.process = await asyncio.create_subprocess_exec(
                *job.argv, cwd=job.cwd, env={**job.env, PARENT_PID_VARIABLE: str(os.getpid())},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                start_new_session=True, limit=64 * 1024 * 1024)
        except OSError as error:
            self._finish(job, FAILED, f"could not start `{job.argv[0]}`: {error.strerror or error} "
                                      "(check the hiera.pythonPath setting)")
            self._schedule()
            return
        readers = asyncio.gather(self._read_events(job), self._read_stderr(job))
        try:
            await asyncio.wait_for(job.process.wait(), timeout=job.time_limit)
        except TimeoutError:
            job.timed_out = True
            _terminate(job)
            await job.process.wait()
        # The CLI is gone; whatever is left in its group is a stray that would also keep the
        # pipes open. Everything the CLI wrote is still in the pipes for the readers.
        _signal_group(job.process.pid, signal.SIGKILL)
        await readers
        job.returncode = job.process.returncode
        state, message = self._outcome(job)
        self._finish(job, state, message)
        self._schedule()

    async def _read_events(self, job: Job) -> None:
        assert job.process and job.process.stdout
        async for raw in job.process.stdout:
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            try:
                event = Event.from_json(line)
            except ValueError:
                event = Event("log", message=line)
            self._absorb(job, event)
            self.listener(job, event)

    async def _read_stderr(self, job: Job) -> None:
        assert job.process and job.process.stderr
        async for raw in job.process.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            job.stderr_tail.append(line)
            self.listener(job, Event("stderr", message=line))

    @staticmethod
    def _absorb(job: Job, event: Event) -> None:
        if event.stage:
            job.stage = event.stage
        if event.progress is not None:
            job.progress = max(job.progress, min(1.0, event.progress))
        if event.message and event.event in ("start", "stage", "candidate"):
            job.message = event.message
        if event.event == "result" and event.data:
            job.result = run_result.command_result(job.kind, event.data)
        elif event.event == "error" and event.data:
            job.error = event.data

    @staticmethod
    def _outcome(job: Job) -> tuple[str, str]:
        if job.cancel_requested:
            return CANCELLED, "cancelled"
        if job.timed_out:
            return FAILED, (f"stopped after the time limit of {job.time_limit:g} s "
                            "(setting hiera.jobTimeLimit)")
        if job.error is not None:
            return FAILED, _error_text(job.error)
        stderr = "\n".join(job.stderr_tail)
        if job.result is not None and job.returncode in (0, 1):
            status, message = _status_of(job.result)
            if status == "failed" or (not status and job.returncode == 1):  # e.g. a verification that failed
                return FAILED, message or "failed"
            if status == run_result.NO_IMPROVEMENT:
                return NO_IMPROVEMENT, "no verified candidate beat the reference"
            return SUCCEEDED, "done"
        if any(marker in stderr for marker in _OOM_MARKERS):
            return FAILED, "ran out of memory: " + _last_line(stderr)
        code = job.returncode
        if code is not None and code < 0:
            if -code == signal.SIGKILL:
                return FAILED, "was killed (SIGKILL), most likely by the out-of-memory killer"
            return FAILED, f"crashed ({_signal_name(-code)})" + (f": {_last_line(stderr)}" if stderr else "")
        detail = _last_line(stderr) or "no result was reported"
        return FAILED, f"exited with code {code}: {detail}"

    def _finish(self, job: Job, state: str, message: str) -> None:
        job.state = state
        job.message = message
        job.finished_at = time.time()
        if job.done is not None and not job.done.done():
            job.done.set_result(job)
        finished = [other.id for other in self.jobs.values() if other.state in FINISHED]
        for old in finished[:-FINISHED_KEPT]:
            del self.jobs[old]
        self.listener(job, None)


# Every queue of this process, so that its ending (however it ends) kills their jobs.
_queues: weakref.WeakSet[JobQueue] = weakref.WeakSet()
_exit_handlers_installed = False


def _kill_every_job() -> None:
    for queue in list(_queues):
        queue.kill_all()


def _end_jobs_with_this_process() -> None:
    """At exit, and on SIGTERM or SIGHUP (an editor closing, a kill), kill the jobs' process groups
    before the server ends (the jobs' own parent-death signal covers a SIGKILL of the server)."""
    global _exit_handlers_installed
    if _exit_handlers_installed:
        return
    _exit_handlers_installed = True
    atexit.register(_kill_every_job)
    if threading.current_thread() is not threading.main_thread():
        return

    def end(number: int, _frame) -> None:
        _kill_every_job()
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)  # end as that signal says, now that nothing is left behind

    for number in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(number) in (signal.SIG_DFL, None):
            signal.signal(number, end)


def _status_of(result: run_result.CommandResult) -> tuple[str, str]:
    """A command's result's status and message, where it has them (optimize's; a spec's or plan's
    dict may), else empty."""
    if isinstance(result, run_result.OptimizeResult):
        return result.status, result.message
    if isinstance(result, dict):
        return str(result.get("status") or ""), str(result.get("message") or "")
    return "", ""


def _error_text(error: dict) -> str:
    text = str(error.get("message") or "failed")
    where = error.get("file")
    if where and error.get("line"):
        where = f"{where}:{error['line']}"
    if where:
        text = f"{os.path.basename(str(where))}: {text}"
    if error.get("hint"):
        text += f" (hint: {error['hint']})"
    return text


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _terminate(job: Job) -> None:
    """SIGTERM the job's process group now, SIGKILL it if it is still there after a grace period."""
    process = job.process
    if process is None or process.returncode is not None:
        return
    _signal_group(process.pid, signal.SIGTERM)
    loop = asyncio.get_running_loop()

    def kill_if_alive() -> None:
        _signal_group(process.pid, signal.SIGKILL)

    loop.call_later(KILL_GRACE_S, kill_if_alive)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
