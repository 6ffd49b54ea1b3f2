"""The run's result: the best verified candidate, confirmed in a fresh process, proposed (its file
in the run folder, and next to the source with --write) or not, and why; recorded in run.json,
result.json and the store's index, and sent as the final `result` event."""

from __future__ import annotations

import os
import time
from dataclasses import replace

from hiera_core.events import Event
from hiera_core.index_entry import ProposalEntry, VerificationFailure
from hiera_core.loop.confirm import confirmation_of
from hiera_core.loop.reference import profile_record
from hiera_core.loop.run_result import NO_IMPROVEMENT, CandidateOutcome, OptimizeResult, OutcomeCacheSummary
from hiera_core.loop.session import Session
from hiera_core.plan.planner import MIN_SPEEDUP, Plan
from hiera_core.propose import proposal_file as proposals
from hiera_core.propose.target import proposal_diff, write_target
from hiera_core.spec.model import Spec
from hiera_core.store import iso_time


def short_of_speedup(name: str, speedup: float) -> str:
    """Why the best verified candidate, under MIN_SPEEDUP, is no improvement: a slowdown is called one."""
    verdict = "slower than the reference" if round(speedup, 2) < 1 else "within noise of the reference"
    return f"the best verified candidate ({name}) is {speedup:.2f}x, {verdict}"


def propose(session: Session, spec: Spec, plan: Plan, candidates: list[dict], outcomes: list[CandidateOutcome],
            nothing_tried: str | None = None) -> OptimizeResult:
    """The run's result from its outcomes; `nothing_tried`: why no candidate was evaluated."""
    settings = session.settings
    run = session.run
    session.stage("propose", "choosing the best verified candidate", 0.97)
    # Only speedups beyond the measured spread compete; the rest are reported as they were judged.
    verified = sorted((o for o in outcomes if o.status == "verified" and o.speedup and o.significant),
                      key=lambda o: -o.speedup)
    best = verified[0] if verified else None
    confirmation = confirmation_of(session, verified)
    if confirmation and confirmation["held"] and confirmation["candidate"] != best.name:
        best = next(o for o in verified if o.name == confirmation["candidate"])
    target = proposals.proposal_path_for(session.path)
    result = OptimizeResult(status=NO_IMPROVEMENT, run=run.id, address=session.address,
                            target_path=os.path.abspath(target), device=settings.device,
                            device_name=spec.environment.get("device_name"), roofline_bound_ms=spec.roofline.bound_ms,
                            workload_class=spec.workload_class, plan=plan.summary,
                            regions=[region.to_dict() for region in plan.regions], candidates=list(outcomes),
                            mode=session.llm_config.mode_line(), confirmation=confirmation,
                            worker_seconds=session.worker_seconds, spec_cache=session.state.spec_cache,
                            outcome_cache=outcome_cache_summary(outcomes),
                            llm=session.llm_record.summary() if session.llm_record else None)
    failures = [VerificationFailure(candidate=o.name, check=o.failed_check["check"],
                                    message=o.failed_check["message"], reproducer=o.failed_check["reproducer"])
                for o in outcomes if o.failed_check]
    index_parts: dict = {"verification_failures": failures}
    if best is not None:
        index_parts["profile"] = profile_record(spec, best.baseline_timing)
        result.baseline_ms = best.baseline_ms
    # The headline is the fresh-process figure wherever there is one; the loop's figure follows it.
    confirmed = confirmation["speedup"] if confirmation and confirmation["speedup"] is not None else None
    headline = confirmed if confirmed is not None else (best.speedup if best else None)
    # A confirmation from the cache is the headline only as what it is: a figure of an earlier run.
    confirmed_earlier = ((confirmation or {}).get("cache") or {}).get("used") and confirmation["confirmed"]
    retimed = f"confirmed earlier ({confirmed_earlier}) in a fresh process" if confirmed_earlier \
        else "re-timed in a fresh process"
    also = (f"{retimed}; {best.speedup:.2f}x in the optimization loop" if confirmed is not None
            else "in the optimization loop (not re-timed)") if best else ""
    spread_only = [o for o in outcomes if o.status == "verified" and not o.significant]
    if best is None or best.speedup < MIN_SPEEDUP or (confirmation and not confirmation["held"]):
        if best is None and spread_only:
            closest = max(spread_only, key=lambda o: o.speedup or 0.0)
            reason = (f"no verified candidate is faster beyond the measured spread ({closest.name}: "
                      f"{closest.speedup:.2f}x, {closest.timing_verdict})")
        elif nothing_tried:
            reason = nothing_tried
        elif best is None:
            reason = "no candidate passed verification"
        elif best.speedup < MIN_SPEEDUP:
            reason = short_of_speedup(best.name, best.speedup)
        else:
            reason = "; ".join(confirmation["notes"]) + (f" ({retimed})" if confirmed_earlier else "")
        result.message = f"no improvement found: {reason}"
    else:
        candidate = next(c for c in candidates if c["name"] == best.name)
        body = (run.path / "candidates" / f"{best.name}.py").read_text(encoding="utf-8")
        header = proposals.ProposalHeader(
            reference=os.path.basename(session.path), reference_class=session.class_name,
            reference_sha256=session.info.sha256, space=best.space, strategy=best.strategy,
            verification=best.verification,
            speedup=f"{headline:.2f}x over eager, {also} ({best.baseline_ms:.4g} ms -> {best.ms:.4g} ms)",
            device=f"{settings.device}: {spec.environment.get('device_name')}",
            versions=f"torch {spec.environment.get('torch')}, cuda {spec.environment.get('cuda')}, "
                     f"python {spec.environment.get('python')}",
            date=iso_time(), contract=spec.contract_lines(), regions=plan.region_lines(), run=run.id,
            cached=reused_from_cache(best, confirmation),
            target_region=session.llm_record.region_target(best.name) if session.llm_record else "")
        text = proposals.render(header, body)
        proposal_file = run.write_text("proposal.py", text)
        result = replace(result, status="proposal", proposal_path=str(proposal_file), speedup=headline,
                         loop_speedup=best.speedup, space=best.space, strategy=best.strategy,
                         verification=best.verification, best_ms=best.ms, baseline_ms=best.baseline_ms,
                         roofline_pct=100 * spec.roofline.bound_ms / best.ms if best.ms else None,
                         reason=candidate["reason"], diff=proposal_diff(session.info.source, text, session.path, target))
        if settings.write:
            result.previous_saved_to = write_target(run, target, text)
            result.written = True
        result.message = (f"proposal: {best.name} is {headline:.2f}x faster than eager, {also} "
                          f"({best.baseline_ms:.4g} ms -> {best.ms:.4g} ms), {best.verification}")
        index_parts["proposal"] = ProposalEntry(run=run.id, path=str(proposal_file), target=os.path.abspath(target),
                                                speedup=headline, space=best.space, strategy=best.strategy,
                                                verification=best.verification,
                                                device_name=spec.environment.get("device_name"), date=iso_time())
    session.state.status = result.status
    session.state.best = vars(best) if best else None
    session.state.finished = time.time()
    session.save()
    run.write_json("result.json", result.to_dict())
    session.record_last_run(result.status, **index_parts)
    session.emit(Event("result", stage="propose", message=result.message, progress=1.0, data=result.to_dict()))
    return result


def outcome_cache_summary(outcomes: list[CandidateOutcome]) -> OutcomeCacheSummary:
    """Which candidates' outcomes came from the store's cache and which were evaluated in this run."""
    used = [o.name for o in outcomes if (o.cache or {}).get("used")]
    return OutcomeCacheSummary(used=used, evaluated=[o.name for o in outcomes if o.name not in used],
                               note=f"{len(used)} of {len(outcomes)} candidate outcomes from cache (--no-cache "
                                    "re-evaluates)" if used else "")


def reused_from_cache(best: CandidateOutcome, confirmation: dict | None) -> str:
    """The proposal header's `cached` line: what of its figures an earlier run measured, and when."""
    parts = []
    if (best.cache or {}).get("used"):
        parts.append(f"outcome evaluated {best.cache['evaluated']} (run {best.cache['run']})")
    if ((confirmation or {}).get("cache") or {}).get("used"):
        parts.append(f"confirmed in a fresh process {confirmation['cache']['confirmed']} "
                     f"(run {confirmation['cache']['run']})")
    return "; ".join(parts) + ("; --no-cache re-evaluates" if parts else "")
