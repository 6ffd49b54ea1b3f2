"""Worker process: runs user code (the reference, candidates) on behalf of the orchestrator.

    python -m hiera_core.worker.ops REQUEST.json RESULT.json
    python -m hiera_core.worker.ops --warm DEVICE RUNNERS   (then the two paths on stdin, as JSON)

The request is one of hiera_core.worker.requests' records (its op and arguments); the result file
receives a WorkerReply: {"ok": true, "result": the op's result record as a dict} or {"ok": false,
"error": HieraError-as-dict}. Anything the user's code prints goes to this process's stdout/stderr,
which the parent keeps as a log. A crash, hang or CUDA fault here cannot take the parent down (see
hiera_core.worker.isolate).

A request's `cache_root` (the store's cache folder) becomes inductor's and Triton's cache folders
unless the user set TORCHINDUCTOR_CACHE_DIR / TRITON_CACHE_DIR; an evaluation's `stages_path`
receives the stages the candidate enters (hiera_core.events.stage_announcer). With --warm the
worker starts before its request exists (hiera_core.worker.warm): it imports torch and the judge and
starts RUNNERS candidate runners while it waits.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
import traceback

from hiera_core.bench.worker_ops import op_bench_time
from hiera_core.errors import ErrorKind, HieraError, is_out_of_memory
from hiera_core.events import stopwatch
from hiera_core.profile.ncu import op_ncu
from hiera_core.verify.strays import become_subreaper
from hiera_core.worker.isolate import die_with_parent, store_cache_environment
from hiera_core.worker.requests import (
    EvaluateRequest,
    EvaluateResult,
    PrepareRequest,
    PrepareResult,
    ProfileRequest,
    ProfileResult,
    WorkerReply,
    WorkerRequest,
)


def op_prepare(request: PrepareRequest) -> PrepareResult:
    """Spec; with implement=True also the expert plan (unless given) and candidate sources."""
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    seconds: dict[str, float] = {}  # where the step's time went (the rest: process start, imports)
    with stopwatch(seconds, "load"):
        task = load_task(request.address)
    prepared = prepare(task, request.device, gpu=request.gpu, force_meta=request.meta, measure=request.measure,
                       seconds=seconds)
    result = PrepareResult(spec=prepared.spec, meta_only=prepared.meta_only, seconds=seconds)
    if not request.implement:
        return result
    with stopwatch(seconds, "implement"):
        implement_candidates(request, task, prepared, result)
    return result


def implement_candidates(request: PrepareRequest, task, prepared, result: PrepareResult) -> None:
    """The plan (the request's, else the expert planner's) and up to the budget's candidates in `result`."""
    from hiera_core.plan.planner import ExpertPlanner, Plan
    from hiera_core.spaces import strategies
    from hiera_core.spaces.compose import library_variants
    from hiera_core.spaces.strategy import ImplementContext

    plan = result.plan = Plan.from_dict(request.plan) if request.plan else ExpertPlanner().plan(prepared.spec)
    context = ImplementContext(spec=prepared.spec, reference_class=task.class_name, model=prepared.model,
                               example_inputs=prepared.inputs, graph=prepared.graph, device=request.device)
    registry = strategies()
    candidates, rejected = result.candidates, result.rejected
    for entry in plan.entries:
        if len(candidates) >= request.budget:
            break
        try:
            candidate = registry[entry.strategy].generate(context)
        except Exception as error:
            rejected.append({"strategy": entry.strategy, "reason": f"generator failed: {type(error).__name__}: {error}"})
            continue
        if candidate is None:
            rejected.append({"strategy": entry.strategy, "reason": "the pattern it needs was not found in the graph"})
        else:
            candidates.append(candidate)
    generated = list(candidates)  # the strategies' own, which the variants below combine
    # The budget counts candidates: combinations of per-region choices fill what the strategies left.
    for variant in (v for c in generated for v in library_variants(c, prepared.spec)):
        if len(candidates) >= request.budget:
            break
        candidates.append(variant)


def op_evaluate(request: EvaluateRequest) -> EvaluateResult:
    """Verify a candidate, then time it against the reference (hiera_core.verify.judge). This process is
    the judge: the candidate runs in a runner process of its own, which this one starts."""
    from hiera_core.task.load import choose_class, read_source, split_address
    from hiera_core.verify.verdicts import static_verification

    on_phase = None
    if request.stages_path:
        from hiera_core.events import stage_announcer

        on_phase = stage_announcer(request.stages_path)  # the judge's verify and time phases
    path, class_name = split_address(request.address)
    reference_source = read_source(path)
    if reference_source.sha256 != request.spec["source_sha256"]:
        raise HieraError(ErrorKind.GENERAL, f"{path} changed since its spec was prepared (sha256 "
                                            f"{request.spec['source_sha256'][:12]} then, {reference_source.sha256[:12]} "
                                            f"now): candidates are judged against the reference that was prepared; "
                                            f"if a candidate wrote it, restore it (git diff), then run again")
    static = static_verification(request.candidate_source, request.space,
                                 choose_class(reference_source, class_name).name, request.first_line)
    if static.passed:
        static = file_verification(request.candidate_path, reference_source.source, request.candidate_source)
    if not static.passed:  # rejected before torch and the candidate are even imported
        return EvaluateResult(verification=static)
    from hiera_core.cuda.extension_candidates import prebuild
    from hiera_core.verify.verdicts import Check

    # Extensions the candidate builds (`_hiera_extension`) compile in a child process before any of
    # it runs: compile errors come back trimmed and mapped to its lines, and its own build is a cache hit.
    failure = prebuild(request.candidate_source, request.first_line)
    if failure:
        static.add([Check("compile", False, failure)])
        return EvaluateResult(verification=static)
    from hiera_core.spec.model import Spec
    from hiera_core.task.load import load_task
    from hiera_core.verify import judged_files
    from hiera_core.verify.judge import evaluate

    seconds: dict[str, float] = {}  # where the step's time went (the rest: process start, imports)
    task = load_task(request.address)
    files = judged_files.snapshot(path, judged_files.local_sources())  # before the candidate's runner starts
    with stopwatch(seconds, "evaluate"):
        result = evaluate(task, Spec.from_dict(request.spec), request.candidate_path,
                          request.space, request.device, sets=request.sets, seed=request.seed,
                          profiler=request.profiler, timed=request.time, profile=request.profile,
                          exact_rewrite=request.exact_rewrite, cpu_threads=request.cpu_threads,
                          device_lock=request.device_lock, alone=request.alone, on_phase=on_phase)
    result.seconds = {**seconds, **result.seconds}
    result.verification.checks.insert(0, static.checks[0])
    written = judged_files.changed(files)
    if written:  # the candidate's verdict stands on files it changed: rejected, its timing dropped
        listed = ", ".join(written[:3]) + (f" and {len(written) - 3} more" if len(written) > 3 else "")
        result.verification.add([Check("judged-files", False, f"{listed} changed while the candidate ran: a "
                                                              f"candidate may not write the reference's or HIERA's "
                                                              f"own files (every later verdict reads them); restore "
                                                              f"them (git diff, or reinstall hiera), or, if you saved "
                                                              f"them yourself meanwhile, run again")])
        return EvaluateResult(verification=result.verification, seed=result.seed, seconds=result.seconds)
    return result


def file_verification(candidate_path: str, reference_source: str, candidate_source: str):
    """The whole file the runner will import: past a proposal header, the reference verbatim, then
    the candidate part the static checks read. Anything else (code hidden above the candidate
    marker, a part other than the one checked) is rejected."""
    from hiera_core.propose import proposal_file as proposals
    from hiera_core.verify.verdicts import Check, Verification

    try:
        text = open(candidate_path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        return Verification(False, [Check("load", False, f"cannot read the candidate file: {error}")])
    _, body = proposals.split(text)
    part, _ = proposals.candidate_part(body)
    if part.rstrip("\n") != candidate_source.rstrip("\n"):
        return Verification(False, [Check("file-prefix", False, "the candidate file's candidate part is not the "
                                                                "source that was checked")])
    prefix = body[:len(body) - len(part)]
    if prefix and not proposals.prefix_is_reference(prefix, reference_source):
        line = proposals.first_difference_line(prefix, reference_source)
        return Verification(False, [Check("file-prefix", False, f"line {line}: the text above the candidate "
                                                                f"marker is not the reference's source verbatim; put "
                                                                f"the candidate's code below the marker")])
    return Verification(True, [Check("static", True, "static checks: the candidate part; above it, the reference "
                                                     "verbatim")])


def op_profile(request: ProfileRequest) -> ProfileResult:
    """Profile the reference (the last profile the hover shows): timing, top kernels, roofline."""
    from hiera_core.profile.timing import time_module
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    task = load_task(request.address)
    prepared = prepare(task, request.device, gpu=request.gpu, measure=False)
    if prepared.meta_only:
        raise HieraError("the task does not fit in memory here, so it cannot be profiled",
                         file=task.path, kind=ErrorKind.OOM,
                         hint="profile on a machine with more memory, or shrink the inputs")
    timing = time_module(prepared.model, prepared.inputs, request.device)
    return ProfileResult(spec=prepared.spec, timing=timing)


OPS = {"prepare": op_prepare, "evaluate": op_evaluate, "profile": op_profile, "bench_time": op_bench_time,
       "ncu": op_ncu}


def warm_start(device: str, runners: int) -> list[str] | None:
    """A warm worker's wait for its request: the runners started and the judge's imports done
    meanwhile; the request's and result's paths, or None when the pool closed its stdin."""
    from hiera_core.verify.runner_process import prestart

    prestart(device, runners)
    import torch

    importlib.import_module("hiera_core.verify.retime")  # and the judge: what an evaluation or re-timing runs
    if device == "cuda":
        torch.zeros(1, device="cuda")
    line = sys.stdin.readline()
    return json.loads(line) if line.strip() else None


def main(argv: list[str]) -> int:
    die_with_parent()  # before any user code: this process and its group end with the run
    become_subreaper()  # a process a candidate detaches from its runner comes here (hiera_core.verify.strays)
    if argv[0] == "--warm":
        paths = warm_start(argv[1], int(argv[2]))
        if paths is None:
            return 0
        argv = paths
    request_path, result_path = argv
    if os.name == "posix":  # the device lock is flock's (hiera_core.worker.devicelock)
        from hiera_core.worker.devicelock import report_waits_to

        report_waits_to(result_path)  # its waits for the device do not count against its time limit
    with open(request_path, encoding="utf-8") as handle:
        data = json.load(handle)
    op = data.get("op")
    # From the request's writing to here: a cold worker's start and imports, a warm one's wake-up.
    start_s = round(max(0.0, time.time() - os.stat(request_path).st_mtime), 2)
    try:
        request = WorkerRequest.from_dict(data)
        store_cache_environment(os.environ, request.cache_root)
        result = OPS[op](request)
        if isinstance(getattr(result, "seconds", None), dict):
            result.seconds.setdefault("start", start_s)
        reply = WorkerReply(ok=True, result=result.to_dict())
    except HieraError as error:
        reply = WorkerReply(ok=False, error=error.to_dict())
    except Exception as error:
        if is_out_of_memory(error):
            memory = "GPU" if "cuda" in str(error).lower() else "host"
            reply = WorkerReply(ok=False, error=HieraError(
                f"ran out of {memory} memory during '{op}': {str(error).strip().splitlines()[0][:300]}",
                kind=ErrorKind.OOM, hint="shrink the task's inputs or use a machine with more memory").to_dict())
        else:
            reply = WorkerReply(ok=False, error=HieraError(
                f"internal error in the worker: {type(error).__name__}: {error}", kind=ErrorKind.INTERNAL,
                details={"traceback": traceback.format_exc()[-4000:]}).to_dict())
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(reply.to_dict(), handle, default=str)
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    # The result is written: end without the interpreter's teardown (torch's, a GPU context's,
    # inductor's compile pool's: 0.3-0.6 s a step on a CPU, more with a GPU), which the step's caller
    # would wait for; whatever the worker started dies with its group (run_worker kills it).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
