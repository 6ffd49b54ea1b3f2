"""What the orchestrator asks of a worker (hiera_core.worker.ops) and what comes back: one typed
request per op, and the reply envelope. They cross the process boundary as JSON (request.json,
result.json); `from_dict` refuses a key the op does not take, so a misspelt or stale argument is
an error here instead of a default silently used in the worker. Torch-free: both sides import it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from hiera_core.errors import HieraError


@dataclass(kw_only=True)
class WorkerRequest:
    """The arguments every op takes: the module's address, the device, and the store's cache folder
    (inductor's and Triton's caches go there, hiera_core.worker.ops.use_store_caches)."""

    op: ClassVar[str]
    address: str
    device: str
    cache_root: str | None = None

    def to_dict(self) -> dict:
        return {"op": self.op, **asdict(self)}

    @staticmethod
    def from_dict(data: dict) -> WorkerRequest:
        kind = REQUESTS.get(data.get("op"))
        if kind is None:
            raise HieraError(f"unknown worker op {data.get('op')!r}", kind="internal",
                             hint=f"one of: {', '.join(REQUESTS)}")
        names = {item.name for item in fields(kind)}
        unknown = sorted(set(data) - names - {"op"})
        if unknown:
            raise HieraError(f"worker op {kind.op!r} does not take {', '.join(unknown)}", kind="internal",
                             hint="the orchestrator and the worker are from different versions of HIERA")
        return kind(**{key: value for key, value in data.items() if key != "op"})


@dataclass(kw_only=True)
class PrepareRequest(WorkerRequest):
    """The reference's spec; with `implement`, also the expert plan (`plan`, else the planner's) and
    up to `budget` candidate sources."""

    op: ClassVar[str] = "prepare"
    gpu: str | None = None  # peaks-table key for the roofline; None: the detected device
    meta: bool = False  # trace on the meta device only
    measure: bool = True  # run the reference to measure its time and value statistics
    implement: bool = False
    plan: dict | None = None  # a Plan as a dict (hiera_core.plan.planner)
    budget: int = 0  # candidates to generate (with implement)


@dataclass(kw_only=True)
class EvaluateRequest(WorkerRequest):
    """Verify one candidate file, then time it against the reference (hiera_core.verify.judge)."""

    op: ClassVar[str] = "evaluate"
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


@dataclass(kw_only=True)
class ProfileRequest(WorkerRequest):
    """Profile the reference: timing, top kernels, roofline."""

    op: ClassVar[str] = "profile"
    gpu: str | None = None


@dataclass(kw_only=True)
class BenchTimeRequest(WorkerRequest):
    """Time eager, torch.compile modes and proposal files against the reference (hiera_core.bench)."""

    op: ClassVar[str] = "bench_time"
    proposal_paths: list[str] = field(default_factory=list)
    compile_modes: list[str] = field(default_factory=list)
    time_reference: bool = True  # eager timed alone as well as beside each proposal


@dataclass(kw_only=True)
class NcuRequest(WorkerRequest):
    """Nsight Compute around one call of a candidate (hiera_core.profile.ncu)."""

    op: ClassVar[str] = "ncu"
    ncu: str  # the ncu executable
    candidate_path: str
    kernels_per_call: float | None = None
    ncu_timeout_s: float | None = None  # None: hiera_core.profile.ncu.NCU_TIMEOUT_S


REQUESTS: dict[str, type[WorkerRequest]] = {kind.op: kind for kind in (
    PrepareRequest, EvaluateRequest, ProfileRequest, BenchTimeRequest, NcuRequest)}


@dataclass
class WorkerReply:
    """result.json: the op's result, or the HieraError it raised (as a dict)."""

    ok: bool
    result: Any = None
    error: dict | None = None

    def to_dict(self) -> dict:
        return {"ok": True, "result": self.result} if self.ok else {"ok": False, "error": self.error}

    @staticmethod
    def from_dict(data: dict) -> WorkerReply:
        return WorkerReply(ok=bool(data["ok"]), result=data.get("result"), error=data.get("error"))
