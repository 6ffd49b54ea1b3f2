"""What the orchestrator asks of a worker (hiera_core.worker.ops) and what comes back: one typed
request per op, the typed result it names, and the reply envelope. They cross the process boundary
as JSON (request.json, result.json); `from_dict` refuses a key the op does not take, or the result
does not have, so a misspelt or stale argument, or a worker from another version, is an error by
name instead of a value silently defaulted or dropped. Torch-free: both sides import it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import ClassVar, Generic, Self, TypeVar

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.plan.planner import Plan
from hiera_core.profile.ncu_report import NcuReport
from hiera_core.profile.stats import Timing
from hiera_core.spaces.strategy import Candidate
from hiera_core.spec.model import Spec
from hiera_core.verify.verdicts import Verification

STALE_HINT = "the orchestrator and the worker are from different versions of HIERA"
Result = TypeVar("Result")


@dataclass
class WorkerResult:
    """What an op returns: the `result` of its WorkerReply."""

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Self:
        unknown = sorted(set(data) - {item.name for item in fields(cls)})
        if unknown:
            raise HieraError(f"a worker's {cls.__name__} has no {', '.join(unknown)}", kind=ErrorKind.INTERNAL,
                             hint=STALE_HINT)
        return cls(**cls._rebuilt(data))

    @classmethod
    def _rebuilt(cls, data: dict) -> dict:
        """`data` with its nested records rebuilt from their dicts."""
        return data


def _timing(data: dict | None) -> Timing | None:
    return Timing.from_dict(data) if data is not None else None


@dataclass(kw_only=True)
class WorkerRequest(Generic[Result]):
    """The arguments every op takes: the module's address, the device, and the store's cache folder
    (inductor's and Triton's caches go there, hiera_core.worker.isolate.store_cache_environment)."""

    op: ClassVar[str]
    result_type: ClassVar[type]  # the record the op returns (its Result)
    address: str
    device: str
    cache_root: str | None = None

    def to_dict(self) -> dict:
        return {"op": self.op, **asdict(self)}

    def runners(self) -> int:
        """Candidate runner processes the op starts (a warm worker has them started ahead)."""
        return 0

    @staticmethod
    def from_dict(data: dict) -> WorkerRequest:
        kind = REQUESTS.get(data.get("op"))
        if kind is None:
            raise HieraError(f"unknown worker op {data.get('op')!r}", kind=ErrorKind.INTERNAL,
                             hint=f"one of: {', '.join(REQUESTS)}")
        names = {item.name for item in fields(kind)}
        unknown = sorted(set(data) - names - {"op"})
        if unknown:
            raise HieraError(f"worker op {kind.op!r} does not take {', '.join(unknown)}", kind=ErrorKind.INTERNAL,
                             hint=STALE_HINT)
        return kind(**{key: value for key, value in data.items() if key != "op"})


@dataclass(kw_only=True)
class PrepareResult(WorkerResult):
    """The reference's spec (`meta_only`: traced on the meta device, not run); with `implement`, the
    plan, the candidates generated from it and the strategies that generated none."""

    spec: Spec
    meta_only: bool = False
    plan: Plan | None = None
    candidates: list[Candidate] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)  # {"strategy", "reason"}
    seconds: dict[str, float] = field(default_factory=dict)  # wall seconds of the op's phases

    @classmethod
    def _rebuilt(cls, data: dict) -> dict:
        return {**data, "spec": Spec.from_dict(data["spec"]),
                "plan": Plan.from_dict(data["plan"]) if data.get("plan") is not None else None,
                "candidates": [Candidate(**candidate) for candidate in data.get("candidates", [])]}


@dataclass(kw_only=True)
class PrepareRequest(WorkerRequest[PrepareResult]):
    """The reference's spec; with `implement`, also the expert plan (`plan`, else the planner's) and
    up to `budget` candidate sources."""

    op: ClassVar[str] = "prepare"
    result_type: ClassVar[type] = PrepareResult
    gpu: str | None = None  # peaks-table key for the roofline; None: the detected device
    meta: bool = False  # trace on the meta device only
    measure: bool = True  # run the reference to measure its time and value statistics
    implement: bool = False
    plan: dict | None = None  # a Plan as a dict (hiera_core.plan.planner)
    budget: int = 0  # candidates to generate (with implement)


@dataclass(kw_only=True)
class EvaluateResult(WorkerResult):
    """The candidate's verification; once the judge ran, the run seed of its input sets; once the
    candidate verified and was timed, its timing and the reference's beside it, the speedup and
    whether it counts (hiera_core.verify.paired_timing.significance)."""

    verification: Verification
    seed: int | None = None
    baseline: Timing | None = None
    candidate: Timing | None = None
    speedup: float | None = None
    speedup_interval: list[float | None] = field(default_factory=list)  # [low, high]; None: no interval
    significant: bool = False
    timing_verdict: str = ""
    unreliable: list[str] = field(default_factory=list)  # whose timing is too noisy: "reference", "candidate"
    seconds: dict[str, float] = field(default_factory=dict)  # wall seconds of the op's phases

    @classmethod
    def _rebuilt(cls, data: dict) -> dict:
        return {**data, "verification": Verification.from_dict(data["verification"]),
                "baseline": _timing(data.get("baseline")), "candidate": _timing(data.get("candidate"))}


@dataclass(kw_only=True)
class EvaluateRequest(WorkerRequest[EvaluateResult]):
    """Verify one candidate file, then time it against the reference (hiera_core.verify.judge)."""

    op: ClassVar[str] = "evaluate"
    result_type: ClassVar[type] = EvaluateResult
    spec: dict  # the reference's Spec as a dict
    candidate_path: str
    candidate_source: str  # the candidate part the static checks read
    first_line: int  # of the candidate part in the file, for messages
    space: str
    stages_path: str | None = None  # receives the stages the candidate enters (hiera_core.events)
    sets: int = 5  # input sets compared
    seed: int | None = None  # the input sets' base seed; None: drawn afresh
    profiler: bool = True
    time: bool = True
    profile: bool = True
    exact_rewrite: bool = False  # the candidate claims bitwise-equal outputs
    cpu_threads: int | None = None  # torch's intra-op threads on CPU; None: torch's default
    device_lock: str | None = None  # file lock serialising timing between side-by-side evaluations
    alone: bool = False  # the whole evaluation under the exclusive lock: nothing else on the device meanwhile

    def runners(self) -> int:
        return 1


@dataclass(kw_only=True)
class ProfileResult(WorkerResult):
    """The reference's spec (its roofline) and its timing, with the top kernels."""

    spec: Spec
    timing: Timing

    @classmethod
    def _rebuilt(cls, data: dict) -> dict:
        return {**data, "spec": Spec.from_dict(data["spec"]), "timing": Timing.from_dict(data["timing"])}


@dataclass(kw_only=True)
class ProfileRequest(WorkerRequest[ProfileResult]):
    """Profile the reference: timing, top kernels, roofline."""

    op: ClassVar[str] = "profile"
    result_type: ClassVar[type] = ProfileResult
    gpu: str | None = None


@dataclass
class KernelBenchCheck:
    """A proposal checked as KernelBench checks it (hiera_core.verify.retime)."""

    correct: bool
    message: str
    max_abs_error: float
    trials: int | None  # random trials within the tolerance; None when it failed
    failed_in: str | None = None  # when it failed: "trials" (the outputs' allclose) or "judge" (one of its checks)


@dataclass
class ProposalTiming:
    """One proposal file of a `bench_time` op: its check, its timing (None when the check failed) and
    the reference's of its pairing."""

    path: str
    check: KernelBenchCheck
    hiera: Timing | None = None
    eager: Timing | None = None

    @classmethod
    def from_dict(cls, data: dict) -> ProposalTiming:
        return cls(path=data["path"], check=KernelBenchCheck(**data["check"]), hiera=_timing(data.get("hiera")),
                   eager=_timing(data.get("eager")))


@dataclass(kw_only=True)
class BenchTimeResult(WorkerResult):
    """The environment, the reference's timing eager (None when not asked for) and in each
    torch.compile mode (None where it failed to compile, why in `compile_errors`), each proposal's
    check and timing in order, and the wall seconds of the op's phases."""

    environment: dict
    eager: Timing | None = None
    compile: dict[str, Timing | None] = field(default_factory=dict)
    compile_errors: dict[str, str] = field(default_factory=dict)
    proposals: list[ProposalTiming] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @classmethod
    def _rebuilt(cls, data: dict) -> dict:
        return {**data, "eager": _timing(data.get("eager")),
                "compile": {mode: _timing(timing) for mode, timing in data.get("compile", {}).items()},
                "proposals": [ProposalTiming.from_dict(proposal) for proposal in data.get("proposals", [])]}


@dataclass(kw_only=True)
class BenchTimeRequest(WorkerRequest[BenchTimeResult]):
    """Time eager, torch.compile modes and proposal files against the reference (hiera_core.bench)."""

    op: ClassVar[str] = "bench_time"
    result_type: ClassVar[type] = BenchTimeResult
    proposal_paths: list[str] = field(default_factory=list)
    compile_modes: list[str] = field(default_factory=list)
    time_reference: bool = True  # eager timed alone as well as beside each proposal
    # The lock file of work sharing this device (hiera_core.worker.devicelock): compiles under its
    # shared side, timings under its exclusive side. None: nothing runs beside this op.
    device_lock: str | None = None
    # Modes compiled only once the file `gate` exists: hiera bench's max-autotune baseline, whose
    # autotuning holds the device lock's shared side for minutes on a network (H100: 126 s for a
    # ResNet block), compiles after the loop it runs beside, not while the loop's candidates wait to
    # be timed (hiera_core.bench.baselines).
    gate: str | None = None
    gated_modes: list[str] = field(default_factory=list)
    # A file the op rewrites with its figures so far once eager and each mode are timed: what a step
    # stopped at its time limit still gives (hiera_core.bench.baselines). None: not written.
    partial_path: str | None = None

    def runners(self) -> int:
        return len(self.proposal_paths)  # one a proposal (hiera_core.verify.retime)


@dataclass(kw_only=True)
class NcuRequest(WorkerRequest[NcuReport]):
    """Nsight Compute around one call of a candidate (hiera_core.profile.ncu)."""

    op: ClassVar[str] = "ncu"
    result_type: ClassVar[type] = NcuReport
    ncu: str  # the ncu executable
    candidate_path: str
    kernels_per_call: float | None = None
    ncu_timeout_s: float | None = None  # None: hiera_core.profile.ncu.NCU_TIMEOUT_S


REQUESTS: dict[str, type[WorkerRequest]] = {kind.op: kind for kind in (
    PrepareRequest, EvaluateRequest, ProfileRequest, BenchTimeRequest, NcuRequest)}


@dataclass
class WorkerReply:
    """result.json: the op's result (its request's result_type, as a dict), or the HieraError it raised
    (as a dict)."""

    ok: bool
    result: dict | None = None
    error: dict | None = None

    def to_dict(self) -> dict:
        return {"ok": True, "result": self.result} if self.ok else {"ok": False, "error": self.error}

    @staticmethod
    def from_dict(data: dict) -> WorkerReply:
        return WorkerReply(ok=bool(data["ok"]), result=data.get("result"), error=data.get("error"))
