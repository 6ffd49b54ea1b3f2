"""A bench task's baselines (the reference eager and in each torch.compile mode) timed beside its
optimize loop on a GPU, instead of after it: their compiles take 25-60 s a task (H100, 2026-12-05),
CPU work that overlaps the candidates'. They share the loop's device lock
(hiera_core.worker.devicelock): compiled under its shared side, timed under its exclusive side, so
no figure, theirs or a candidate's, is taken while the other compiles or runs."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from hiera_core.errors import HieraError
from hiera_core.events import Event, stopwatch
from hiera_core.worker.isolate import Placement, WarmWorker, kill_group, run_worker
from hiera_core.worker.requests import BenchTimeRequest, BenchTimeResult
from hiera_core.worker.warm import WarmPool

# The loop's first stage after its reference is prepared: the baselines start then, so that the
# reference's own timing (the spec's op shares) has the device to itself.
AFTER_PREPARE = "plan"


class BaselineTiming:
    """The baselines step of one task in a warm worker of `warm`, run from a thread of its own once
    `start` is called (idempotent). Overlapped only in a warm worker, which `cancel` can stop; when
    none is left, `started` stays False and the caller times the baselines after the loop."""

    def __init__(self, request: BenchTimeRequest, warm: WarmPool, *, timeout_s: float, doing: str,
                 log_path: Path, placement: Placement | None):
        self.request, self._warm, self._placement = request, warm, placement
        self._run = dict(timeout_s=timeout_s, doing=doing, log_path=log_path, placement=placement)
        self._worker: WarmWorker | None = None
        self._future: Future | None = None
        self._tried = False
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hiera-baselines")
        self.seconds: dict[str, float] = {}

    @property
    def started(self) -> bool:
        return self._future is not None

    def on_event(self, event: Event) -> None:
        """Start once the loop has prepared its reference."""
        if event.event == "stage" and event.stage == AFTER_PREPARE:
            self.start()

    def start(self) -> None:
        if self._tried:
            return
        self._tried = True
        self._worker = self._warm.claim(None, self.request, self._placement)
        if self._worker is not None:
            self._future = self._executor.submit(self._time, self._worker)

    def _time(self, worker: WarmWorker) -> BenchTimeResult:
        with stopwatch(self.seconds, "total"):
            result = run_worker(self.request, claimed=worker, **self._run)
        self.seconds.update(result.seconds)
        return result

    def result(self) -> BenchTimeResult:
        """The baselines' figures, once timed; raises the step's HieraError."""
        assert self._future is not None, "the baselines were not started"
        try:
            return self._future.result()
        finally:
            self._executor.shutdown(wait=False)

    def cancel(self) -> None:
        """Stop the step (the loop failed: its figures would be compared with nothing)."""
        if self._worker is not None:
            kill_group(self._worker.process)
        if self._future is not None:
            try:
                self._future.result()
            except HieraError:
                pass
        self._executor.shutdown(wait=True)
