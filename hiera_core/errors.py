"""One error type for everything a user can get wrong, carrying where and what to do."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum


class ErrorKind(StrEnum):
    """What went wrong, as a HieraError's machine-readable `kind`; the value is what JSON, events and
    bench records carry."""

    GENERAL = "error"  # nothing more specific applies, or a kind from another HIERA version (from_dict)
    USAGE = "usage"  # the command cannot do what was asked: no such file, an ambiguous class, a missing tool
    CONFIG = "config"  # a bad setting in pyproject.toml's [tool.hiera], the environment or the editor
    SYNTAX = "syntax"  # the task file does not parse, or is not UTF-8
    DIRECTIVE = "directive"  # a `# hiera:` directive is malformed or names a function the file lacks
    IMPORT = "import"  # importing the task file raised
    INIT = "init"  # constructing the module with the init function's arguments raised
    INPUTS = "inputs"  # the class has no inputs function, or it (or the init function) raised or gave no list
    FORWARD = "forward"  # the reference's forward() raised on its inputs or returned no tensors
    OOM = "oom"  # the task or a worker ran out of GPU or host memory
    TIMEOUT = "timeout"  # a worker step ran past its time limit and was stopped
    CRASH = "crash"  # a worker or the candidate's process died or never started
    CANCELLED = "cancelled"  # the run was interrupted: a signal, or the editor cancelled the job
    STORE = "store"  # HIERA's .hiera/ store or the proposal file could not be written
    INTERNAL = "internal"  # a bug in HIERA: a malformed worker request, an unexpected exception in a worker
    LLM_AUTH = "llm-auth"  # the model endpoint rejected the API key (401/403)
    LLM_MODEL = "llm-model"  # the model endpoint does not know the model (404)
    LLM_CONNECTION = "llm-connection"  # nothing listens at the model endpoint's base URL
    LLM_REQUEST = "llm-request"  # the model endpoint refused a request outright, which no retry fixes
    LLM_DROPPED = "llm-dropped"  # too many model requests in a row were lost, so the run goes on without the model
    # A Ray cluster ended a bench task for a reason outside the task (hiera_core.bench.ray_runner)
    NODE_DIED = "node_died"  # the node running it, or holding its result, went away
    WORKER_CRASHED = "worker_crashed"  # Ray's worker process died
    RUNTIME_ENV = "runtime_env"  # the task's runtime environment could not be set up on the node
    UNSCHEDULABLE = "unschedulable"  # no node can run it
    RAY = "ray"  # another error of Ray's


@dataclass
class HieraError(Exception):
    """A user-facing failure: `file:line: message` followed by a hint on how to fix it."""

    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None
    kind: ErrorKind = ErrorKind.GENERAL
    details: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def location(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}"
        return self.file or ""

    def __str__(self) -> str:
        where = self.location()
        text = f"{where}: {self.message}" if where else self.message
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> HieraError:
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "kind" in fields:
            try:
                fields["kind"] = ErrorKind(fields["kind"])
            except ValueError:  # a kind from another HIERA version: still an error with its message and hint
                fields["kind"] = ErrorKind.GENERAL
        return cls(**fields)


def is_out_of_memory(error: BaseException) -> bool:
    """An allocation that failed: Python's MemoryError, torch's OutOfMemoryError (a GPU's), or the
    RuntimeError torch's CPU allocator raises ("can't allocate memory")."""
    message = str(error).lower()
    return (isinstance(error, MemoryError) or type(error).__name__ == "OutOfMemoryError"
            or "out of memory" in message or "can't allocate memory" in message)
