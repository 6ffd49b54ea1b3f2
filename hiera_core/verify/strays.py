"""Processes a candidate started: its runner's descendants, and orphans the judge adopted (a process
that left its parent, a daemon's double fork and `setsid`, is given to the judge, its subreaper: a
worker process is one, hiera_core.worker.ops).
A candidate's process runs beside the reference's timing: a process it leaves running (a spinning
CPU, a GPU context of its own) slows the reference the judge times between the candidate's calls
and inflates the speedup, so a candidate may start none (hiera_core.verify.runner_process).

torch's own compile workers (inductor's subprocess pool, and the pool below it) are the candidate's
compiler, not its work. Nor may a candidate reach into the judge's scheduling (its parent, of the same
user): its threads reniced or pinned to a core would time the reference slower (`scheduling`). Linux's
/proc only: elsewhere nothing is found.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
# inductor's compile sidecar: `python .../torch/_inductor/compile_worker/__main__.py --workers=N ...`
COMPILE_WORKER = "torch/_inductor/compile_worker/"
_subreaper = False


def become_subreaper() -> None:
    """Orphaned descendants of this process are given to it, not to init (once, Linux only)."""
    global _subreaper
    if _subreaper or not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    _subreaper = True


def _threads(pid: int) -> list[str]:
    """The ids of `pid`'s threads, from /proc; [] where it is gone."""
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


def children(pid: int) -> list[int]:
    """The processes `pid` started (any of its threads), from /proc; [] where it is gone."""
    found = []
    for thread in _threads(pid):
        try:
            with open(f"/proc/{pid}/task/{thread}/children", encoding="ascii") as listing:
                found += [int(child) for child in listing.read().split()]
        except OSError:
            continue
    return found


def command(pid: int) -> str:
    """Its command line ("" where it has ended)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as line:
            return line.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _stat(pid: int | str) -> list[str]:
    """/proc/PID/stat's fields after the command (in parentheses, which may hold spaces); [] where it is
    gone. `pid` may name a thread: "PID/task/TID"."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def scheduling(pid: int) -> dict[int, tuple[int, str]]:
    """Each thread of `pid`: its nice value and the CPUs it may run on."""
    found = {}
    for thread in _threads(pid):
        fields = _stat(f"{pid}/task/{thread}")
        try:
            with open(f"/proc/{pid}/task/{thread}/status", encoding="ascii", errors="replace") as status:
                cpus = next((line.split(":", 1)[1].strip() for line in status if line.startswith("Cpus_allowed_list")),
                            "")
        except OSError:
            continue
        if len(fields) > 16:
            found[int(thread)] = (int(fields[16]), cpus)
    return found


def scheduling_changes(before: dict[int, tuple[int, str]], after: dict[int, tuple[int, str]]) -> list[str]:
    """Threads in both whose nice value or CPUs changed, described."""
    changed = []
    for thread, (nice, cpus) in before.items():
        if thread in after and after[thread] != (nice, cpus):
            now_nice, now_cpus = after[thread]
            changed.append(f"thread {thread}: nice {nice} -> {now_nice}, CPUs {cpus} -> {now_cpus}")
    return changed


def start_ticks(pid: int) -> int:
    """When it started, in clock ticks since boot; 0 where it is gone."""
    fields = _stat(pid)
    return int(fields[19]) if len(fields) > 19 else 0


def _ended(pid: int) -> bool:
    """Whether it has ended (gone, or a zombie: waited for here when this process is its parent)."""
    fields = _stat(pid)
    if fields and fields[0] not in ("Z", "X"):
        return False
    if fields and int(fields[1]) == os.getpid():
        try:
            os.waitpid(pid, os.WNOHANG)
        except OSError:
            pass
    return True


def _below(roots: list[int], kept=lambda pid: True) -> list[int]:
    """`roots` and every process below them, leaving out each process `kept` refuses and what is below it."""
    found, pending = [], list(roots)
    while pending:
        pid = pending.pop()
        if kept(pid):
            found.append(pid)
            pending += children(pid)
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid`."""
    return _below(children(pid))


def _running_work(pid: int) -> bool:
    """Still running, and not torch's compile workers (the candidate's compiler, not its work)."""
    return not _ended(pid) and COMPILE_WORKER not in command(pid)


def _orphans(since: int, known: set[int]) -> list[int]:
    """Children of this process started since `since` (start ticks) that are not in `known` (the
    runners it started itself): orphans given to it."""
    return [pid for pid in children(os.getpid()) if pid not in known and start_ticks(pid) >= since]


def adopted(since: int, known: set[int]) -> list[int]:
    """The orphans this process adopted since `since` that still run, torch's compile workers left out."""
    return [pid for pid in _orphans(since, known) if _running_work(pid)]


def stray_processes(runner: int, since: int, known: set[int]) -> list[int]:
    """Processes the candidate in `runner` started and that still run: its descendants, and the
    orphans this process adopted since `since`; torch's compile workers and what they started left out."""
    return _below(children(runner) + _orphans(since, known), _running_work)


def end_processes(pids: list[int]) -> None:
    """Killed, and waited for where they are this process's children (zombies otherwise)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
    for pid in pids:
        try:
            os.waitpid(pid, 0)
        except OSError:  # not a child of this process: its own parent waits for it
            continue
