"""What the judge (hiera_core.verify) and the candidate's runner (hiera_core.worker.runner) say over
their channel (hiera_core.worker.channel): one typed request per runner op, one typed result per
op, and the reply envelope around the result. Tensors travel beside a message, never in it.

The runner runs candidate code, so everything it sends is untrusted data: a request's `reply_from`
refuses, as BadMessage (which the judge rejects as `runner-exit`), a reply with a key missing or
unknown, a value of the wrong type (hiera_core.worker.untrusted), a negative count, per-output
lists that do not describe the outputs it counts, or other figures than the timing step reports.
`RunnerRequest.from_dict` refuses an op the runner does not have and an argument its op does not
take, by name, as hiera_core.worker.requests does for worker ops. Torch-free: both sides import it.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, ClassVar

from hiera_core.worker import untrusted
from hiera_core.worker.channel import BadMessage
from hiera_core.worker.untrusted import Reader, read_fields, shown

# ---- results: what each op answers ------------------------------------------------------------------


def _kernel(value: object, what: str) -> dict:
    """One of the profiler's top kernels (hiera_core.profile.stats.KernelShare as a dict)."""
    return read_fields(value, {"name": untrusted.text, "ms": untrusted.number, "share": untrusted.number}, what)


_texts = untrusted.list_of(untrusted.text)
# The figures BatchTimer's steps report (hiera_core.profile.steps), each with its reader: every step
# reports harness_ms and its own (STEP_FIGURES). The profiler's are only finite: its self times can
# come out slightly negative.
FIGURES: dict[str, Reader] = {
    "ms": untrusted.duration, "done_ms": untrusted.duration, "queued_ms": untrusted.duration,
    "harness_ms": untrusted.duration, "times": untrusted.list_of(untrusted.duration),
    "tails": untrusted.list_of(untrusted.duration), "kernel_sum_ms": untrusted.number,
    "kernels": untrusted.list_of(_kernel), "kernels_per_call": untrusted.optional(untrusted.number)}
STEP_FIGURES = {"warm_up": {"ms"}, "host_batch": {"done_ms", "queued_ms"}, "noop_host_batch": {"done_ms", "queued_ms"},
                "cpu_batch": {"times"}, "noop_cpu_batch": {"times"}, "event_batch": {"times", "queued_ms"},
                "noop_event_batch": {"times", "queued_ms"}, "tail": {"tails"}, "noop_tail": {"tails"},
                "profile": {"kernel_sum_ms", "kernels", "kernels_per_call"}}


@dataclass(kw_only=True)
class OpResult:
    """What an op answers when it succeeds, inside the envelope (`RunnerReply.result`)."""

    op: ClassVar[str]
    readers: ClassVar[dict[str, Reader]] = {}  # per field, the reader of its value (none: success is all it says)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> OpResult:
        return cls(**read_fields(data, cls.readers, f"the result of {cls.op!r}"))


@dataclass(kw_only=True)
class StartResult(OpResult):
    """The runner settled the device and recorded the process's state before any candidate code."""

    op: ClassVar[str] = "start"


@dataclass(kw_only=True)
class AuditResult(OpResult):
    """The changes to the kernels of aten ops since the start."""

    op: ClassVar[str] = "audit"
    readers: ClassVar[dict[str, Reader]] = {"changes": _texts}
    changes: list[str]


@dataclass(kw_only=True)
class LoadResult(OpResult):
    """ModelNew is built into the slot."""

    op: ClassVar[str] = "load"


@dataclass(kw_only=True)
class LoadStateResult(OpResult):
    """The reference's state entries load_state_dict left unused."""

    op: ClassVar[str] = "load_state"
    readers: ClassVar[dict[str, Reader]] = {"unexpected": _texts}
    unexpected: list[str]


@dataclass(kw_only=True)
class CallResult(OpResult):
    """One call: how many outputs it returned (sent first, then the inputs it changed), per output its
    device and what it shares storage with ('input N', 'output N' or None), and when profiled the
    aten ops it ran with their counts."""

    op: ClassVar[str] = "call"
    readers: ClassVar[dict[str, Reader]] = {
        "outputs": untrusted.count, "mutated": untrusted.list_of(untrusted.count),
        "aliases": untrusted.list_of(untrusted.optional(untrusted.text)), "devices": _texts,
        "ops": untrusted.optional(untrusted.counts_by_name)}
    outputs: int
    mutated: list[int]  # the inputs it changed, by position
    aliases: list[str | None]
    devices: list[str]
    ops: dict[str, int] | None = None

    @classmethod
    def from_dict(cls, data: object) -> CallResult:
        result = super().from_dict(data)
        if len(result.aliases) != result.outputs or len(result.devices) != result.outputs:
            raise BadMessage(f"the result of 'call' counts {result.outputs} output(s) but describes "
                             f"{len(result.aliases)} alias(es) and {len(result.devices)} device(s)")
        return result


@dataclass(kw_only=True)
class ResendResult(OpResult):
    """An earlier call's outputs, kept alive by the runner, sent again."""

    op: ClassVar[str] = "resend"
    readers: ClassVar[dict[str, Reader]] = {"outputs": untrusted.count}
    outputs: int


@dataclass(kw_only=True)
class ReleaseResult(OpResult):
    """The kept outputs and inputs are released."""

    op: ClassVar[str] = "release"


@dataclass(kw_only=True)
class TimingSetsResult(OpResult):
    """The timing sets are taken and the slot's timer built on them."""

    op: ClassVar[str] = "timing_sets"


@dataclass(kw_only=True)
class TimeResult(OpResult):
    """One timing step's figures, by name (FIGURES)."""

    op: ClassVar[str] = "time"
    readers: ClassVar[dict[str, Reader]] = {"figures": untrusted.some_fields(FIGURES)}
    figures: dict[str, Any]


@dataclass(kw_only=True)
class TimedOutputsResult(OpResult):
    """The outputs of chosen calls of the last timing step: `per_call` tensors per call."""

    op: ClassVar[str] = "timed_outputs"
    readers: ClassVar[dict[str, Reader]] = {"per_call": untrusted.count}
    per_call: int


@dataclass(kw_only=True)
class RunnerReply:
    """Every answer of the runner: the op's result, or the check the request failed (`check`, with
    `message` and, where the runner caught an exception, its `traceback`); and either way what the
    runner saw after the request: changes to the process's state since the start, and the
    candidate's threads still running."""

    readers: ClassVar[dict[str, Reader]] = {
        "ok": untrusted.flag, "check": untrusted.text, "message": untrusted.text, "traceback": untrusted.text,
        "state_changes": _texts, "threads": _texts}  # and the result, by the op's result type
    ok: bool
    result: OpResult | None = None  # when ok
    check: str = ""  # when not ok: the failed check's name ("runs": forward raised)
    message: str = ""
    traceback: str = ""
    state_changes: list[str] = field(default_factory=list)
    threads: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "result": None if self.result is None else self.result.to_dict(), "check": self.check,
                "message": self.message, "traceback": self.traceback, "state_changes": list(self.state_changes),
                "threads": list(self.threads)}

    @staticmethod
    def from_dict(data: object, result_type: type[OpResult]) -> RunnerReply:
        what = f"the reply to {result_type.op!r}"
        data = untrusted.exact_object(data, {*RunnerReply.readers, "result"}, what)
        reply = RunnerReply(**read_fields({k: v for k, v in data.items() if k != "result"}, RunnerReply.readers, what))
        if reply.ok and (data["result"] is None or reply.check):
            raise BadMessage(f"{what} says ok " + ("with a failed check" if reply.check else "without a result"))
        if not reply.ok and (data["result"] is not None or not reply.check):
            raise BadMessage(f"{what} says it failed " + ("with a result" if reply.check else "without the check"))
        if reply.ok:
            reply.result = result_type.from_dict(data["result"])
        return reply


# ---- requests: what the judge asks ------------------------------------------------------------------


@dataclass(frozen=True)
class Argument:
    """One argument of a call: the index of a tensor sent beside the message, or a plain JSON value."""

    tensor: int | None = None
    value: Any = None

    def to_dict(self) -> dict:
        return {"value": self.value} if self.tensor is None else {"tensor": self.tensor}

    @staticmethod
    def from_dict(data: object) -> Argument:
        if not isinstance(data, dict) or len(data) != 1 or not set(data) <= {"tensor", "value"}:
            raise BadMessage(f"an argument is {shown(data)}, not {{'tensor': index}} or {{'value': value}}")
        return Argument(tensor=data["tensor"]) if "tensor" in data else Argument(value=data["value"])

    def resolve(self, tensors: list) -> Any:
        """The argument itself: its tensor (as the channel rebuilt it) or its value."""
        return self.value if self.tensor is None else tensors[self.tensor]


def _plain(value: Any) -> Any:
    """A request field in its JSON form."""
    if isinstance(value, Argument):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


@dataclass(kw_only=True)
class RunnerRequest:
    """What the judge asks of the runner: one record per op, answered by a RunnerReply whose result
    is the op's `result_type`."""

    op: ClassVar[str]
    result_type: ClassVar[type[OpResult]]

    def to_dict(self) -> dict:
        return {"op": self.op, **{item.name: _plain(getattr(self, item.name)) for item in fields(self)}}

    @staticmethod
    def from_dict(data: dict) -> RunnerRequest:
        kind = RUNNER_REQUESTS.get(data.get("op"))
        if kind is None:
            raise BadMessage(f"unknown runner op {shown(data.get('op'))} (one of: {', '.join(RUNNER_REQUESTS)})")
        names = {item.name for item in fields(kind)}
        unknown = sorted(map(str, set(data) - names - {"op"}))
        if unknown:
            raise BadMessage(f"runner op {kind.op!r} does not take {', '.join(unknown)}")
        missing = sorted(item.name for item in fields(kind) if item.name not in data
                         and item.default is MISSING and item.default_factory is MISSING)
        if missing:
            raise BadMessage(f"runner op {kind.op!r} needs {', '.join(missing)}")
        try:
            return kind(**kind._decoded({key: value for key, value in data.items() if key != "op"}))
        except (KeyError, TypeError, ValueError) as error:
            raise BadMessage(f"runner op {kind.op!r} has a malformed argument: {error}") from None

    @classmethod
    def _decoded(cls, arguments: dict) -> dict:
        """The fields from their JSON forms (records of their own, pairs)."""
        return arguments

    def reply_from(self, data: object) -> RunnerReply:
        """The runner's reply to this request, checked: BadMessage where the protocol does not allow it."""
        return RunnerReply.from_dict(data, self.result_type)


@dataclass(kw_only=True)
class StartRequest(RunnerRequest):
    """Settle the device (and on CPU torch's intra-op `threads`, as the judge's), load the task, and
    record the process's state before any candidate code runs."""

    op: ClassVar[str] = "start"
    result_type: ClassVar[type[OpResult]] = StartResult
    device: str
    path: str  # the candidate file
    address: str  # the task's
    threads: int | None = None


@dataclass(kw_only=True)
class AuditRequest(RunnerRequest):
    """The full audit, kernels of aten ops included (after the import and at the end)."""

    op: ClassVar[str] = "audit"
    result_type: ClassVar[type[OpResult]] = AuditResult


@dataclass(kw_only=True)
class LoadRequest(RunnerRequest):
    """Build ModelNew(*init) into `slot`, importing the candidate afresh unless not `reimport`;
    allocations are poisoned for calls with outputs up to `largest_output_bytes`."""

    op: ClassVar[str] = "load"
    result_type: ClassVar[type[OpResult]] = LoadResult
    slot: str
    largest_output_bytes: int
    reimport: bool = True
    seed: int = 0  # torch's seed while ModelNew is built


@dataclass(kw_only=True)
class LoadStateRequest(RunnerRequest):
    """load_state_dict of the reference's state: its entries' names, their tensors beside."""

    op: ClassVar[str] = "load_state"
    result_type: ClassVar[type[OpResult]] = LoadStateResult
    slot: str
    names: list[str]


@dataclass(kw_only=True)
class CallRequest(RunnerRequest):
    """One call of the module in `slot`, kept under `call_id`; `into`: the values written into the
    tensors of that earlier call's inputs instead (same addresses); `profile`: count the aten ops."""

    op: ClassVar[str] = "call"
    result_type: ClassVar[type[OpResult]] = CallResult
    slot: str
    call_id: str
    inputs: list[Argument]
    profile: bool = False
    into: str | None = None

    @classmethod
    def _decoded(cls, arguments: dict) -> dict:
        return {**arguments, "inputs": [Argument.from_dict(item) for item in arguments["inputs"]]}

    def reply_from(self, data: object) -> RunnerReply:
        reply = super().reply_from(data)
        if reply.ok and (reply.result.ops is not None) != self.profile:
            raise BadMessage("the reply to 'call' " + ("lacks the ops a profiled call ran" if self.profile
                                                       else "counts ops of a call that was not profiled"))
        return reply


@dataclass(kw_only=True)
class ResendRequest(RunnerRequest):
    """The outputs kept under `call_id`, sent again (they must not have changed)."""

    op: ClassVar[str] = "resend"
    result_type: ClassVar[type[OpResult]] = ResendResult
    call_id: str


@dataclass(kw_only=True)
class ReleaseRequest(RunnerRequest):
    """Let go of the outputs kept under `call_ids`, and of every call's kept inputs."""

    op: ClassVar[str] = "release"
    result_type: ClassVar[type[OpResult]] = ReleaseResult
    call_ids: list[str]


@dataclass(kw_only=True)
class TimingSetsRequest(RunnerRequest):
    """The base sets of timed calls (hiera_core.profile.steps.FreshValues), for the module in `slot`."""

    op: ClassVar[str] = "timing_sets"
    result_type: ClassVar[type[OpResult]] = TimingSetsResult
    slot: str
    sets: list[list[Argument]]

    @classmethod
    def _decoded(cls, arguments: dict) -> dict:
        return {**arguments, "sets": [[Argument.from_dict(item) for item in entry] for entry in arguments["sets"]]}


@dataclass(kw_only=True)
class TimeRequest(RunnerRequest):
    """One step of BatchTimer on the (set, roll) `calls` the judge chose."""

    op: ClassVar[str] = "time"
    result_type: ClassVar[type[OpResult]] = TimeResult
    step: str
    calls: list[tuple[int, int]]
    head_start_ms: float = 0.0

    @classmethod
    def _decoded(cls, arguments: dict) -> dict:
        return {**arguments, "calls": [(int(set_index), int(roll)) for set_index, roll in arguments["calls"]]}

    def reply_from(self, data: object) -> RunnerReply:
        reply = super().reply_from(data)
        expected = STEP_FIGURES.get(self.step, set()) | {"harness_ms"}
        if reply.ok and set(reply.result.figures) != expected:
            raise BadMessage(f"the figures of a {self.step} step are {', '.join(sorted(reply.result.figures))}, "
                             f"not {', '.join(sorted(expected))}")
        return reply


@dataclass(kw_only=True)
class TimedOutputsRequest(RunnerRequest):
    """The outputs of the last timing step's calls at `indices` (chosen after the step)."""

    op: ClassVar[str] = "timed_outputs"
    result_type: ClassVar[type[OpResult]] = TimedOutputsResult
    indices: list[int]


RUNNER_REQUESTS: dict[str, type[RunnerRequest]] = {kind.op: kind for kind in (
    StartRequest, AuditRequest, LoadRequest, LoadStateRequest, CallRequest, ResendRequest, ReleaseRequest,
    TimingSetsRequest, TimeRequest, TimedOutputsRequest)}
