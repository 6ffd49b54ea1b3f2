"""Running worker ops in child processes with a time limit and (on CPU) a memory limit.

The child gets its own process group, so a timeout kills everything it started (inductor's
compile workers too), and a Ctrl-C at the terminal reaches only the parent, which records the
run before it stops them. Every worker tree ends with its job: the parent kills the groups it
started when it is interrupted, terminated or exits (`stop_running_workers`, called by the CLI's
signal handlers and at exit), and each child asks the kernel to kill it when its parent dies
(`die_with_parent`), which covers a parent killed with SIGKILL. Children see an allowlist of the
environment (`worker_environment`, docs/workers.md). Their stdout/stderr go to a log file whose
tail is quoted when they die. Pure: never imports torch.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hiera_core import PACKAGE_ROOT
from hiera_core.errors import ErrorKind, HieraError

if TYPE_CHECKING:  # run_worker imports the records when it runs: their results import the planner,
    # which die_with_parent's users (the candidate's runner, the language server) have no use for
    from hiera_core.worker.requests import Result, WorkerRequest


@dataclass(frozen=True)
class Placement:
    """Where a worker runs: one GPU (its index or UUID, as CUDA_VISIBLE_DEVICES takes it) and, when
    given, a set of CPU cores (so that jobs running side by side do not share cores)."""

    gpu: str
    cpus: tuple[int, ...] = ()


# The workers running now, so that an interrupted run can stop them from any thread.
_running: set[subprocess.Popen] = set()
_running_lock = threading.Lock()
_stopped = threading.Event()

PARENT_PID_VARIABLE = "HIERA_PARENT_PID"  # set for each child: the PID whose death must end it
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

# What a worker's environment keeps (docs/workers.md): what torch, CUDA, compilers, Python and
# HIERA itself need. Anything else (cloud credentials, tokens, the API key) never reaches the
# model-written code the worker runs.
WORKER_VARIABLES = frozenset((
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "LANG", "LANGUAGE", "TMPDIR", "TMP", "TEMP",
    "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "XDG_CACHE_HOME", "VIRTUAL_ENV", "CONDA_PREFIX",
    "CC", "CXX", "NVCC_APPEND_FLAGS", "NVCC_PREPEND_FLAGS", "MAX_JOBS", "OMP_NUM_THREADS", "KMP_AFFINITY",
))
WORKER_PREFIXES = ("LC_", "CUDA_", "CUDNN_", "CUBLAS", "NCCL_", "NVIDIA_", "TORCH", "PYTORCH_", "TRITON_",
                   "OMP_", "MKL_", "OPENBLAS_", "KMP_", "PYTHON", "HIERA_")
# Kept out even under an allowed prefix (HIERA_API_KEY, TORCH_HUB_TOKEN, ...).
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE", re.IGNORECASE)


def worker_environment(placement: Placement | None = None) -> dict[str, str]:
    """The environment of a child that runs user or model-written code: this process's, filtered to
    WORKER_VARIABLES and WORKER_PREFIXES minus anything named like a secret; HIERA's package on
    PYTHONPATH; this process as the parent it dies with; `placement`'s GPU when given."""
    env = {name: value for name, value in os.environ.items()
           if (name in WORKER_VARIABLES or name.startswith(WORKER_PREFIXES)) and not SECRET_NAME.search(name)}
    env["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("PYTHONUNBUFFERED", "1")
    env[PARENT_PID_VARIABLE] = str(os.getpid())
    if placement is not None:
        env["CUDA_VISIBLE_DEVICES"] = placement.gpu
        env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"  # so an index means the GPU nvidia-smi shows under it
    return env


def die_with_parent(parent_pid: int | None = None) -> None:
    """Have the kernel SIGKILL this process when its parent dies (Linux; elsewhere nothing): the
    first thing a child entry point does, before it starts any thread. `parent_pid` (default:
    $HIERA_PARENT_PID, set by worker_environment) closes the race of a parent that died before the
    request was made: then this process is already re-parented, and ends now. (A parent other than
    `parent_pid` that is alive, e.g. a wrapper script the interpreter setting names, is not a race:
    it is watched.) A process that leads its group also gets a reaper (`_reap_group_after`), so
    what it starts (inductor's compile workers, a build) ends with it however it ends."""
    if parent_pid is None:
        given = os.environ.get(PARENT_PID_VARIABLE, "")
        parent_pid = int(given) if given.isdigit() else None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        return
    if parent_pid is not None and os.getppid() != parent_pid and not process_alive(parent_pid):
        os._exit(128 + signal.SIGKILL)
    os.environ[PARENT_PID_VARIABLE] = str(os.getpid())  # the parent of the children this one starts
    if os.getpgrp() == os.getpid():
        _reap_group_after(os.getpid())


def _reap_group_after(leader: int) -> None:
    """Fork a reaper that waits for `leader` to end (the pipe's write end closes with it, whatever
    kills it) and then SIGKILLs the rest of its process group, the reaper last."""
    read_end, write_end = os.pipe()  # not inherited by programs the leader executes (PEP 446)
    if os.fork() != 0:
        os.close(read_end)
        return
    try:
        os.close(write_end)
        while os.read(read_end, 1):
            pass
    finally:
        os.killpg(leader, signal.SIGKILL)
        os._exit(0)


def process_alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the CLI (a kill, the editor's cancel, a closed terminal): raised in
    the main thread like KeyboardInterrupt, so the run is recorded and its workers stopped."""

    def __init__(self, signal_number: int):
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number


def raise_terminated(signal_number: int, _frame) -> None:
    raise Terminated(signal_number)


def stop_running_workers() -> None:
    """Kill every worker this process has running and start no more: for a process that is ending
    (Ctrl-C or SIGTERM in the CLI, Ctrl-C in `hiera bench`, whose tasks run in threads that would
    otherwise go on to their next step; and at exit, whatever the reason)."""
    with _running_lock:
        _stopped.set()
        processes = list(_running)
    for process in processes:
        kill_group(process)


atexit.register(stop_running_workers)


def _interrupted(doing: str) -> HieraError:
    return HieraError(f"{doing}: stopped, the run was interrupted", kind=ErrorKind.CANCELLED)


def _total_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 0


def _limit_memory(limit: int):
    def apply() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def log_tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    kept = [line for line in text.splitlines() if line.strip() and "USDT:" not in line]
    return "\n".join(kept[-lines:])


def store_cache_environment(env, cache_root: str | None) -> None:
    """Inductor's caches (FX graphs, autotuning choices) and Triton's kernels in the store's cache
    folder `cache_root`, so they persist with the workspace, unless the user named folders of their
    own: set in `env` (a dict, or os.environ) before torch is imported, and inherited by the
    processes a worker starts (the candidate's runner). Inductor's precompiled C++ headers stay off:
    they ignore the cache folder (about 150 MB each in one global /tmp folder), one built without the
    vectorized ISA's declarations failed later CPU compiles, and the CPU quick start took as long
    without them (74 s, 75 s with)."""
    env.setdefault("TORCHINDUCTOR_CPP_CACHE_PRECOMPILE_HEADERS", "0")
    if cache_root:
        env.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(cache_root, "inductor"))
        env.setdefault("TRITON_CACHE_DIR", os.path.join(cache_root, "triton"))


def start_worker(arguments: list[str], log_stream, *, device: str, python: str | None = None,
                 placement: Placement | None = None, cache_root: str | None = None,
                 stdin=subprocess.DEVNULL, doing: str = "starting a worker") -> subprocess.Popen:
    """`python -m hiera_core.worker.ops ARGUMENTS` in a process group of its own (so a timeout kills
    everything it starts: inductor's compile workers, runners), with the allowlisted environment
    (workers run model-written code: no secrets), on `placement`'s GPU and cores; registered, so
    that an interrupted run stops it. Its stdout and stderr go to `log_stream`."""
    env = worker_environment(placement)
    store_cache_environment(env, cache_root)
    # On CPU an address-space cap turns runaway allocations into a clean error instead of the
    # OOM killer; CUDA reserves huge virtual ranges, so no cap there.
    total = _total_memory()
    preexec = _limit_memory(int(total * 0.9)) if device == "cpu" and total else None
    with _running_lock:
        if _stopped.is_set():
            raise _interrupted(doing)
        process = subprocess.Popen([python or sys.executable, "-m", "hiera_core.worker.ops", *arguments],
                                   stdout=log_stream, stderr=subprocess.STDOUT, stdin=stdin, env=env,
                                   start_new_session=True, preexec_fn=preexec)
        _running.add(process)
    if placement is not None and placement.cpus:
        # Set from here, not in the child: preexec_fn is unsafe with threads. Popen returns once
        # the interpreter is exec'd, before it has started any thread, so all of them inherit it.
        os.sched_setaffinity(process.pid, placement.cpus)
    return process


@dataclass
class WarmWorker:
    """A worker started before its request (hiera_core.worker.warm), waiting for it on its stdin."""

    process: subprocess.Popen
    log: Path  # its output until it is claimed, then appended to the request's log (`hand_log_to`)
    runners: int  # runners started ahead

    def send(self, request_path: str, result_path: str) -> subprocess.Popen:
        """Give the worker its request; the process to wait for."""
        try:
            self.process.stdin.write(json.dumps([request_path, result_path]).encode() + b"\n")
            self.process.stdin.close()
        except OSError:  # it died while it waited: run_worker reports its end and its log
            pass
        return self.process

    def hand_log_to(self, log: Path) -> None:
        """Append what it printed to the request's log, where a cold worker would have written it."""
        try:
            with open(self.log, "rb") as source, open(log, "ab") as target:
                shutil.copyfileobj(source, target)
            self.log.unlink()
        except OSError:
            pass


def run_worker(request: WorkerRequest[Result], *, timeout_s: float, doing: str, log_path: Path | None = None,
               python: str | None = None, placement: Placement | None = None,
               timeout_hint: str | None = None, claimed: WarmWorker | None = None) -> Result:
    """Run `request`'s op in a child (on `placement`'s GPU and cores when given; in `claimed`, a warm
    worker started for such requests, when given: hiera_core.worker.warm); returns its result (the
    request's result_type) or raises HieraError (timeout, crash, user error). `timeout_hint`: what
    a timeout's hint says instead of the default (the limit is --timeout)."""
    from hiera_core.worker.devicelock import WAITS_FILE, waited_seconds  # fcntl: not for the server on every OS
    from hiera_core.worker.requests import WorkerReply

    with tempfile.TemporaryDirectory(prefix="hiera-worker-") as folder:
        request_path = Path(folder) / "request.json"
        result_path = Path(folder) / "result.json"
        request_path.write_text(json.dumps(request.to_dict(), default=str), encoding="utf-8")
        log = log_path or Path(folder) / "worker.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        try:
            if claimed is not None:
                process = claimed.send(str(request_path), str(result_path))
            else:
                with open(log, "ab") as log_stream:
                    process = start_worker([str(request_path), str(result_path)], log_stream, device=request.device,
                                           python=python, placement=placement, cache_root=request.cache_root,
                                           doing=doing)
            waits = result_path.with_name(WAITS_FILE)
            try:
                code = wait_own_time(process, timeout_s, started, waits)
            except subprocess.TimeoutExpired:
                kill_group(process)
                waited = waited_seconds(waits, time.monotonic())
                queued = f" of its own (and {waited:.0f} s waiting for the device)" if waited >= 1 else ""
                raise HieraError(f"{doing} did not finish within {timeout_s:.0f} s{queued} and was stopped",
                                 kind=ErrorKind.TIMEOUT,
                                 hint=timeout_hint or "the forward may hang (e.g. an endless loop); fix it, or "
                                                      "raise --timeout if the task is just slow") from None
            except BaseException:
                kill_group(process)  # Ctrl-C or cancellation: leave no orphaned worker behind
                raise
            finally:
                kill_group(process)  # anything the worker itself started
                unregister(process)
        finally:
            if claimed is not None:
                claimed.hand_log_to(log)
        elapsed = time.monotonic() - started
        if _stopped.is_set():  # killed by stop_running_workers: not a crash to diagnose
            raise _interrupted(doing)
        if result_path.exists():
            reply = WorkerReply.from_dict(json.loads(result_path.read_text(encoding="utf-8")))
            if reply.ok:
                return request.result_type.from_dict(reply.result)
            raise HieraError.from_dict(reply.error)
        tail = log_tail(log)
        if code < 0:
            name = signal.Signals(-code).name
            reason = {"SIGKILL": "killed (out of memory?)", "SIGSEGV": "crashed with a segmentation fault",
                      "SIGABRT": "aborted"}.get(name, f"killed by {name}")
        else:
            reason = f"exited with code {code}"
        if "MemoryError" in tail or "out of memory" in tail.lower() or "Cannot allocate memory" in tail:
            raise HieraError(f"{doing} ran out of memory ({reason} after {elapsed:.1f} s)", kind=ErrorKind.OOM,
                             hint="shrink the inputs or use a machine with more memory",
                             details={"log": tail})
        raise HieraError(f"{doing}: the worker process {reason} after {elapsed:.1f} s", kind=ErrorKind.CRASH,
                         hint="see the log below; a CUDA fault or a crash in native code ends the worker",
                         details={"log": tail})


def wait_own_time(process: subprocess.Popen, timeout_s: float, started: float, waits: Path) -> int:
    """process.wait, given `timeout_s` of the worker's own time from `started` (time.monotonic): the
    time it spent waiting for the device lock, per its record `waits`
    (hiera_core.worker.devicelock), is added to the limit, up to the limit again (the record lies in
    the worker's folder, which a hostile candidate's process could write: a forged wait buys it at
    most twice the limit, never a hang). Raises subprocess.TimeoutExpired."""
    from hiera_core.worker.devicelock import waited_seconds

    deadline = started + timeout_s
    while True:
        try:
            return process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            extended = started + timeout_s + min(timeout_s, waited_seconds(waits, time.monotonic()))
            if extended <= deadline:
                raise
            deadline = extended


def unregister(process: subprocess.Popen) -> None:
    """`process` (ended, or killed by its owner) no longer among the workers an interruption stops."""
    with _running_lock:
        _running.discard(process)


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
