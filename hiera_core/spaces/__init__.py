"""The three implementation spaces and their strategies.

A *strategy* (e.g. `pytorch.compile_default`, `cuda_libs.cudnn_fused_conv`, `custom_cuda.row_softmax`)
knows, from the spec alone, whether and why it applies (`applies`, pure, used by the planner in the
orchestrating process) and how to write a candidate (`generate`, run in a worker process where torch
and the reference module are available).

A *candidate* is Python source appended after the verbatim copy of the reference file: it defines
`class ModelNew(<ReferenceClass>)` (so the constructor signature and state_dict keys are the
reference's) and overrides `forward`. Space modules import torch only inside `generate`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable

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

    spec: "Spec"
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
    applies: Callable[["Spec"], str | None]  # reason it applies to this spec, None if it does not
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


def strategies() -> dict[str, Strategy]:
    """All registered strategies; importing the space modules registers them."""
    from hiera_core.spaces import algebra, cuda_libs, custom_cuda, pytorch_ops  # noqa: F401  (registration)

    return dict(_REGISTRY)
