"""The records of a command's result, as `hiera ... --events` sends it in its final `result` event:
`optimize`'s (OptimizeResult, also the run's result.json and what `--json` prints, with each
candidate's CandidateOutcome), `verify`'s (VerifyResult, also the run's verification.json) and
`profile`'s (the index's ProfileEntry); `spec`'s and `plan`'s are their own records' dicts
(hiera_core.spec.model.Spec, hiera_core.plan.planner.Plan).

The language server reads them from whatever `hiera` its settings name, so they read leniently
(hiera_core.lenient_record): a missing field reads as its default, an unknown one is ignored, data
that is not an object reads as the empty record. Pure and light (the server imports it): no torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hiera_core.index_entry import ProfileEntry
from hiera_core.lenient_record import LenientRecord

NO_IMPROVEMENT = "no_improvement"  # OptimizeResult.status without a proposal


@dataclass
class CandidateOutcome(LenientRecord):
    """A candidate's outcome as the run records it (run.json, result.json, the outcome cache)."""

    name: str = ""
    space: str = ""
    strategy: str = ""
    status: str = ""  # "verified" | "rejected" | "failed"
    reason: str = ""
    speedup: float | None = None
    ms: float | None = None
    baseline_ms: float | None = None
    verification: str = ""
    failed_check: dict | None = None
    baseline_timing: dict | None = None  # the reference timed beside this candidate (kernels, spread)
    timing: dict | None = None  # the candidate's own timing (top kernels: refinement feedback)
    # Whether the speedup exceeds the measured spread (hiera_core.verify.paired_timing.significance), and why not
    significant: bool = False
    timing_verdict: str = ""
    # The store's outcome cache (hiera_core.loop.outcome_cache): {"key", "used": whether this outcome came
    # from it, "note"; when used, "evaluated" and "run": when and where it was evaluated}; None: no key
    cache: dict | None = None


@dataclass
class OutcomeCacheSummary(LenientRecord):
    """Which candidates' outcomes came from the store's cache and which were evaluated in the run."""

    used: list[str] = field(default_factory=list)
    evaluated: list[str] = field(default_factory=list)
    note: str = ""


@dataclass
class OptimizeResult(LenientRecord):
    """`hiera optimize`'s result: the proposal, or why there is none (hiera_core.loop.result.propose)."""

    status: str = ""  # "proposal" | NO_IMPROVEMENT
    message: str = ""  # what the run found, in a line
    run: str = ""
    address: str = ""
    proposal_path: str | None = None  # the run's proposal.py
    target_path: str = ""  # <stem>_hiera.py next to the module
    written: bool = False  # --write placed the proposal there
    previous_saved_to: str | None = None  # where --write kept the different file it replaced
    # The headline speedup: the fresh-process figure wherever there is one; loop_speedup the loop's
    speedup: float | None = None
    loop_speedup: float | None = None
    space: str | None = None
    strategy: str | None = None
    verification: str | None = None
    reason: str | None = None  # why the proposed candidate was tried
    baseline_ms: float | None = None
    best_ms: float | None = None
    device: str = ""
    device_name: str | None = None
    roofline_bound_ms: float | None = None
    roofline_pct: float | None = None
    workload_class: str = ""
    plan: str = ""  # the plan's summary
    regions: list[dict] = field(default_factory=list)  # hiera_core.plan.regions.Region's dicts
    candidates: list[CandidateOutcome] = field(default_factory=list)
    diff: str = ""  # from the module to the proposal
    mode: str = ""  # offline, or the model and its budgets
    confirmation: dict | None = None  # the fresh-process re-timing (hiera_core.loop.confirm)
    worker_seconds: dict[str, dict] = field(default_factory=dict)  # Session.worker_seconds
    spec_cache: dict | None = None  # RunState.spec_cache
    outcome_cache: OutcomeCacheSummary = field(default_factory=OutcomeCacheSummary)
    llm: dict | None = None  # hiera_core.llm.record.LLMRecord.summary() when a model took part


@dataclass
class CheckResult(LenientRecord):
    """One check of `hiera verify` (hiera_core.verify.verdicts.Check), with its reproducer script."""

    name: str = ""
    passed: bool = False
    message: str = ""
    reproducer: str = ""  # seed, distribution and shapes of the failing input set
    max_error: float | None = None
    inputs: dict | None = None  # hiera_core.verify.repro.FailingInputs's fields
    script: str = ""  # the reproducer script written into the run folder, for a failed check that has one


@dataclass
class VerifyResult(LenientRecord):
    """`hiera verify`'s result: the verification (hiera_core.verify.verdicts.Verification) as recorded."""

    passed: bool = False
    checks: list[CheckResult] = field(default_factory=list)
    input_sets: int = 0
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0
    sets_checked: list[str] = field(default_factory=list)


# The commands whose result is a record of this module's (spec's and plan's are their records' dicts).
RESULT_RECORDS: dict[str, type[OptimizeResult | VerifyResult | ProfileEntry]] = {
    "optimize": OptimizeResult, "verify": VerifyResult, "profile": ProfileEntry}
CommandResult = OptimizeResult | VerifyResult | ProfileEntry | dict


def command_result(command: str, data: dict) -> CommandResult:
    """The final `result` event's data of `hiera COMMAND` as its record."""
    record = RESULT_RECORDS.get(command)
    return record.from_dict(data) if record is not None else data
