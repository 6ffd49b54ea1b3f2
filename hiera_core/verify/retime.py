"""The bench's check of a proposal file, as KernelBench checks one (`allclose` on fresh random
trials, and on the first once more, independently of HIERA's verifier), and its paired timing
against the reference by the judge's method (hiera_core.verify.judge): the figures of the
`bench_time` op, for `hiera bench` and for the fresh-process confirmation of `hiera optimize`'s
contenders.
"""

from __future__ import annotations

from hiera_core.spec.memory import tensor_bytes
from hiera_core.task.load import Task
from hiera_core.verify.footprint import crowds_device
from hiera_core.verify.inputs import InputSet
from hiera_core.verify.judge import Judge, run_seed
from hiera_core.verify.runner_process import Rejected
from hiera_core.verify.verdicts import tolerances_for
from hiera_core.worker.messages import ReleaseRequest
from hiera_core.worker.requests import KernelBenchCheck, ProposalTiming


def retime(task: Task, candidate_paths: list[str], device: str, trial_seeds: list[int], tolerance: float
           ) -> list[tuple[ProposalTiming, dict[str, float]]]:
    """Each proposal checked the way KernelBench checks (`allclose` at `tolerance` on the task's
    inputs drawn with each of `trial_seeds`) and
    timed against the reference by the judge's paired method, each in a process of its own: the
    `bench_time` op's figures, a proposal's record and where its time went. The processes start,
    import and compile their proposals and run the trials side by side (a compile is CPU work, and
    the trials are not timed); then each is timed alone, with nothing else on the device."""
    from concurrent.futures import ThreadPoolExecutor

    retimings: list[Retiming] = []
    # One at a time where one proposal's check needs much of the GPU (hiera_core.verify.footprint).
    side_by_side = 1 if crowds_device(task, device) else len(candidate_paths)
    try:
        for path in candidate_paths:
            retimings.append(Retiming(task, path, device, trial_seeds, tolerance))
        with ThreadPoolExecutor(max_workers=max(1, side_by_side), thread_name_prefix="hiera-retime") as pool:
            list(pool.map(Retiming.check, retimings))
        return [retiming.time() for retiming in retimings]
    finally:
        for retiming in retimings:
            retiming.close()


def allclose_mismatch(out, ref, tolerance: float) -> tuple[str | None, float]:
    """KernelBench's check of one output against the reference's: (why it fails, None when it
    passes; the largest error where both are finite). The bench's check of a proposal and of each
    compiled mode as a baseline (hiera_core.bench.worker_ops) both use it."""
    import torch

    if out.shape != ref.shape or out.dtype != ref.dtype:
        return f"output {out.dtype}{list(out.shape)}, the reference's is {ref.dtype}{list(ref.shape)}", 0.0
    # Floats of 32 bits or fewer compare in float32, as KernelBench's allclose does (float64 copies of
    # large outputs made this check the confirmation's costliest step on a CPU).
    wide = torch.float32 if out.is_floating_point() and out.element_size() <= 4 else torch.float64
    out_w, ref_w = out.to(wide), ref.to(wide)
    finite = out_w.isfinite() & ref_w.isfinite()
    largest = float(torch.where(finite, (out_w - ref_w).abs(), 0.0).max()) if finite.any() else 0.0
    if not torch.allclose(out_w, ref_w, atol=tolerance, rtol=tolerance, equal_nan=True):
        return f"values differ beyond atol = rtol = {tolerance:g}", largest
    return None, largest


class Retiming:
    """One proposal of `retime`: its runner, the KernelBench check, then its paired timing. Each
    trial is drawn at its turn and released once compared, so one trial's inputs and outputs are on
    the device at a time besides the first's (hiera_core.verify.footprint)."""

    def __init__(self, task: Task, candidate_path: str, device: str, trial_seeds: list[int], tolerance: float):
        self.judge = Judge(task, None, candidate_path, "pytorch", device, run_seed(None))
        self.path, self.trial_seeds, self.tolerance = candidate_path, trial_seeds, tolerance
        self.worst = 0.0
        self.failure: KernelBenchCheck | None = None  # the check's failure, the answer when it failed

    def check(self) -> None:
        """Start the proposal's process, import it and run it on the trials; a failure is kept as its answer."""

        from hiera_core.events import stopwatch

        judge, seconds, device = self.judge, self.judge.seconds, self.judge.device

        def reference(index: int):
            with stopwatch(seconds, "reference_runs"):
                inputs = judge.task.make_inputs(device, seed=self.trial_seeds[index])
                return judge.reference_call(judge.reference, InputSet(index, "task", None, inputs))

        try:
            first = reference(0)
            judge.tolerance = tolerances_for(None, first.outputs)
            judge.largest_output_bytes = tensor_bytes(first.outputs)
            judge.plan_memory(first, len(self.trial_seeds))
            with stopwatch(seconds, "runner_start"):
                judge.started()
            with stopwatch(seconds, "candidate_load"):
                judge.load("main", judge.initial_state)
                judge._audit("importing the proposal")
            for index in range(len(self.trial_seeds)):
                trial = first if index == 0 else reference(index)
                with stopwatch(seconds, "first_call" if index == 0 else "trials"):
                    reply = judge.send_call("main", trial.input_set, f"t{index}", first=index == 0)
                with stopwatch(seconds, "compare"):
                    self.failure = self._compared(f"trial {index}", reply, trial.outputs)
                del reply, trial
                judge.ask(ReleaseRequest(call_ids=[f"t{index}"]), doing="releasing outputs")
                if self.failure is not None:
                    return
            # The first trial once more: kernels that race (max-autotune's for Performer's attention on
            # the H100, 2026-12-06) give other values on the same inputs, call after call.
            with stopwatch(seconds, "trials"):
                reply = judge.send_call("main", first.input_set, "t0-again")
            self.failure = self._compared("trial 0 again", reply, first.outputs)
            del reply
            judge.ask(ReleaseRequest(call_ids=["t0-again"]), doing="releasing outputs")
        except Rejected as rejected:
            self.failure = self._failed(f"{rejected.check.name}: {rejected.check.message}", "judge")

    def _compared(self, trial: str, reply, expected: list) -> KernelBenchCheck | None:
        """KernelBench's check of the outputs of `trial` ("trial 2"), keeping the worst error; the
        failure, or None when they pass."""
        outs = reply.tensors[:len(expected)]
        count = reply.answer.result.outputs
        if count != len(expected):
            return self._failed(f"{trial}: {count} outputs, the reference has {len(expected)}", "trials")
        for out, ref in zip(outs, expected):
            mismatch, largest = allclose_mismatch(out, ref, self.tolerance)
            self.worst = max(self.worst, largest)
            if mismatch:
                return self._failed(f"{trial}: {mismatch}", "trials")
        return None

    def time(self) -> tuple[ProposalTiming, dict[str, float]]:
        """The answer (the paired timing of a proposal that passed its check, else the check's
        failure) and where its time went."""
        answer = ProposalTiming(self.path, self.failure) if self.failure is not None else self._timed()
        return answer, self.judge.seconds

    def _timed(self) -> ProposalTiming:
        from hiera_core.events import stopwatch

        try:
            with stopwatch(self.judge.seconds, "time"):
                pair = self.judge.time(profile=False)
        except Rejected as rejected:
            return ProposalTiming(self.path, self._failed(f"{rejected.check.name}: {rejected.check.message}", "judge"))
        failed = next((c for c in pair.checks if not c.passed), None)
        if failed:
            return ProposalTiming(self.path, self._failed(f"while timed: {failed.name}: {failed.message}", "judge"))
        trials = len(self.trial_seeds)
        check = KernelBenchCheck(True, f"{trials} random trials within atol = rtol = {self.tolerance:g}, max abs "
                                       f"error {self.worst:.2g}", self.worst, trials)
        return ProposalTiming(self.path, check, hiera=pair.candidate, eager=pair.baseline)

    def _failed(self, message: str, failed_in: str) -> KernelBenchCheck:
        """`failed_in`: "trials" (KernelBench's allclose check of the outputs) or "judge" (one of the
        judge's checks, while loading, calling or timing)."""
        return KernelBenchCheck(False, message[:600], self.worst, None, failed_in=failed_in)

    def close(self) -> None:
        self.judge.close()
