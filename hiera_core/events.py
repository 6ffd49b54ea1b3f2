"""Progress events of long operations.

Every long operation takes an `emit` callable and reports `Event`s through it. The CLI turns them
into a rich progress bar on a terminal, or JSON lines on stdout with `--events` (one object per
line, flushed), which is what the language server consumes:

    {"event": "stage", "stage": "verify", "message": "...", "progress": 0.42, "run": "...", "time": ...}

`event` is one of: "start" (run begins: task, budget), "stage" (a stage begins or advances),
"candidate" (one candidate finished: name, space, status, speedup), "log" (a line of detail),
"result" (the final summary, same object as `--json`), "error" (a HieraError as a dict; also
a run interrupted by a signal: kind "cancelled", "interrupted by SIGTERM during verify").
`stage` is one of STAGES; `progress` is overall, 0..1.

While candidates are evaluated, each reports its own stages (CANDIDATE_STAGES: compile, verify,
time) as "stage" events of the overall stage "verify" whose data names the candidate and its
stage, and whose message says what every candidate in flight is doing:

    {"event": "stage", "stage": "verify", "message": "timing a (1/3); compiling b (2/3)",
     "data": {"candidate": "a", "candidate_stage": "time", "index": 0, "total": 3, "in_flight": {...}}}

The worker evaluating a candidate appends the stages it enters to a file (`stage_announcer`) that
the orchestrator follows (`following_stages`): a worker step sends no events of its own.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

STAGES = ("load", "spec", "plan", "implement", "verify", "profile", "propose")
# A candidate's own stages: compile (its checks, extension builds and process start; a torch.compile
# candidate compiles on its first call, in verify), verify (the judge's checks), time (paired timing).
CANDIDATE_STAGES = ("compile", "verify", "time")
STAGE_POLL_S = 0.25


@dataclass
class Event:
    event: str
    stage: str | None = None
    message: str = ""
    progress: float | None = None
    data: dict = field(default_factory=dict)
    time: float = field(default_factory=time.time)

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v not in (None, "", {})})

    @staticmethod
    def from_json(line: str) -> Event:
        """An event from a line of `--events` output (the language server reads the CLI's); raises
        ValueError for a line that is not one (what a user's code printed, say)."""
        data = json.loads(line)
        if not isinstance(data, dict) or not isinstance(data.get("event"), str):
            raise ValueError("not an event")
        progress = data.get("progress")
        when = data.get("time")
        return Event(event=data["event"], stage=str(data["stage"]) if data.get("stage") else None,
                     message=str(data.get("message") or ""),
                     progress=float(progress) if isinstance(progress, (int, float)) and not isinstance(progress, bool)
                     else None,
                     data=data["data"] if isinstance(data.get("data"), dict) else {},
                     time=float(when) if isinstance(when, (int, float)) else time.time())


Emit = Callable[[Event], None]


def discard(_: Event) -> None:
    """An emitter for callers that want no progress."""


class JsonLinesEmitter:
    """Writes each event as one JSON line (for `--events`)."""

    def __init__(self, stream: TextIO = sys.stdout):
        self.stream = stream

    def __call__(self, event: Event) -> None:
        self.stream.write(event.to_json() + "\n")
        self.stream.flush()


class Fanout:
    """Sends each event to several emitters (e.g. the terminal and the run's events.jsonl)."""

    def __init__(self, *emitters: Emit):
        self.emitters = list(emitters)

    def __call__(self, event: Event) -> None:
        for emit in self.emitters:
            emit(event)


@contextmanager
def stopwatch(seconds: dict, name: str) -> Iterator[None]:
    """Adds the wall seconds the block took to seconds[name] (rounded to 0.01 s), also when it
    raises: where a run's time went (a phase entered several times sums its visits)."""
    started = time.monotonic()
    try:
        yield
    finally:
        add_seconds(seconds, name, time.monotonic() - started)


def add_seconds(seconds: dict, name: str, took: float) -> None:
    """seconds[name] += took, rounded to 0.01 s: how stopwatch and the timing's laps record a phase."""
    seconds[name] = round(seconds.get(name, 0.0) + took, 2)


def stage_announcer(path: str | os.PathLike) -> Callable[[str], None]:
    """announce(stage): appends one line for `stage` to `path` (a single short write with O_APPEND,
    so a reader never sees half a line from it). Progress only: a failed write is not the step's."""
    def announce(stage: str) -> None:
        line = json.dumps({"stage": stage, "time": time.time()}) + "\n"
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(descriptor, line.encode("utf-8"))
            finally:
                os.close(descriptor)
        except OSError:
            pass
    return announce


@contextmanager
def following_stages(path: Path, on_stage: Callable[[str], None]) -> Iterator[None]:
    """Calls on_stage(stage) for each CANDIDATE_STAGES line appended to `path` while the block runs
    (polled every STAGE_POLL_S in a thread), and for the last ones once the block is done, so none
    is missed however fast the worker was. Lines that do not parse, or name no known stage, are
    skipped (the file is written beside code the user or a model wrote)."""
    read = 0
    done = threading.Event()
    lock = threading.Lock()

    def drain() -> None:
        nonlocal read
        with lock:
            try:
                with open(path, "rb") as handle:
                    handle.seek(read)
                    data = handle.read()
            except OSError:
                return
            complete = data[:data.rfind(b"\n") + 1]
            read += len(complete)
            for line in complete.splitlines():
                try:
                    stage = json.loads(line).get("stage")
                except (ValueError, AttributeError):
                    continue
                if stage in CANDIDATE_STAGES:
                    on_stage(stage)

    def follow() -> None:
        while not done.wait(STAGE_POLL_S):
            drain()

    follower = threading.Thread(target=follow, name="hiera-stages", daemon=True)
    follower.start()
    try:
        yield
    finally:
        done.set()
        follower.join()
        drain()
