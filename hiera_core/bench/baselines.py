"""A bench task's baselines (the reference eager and in each torch.compile mode) timed beside its
optimize loop on a GPU, instead of after it: their compiles took 25-60 s a task (H100, 2026-12-05),
CPU work that overlaps the candidates'. They share the loop's device lock
(hiera_core.worker.devicelock): compiled under its shared side, timed under its exclusive side, so
no figure, theirs or a candidate's, is taken while the other compiles or runs.

Autotuning modes compile after the loop (the request's gate): their autotuning holds the shared side
for minutes on a network (H100: max-autotune 126 s on a ResNet block), and the loop's candidates,
waiting to be timed meanwhile, ran past their time limits. A step stopped at its limit keeps what it
timed (the op's figures so far, `BenchTimeRequest.partial_path`): a mode that did not finish is one
that failed, not the task's loss."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Event, stopwatch
from hiera_core.worker.isolate import Placement, WarmWorker, kill_group, run_worker
from hiera_core.worker.requests import BenchTimeRequest, BenchTimeResult
from hiera_core.worker.warm import WarmPool

# The loop's first stage after its reference is prepared: the baselines start then, so that the
# reference's own timing (the spec's op shares) has the device to itself.
AFTER_PREPARE = "plan"
# A day: the step's own limit is the one `result` applies from the loop's end (the loop's steps have theirs).
UNBOUNDED_S = 86400.0


def autotunes(mode: str) -> bool:
    return "max-autotune" in mode


class BaselineTiming:
    """The baselines step of one task (`request_fields` and `modes`, autotuning ones gated on the
    loop's end) in a warm worker of `warm`, run from a thread of its own once `start` is called
    (idempotent). Overlapped only in a warm worker, which `cancel` can stop; when none is left,
    `started` stays False and the caller times the baselines after the loop."""

    def __init__(self, request_fields: dict, modes: list[str], device_lock: str, folder: Path, warm: WarmPool, *,
                 doing: str, log_path: Path, placement: Placement | None):
        self._gate = folder / "loop-done"
        self._partial = folder / "baselines-so-far.json"
        self.request = BenchTimeRequest(**request_fields, device_lock=device_lock, gate=str(self._gate),
                                        compile_modes=sorted(modes, key=autotunes),
                                        gated_modes=[mode for mode in modes if autotunes(mode)],
                                        partial_path=str(self._partial))
        self._warm, self._placement = warm, placement
        self._run = dict(timeout_s=UNBOUNDED_S, doing=doing, log_path=log_path, placement=placement)
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

    def loop_done(self) -> None:
        """The autotuning modes may compile now."""
        self._gate.touch()

    def result(self, timeout_s: float) -> BenchTimeResult:
        """The baselines' figures, within `timeout_s` of the loop's end (`loop_done`, called first).
        A step stopped at that limit gives what it had timed, eager and the modes done, the others
        recorded as failed with why (max-autotune's autotuning of a ConvNeXt stage outlasted 150 s on
        the H100, 2026-12-07: the task's proposal and every other figure were lost with it); raises
        the step's HieraError, or a timeout's when not even eager was timed."""
        assert self._future is not None, "the baselines were not started"
        try:
            return self._future.result(timeout=timeout_s)
        except FutureTimeout:
            self.cancel()
            so_far = self._timed_so_far()
            if so_far is None:
                raise HieraError(f"{self._run['doing']} did not finish within {timeout_s:.0f} s of the loop's end and "
                                 "was stopped", kind=ErrorKind.TIMEOUT,
                                 hint="raise --timeout if torch.compile is just slow on this task") from None
            for mode in self.request.compile_modes:
                if mode not in so_far.compile:
                    so_far.compile[mode] = None
                    so_far.compile_errors[mode] = (f"did not finish compiling and timing within {timeout_s:.0f} s of "
                                                   "the loop's end (--timeout) and was stopped")
            return so_far
        finally:
            self._executor.shutdown(wait=False)

    def _timed_so_far(self) -> BenchTimeResult | None:
        """The stopped step's figures so far, None without eager's."""
        import json

        try:
            so_far = BenchTimeResult.from_dict(json.loads(self._partial.read_text(encoding="utf-8")))
        except FileNotFoundError:
            return None
        self.seconds.update(so_far.seconds)
        return so_far if so_far.eager is not None else None

    def cancel(self) -> None:
        """Stop the step (the loop failed, or the step ran out of time)."""
        if self._worker is not None:
            kill_group(self._worker.process)
        if self._future is not None:
            try:
                self._future.result()
            except HieraError:
                pass
        self._executor.shutdown(wait=True)
