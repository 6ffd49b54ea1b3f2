"""Processes as /proc shows them, for tests of what a run starts and what outlives it."""

from __future__ import annotations

import time
from pathlib import Path


def wait_until(predicate, timeout: float = 120.0):
    """predicate()'s first true value, polled every 0.1 s; AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s")


def descendants(pid: int) -> dict[int, int]:
    """Every process below `pid`, with its parent (from /proc's parent links)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found, frontier = {}, [pid]
    while frontier:
        children = {child: parent for child, parent in parents.items() if parent in frontier}
        found.update(children)
        frontier = list(children)
    return found


def command_line(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def runners_below(pid: int) -> list[int]:
    """The candidate runner processes below `pid`."""
    return [child for child in descendants(pid) if "hiera_core.worker.runner" in command_line(child)]
