"""Warm workers: worker processes started before their request, so that a step's process start,
torch's import and the start of its candidates' runners (seconds each) overlap earlier work instead
of adding to the step. Pure: never imports torch.

A warm worker is `python -m hiera_core.worker.ops --warm DEVICE RUNNERS`: it imports what a judge
needs, starts RUNNERS runners (hiera_core.verify.runner_process.prestart) and waits for one line on
its stdin, the paths of its request and result (JSON); from then on it is the worker of that
request, run, timed and killed as any other (hiera_core.worker.isolate.run_worker). A runner started
ahead has run no candidate: it is as fresh as one started for the request. A warm worker leads its
own process group, is registered as running (an interrupted run stops it) and dies with this
process (die_with_parent), as every worker does; `close` kills the ones left unclaimed.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hiera_core.worker.isolate import Placement, WarmWorker, kill_group, start_worker, unregister

if TYPE_CHECKING:
    from hiera_core.worker.requests import WorkerRequest


@dataclass(frozen=True)
class WarmKey:
    """What a warm worker was started with; a request is sent only to one whose key it matches."""

    python: str
    device: str
    placement: Placement | None
    cache_root: str | None  # inductor's and Triton's cache folders are set before torch is imported


class WarmPool:
    """Warm workers for one run's steps, started by `add` and each sent one request (`claim`). A
    claim starts a replacement with as many runners while `replacements` (a count) lasts.

    Every warm worker is started from the pool's own thread, which lives until `close`: a child's
    parent-death signal fires when the *thread* that started it ends, and a candidate's thread ends
    before the replacement it started would be claimed (on the H100, every refinement's worker was
    killed as soon as the first wave's threads finished)."""

    def __init__(self, log_folder: Path, *, device: str, python: str | None = None,
                 placement: Placement | None = None, cache_root: str | None = None):
        self.key = WarmKey(python or sys.executable, device, placement, cache_root)
        self.replacements = 0
        self._idle: list[WarmWorker] = []
        self._lock = threading.Lock()
        self._closed = False
        self._folder = log_folder  # each warm worker's log until it is claimed
        self._folder.mkdir(parents=True, exist_ok=True)
        self._started: list[int] = []  # the runners of each warm worker started
        self._processes: list[subprocess.Popen] = []  # every one, claimed or not: `close` ends those still alive
        self._starter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hiera-warm")

    def add(self, count: int, runners: int) -> None:
        """Start `count` warm workers with `runners` runners each (returns once they are started)."""
        try:
            for started in [self._starter.submit(self._start, runners) for _ in range(count)]:
                started.result()
        except RuntimeError:  # closed meanwhile
            pass

    def _start(self, runners: int) -> None:
        with self._lock:
            if self._closed:
                return
            self._started.append(runners)
            log = self._folder / f"warm{len(self._started)}.log"
        with open(log, "ab") as log_stream:
            process = start_worker(["--warm", self.key.device, str(runners)], log_stream, device=self.key.device,
                                   python=self.key.python, placement=self.key.placement,
                                   cache_root=self.key.cache_root, stdin=subprocess.PIPE)
        with self._lock:
            if not self._closed:
                self._idle.append(WarmWorker(process, log, runners))
                self._processes.append(process)
                return
        kill_group(process)
        unregister(process)

    def started(self, runners: int) -> int:
        """How many warm workers with `runners` runners were started."""
        with self._lock:
            return self._started.count(runners)

    def claim(self, python: str | None, request: WorkerRequest, placement: Placement | None) -> WarmWorker | None:
        """A live warm worker `request` can run in (the one whose runners fit its need best), else None."""
        key = WarmKey(python or sys.executable, request.device, placement, request.cache_root)
        if key != self.key:
            return None
        need = request.runners()
        with self._lock:
            for worker in [w for w in self._idle if w.process.poll() is not None]:
                self._idle.remove(worker)
                unregister(worker.process)
            if not self._idle:
                return None
            # Enough runners and the fewest spare, else the most there are.
            worker = min(self._idle, key=lambda w: (w.runners < need, abs(w.runners - need)))
            self._idle.remove(worker)
            refill = self.replacements > 0 and not self._closed
            self.replacements -= refill
        if refill:
            try:
                self._starter.submit(self._start, worker.runners)  # not waited for
            except RuntimeError:  # closed meanwhile
                pass
        return worker

    def close(self) -> None:
        """Kill the warm workers no request claimed, and any claimed one still alive (a claim whose
        request never came: the run's steps are over); start no more."""
        with self._lock:
            self._closed = True
        self._starter.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            idle, self._idle = self._idle, []
            processes, self._processes = self._processes, []
        for worker in idle:
            worker.process.stdin.close()
            worker.log.unlink(missing_ok=True)
        for process in processes:
            if process.poll() is None:
                kill_group(process)
            unregister(process)
