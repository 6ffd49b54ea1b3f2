"""One device shared by candidates evaluated side by side: verification under a shared lock, timing
under an exclusive one, so no figure is taken while another candidate compiles or runs on the same
device (issue 24: compile in parallel, time alone).

An advisory `flock` on a file every evaluation of a run opens; the kernel drops it when the holder
dies, so a killed worker never leaves the device locked. Linux and macOS.

A worker's waits for the lock are not its own time: it records them (`report_waits_to`) and the
parent that enforces its time limit adds them to the limit (hiera_core.worker.isolate.run_worker),
so a candidate queued behind another's compile or timing is not stopped for it.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

PhaseListener = Callable[[str], None]  # told "verify" or "time" once the phase's lock is held
WAITS_FILE = "lockwait.json"  # a worker's record of its waits, beside its result file


class _Waits:
    """This process's waits for the lock, written to `record` as JSON: the seconds waited so far and,
    during a wait, since when (time.monotonic: one clock for every process of the machine)."""

    record: Path | None = None
    waited_s = 0.0

    def write(self, since: float | None) -> None:
        if self.record is not None:
            temp = self.record.with_name(self.record.name + ".tmp")
            temp.write_text(json.dumps({"waited_s": self.waited_s, "since": since}), encoding="utf-8")
            os.replace(temp, self.record)


_WAITS = _Waits()


def report_waits_to(result_path: str) -> None:
    """Record this process's waits for the lock from now on, in WAITS_FILE beside `result_path` (the
    request's result file, which the parent that times the worker out knows)."""
    _WAITS.record, _WAITS.waited_s = Path(result_path).with_name(WAITS_FILE), 0.0


def waited_seconds(record: Path, now: float) -> float:
    """The seconds a worker has waited for the lock by `now` (time.monotonic), per its `record`; 0
    without one."""
    try:
        waits = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0.0
    since = waits.get("since")
    return float(waits.get("waited_s", 0.0)) + (max(0.0, now - since) if since is not None else 0.0)


def _acquire(descriptor: int, how: int) -> None:
    try:
        fcntl.flock(descriptor, how | fcntl.LOCK_NB)
    except BlockingIOError:
        since = time.monotonic()
        _WAITS.write(since)
        fcntl.flock(descriptor, how)
        _WAITS.waited_s += time.monotonic() - since
        _WAITS.write(None)


@contextmanager
def _locked(path: str | None, how: int, phase: str, on_enter: PhaseListener | None) -> Iterator[None]:
    descriptor = None if path is None else os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if descriptor is not None:  # None: evaluated alone, nothing to share the device with
            _acquire(descriptor, how)
        if on_enter is not None:
            on_enter(phase)
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)  # closing the descriptor releases the lock


def verifying(path: str | None, on_enter: PhaseListener | None = None):
    """Held while a candidate is loaded, compiled and checked: others may do the same meanwhile."""
    return _locked(path, fcntl.LOCK_SH, "verify", on_enter)


def verifying_alone(path: str | None, on_enter: PhaseListener | None = None):
    """Held while a candidate that ran out of memory beside others is verified again: nothing else
    runs on the device meanwhile."""
    return _locked(path, fcntl.LOCK_EX, "verify", on_enter)


def timing(path: str | None, on_enter: PhaseListener | None = None):
    """Held while a candidate and its reference are timed: nothing else runs on the device."""
    return _locked(path, fcntl.LOCK_EX, "time", on_enter)
