"""The one-step runs beside `optimize`: `spec` and `plan` prepare the reference as the loop does
(from the store's spec cache when an entry matches) and record its spec, and its plan; `profile`
times the reference in one worker and records its profile. Each opens a run of its own in the
store; an error is recorded in the run, when there is one, and raised."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from hiera_core.errors import HieraError
from hiera_core.events import Emit, Event
from hiera_core.index_entry import ProfileEntry, SpecEntry
from hiera_core.loop.reference import prepare_reference, profile_record
from hiera_core.loop.session import Session, Settings, configure_llm
from hiera_core.plan.planner import Plan
from hiera_core.spec.model import Spec
from hiera_core.worker.requests import PrepareResult, ProfileRequest, ProfileResult

T = TypeVar("T")


def spec(address: str, settings: Settings, emit: Emit) -> tuple[Session, Spec]:
    """The contract-augmented spec of ADDRESS, recorded as the module's spec: (the run, the spec)."""
    session, prepared = _in_run(address, "spec", settings, emit, prepare_reference)
    _record_spec(session, prepared.spec)
    return session, prepared.spec


def plan(address: str, settings: Settings, emit: Emit) -> tuple[Session, Plan, dict]:
    """The ranking of the implementation spaces and strategies for ADDRESS (the offline expert
    planner; with a model configured, the model's choice, else the offline ranking when it cannot
    be reached), recorded with its spec: (the run, the plan, what the command outputs: the plan's
    dict, with a model also the mode and the exchange's record)."""
    from hiera_core.llm.record import LLMRecord
    from hiera_core.loop.refine_planning import plan_only
    from hiera_core.plan.planner import ExpertPlanner

    def prepared_after_the_mode(session: Session) -> PrepareResult:
        mode = configure_llm(session).mode_line(budget=False)
        session.emit(Event("log", stage="load", message=mode, data={"mode": mode,
                                                                     "warnings": session.llm_config.warnings}))
        return prepare_reference(session)

    session, prepared = _in_run(address, "plan", settings, emit, prepared_after_the_mode)
    reference = prepared.spec
    config = session.llm_config
    if config.enabled:
        session.stage("plan", f"asking {config.planning_model} to choose the implementation space", 0.5)
        record = session.llm_record = LLMRecord(session.run, config.public())
        chosen, error = plan_only(config, record, reference)
        if error is not None:
            session.emit(Event("log", stage="plan", message=f"{error.message}; showing the offline ranking",
                               data={"llm_error": error.to_dict()}))
    else:
        chosen = ExpertPlanner().plan(reference)
    _record_spec(session, reference)
    session.run.write_json("plan.json", chosen.to_dict())
    # Without a model the output is the offline plan exactly; with one, also the mode and the exchange's record.
    output = chosen.to_dict() if not config.enabled else {**chosen.to_dict(), "mode": config.mode_line(budget=False),
                                                          "llm": session.llm_record.summary()}
    return session, chosen, output


def profile(address: str, settings: Settings, emit: Emit) -> tuple[Session, dict, ProfileEntry]:
    """Time ADDRESS (GPU: CUDA events, L2 flush; CPU: wall clock) and break it down by kernel,
    recorded as the module's profile: (the run, the worker's timing, the index's profile part)."""
    def timed(session: Session) -> ProfileResult:
        doing = f"profiling on {settings.device}"
        session.stage("profile", f"{doing}: {session.address}", 0.1)
        return session.worker(ProfileRequest, doing, "profile", gpu=settings.gpu)

    session, result = _in_run(address, "profile", settings, emit, timed)
    timing = result.timing.to_dict()
    record = profile_record(result.spec, timing)
    session.run.write_json("profile.json", {"timing": timing, "profile": record.to_dict()})
    session.state.status = "done"
    session.save()
    session.update_index(profile=record)
    return session, timing, record


def _in_run(address: str, kind: str, settings: Settings, emit: Emit,
            step: Callable[[Session], T]) -> tuple[Session, T]:
    """Open a run of `kind` for ADDRESS and do `step` in it: (the run, what `step` returned). An
    error is recorded in the run, when it opened, and raised."""
    session = None
    try:
        session = Session(address, kind, settings, emit)
        return session, step(session)
    except HieraError as error:
        if session is not None:
            session.fail(error)
        raise


def _record_spec(session: Session, built: Spec) -> None:
    path = session.run.write_json("spec.json", built.to_dict())
    session.state.status = "done"
    session.save()
    session.update_index(spec=SpecEntry(run=session.run.id, path=str(path)))
