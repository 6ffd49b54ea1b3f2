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
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterator, TextIO

STAGES = ("load", "spec", "plan", "implement", "verify", "profile", "propose")


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
    """Records the wall seconds the block took as seconds[name] (rounded to 0.01 s), also when it
    raises: where a run's time went."""
    started = time.monotonic()
    try:
        yield
    finally:
        seconds[name] = round(time.monotonic() - started, 2)
