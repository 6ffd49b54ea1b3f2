"""The timing op of `hiera bench`, run in a worker process (hiera_core.worker registers it).

In one process, by one method (`hiera_core.timing.time_module`), it times the eager reference,
`torch.compile(reference)` in the default mode and the proposals' ModelNew (the bench's one
proposal, or the contenders `hiera optimize` re-times); before timing, it checks each proposal
against the reference the way KernelBench does (fresh random inputs, `allclose` with atol = rtol
= 1e-2), independently of HIERA's own verifier.
"""

from __future__ import annotations

import os

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
    from hiera_core.task import load_task
    from hiera_core.timing import time_module

    device = request["device"]
    seconds: dict[str, float] = {}  # where the step's time went (the rest: process start, imports)
    with stopwatch(seconds, "load"):
        task = load_task(request["address"])
        reference = task.build_model(device, seed=0)
    result: dict = {"environment": environment(device), "compile": None, "compile_error": None, "proposals": [],
                    "seconds": seconds}
    with stopwatch(seconds, "check_proposals"):
        checked = [(path, *check_proposal(task, reference, path, device)) for path in request.get("proposal_paths", [])]
    inputs = task.make_inputs(device, seed=0)
    compiled = None
    if request.get("with_compile", True):
        with stopwatch(seconds, "compile_reference"):
            compiled, result["compile_error"] = _compile_reference(reference, inputs)
    with stopwatch(seconds, "time_all"):
        result["eager"] = time_module(reference, inputs, device, profile=False).to_dict()
        if compiled is not None:
            result["compile"] = time_module(compiled, inputs, device, profile=False).to_dict()
        for path, proposal, check in checked:
            timed = time_module(proposal, inputs, device, profile=False).to_dict() if proposal is not None else None
            result["proposals"].append({"path": path, "check": check, "hiera": timed})
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


def check_proposal(task, reference, path: str, device: str) -> tuple[object | None, dict]:
    """(the proposal's model when it passes, else None; {"correct", "message", "max_abs_error", "trials"}).

    The reference's outputs are computed before the proposal is imported, so nothing it runs at
    import time can touch them.
    """
    import torch

    from hiera_core.inputs import clone_inputs
    from hiera_core.task import outputs_as_list
    from hiera_core.verify import import_candidate

    trials = [task.make_inputs(device, seed=CHECK_SEED + index) for index in range(CHECK_TRIALS)]
    expected = [outputs_as_list(task.run_forward(reference, clone_inputs(inputs))) for inputs in trials]
    try:
        module = import_candidate(path, f"hiera_bench_proposal_{os.getpid()}")
        torch.manual_seed(0)
        with torch.device(device):
            proposal = module.ModelNew(*task.make_init())
        proposal = proposal.to(device).eval()
        proposal.load_state_dict(reference.state_dict())
    except Exception as error:  # noqa: BLE001 - the proposal's own failure is the result
        return None, _failed(f"loading ModelNew raised {type(error).__name__}: {error}", None)
    worst = 0.0
    for index, inputs in enumerate(trials):
        try:
            with torch.no_grad():
                outputs = outputs_as_list(proposal(*clone_inputs(inputs)))
        except Exception as error:  # noqa: BLE001
            return None, _failed(f"trial {index}: forward raised {type(error).__name__}: {error}", worst)
        if len(outputs) != len(expected[index]):
            return None, _failed(f"trial {index}: {len(outputs)} outputs, the reference has "
                                 f"{len(expected[index])}", worst)
        for out, ref in zip(outputs, expected[index]):
            if not isinstance(out, torch.Tensor) or out.shape != ref.shape or out.dtype != ref.dtype:
                got = f"{out.dtype}{list(out.shape)}" if isinstance(out, torch.Tensor) else type(out).__name__
                return None, _failed(f"trial {index}: output {got}, the reference's is {ref.dtype}{list(ref.shape)}",
                                     worst)
            out64, ref64 = out.detach().double(), ref.detach().double()
            finite = out64.isfinite() & ref64.isfinite()
            if finite.any():
                worst = max(worst, float((out64 - ref64).abs()[finite].max()))
            if not torch.allclose(out64, ref64, atol=CHECK_TOLERANCE, rtol=CHECK_TOLERANCE, equal_nan=True):
                return None, _failed(f"trial {index}: values differ beyond atol = rtol = {CHECK_TOLERANCE:g}", worst)
    message = f"{CHECK_TRIALS} random trials within atol = rtol = {CHECK_TOLERANCE:g}, max abs error {worst:.2g}"
    return proposal, {"correct": True, "message": message, "max_abs_error": worst, "trials": CHECK_TRIALS}


def _failed(message: str, worst: float | None) -> dict:
    return {"correct": False, "message": message[:600], "max_abs_error": worst, "trials": CHECK_TRIALS}

