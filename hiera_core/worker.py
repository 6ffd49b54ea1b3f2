"""Worker process: runs user code (the reference, candidates) on behalf of the orchestrator.

    python -m hiera_core.worker REQUEST.json RESULT.json

The request names an op and its arguments; the result file receives {"ok": true, "result": ...}
or {"ok": false, "error": HieraError-as-dict}. Anything the user's code prints goes to this
process's stdout/stderr, which the parent keeps as a log. A crash, hang or CUDA fault here
cannot take the parent down (see hiera_core.isolate).
"""

from __future__ import annotations

import json
import sys
import traceback

from hiera_core.bench.worker_ops import op_bench_time
from hiera_core.errors import HieraError
from hiera_core.events import stopwatch


def op_prepare(request: dict) -> dict:
    """Spec; with implement=True also the expert plan (unless given) and candidate sources."""
    from hiera_core.contract import prepare
    from hiera_core.plan import ExpertPlanner, Plan
    from hiera_core.spaces import ImplementContext, strategies
    from hiera_core.task import load_task

    task = load_task(request["address"])
    prepared = prepare(task, request["device"], gpu=request.get("gpu"), force_meta=request.get("meta", False),
                       measure=request.get("measure", True))
    result = {"spec": prepared.spec.to_dict(), "meta_only": prepared.meta_only}
    if not request.get("implement"):
        return result
    plan = Plan.from_dict(request["plan"]) if request.get("plan") else ExpertPlanner().plan(prepared.spec)
    result["plan"] = plan.to_dict()
    context = ImplementContext(spec=prepared.spec, reference_class=task.class_name, model=prepared.model,
                               example_inputs=prepared.inputs, graph=prepared.graph, device=request["device"])
    registry = strategies()
    candidates, rejected = [], []
    for entry in plan.entries:
        if len(candidates) >= request.get("budget", 4):
            break
        try:
            candidate = registry[entry.strategy].generate(context)
        except Exception as error:  # noqa: BLE001 - a generator's bug must not stop the run
            rejected.append({"strategy": entry.strategy, "reason": f"generator failed: {type(error).__name__}: {error}"})
            continue
        if candidate is None:
            rejected.append({"strategy": entry.strategy, "reason": "the pattern it needs was not found in the graph"})
        else:
            candidates.append(candidate.to_dict())
    result["candidates"] = candidates
    result["rejected"] = rejected
    return result


def op_evaluate(request: dict) -> dict:
    """Verify a candidate, then time the reference and the candidate the same way in this process;
    the candidate's timing is judged too (streams, roofline, its last output re-checked)."""
    from hiera_core.spec import Spec
    from hiera_core.task import choose_class, load_task, read_source, split_address
    from hiera_core.verify import static_verification, timing_checks, verify

    path, class_name = split_address(request["address"])
    static = static_verification(request["candidate_source"], request["space"],
                                 choose_class(read_source(path), class_name).name, request["first_line"])
    if not static.passed:  # rejected before torch and the candidate are even imported
        return {"verification": static.to_dict()}
    from hiera_core.cuda.extensions import prebuild
    from hiera_core.verify import Check

    # Extensions the candidate builds (`_hiera_extension`) compile in a child process before any of
    # it runs: compile errors come back trimmed and mapped to its lines, and its own build is a cache hit.
    failure = prebuild(request["candidate_source"], request["first_line"])
    if failure:
        static.add([Check("compile", False, failure)])
        return {"verification": static.to_dict()}
    from hiera_core.timing import time_module

    seconds: dict[str, float] = {}  # where the step's time went (the rest: process start, imports)
    with stopwatch(seconds, "verify"):
        task = load_task(request["address"])
        spec = Spec.from_dict(request["spec"])
        device = request["device"]
        verification, verified = verify(task, spec, request["candidate_path"], request["candidate_source"],
                                        request["first_line"], request["space"], device,
                                        sets=request.get("sets", 5), profiler=request.get("profiler", True))
    result = {"verification": verification.to_dict(), "seconds": seconds}
    if not verification.passed or not request.get("time", True):
        return result
    profile = request.get("profile", True)
    reference = task.build_model(device, seed=0)
    inputs = verified.input_sets[0].inputs
    with stopwatch(seconds, "time_reference"):
        baseline = time_module(reference, inputs, device, profile=profile)
    last_output = []
    with stopwatch(seconds, "time_candidate"):
        timed = time_module(verified.candidate, inputs, device, profile=profile, on_last_output=last_output.append)
    verification.add(timing_checks(spec, device, timed, baseline, last_output[0], verified,
                                   exact_rewrite=request.get("exact_rewrite", False)))
    result["verification"] = verification.to_dict()
    result["baseline"] = baseline.to_dict()
    result["candidate"] = timed.to_dict()
    result["speedup"] = baseline.median_ms / timed.median_ms if timed.median_ms else None
    return result


def op_profile(request: dict) -> dict:
    """Profile the reference (the last profile the hover shows): timing, top kernels, roofline."""
    from hiera_core.contract import prepare
    from hiera_core.task import load_task
    from hiera_core.timing import time_module

    task = load_task(request["address"])
    prepared = prepare(task, request["device"], gpu=request.get("gpu"), measure=False)
    if prepared.meta_only:
        raise HieraError("the task does not fit in memory here, so it cannot be profiled",
                         file=task.path, kind="oom", hint="profile on a machine with more memory, or shrink the inputs")
    timing = time_module(prepared.model, prepared.inputs, request["device"])
    return {"spec": prepared.spec.to_dict(), "timing": timing.to_dict()}


OPS = {"prepare": op_prepare, "evaluate": op_evaluate, "profile": op_profile, "bench_time": op_bench_time}


def main(argv: list[str]) -> int:
    request_path, result_path = argv
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    try:
        payload = {"ok": True, "result": OPS[request["op"]](request)}
    except HieraError as error:
        payload = {"ok": False, "error": error.to_dict()}
    except MemoryError:
        payload = {"ok": False, "error": HieraError(
            f"ran out of host memory during '{request['op']}'", kind="oom",
            hint="shrink the task's inputs or use a machine with more memory").to_dict()}
    except Exception as error:  # noqa: BLE001 - report any failure to the parent, never a silent death
        payload = {"ok": False, "error": HieraError(
            f"internal error in the worker: {type(error).__name__}: {error}", kind="internal",
            details={"traceback": traceback.format_exc()[-4000:]}).to_dict()}
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(payload, handle, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
