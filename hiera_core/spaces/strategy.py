"""What a strategy is and writes: the spaces, `Strategy`, `Candidate`, the context a generator gets,
and the registry the space modules add their strategies to (`hiera_core.spaces.strategies()` reads it)."""


from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from hiera_core.spec.model import Spec

SPACES = {
    "pytorch": "PyTorch operators",
    "cuda_libs": "CUDA libraries",
    "custom_cuda": "custom CUDA kernels",
}


@dataclass
class Candidate:
    name: str  # unique in a run: "<space>.<strategy>"
    space: str
    strategy: str
    code: str  # defines ModelNew(<ReferenceClass>); appended after the reference source
    reason: str
    requires_cuda: bool = False
    cuda_sources: list[str] = field(default_factory=list)  # kernels, for resource reports

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ImplementContext:
    """What `generate` gets, inside the worker."""

    spec: Spec
    reference_class: str  # name of the reference class in the copied source
    model: Any  # the reference nn.Module instance (on CPU, or meta for huge tasks)
    example_inputs: list  # forward inputs (real or meta tensors)
    graph: Any  # torch.fx.GraphModule with node.meta["tensor_meta"], or None if not traceable
    device: str  # "cpu" | "cuda"


@dataclass
class Strategy:
    space: str
    name: str
    title: str
    applies: Callable[[Spec], str | None]  # reason it applies to this spec, None if it does not
    generate: Callable[[ImplementContext], Candidate | None]
    requires_cuda: bool = False

    @property
    def key(self) -> str:
        return f"{self.space}.{self.name}"


_REGISTRY: dict[str, Strategy] = {}


def register(strategy: Strategy) -> Strategy:
    if strategy.space not in SPACES:
        raise ValueError(f"unknown space {strategy.space!r}")
    _REGISTRY[strategy.key] = strategy
    return strategy


def registered() -> dict[str, Strategy]:
    """The strategies registered so far (`hiera_core.spaces.strategies()` imports the space modules first)."""
    return dict(_REGISTRY)
