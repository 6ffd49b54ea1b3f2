"""One bench task: its settings, and its run (`optimize`, then the timing op; on a GPU the baselines'
part of it beside the loop, hiera_core.bench.baselines) into one record, the same on this host
(runner.py) and on a Ray worker (ray_runner.py)."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from hiera_core.bench.baselines import BaselineTiming
from hiera_core.bench.environment import (
    redact_endpoint,
    task_environment,
)
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.suite import BenchTask
from hiera_core.errors import HieraError
from hiera_core.events import Emit, Event, stopwatch
from hiera_core.llm.config import Overrides as LLMOverrides
from hiera_core.loop.optimize import optimize
from hiera_core.loop.run_result import NO_IMPROVEMENT, CandidateOutcome, OptimizeResult
from hiera_core.loop.session import Settings, default_warm_workers
from hiera_core.store import Store
from hiera_core.worker.isolate import Placement, run_worker
from hiera_core.worker.requests import BenchTimeRequest, BenchTimeResult
from hiera_core.worker.warm import WarmPool


@dataclass
class BenchSettings:
    device: str
    budget: int  # offline expert candidates per task, as `hiera optimize --budget`
    timeout_s: float  # per worker step, as in `hiera optimize`
    # Model flags, None when not given (the engine then reads env, pyproject.toml, editor settings).
    model: str | None = None
    base_url: str | None = None
    samples: int | None = None
    # GPUs to spread the tasks over, one task per GPU at a time (`--gpus`); empty: the workers' default GPU.
    gpus: tuple[str, ...] = ()
    compile_modes: tuple[str, ...] = ("default",)  # torch.compile modes the reference is timed in
    # `--ray`: the cluster's address ("auto": the one this host belongs to), None for a local run;
    # each task then asks Ray for one GPU (device cuda) and `ray_cpus` CPU cores.
    ray_address: str | None = None
    ray_cpus: int = 1

    def engine_settings(self, placement: Placement | None = None) -> Settings:
        # cache=False: a bench measures; it never reads a spec, outcome or confirmation an earlier run
        # cached (it still writes them, for a later `hiera optimize`).
        return Settings(device=self.device, budget=self.budget, timeout_s=self.timeout_s, placement=placement,
                        cache=False,
                        llm=LLMOverrides(model=self.model, base_url=self.base_url, samples=self.samples))


def slug(task_id: str) -> str:
    """A file name for a task id: 'level1/3_Conv2d_3x3.py' -> 'level1__3_Conv2d_3x3'."""
    return task_id.removesuffix(".py").replace("/", "__").replace("\\", "__")


def run_task(task: BenchTask, settings: BenchSettings, host: dict, out: Path, emit: Emit,
             placement: Placement | None = None) -> TaskRecord:
    started = time.monotonic()
    gpu = placement.gpu if placement else None
    record = TaskRecord(id=task.id, level=task.level, path=task.path, outcome="error", gpu=gpu)
    log_path = out / "logs" / f"{slug(task.id)}.log"
    # The bench's workers use the store's inductor and Triton caches, as the loop's do: a mode the loop
    # compiled as a candidate is not compiled from nothing again for its baseline.
    store = Store.for_file(task.path)
    cache_root = str(store.cache_root)
    request_fields = dict(address=task.path, device=settings.device, cache_root=cache_root)
    # On a GPU, warm workers for the baselines (timed beside the loop: BaselineTiming) and for the
    # proposal's timing, with its runner: each ready when its step comes.
    warm = WarmPool(out / "logs" / "warm", device=settings.device, placement=placement, cache_root=cache_root) \
        if default_warm_workers(settings.device, 1, placement) else None
    with tempfile.TemporaryDirectory(prefix="hiera-bench-") as folder:
        device_lock = str(Path(folder) / "device.lock") if warm is not None else None
        baselines = BaselineTiming(request_fields, list(settings.compile_modes), device_lock, Path(folder), warm,
                                   doing=f"timing {task.id}'s baselines", log_path=log_path,
                                   placement=placement) if warm is not None else None
        try:
            if warm is not None:
                warm.add(1, 0)
                warm.add(1, 1)
            try:
                result = optimize(task.path, replace(settings.engine_settings(placement), device_lock=device_lock),
                                  _relay(emit, baselines))
            except HieraError as error:
                if baselines is not None:
                    baselines.cancel()
                return _failed(record, "optimize", error, host, started, gpu)
            if baselines is not None:
                baselines.loop_done()
            _record_optimize(record, result, out)
            spec = store.run(result.run).read_json("spec.json") or {}
            proposal = [str((out / record.proposal).resolve())] if record.proposal else []
            overlapped = baselines is not None and baselines.started
            emit(Event("stage", stage="profile", progress=0.99, message=(
                "timing the proposal; the baselines began beside the loop" if overlapped else
                f"timing eager, torch.compile ({', '.join(settings.compile_modes)}) and the proposal")))
            try:
                with stopwatch(record.worker_s.setdefault("bench_time", {}), "total"):
                    # Overlapped: only the proposal is left, still under the lock (a baseline may compile).
                    request = BenchTimeRequest(**request_fields, proposal_paths=proposal, time_reference=not overlapped,
                                               compile_modes=[] if overlapped else list(settings.compile_modes),
                                               device_lock=device_lock)
                    timed = _time(request, warm, settings, task, log_path, placement) \
                        if proposal or not overlapped else None
                if overlapped:
                    timed = _with_baselines(timed, baselines.result(settings.timeout_s))
                    record.worker_s["bench_baselines"] = baselines.seconds
            except HieraError as error:
                if baselines is not None:
                    baselines.cancel()
                return _failed(record, "timing", error, host, started, gpu)
        finally:
            if warm is not None:
                warm.close()
    record.worker_s["bench_time"].update(timed.seconds)
    _record_timing(record, timed, spec)
    record.environment = task_environment(host, timed.environment, gpu)
    if result.llm:  # the model this task's run actually used (pyproject.toml may differ per folder)
        record.environment.update(model=result.llm["model"], endpoint=redact_endpoint(result.llm["endpoint"]))
    record.wall_s = time.monotonic() - started
    return record


def _time(request: BenchTimeRequest, warm: WarmPool | None, settings: BenchSettings, task: BenchTask,
          log_path: Path, placement: Placement | None) -> BenchTimeResult:
    """The timing step; a proposal that fails one of the judge's checks gets one more fresh process,
    and the second verdict stands, as in the loop's confirmation (hiera_core.loop.confirm): a check
    that a busy machine or an unlucky set can fail once must not make a task invalid by itself."""
    doing = f"timing {task.id}"
    timed = run_worker(request, timeout_s=settings.timeout_s, doing=doing, log_path=log_path, placement=placement,
                       claimed=warm.claim(None, request, placement) if warm is not None else None)
    if not timed.proposals or timed.proposals[0].check.failed_in != "judge":
        return timed
    again = run_worker(replace(request, compile_modes=[], time_reference=False), timeout_s=settings.timeout_s,
                       doing=f"{doing} again (a check of the judge failed: {timed.proposals[0].check.message})",
                       log_path=log_path, placement=placement)
    return replace(timed, proposals=again.proposals,
                   seconds={**timed.seconds, **{f"again_{phase}": took for phase, took in again.seconds.items()}})


def _relay(emit: Emit, baselines: BaselineTiming | None) -> Emit:
    if baselines is None:
        return emit

    def relay(event: Event) -> None:
        baselines.on_event(event)
        emit(event)
    return relay


def _with_baselines(proposals: BenchTimeResult | None, baselines: BenchTimeResult) -> BenchTimeResult:
    """One result from the two steps: the baselines' figures and environment, the proposal's timing."""
    if proposals is None:
        return replace(baselines, seconds={})
    return replace(baselines, proposals=proposals.proposals, seconds=proposals.seconds)


def _failed(record: TaskRecord, stage: str, error: HieraError, host: dict, started: float,
            gpu: str | None) -> TaskRecord:
    record.outcome = "error"
    record.correct = False
    record.error = {"stage": stage, "kind": error.kind, "message": str(error)}
    record.environment = task_environment(host, None, gpu)
    record.wall_s = time.monotonic() - started
    return record


def candidate_summary(outcome: CandidateOutcome) -> dict:
    """A candidate's outcome in a bench record: its figures (ms, its GPU time and which bounds it),
    its speedup over its paired eager, whether that exceeds the measured spread (and the timing's
    verdict where it does not), and the check it failed."""
    timing = outcome.timing or {}
    failed = outcome.failed_check or {}
    return {"name": outcome.name, "space": outcome.space, "status": outcome.status, "ms": outcome.ms,
            "gpu_ms": timing.get("gpu_median_ms"), "bound": timing.get("bound"), "speedup": outcome.speedup,
            "paired_eager_ms": outcome.baseline_ms, "significant": outcome.significant,
            "timing_verdict": outcome.timing_verdict or None,
            "failed": f"{failed['check']}: {failed['message'][:200]}" if failed else None}


def region_summary(region: dict) -> dict:
    """A plan region in a bench record: its anchor, workload, bound and measured share, and the
    spaces ranked for it (best first)."""
    return {key: region.get(key) for key in ("index", "kind", "anchor", "workload_class", "bound_ms", "share",
                                             "share_source")} | {
        "choices": [f"{choice['space']}: {choice['approach']}" for choice in region.get("choices", [])]}


def _record_optimize(record: TaskRecord, result: OptimizeResult, out: Path) -> None:
    record.outcome = result.status
    record.run = result.run
    record.worker_s = dict(result.worker_seconds)
    record.space, record.strategy = result.space, result.strategy
    record.verification = result.verification
    record.optimize_speedup = result.speedup
    record.samples = len(result.candidates)
    if result.status == NO_IMPROVEMENT:  # why, as the run said it (a candidate within the spread, a confirmation)
        record.check = result.message.removeprefix("no improvement found: ")
    best: float | None = None
    for number, candidate in enumerate(result.candidates, start=1):
        if candidate.status == "verified" and candidate.speedup:
            if record.samples_to_first_valid is None:
                record.samples_to_first_valid = number
            best = max(best or 0.0, candidate.speedup)
        record.best_speedup_by_sample.append(best)
    record.candidates = [candidate_summary(candidate) for candidate in result.candidates]
    record.regions = [region_summary(region) for region in result.regions]
    record.tokens = result.llm["tokens"]["total"] if result.llm else 0  # offline mode spends none
    if result.llm:
        record.record_model_samples(result.llm)
    if result.proposal_path:
        target = out / "proposals" / f"{slug(record.id)}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(result.proposal_path, target)  # the output folder stands on its own
        record.proposal = str(target.relative_to(out))


def _record_speedups(record: TaskRecord) -> None:
    """Each speedup's two estimates and the one claimed. Paired: eager's / the proposal's in one
    pairing, times (over a mode) the mode's / eager's in the baselines' process. Direct: the
    baselines' figure over the proposal's. Each compares figures from two processes (paired: the
    two eagers; direct: the baseline and the proposal). GPU time agrees across processes (within
    5%, docs/timing.md); host-bound figures do not: eager beside the proposal 0.36 against 0.25 ms
    in the baselines' process in one run, 0.18 against 0.28 in another (H100, 2026-12-06). Claimed:
    the lower of the estimates all of whose figures are GPU time, else the lower of the two."""
    paired = record.paired_eager_ms / record.hiera_ms
    timings = record.timings or {}

    def gpu_time(*keys: str) -> bool:
        return all((timings.get(key) or {}).get("bound") == "gpu" for key in keys)

    for baseline, baseline_ms, key in (("eager", record.eager_ms, "eager"),
                                       ("compile", record.compile_ms, "compile:default"),
                                       ("best_compile", record.best_compile_ms, f"compile:{record.best_compile_mode}")):
        if baseline_ms:
            paired_estimate, direct_estimate = paired * (baseline_ms / record.eager_ms), baseline_ms / record.hiera_ms
            setattr(record, f"speedup_{baseline}_paired", paired_estimate)
            setattr(record, f"speedup_{baseline}_direct", direct_estimate)
            reproducible = [estimate for estimate, counts in (
                (paired_estimate, gpu_time("paired_eager", "hiera", "eager", key)),
                (direct_estimate, gpu_time("hiera", key))) if counts]
            setattr(record, f"speedup_{baseline}", min(reproducible or (paired_estimate, direct_estimate)))


def _record_timing(record: TaskRecord, timed: BenchTimeResult, spec: dict) -> None:
    record.eager_ms = timed.eager.median_ms
    record.compile_modes_ms = {mode: timing.median_ms if timing else None for mode, timing in timed.compile.items()}
    record.compile_errors = timed.compile_errors
    record.compile_ms = record.compile_modes_ms.get("default")
    record.compile_error = record.compile_errors.get("default")
    ran = {mode: ms for mode, ms in record.compile_modes_ms.items() if ms}
    if ran:
        record.best_compile_mode = min(ran, key=ran.get)
        record.best_compile_ms = ran[record.best_compile_mode]
    proposal = timed.proposals[0] if timed.proposals else None
    record.timings = {"eager": timed.eager.to_dict(), **{f"compile:{mode}": timing.to_dict()
                                                         for mode, timing in timed.compile.items() if timing}}
    if proposal is not None and proposal.hiera is not None:
        record.timings.update(hiera=proposal.hiera.to_dict(), paired_eager=proposal.eager.to_dict())
    if record.outcome == "proposal":
        record.correct, record.check = proposal.check.correct, proposal.check.message
        if record.correct:
            record.hiera_ms, record.paired_eager_ms = proposal.hiera.median_ms, proposal.eager.median_ms
    else:  # no candidate beat the reference: HIERA keeps it, so the delivered module is the reference
        record.correct, record.check = True, f"reference kept: {record.check or 'no verified candidate beat it'}"
        record.hiera_ms = record.paired_eager_ms = record.eager_ms
    if record.correct and record.hiera_ms:
        _record_speedups(record)
    roofline = spec.get("roofline") or {}
    record.flops, record.bytes, record.intensity = spec.get("flops"), spec.get("bytes_min"), spec.get("intensity")
    record.workload_class = spec.get("workload_class")
    record.roofline_device = roofline.get("device_name")
    record.peak_flops, record.peak_bw = roofline.get("peak_flops"), roofline.get("peak_bw")
    record.roofline_bound_ms = roofline.get("bound_ms")
    if record.roofline_bound_ms:
        record.roofline_pct_eager = 100 * record.roofline_bound_ms / record.eager_ms
        if record.hiera_ms:
            record.roofline_pct = 100 * record.roofline_bound_ms / record.hiera_ms
