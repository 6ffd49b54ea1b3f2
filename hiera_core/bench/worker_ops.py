"""The timing op of `hiera bench`, run in a worker process (hiera_core.worker.ops registers it).

In one process, by one method (`hiera_core.profile.timing.time_module`), it times the eager reference and
`torch.compile(reference)` in each mode asked for (a user is one flag away from any of them); each proposal's ModelNew (the bench's one
proposal, or the contenders `hiera optimize` re-times) runs in a process of its own, checked
against the reference the way KernelBench does (fresh random inputs, `allclose` with atol = rtol
= 1e-2, independently of HIERA's own verifier) and timed against the reference by the judge's
paired method (hiera_core.verify.retime: the proposals checked side by side, then timed one at a
time); each entry carries the reference's figure of its pairing. Each compiled mode is checked
against eager on the same trials first: one that computes wrong values is recorded with why
(`compile_errors`) and is not timed, as one that fails to compile.
"""

from __future__ import annotations

from hiera_core.worker.requests import BenchTimeRequest, BenchTimeResult

CHECK_TRIALS = 5
CHECK_TOLERANCE = 1e-2  # KernelBench's atol and rtol, so correctness compares with published numbers
CHECK_SEED = 100  # trial i uses seed CHECK_SEED + i: other inputs than the timing set (seed 0)
# torch.compile modes the bench times, per device: reduce-overhead is CUDA graphs (on a CPU it is
# the default mode again) and max-autotune's templates are GPU kernels, so a CPU times the default only.
COMPILE_MODES = {"cuda": ("default", "max-autotune-no-cudagraphs", "reduce-overhead"), "cpu": ("default",)}


def op_bench_time(request: BenchTimeRequest) -> BenchTimeResult:
    """request: the proposal files (possibly none), the torch.compile modes to time the reference in
    (possibly none), and whether eager is timed alone too (the re-timing of optimize's contenders
    needs only each pairing's)."""
    from hiera_core.events import stopwatch
    from hiera_core.profile.timing import time_module
    from hiera_core.spec.contract import environment
    from hiera_core.task.load import load_task
    from hiera_core.verify.footprint import crowds_device
    from hiera_core.verify.retime import retime
    from hiera_core.worker.devicelock import timing, verifying

    device = request.device
    seconds: dict[str, float] = {}  # where the step's time went (the rest: process start, imports)
    with stopwatch(seconds, "load"):
        task = load_task(request.address)
    if request.gate and crowds_device(task, device):
        with stopwatch(seconds, "wait_for_gate"):  # beside the loop, its candidates would not fit
            _wait_for(request.gate)
    with stopwatch(seconds, "load"):
        reference = task.build_model(device, seed=0)
    result = BenchTimeResult(environment=environment(device), seconds=seconds)
    inputs = task.make_inputs(device, seed=0)
    lock = request.device_lock

    def time_eager() -> None:
        with stopwatch(seconds, "time_eager"):
            result.eager = time_module(reference, inputs, device, profile=False)
        _write_partial(request.partial_path, result)

    # Eager is timed in the first mode's turn on the device: beside the loop each turn waits for a gap
    # in the candidates' compiles (8-20 s a wait on the H100), one wait instead of two.
    eager_due = request.time_reference
    for mode in request.compile_modes:
        if mode in request.gated_modes and request.gate:
            if eager_due:  # not held back until the loop's end
                with timing(lock):
                    time_eager()
                eager_due = False
            with stopwatch(seconds, "wait_for_gate"):
                _wait_for(request.gate)
        with stopwatch(seconds, f"compile_{mode}"):  # and its timing (and eager's, in the first mode's)
            with verifying(lock):  # compiled beside candidates; max-autotune's autotuning runs on the device
                compiled, error = _compile_reference(reference, inputs, mode)
                if compiled is not None and (error := _wrong_values(task, reference, compiled, device)):
                    compiled = None
            with timing(lock):
                if eager_due:
                    time_eager()
                    eager_due = False
                result.compile[mode] = time_module(compiled, inputs, device, profile=False) \
                    if compiled is not None else None
            if error:
                result.compile_errors[mode] = error
            del compiled
            _release_cached_memory(device)  # the loop's candidates may need it while the next mode waits
        _write_partial(request.partial_path, result)
    if eager_due:
        with timing(lock):
            time_eager()
    reference = inputs = None  # each proposal's judge builds its own: their memory is free for it
    _release_cached_memory(device)
    with stopwatch(seconds, "time_proposals"):
        trial_seeds = [CHECK_SEED + index for index in range(CHECK_TRIALS)]
        # Each proposal in a process of its own, timed against the reference alternately by the judge
        # here: this process never imports proposal code (hiera_core.verify.judge).
        timed = []
        if request.proposal_paths:
            with timing(lock):
                timed = retime(task, request.proposal_paths, device, trial_seeds, CHECK_TOLERANCE)
        for index, (proposal, took) in enumerate(timed, 1):
            seconds.update({f"proposal{index}_{phase}": phase_s for phase, phase_s in took.items()})
            result.proposals.append(proposal)
    return result


def _release_cached_memory(device: str) -> None:
    """Hand the device memory this process no longer uses back to the driver (torch's caching
    allocator keeps it otherwise, and dynamo's caches hold compiled graphs and CUDA-graph pools), so
    other processes on the device can allocate it."""
    import gc

    import torch

    torch._dynamo.reset()
    gc.collect()
    if device == "cuda":
        torch.cuda.empty_cache()


def _write_partial(path: str | None, result: BenchTimeResult) -> None:
    """The figures so far into `path`, whole or not at all (a reader may come at any moment)."""
    if path is None:
        return
    import json
    import os

    with open(f"{path}.tmp", "w", encoding="utf-8") as out:
        json.dump(result.to_dict(), out)
    os.replace(f"{path}.tmp", path)


def _wait_for(path: str) -> None:
    """Until the file `path` exists (the caller's time limit bounds the wait)."""
    import os
    import time

    while not os.path.exists(path):
        time.sleep(0.2)


def _compile_reference(reference, inputs: list, mode: str) -> tuple[object | None, str | None]:
    """(torch.compile(reference, mode=mode), compiled here, outside the timed calls; None) or
    (None, why it failed). Dynamo is reset first: each mode compiles from scratch, not into the
    cache entries (and the recompile limit) of the mode before."""
    import torch

    from hiera_core.verify.inputs import clone_inputs

    torch._dynamo.reset()
    compiled = torch.compile(reference, mode=None if mode == "default" else mode)
    try:
        with torch.no_grad():
            compiled(*clone_inputs(inputs))
    except Exception as error:
        return None, _first_lines(error)
    return compiled, None


def _wrong_values(task, reference, compiled, device: str) -> str | None:
    """Why a compiled reference is no baseline: the first of the check's trials on which its outputs
    differ from eager's beyond the check's tolerance (a mode that computes wrong values is not one a
    user can take: max-autotune's kernels for Performer's attention on the H100, 2026-12-06, off by up
    to 121, and differently on each call); None when every trial passes. One trial at a time, so a
    task near the GPU's memory holds one set of inputs and outputs more, not five."""
    import torch

    from hiera_core.task.load import outputs_as_list
    from hiera_core.verify.inputs import clone_inputs
    from hiera_core.verify.retime import allclose_mismatch

    for index in range(CHECK_TRIALS):
        trial = task.make_inputs(device, seed=CHECK_SEED + index)
        with torch.no_grad():
            expected = outputs_as_list(task.run_forward(reference, clone_inputs(trial)))
            try:
                outs = outputs_as_list(compiled(*trial))
            except Exception as error:
                return f"raised on trial {index}: {_first_lines(error)}"
        for out, ref in zip(outs, expected):
            mismatch, largest = allclose_mismatch(out, ref, CHECK_TOLERANCE)
            if mismatch:
                return (f"wrong values: on trial {index}, against eager's output, {mismatch} (largest error "
                        f"{largest:.3g}), so it is no baseline")
    return None


def _first_lines(error: Exception) -> str:
    """The error's type and first line; with the next line where the first only introduces the cause
    (inductor's "BackendCompilerFailed: backend='inductor' raised:")."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    text = lines[0] + (f" {lines[1]}" if len(lines) > 1 and lines[0].endswith(":") else "")
    return f"{type(error).__name__}: {text[:400]}"
