"""The HIERA loop: plan -> implement -> verify -> profile -> propose, orchestrated from a process
that never imports torch; every step that runs user code runs in a worker (hiera_core.worker.isolate).

`optimize` prepares the reference (hiera_core.loop.reference), evaluates the offline candidates
(hiera_core.loop.evaluate), with a model configured races its refinement chains against them
(hiera_core.loop.refine), and proposes the best (hiera_core.loop.result). Everything is recorded in
the store as it goes (run.json is rewritten atomically at each step, so it can be read while the
run is in progress) and reported as progress events, each candidate's stages too. The reference's
prepared spec, each candidate's outcome and the fresh-process confirmation of the best are cached
in the store by what they depend on: a second run on an unchanged module evaluates nothing it
already knows.
"""

from __future__ import annotations

from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Emit, Event
from hiera_core.index_entry import SpecEntry
from hiera_core.llm.record import LLMRecord
from hiera_core.loop.confirm import CONFIRM_TRIES
from hiera_core.loop.evaluate import (
    MOST_REFINEMENTS,
    evaluate_candidates,
    hardware_counters,
    host_bound_refinements,
    run_candidate,
)
from hiera_core.loop.outcome_cache import OutcomeCache
from hiera_core.loop.reference import at_roofline_limit, prepare_reference
from hiera_core.loop.result import propose
from hiera_core.loop.run_result import CandidateOutcome, OptimizeResult
from hiera_core.loop.session import Session, Settings, configure_llm, default_jobs, jobs_within_memory
from hiera_core.plan.planner import Plan
from hiera_core.spec.model import Spec


def optimize(address: str, settings: Settings, emit: Emit) -> OptimizeResult:
    """Run the loop; returns its result (also the final `result` event's data)."""
    session = Session(address, "optimize", settings, emit)
    try:
        if settings.resume:
            from hiera_core.llm.resume import load_resumed

            session.resumed = load_resumed(Path(settings.resume))
        config = configure_llm(session)
        mode = (f"with {config.model}, up to {config.samples} samples" if config.enabled
                else "offline expert mode")
        session.emit(Event("start", stage="load", message=f"optimizing {session.address} on {settings.device}, "
                           f"budget {settings.budget} candidates ({mode})", progress=0.0,
                           data={"run": session.run.id, "address": session.address, "device": settings.device,
                                 "mode": config.mode_line(), "warnings": config.warnings}))
        # Started now, they are ready when the candidates come (preparing the reference takes seconds).
        session.start_warm_workers(settings.budget, CONFIRM_TRIES)
        return _optimize(session)
    except HieraError as error:
        session.fail(error)
        raise
    finally:
        session.close_warm_workers()


def _optimize(session: Session) -> OptimizeResult:
    settings = session.settings
    run = session.run
    prepared = prepare_reference(session)
    spec, plan = prepared.spec, prepared.plan
    session.outcome_cache = OutcomeCache(session.store, session.spec_parts, spec.to_dict(),
                                         {"timeout_s": settings.timeout_s, "candidate_floor_s": settings.candidate_floor_s},
                                         read=settings.cache)
    run.write_json("spec.json", spec.to_dict())
    run.write_json("plan.json", plan.to_dict())
    session.update_index(spec=SpecEntry(run=run.id, path=str(run.path / "spec.json")))
    session.stage("plan", plan.summary, 0.3, ranking=[e.strategy for e in plan.entries])
    session.state.rejected_strategies = prepared.rejected
    candidates = [candidate.to_dict() for candidate in prepared.candidates]  # the loop's candidates are dicts
    session.stage("implement", f"{len(candidates)} candidate(s): " + ", ".join(c["name"] for c in candidates), 0.35)
    if prepared.meta_only:
        raise HieraError("the task does not fit in memory on this machine: spec and plan were built from a "
                         "meta-device trace, but candidates cannot be verified here", file=session.path,
                         kind=ErrorKind.OOM,
                         hint="optimize on a machine with more memory, or try the loop here on smaller shapes: "
                              f"add `# hiera: inputs=small_inputs init=small_init` directly above `class "
                              f"{session.class_name}`, with functions that return smaller forward() inputs and "
                              "the constructor arguments that go with them")

    if (at_limit := at_roofline_limit(spec, candidates)) is not None:
        session.stage("plan", at_limit, 0.9)
        return propose(session, spec, plan, [], [], nothing_tried=at_limit)
    jobs = settings.jobs or jobs_within_memory(default_jobs(settings.device), spec, settings.placement)
    # Shared with the bench's baselines when they run beside the loop (Settings.device_lock), else among
    # the candidates evaluated side by side.
    lock = settings.device_lock or (str(run.path / "device.lock") if jobs > 1 else None)
    if session.warm is not None:
        # Replacements for the claimed warm workers, as many as the evaluations still to come need: the
        # candidates past the first warm workers, the profile's refinements, a model's samples.
        samples = session.llm_config.samples if session.llm_config.enabled else 0
        session.warm.replacements = max(0, len(candidates) + MOST_REFINEMENTS + samples
                                          - session.warm.started(runners=1))
    if session.llm_config.enabled:
        plan, evaluated = _optimize_with_model(session, spec, plan, candidates, lock)
        candidates = [candidate for candidate, _ in evaluated]
        outcomes = [outcome for _, outcome in evaluated]
    else:
        outcomes = evaluate_candidates(session, spec, candidates, lock, jobs)
    refinements = host_bound_refinements(spec, candidates, outcomes) if settings.device.startswith("cuda") else []
    for refinement in refinements:
        session.stage("profile", refinement["reason"], 0.95, candidate=refinement["name"])
    first, total = len(candidates), len(candidates) + len(refinements)
    candidates += refinements
    outcomes += evaluate_candidates(session, spec, refinements, lock, jobs, first, total)
    if session.warm is not None:
        session.warm.replacements = 0  # none starts while the confirmation times its contenders
    return propose(session, spec, plan, candidates, outcomes)


def _optimize_with_model(session: Session, spec: Spec, offline_plan: Plan, candidates: list[dict],
                         device_lock: str | None) -> tuple[Plan, list[tuple[dict, CandidateOutcome]]]:
    """Plan with the model, then race its refinement chains against the offline candidates, each
    evaluation under `device_lock` (see optimize).

    A model that cannot be reached (bad key, unknown model, nothing listening) ends the LLM part
    with one line; the offline candidates are evaluated regardless, and while the model plans.
    """
    from hiera_core.llm.cache import AnswerCache
    from hiera_core.llm.client import ChatClient, ModelUnavailable
    from hiera_core.loop.refine import Refiner
    from hiera_core.loop.refine_planning import Planning, describe_device, planning_deadline

    config = session.llm_config
    record = session.llm_record = LLMRecord(session.run, config.public())
    total = len(candidates) + config.samples
    evaluated = 0

    def evaluate(candidate: dict, deadline: float | None = None) -> tuple[CandidateOutcome, int]:
        nonlocal evaluated
        evaluated += 1
        return run_candidate(session, candidate, spec, evaluated - 1, total, deadline, device_lock=device_lock)

    offline = list(candidates)
    evaluated_offline: list[tuple[dict, CandidateOutcome]] = []

    def evaluate_offline() -> None:
        candidate = offline.pop(0)
        outcome, _ = evaluate(candidate)
        record.candidate_done(outcome.name, "offline", outcome.status, outcome.speedup)
        evaluated_offline.append((candidate, outcome))

    device_text = describe_device(spec)
    cache = AnswerCache(session.store, session.run.id, config.endpoint(), config.max_answer_tokens) \
        if config.cache else None
    client = ChatClient(config, cache=cache)
    replay = session.resumed.replay if session.resumed is not None else None
    try:
        session.stage("plan", f"asking {config.planning_model} to choose the implementation space "
                      "(the offline candidates are evaluated meanwhile)", 0.32)
        planning = Planning(client, config, record, spec, device_text, planning_deadline(config, record.started))
        while offline and not planning.done() and not replay:  # a resumed run keeps its recorded order
            evaluate_offline()
        try:
            plan = planning.plan()
        except ModelUnavailable as error:
            record.unavailable(error)
            session.emit(Event("log", stage="plan", message=f"{error.message}; going on with the offline candidates",
                               progress=0.35, data={"llm_error": error.to_dict()}))
            while offline:
                evaluate_offline()
            return offline_plan, evaluated_offline
        session.run.write_json("plan.json", plan.to_dict())
        session.stage("plan", plan.summary, 0.35, choice=plan.choice)
        refiner = Refiner(client=client, config=config, record=record, spec=spec, plan=plan,
                          reference_source=session.info.source, class_name=session.class_name,
                          device_text=device_text, offline=offline, evaluate=evaluate, emit=session.emit,
                          evaluated=evaluated_offline, replay=replay,
                          counters=lambda candidate, outcome, deadline: hardware_counters(
                              session, candidate["name"], outcome, deadline))
        return plan, refiner.run()
    finally:
        client.close()
