"""Evaluating candidates: each one written into the run folder, verified and timed in a worker of
its own (or its outcome taken from the store's cache), several side by side; and the profile's
feedback on the verified ones: a host-bound candidate replayed as a CUDA graph, a candidate's
hardware counters read with Nsight Compute."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Event, following_stages
from hiera_core.loop.run_result import CandidateOutcome
from hiera_core.loop.session import Session
from hiera_core.plan.planner import MIN_SPEEDUP
from hiera_core.propose import proposal_file as proposals
from hiera_core.spaces.algebra import rewrites_the_work
from hiera_core.spec.model import Spec
from hiera_core.verify.repro import reproducer, script_path
from hiera_core.worker.requests import EvaluateRequest, NcuRequest

# A verified host-bound candidate (timing's `bound`) is captured in a CUDA graph by the profile-guided
# refinement when its GPU work plus the replay's copies (each input into the graph's buffers, each
# output out: at least a kernel's few microseconds each, or its bytes read and written at the memory's
# peak) beats the best candidate's time by more than timing noise (MIN_SPEEDUP). A fixed share of the
# best time stood for the copies before: 0.9 left GPT-2's MLP on the H100 (2026-12-06) ungraphed, its
# max-autotune module at 0.163 ms of GPU work and 0.18 to queue, 1.2 MB in and out.
GRAPH_COPY_MIN_MS = 0.002
# A library or custom-CUDA candidate is graphed beside the PyTorch one with the least GPU work when its own
# GPU work is within this factor of it (host_bound_refinements).
GRAPH_RIVAL_SHARE = 1.25
# host_bound_refinements: the host-bound candidate, at most one rival (and it in NHWC), the custom
# kernels with compiled glue, and the exact rewrite compiled
MOST_REFINEMENTS = 5
NCU_WORKER_START_S = 15.0  # of an ncu worker op's time limit, what its own start may take (ncu gets the rest)


def host_bound_refinements(spec: Spec, candidates: list[dict], outcomes: list[CandidateOutcome]) -> list[dict]:
    """Profile feedback: the verified candidate with the least GPU time whose calls are paced by the
    host (the least GPU time its replay could take, replayed_gpu_ms, and the replay's copies,
    replay_copies_ms, under the best candidate's time by MIN_SPEEDUP), captured in a CUDA graph, as
    one more candidate. When that one is a PyTorch-operator candidate,
    also the host-bound CUDA-library or custom-CUDA candidate with the least GPU time, if within
    GRAPH_RIVAL_SHARE of it: once both replay a graph only their GPU work differs, and a region
    plan's kernels deserve the same capture the compiled module gets. When that one is a torch.compile
    candidate, also a custom-CUDA rival with its 2D convolutions in cuDNN's NHWC layout
    (compose.nhwc_variant), graphed, and the verified custom-CUDA candidate with the least GPU work,
    the PyTorch ops between its kernels compiled by inductor (compose.compiled_glue), graphed:
    inductor's kernels took less GPU time, and what it does better may be the layout or the glue. And
    the verified exact rewrite (algebra.EXACT_REWRITES) with its own ops compiled by inductor
    (compose.compiled_rewrite), graphed: the rewrite saves work, inductor the launches and passes. []
    when no candidate is host-bound or all already replay a graph. Static shapes only, as the
    cuda_graph strategy."""
    from hiera_core.spaces.compose import compiled_glue, compiled_rewrite, nhwc_variant
    from hiera_core.spaces.pytorch_ops import graphed, replays_a_graph
    from hiera_core.spaces.strategy import Candidate

    verified = [o for o in outcomes if o.status == "verified" and o.timing and o.ms]
    if spec.dynamic_dims or not verified:
        return []
    best_ms = min(o.ms for o in verified)
    copies_ms = replay_copies_ms(spec)
    bound = sorted((o for o in verified
                    if o.timing.get("bound") == "host" and not replays_a_graph(o.strategy)
                    and (replayed_gpu_ms(o) + copies_ms) * MIN_SPEEDUP < best_ms),
                   key=replayed_gpu_ms)
    if not bound:
        return []
    chosen = bound[:1]
    if chosen[0].space == "pytorch":
        rivals = [o for o in bound if o.space != "pytorch"
                  and replayed_gpu_ms(o) <= GRAPH_RIVAL_SHARE * replayed_gpu_ms(chosen[0])]
        chosen += rivals[:1]

    def source(outcome: CandidateOutcome) -> Candidate:
        return Candidate(**next(c for c in candidates if c["name"] == outcome.name))

    refinements = []
    for outcome in chosen:
        why = (f"{outcome.name} is host-bound: {outcome.timing['gpu_median_ms']:.4g} ms of GPU work, "
               f"{outcome.timing['host_median_ms']:.4g} ms to queue a call; replayed as a CUDA graph")
        refinements.append(graphed(source(outcome), why).to_dict())
    inductor = chosen[0]
    if not inductor.strategy.startswith("compile_"):
        return refinements

    def behind(custom: CandidateOutcome) -> str:
        return (f"inductor's kernels ({inductor.name}) took {inductor.timing['gpu_median_ms']:.4g} ms of GPU work, "
                f"{custom.name}'s {custom.timing['gpu_median_ms']:.4g} ms")

    # The custom rival with its convolutions NHWC too: inductor lays a conv net's maps out channels-last
    # (MobileNetV2 on the H100: its 1x1 convolutions 10.9 and 9.5 us, the custom candidate's NCHW 15.5
    # and 12.4), which the custom kernels read in place.
    for rival in chosen[1:]:
        nhwc = nhwc_variant(source(rival), spec)
        if nhwc is not None and all(c["name"] != nhwc.name for c in candidates):
            why = (f"{behind(rival)}: its convolutions in cuDNN's NHWC layout, as inductor lays them out, "
                   "replayed as a CUDA graph")
            refinements.append(graphed(nhwc, why).to_dict())
    # The custom candidate with the least GPU work that has glue to compile (a library-flag variant,
    # a wrapper with no entry points of its own, has none: the next one may).
    for kernels in sorted((o for o in verified if o.space == "custom_cuda" and not replays_a_graph(o.strategy)),
                          key=replayed_gpu_ms):
        composed = compiled_glue(source(kernels), dynamic=False)
        if composed is None:
            continue
        why = (f"{behind(kernels)}: its kernels with the PyTorch ops between them compiled by inductor, "
               "replayed as a CUDA graph")
        refinements.append(graphed(composed, why).to_dict())
        break
    # Performer's causal linear attention on the H100 (2026-12-06): the rewrite's nine launches
    # 0.14 ms of GPU work ungraphed, max-autotune's fusion of the reference 0.073.
    rewrites = [o for o in verified if rewrites_the_work(o.space, o.strategy) and not replays_a_graph(o.strategy)]
    if rewrites:
        rewrite = min(rewrites, key=replayed_gpu_ms)
        why = f"{behind(rewrite)}: the rewrite's ops compiled by inductor, replayed as a CUDA graph"
        refinements.append(graphed(compiled_rewrite(source(rewrite), dynamic=False), why).to_dict())
    return refinements


def replayed_gpu_ms(outcome: CandidateOutcome) -> float:
    """The least GPU time a graph replay of the candidate's call could take: its kernels' sum where the
    profile measured it, else its GPU time. A replay removes the gaps between launches that a call's
    events hold, not the kernels: DCGAN's generator compiled by inductor on the H100 (2026-12-07) took
    0.170 ms of GPU work a call and 0.146 replayed, which its GPU time alone judged no gain against
    reduce-overhead's 0.174."""
    gpu_ms = outcome.timing["gpu_median_ms"]
    kernel_sum_ms = outcome.timing.get("kernel_sum_ms")
    return min(gpu_ms, kernel_sum_ms) if kernel_sum_ms else gpu_ms


def replay_copies_ms(spec: Spec) -> float:
    """What a graph replay adds to a call's GPU work: the copies of its tensor inputs into the graph's
    buffers and of its outputs out of them."""
    from hiera_core.spec.model import DTYPE_BYTES, TensorInfo

    peak_bw = spec.roofline.peak_bw if spec.roofline is not None else 0.0
    total = 0.0
    for tensor in (*spec.inputs, *spec.outputs):
        if isinstance(tensor, TensorInfo):
            moved_ms = 1000 * 2 * tensor.numel * DTYPE_BYTES.get(tensor.dtype, 4) / peak_bw if peak_bw else 0.0
            total += max(GRAPH_COPY_MIN_MS, moved_ms)
    return total


def run_candidate(session: Session, candidate: dict, spec: Spec, index: int, total: int,
                  deadline: float | None = None, device_lock: str | None = None,
                  alone: bool = False) -> tuple[CandidateOutcome, int]:
    """Write, verify and time one candidate, stopping at `deadline` (time.monotonic()) when given;
    (outcome, line where its code starts in the file). `device_lock`: shared with the candidates
    evaluated beside it (hiera_core.worker.devicelock). An outcome in the store's cache is reused (no
    stages: nothing is compiled, verified or timed), and a fresh one is cached. `alone`: nothing else
    on the device while it is evaluated (its verification takes the exclusive lock too)."""
    run = session.run
    body = proposals.assemble_body(session.info.source, candidate["name"], candidate["space"], candidate["code"])
    candidate_path = run.write_text(f"candidates/{candidate['name']}.py", body)
    _, first_line = proposals.candidate_part(body)
    cache = session.outcome_cache
    outcome = cache.lookup(candidate, CandidateOutcome) if cache is not None else None
    if outcome is not None:
        session.emit(Event("log", stage="verify", message=outcome.cache["note"],
                           data={"candidate": candidate["name"], "cache": outcome.cache}))
    else:
        with session.lock:
            session.state.stage = "verify"
            session.save()
            session.candidate_stage(candidate["name"], "compile", index, total)
        outcome = _evaluate(session, candidate, candidate_path, first_line, spec, deadline, device_lock, alone,
                            on_stage=lambda stage: session.candidate_stage(candidate["name"], stage, index, total))
        if cache is not None:
            outcome.cache = cache.record(candidate, vars(outcome), run.id)
    run.write_json(f"candidates/{candidate['name']}.json", {**candidate, "outcome": vars(outcome)})
    with session.lock:
        session.candidate_finished(candidate["name"])
        session.state.candidates.append(vars(outcome))
        session.save()
        done = len(session.state.candidates)
        session.emit(Event("candidate", stage="profile", message=_describe(outcome),
                           progress=0.4 + 0.55 * max(done, index + 1) / max(total, 1), data=vars(outcome)))
    return outcome, first_line


def out_of_memory(outcome: CandidateOutcome) -> bool:
    """Whether the candidate's evaluation ran out of memory (its worker, or its forward in its runner)."""
    return outcome.status in ("failed", "rejected") and (outcome.failed_check or {}).get("check") == ErrorKind.OOM


def evaluate_candidates(session: Session, spec: Spec, candidates: list[dict], device_lock: str | None, jobs: int,
                        first: int = 0, total: int | None = None) -> list[CandidateOutcome]:
    """run_candidate on each, `jobs` side by side (numbered from `first` of `total`); then each that
    ran out of memory beside other work is evaluated once more with the device to itself."""
    total = total if total is not None else first + len(candidates)
    outcomes = evaluate_side_by_side(candidates, lambda index, candidate: run_candidate(
        session, candidate, spec, first + index, total, device_lock=device_lock)[0], jobs)
    if device_lock is None:  # evaluated alone already
        return outcomes
    for index, (candidate, outcome) in enumerate(zip(candidates, outcomes)):
        if out_of_memory(outcome):
            session.emit(Event("log", stage="verify", message=f"{candidate['name']} ran out of memory beside other "
                                                              f"work on the device: evaluating it again, alone"))
            with session.lock:
                session.state.candidates.remove(vars(outcome))  # the retry's outcome replaces it
            outcomes[index] = run_candidate(session, candidate, spec, first + index, total,
                                            device_lock=device_lock, alone=True)[0]
    return outcomes


def evaluate_side_by_side(candidates: list, evaluate, jobs: int) -> list:
    """evaluate(index, candidate) for each candidate, `jobs` at a time in plan order (the most
    promising first, so a good answer comes early), each in a thread of its own; the outcomes in the
    candidates' order. One that fails or hangs holds only its own thread (its worker's time limit
    ends it); an interruption stops the ones not started."""
    if jobs <= 1 or len(candidates) <= 1:
        return [evaluate(index, candidate) for index, candidate in enumerate(candidates)]
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="hiera-candidate") as pool:
        futures = [pool.submit(evaluate, index, candidate) for index, candidate in enumerate(candidates)]
        try:
            return [future.result() for future in futures]
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def hardware_counters(session: Session, name: str, outcome: CandidateOutcome, deadline: float) -> str:
    """Nsight Compute's figures of one call of the verified candidate `name`, as text for its profile
    (hiera_core.profile.ncu), recorded as candidates/NAME.ncu.json; a one-line note when ncu is absent,
    fails or would outlast the time budget; "" off CUDA."""
    from hiera_core.profile.ncu import NCU_TIMEOUT_S, NOT_FOUND, find_ncu
    from hiera_core.profile.ncu_report import NcuReport

    if not session.settings.device.startswith("cuda"):
        return ""
    ncu = find_ncu()
    limit = min(NCU_TIMEOUT_S, deadline - time.monotonic())
    if ncu is None:
        report = NcuReport(note=NOT_FOUND)
    elif limit < NCU_WORKER_START_S + 1:
        report = NcuReport(note="Nsight Compute (ncu) not run: the time budget is spent")
    else:
        session.emit(Event("log", stage="profile", message=f"{name}: reading its kernels' hardware counters with "
                                                            f"Nsight Compute (at most {limit:.0f} s)"))
        try:
            report = session.worker(
                NcuRequest, f"profiling {name} with Nsight Compute", f"{name}.ncu", timeout_s=limit, ncu=ncu,
                candidate_path=str(session.run.path / "candidates" / f"{name}.py"),
                kernels_per_call=(outcome.timing or {}).get("kernels_per_call"),
                ncu_timeout_s=limit - NCU_WORKER_START_S)
        except HieraError as error:
            report = NcuReport(note=f"Nsight Compute (ncu) failed: {str(error).splitlines()[0]}")
    session.run.write_json(f"candidates/{name}.ncu.json", report.to_dict())
    return report.text()


def _evaluate(session: Session, candidate: dict, path: Path, first_line: int, spec: Spec,
              deadline: float | None = None, device_lock: str | None = None, alone: bool = False,
              on_stage=lambda stage: None) -> CandidateOutcome:
    """Verify and time one candidate in a worker; on_stage(stage) as it enters verify and time."""
    base = dict(name=candidate["name"], space=candidate["space"], strategy=candidate["strategy"])
    if session.resumed is not None and (recorded := session.resumed.outcome(candidate)) is not None:
        # evaluated by the run this one resumes: its verdict and timing stand
        return CandidateOutcome.from_dict(recorded)
    limit, hint = session.candidate_time_limit(spec)
    if deadline is not None and deadline - time.monotonic() < limit:
        limit, hint = max(deadline - time.monotonic(), 1.0), "the model's time budget (--time-budget) ran out"
    stages = path.with_suffix(".stages.jsonl")
    stages.unlink(missing_ok=True)  # a candidate of the same name evaluated before in this run
    try:
        with following_stages(stages, on_stage):
            result = session.worker(EvaluateRequest, f"evaluating {candidate['name']}", candidate["name"],
                                    timeout_s=limit, timeout_hint=hint, stages_path=str(stages),
                                    spec=spec.to_dict(), candidate_path=str(path), candidate_source=candidate["code"],
                                    first_line=first_line, space=candidate["space"], device_lock=device_lock, alone=alone,
                                    exact_rewrite=rewrites_the_work(candidate["space"], candidate["strategy"]))
    except HieraError as error:
        return CandidateOutcome(**base, status="failed", reason=str(error).splitlines()[0],
                                failed_check={"check": error.kind, "message": error.message,
                                              "reproducer": error.details.get("log", "")[-500:]})
    verification = result.verification
    failed = next((check for check in verification.checks if not check.passed), None)
    if failed:
        text = reproducer(session.address, path, session.settings.device, failed)
        script = session.run.write_text(f"candidates/{script_path(path).name}", text) if text else None
        return CandidateOutcome(**base, status="rejected", reason=f"{failed.name}: {failed.message}",
                                verification="failed", failed_check={"check": failed.name, "message": failed.message,
                                                                     "reproducer": failed.reproducer,
                                                                     "script": str(script) if script else ""})
    summary = (f"passed: {len(verification.checks)} checks, {verification.input_sets} input sets, "
               f"max error {verification.max_abs_error:.2g}")
    return CandidateOutcome(**base, status="verified", reason=candidate["reason"], speedup=result.speedup,
                            ms=result.candidate.median_ms, baseline_ms=result.baseline.median_ms,
                            verification=summary, baseline_timing=result.baseline.to_dict(),
                            timing=result.candidate.to_dict(), significant=result.significant,
                            timing_verdict=result.timing_verdict)


def _describe(outcome: CandidateOutcome) -> str:
    earlier = f" (from cache, evaluated {outcome.cache['evaluated']})" if (outcome.cache or {}).get("used") else ""
    if outcome.status == "verified":
        return (f"{outcome.name}: verified, {outcome.ms:.4g} ms vs {outcome.baseline_ms:.4g} ms eager "
                f"({outcome.speedup:.2f}x){earlier}")
    return f"{outcome.name}: {outcome.status}: {outcome.reason}{earlier}"
