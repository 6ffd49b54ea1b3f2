"""The timing op of `hiera bench`, run in a worker process (hiera_core.worker registers it).

In one process, by one method (`hiera_core.timing.time_module`), it times the eager reference,
`torch.compile(reference)` in the default mode; each proposal's ModelNew (the bench's one
proposal, or the contenders `hiera optimize` re-times) runs in a process of its own, checked
against the reference the way KernelBench does (fresh random inputs, `allclose` with atol = rtol
= 1e-2, independently of HIERA's own verifier) and timed against the reference by the judge's
paired method (hiera_core.judge.retime); each entry carries the reference's figure of its pairing.
"""

from __future__ import annotations

CHECK_TRIALS = 5
CHECK_TOLERANCE = 1e-2  # KernelBench's atol and rtol, so correctness compares with published numbers
CHECK_SEED = 100  # trial i uses seed CHECK_SEED + i: other inputs than the timing set (seed 0)


def op_bench_time(request: dict) -> dict:
    """request: address, device, proposal_paths (proposal files, possibly none); `with_compile`
    (default true) also times torch.compile(reference). Returns the environment, the timings of
    eager and compile, per proposal, in order, {"path", "check", "hiera": its timing, or None
    when the check failed}, and the seconds of its phases."""
    from hiera_core.contract import environment
    from hiera_core.events import stopwatch
    from hiera_core.judge import retime
    from hiera_core.task import load_task
    from hiera_core.timing import time_module

    device = request["device"]
    seconds: dict[str, float] = {}  # where the step's time went (the rest: process start, imports)
    with stopwatch(seconds, "load"):
        task = load_task(request["address"])
        reference = task.build_model(device, seed=0)
    result: dict = {"environment": environment(device), "compile": None, "compile_error": None, "proposals": [],
                    "seconds": seconds}
    inputs = task.make_inputs(device, seed=0)
    compiled = None
    if request.get("with_compile", True):
        with stopwatch(seconds, "compile_reference"):
            compiled, result["compile_error"] = _compile_reference(reference, inputs)
    with stopwatch(seconds, "time_all"):
        result["eager"] = time_module(reference, inputs, device, profile=False).to_dict()
        if compiled is not None:
            result["compile"] = time_module(compiled, inputs, device, profile=False).to_dict()
    with stopwatch(seconds, "time_proposals"):
        trials = [task.make_inputs(device, seed=CHECK_SEED + index) for index in range(CHECK_TRIALS)]
        for path in request.get("proposal_paths", []):
            # Each proposal in a process of its own, timed against the reference alternately by the judge
            # here: this process never imports proposal code (hiera_core.judge).
            result["proposals"].append({"path": path, **retime(task, path, device, trials, CHECK_TOLERANCE)})
    return result


def _compile_reference(reference, inputs: list) -> tuple[object | None, str | None]:
    """(torch.compile(reference), compiled here, outside the timed calls; None) or (None, why it failed)."""
    import torch

    from hiera_core.inputs import clone_inputs

    compiled = torch.compile(reference)
    try:
        with torch.no_grad():
            compiled(*clone_inputs(inputs))
    except Exception as error:  # noqa: BLE001 - torch.compile failing on the reference is a result
        first_line = str(error).strip().splitlines()[0][:300] if str(error).strip() else ""
        return None, f"{type(error).__name__}: {first_line}" if first_line else type(error).__name__
    return compiled, None
