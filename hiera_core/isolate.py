"""Running worker ops in child processes with a time limit and (on CPU) a memory limit.

The child gets its own process group, so a timeout kills everything it started (inductor's
compile workers too). Its stdout/stderr go to a log file whose tail is quoted when it dies.
Pure: never imports torch.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from hiera_core.errors import HieraError

PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)


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


def stop_running_workers() -> None:
    """Kill every worker this process has running and start no more: for a process that is ending
    (Ctrl-C in `hiera bench`, whose tasks run in threads that would otherwise go on to their next step)."""
    with _running_lock:
        _stopped.set()
        processes = list(_running)
    for process in processes:
        kill_group(process)


def _interrupted(doing: str) -> HieraError:
    return HieraError(f"{doing}: stopped, the run was interrupted", kind="cancelled")


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


def run_worker(op: str, request: dict, *, timeout_s: float, device: str, doing: str,
               log_path: Path | None = None, python: str | None = None, placement: Placement | None = None) -> dict:
    """Run `op` in a child (on `placement`'s GPU and cores when given); returns its result or raises
    HieraError (timeout, crash, user error)."""
    with tempfile.TemporaryDirectory(prefix="hiera-worker-") as folder:
        request_path = Path(folder) / "request.json"
        result_path = Path(folder) / "result.json"
        request_path.write_text(json.dumps({**request, "op": op}, default=str), encoding="utf-8")
        log = log_path or Path(folder) / "worker.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        # Workers run model-written code: they never see the API key.
        env = {name: value for name, value in os.environ.items() if name != "OPENAI_API_KEY"}
        env["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.setdefault("PYTHONUNBUFFERED", "1")
        if placement is not None:
            env["CUDA_VISIBLE_DEVICES"] = placement.gpu
            env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"  # so an index means the GPU nvidia-smi shows under it
        # On CPU an address-space cap turns runaway allocations into a clean error instead of the
        # OOM killer; CUDA reserves huge virtual ranges, so no cap there.
        total = _total_memory()
        preexec = _limit_memory(int(total * 0.9)) if device == "cpu" and total else None
        started = time.monotonic()
        with open(log, "ab") as log_stream:
            process = subprocess.Popen([python or sys.executable, "-m", "hiera_core.worker", str(request_path),
                                        str(result_path)], stdout=log_stream, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, env=env, start_new_session=True,
                                       preexec_fn=preexec)
            with _running_lock:
                _running.add(process)
                stopped = _stopped.is_set()
            try:
                if stopped:
                    raise _interrupted(doing)
                if placement is not None and placement.cpus:
                    # Set from here, not in the child: preexec_fn is unsafe with threads. Popen returns once
                    # the interpreter is exec'd, before it has started any thread, so all of them inherit it.
                    os.sched_setaffinity(process.pid, placement.cpus)
                code = process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                kill_group(process)
                raise HieraError(f"{doing} did not finish within {timeout_s:.0f} s and was stopped", kind="timeout",
                                 hint="the forward may hang (e.g. an endless loop); fix it, or raise --timeout "
                                      "if the task is just slow") from None
            except BaseException:
                kill_group(process)  # Ctrl-C or cancellation: leave no orphaned worker behind
                raise
            finally:
                kill_group(process)  # anything the worker itself started
                with _running_lock:
                    _running.discard(process)
        elapsed = time.monotonic() - started
        if _stopped.is_set():  # killed by stop_running_workers: not a crash to diagnose
            raise _interrupted(doing)
        if result_path.exists():
            payload = json.loads(result_path.read_text(encoding="utf-8"))
            if payload["ok"]:
                return payload["result"]
            raise HieraError.from_dict(payload["error"])
        tail = log_tail(log)
        if code < 0:
            name = signal.Signals(-code).name
            reason = {"SIGKILL": "killed (out of memory?)", "SIGSEGV": "crashed with a segmentation fault",
                      "SIGABRT": "aborted"}.get(name, f"killed by {name}")
        else:
            reason = f"exited with code {code}"
        if "MemoryError" in tail or "out of memory" in tail.lower() or "Cannot allocate memory" in tail:
            raise HieraError(f"{doing} ran out of memory ({reason} after {elapsed:.1f} s)", kind="oom",
                             hint="shrink the inputs or use a machine with more memory",
                             details={"log": tail})
        raise HieraError(f"{doing}: the worker process {reason} after {elapsed:.1f} s", kind="crash",
                         hint="see the log below; a CUDA fault or a crash in native code ends the worker",
                         details={"log": tail})


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
