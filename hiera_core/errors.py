"""One error type for everything a user can get wrong, carrying where and what to do."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class HieraError(Exception):
    """A user-facing failure: `file:line: message` followed by a hint on how to fix it."""

    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None
    kind: str = "error"  # short machine-readable category, e.g. "syntax", "inputs", "forward", "timeout"
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
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
