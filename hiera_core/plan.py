"""Planning: rank the three implementation spaces and the strategies inside them from the spec.

`Planner` is the interface; `ExpertPlanner` is the offline implementation (rules below), the
LLM planner (its own issue) chooses among the same strategies given this ranking. Pure: the
strategies' `applies` functions read only the spec.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Protocol

from hiera_core.spaces import SPACES, strategies
from hiera_core.spec import Spec

# Expert priors: how well each strategy tends to pay for each workload class (0..1). Strategies
# not listed fall back to their space's prior below.
PRIORS: dict[str, dict[str, float]] = {
    "launch-bound": {
        "pytorch.compile_reduce_overhead": 0.95, "pytorch.cuda_graph": 0.9, "custom_cuda.pointwise_chain": 0.75,
        "pytorch.compile_default": 0.6, "pytorch.sdpa": 0.5,
    },
    "memory-bound": {
        "custom_cuda.stencil": 0.97, "custom_cuda.row_reduction": 0.9, "custom_cuda.pointwise_chain": 0.9,
        "custom_cuda.pooling": 0.88, "pytorch.compile_default": 0.85, "pytorch.sdpa": 0.8,
        "pytorch.cuda_graph": 0.3, "pytorch.compile_reduce_overhead": 0.5, "cuda_libs.cudnn_benchmark": 0.4,
        "cuda_libs.cudnn_nhwc": 0.35, "pytorch.channels_last": 0.3,
    },
    "compute-bound": {
        "cuda_libs.cublaslt_epilogue": 0.9, "cuda_libs.tf32": 0.9, "cuda_libs.cudnn_nhwc": 0.85,
        "cuda_libs.cudnn_benchmark": 0.8, "pytorch.compile_max_autotune": 0.75, "pytorch.sdpa": 0.85,
        "pytorch.compile_default": 0.65, "pytorch.channels_last": 0.6, "custom_cuda.pointwise_chain": 0.55,
        "pytorch.cuda_graph": 0.2, "pytorch.compile_reduce_overhead": 0.4,
    },
}
SPACE_PRIORS = {
    "launch-bound": {"pytorch": 0.6, "cuda_libs": 0.1, "custom_cuda": 0.5},
    "memory-bound": {"pytorch": 0.6, "cuda_libs": 0.2, "custom_cuda": 0.8},
    "compute-bound": {"pytorch": 0.5, "cuda_libs": 0.7, "custom_cuda": 0.4},
}


@dataclass
class PlanEntry:
    strategy: str  # registry key "<space>.<name>"
    space: str
    title: str
    score: float
    reason: str


@dataclass
class SpaceRank:
    space: str
    title: str
    score: float
    reason: str


@dataclass
class Plan:
    planner: str
    workload_class: str
    summary: str
    spaces: list[SpaceRank]
    entries: list[PlanEntry]  # ranked, best first; only strategies that apply and can run here
    skipped: list[dict] = field(default_factory=list)  # {"strategy", "reason"}

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Plan":
        return cls(planner=data["planner"], workload_class=data["workload_class"], summary=data["summary"],
                   spaces=[SpaceRank(**s) for s in data["spaces"]], entries=[PlanEntry(**e) for e in data["entries"]],
                   skipped=data.get("skipped", []))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


class Planner(Protocol):
    name: str

    def plan(self, spec: Spec) -> Plan: ...


def workload_reason(spec: Spec) -> str:
    r = spec.roofline
    ridge = r.peak_flops / r.peak_bw if r.peak_bw else 0.0
    if spec.workload_class == "launch-bound":
        return (f"{spec.kernel_launches} ops whose ideal time is {r.bound_ms * 1000:.3g} us: launch overhead "
                f"(~{spec.kernel_launches * 4} us) dominates, so fewer launches (graphs, fusion) pay most")
    if spec.workload_class == "memory-bound":
        return (f"intensity {spec.intensity:.3g} FLOP/B is below the ridge ({ridge:.3g} FLOP/B on {r.device_name}): "
                f"time is bytes moved ({r.memory_ms * 1000:.3g} us at least), so fusing ops to read and write "
                f"each tensor once pays; libraries cannot help")
    return (f"intensity {spec.intensity:.3g} FLOP/B is above the ridge ({ridge:.3g} FLOP/B): FLOP-limited "
            f"({r.compute_ms * 1000:.3g} us at least); library kernels are near peak, gains come from algorithm "
            f"and layout choices and fused epilogues")


SPACE_REASONS = {
    "launch-bound": {"pytorch": "CUDA graphs and inductor fusion remove launches without new kernels",
                     "cuda_libs": "library calls do not reduce the launch count",
                     "custom_cuda": "one fused kernel replaces the chain when the ops are elementwise"},
    "memory-bound": {"pytorch": "inductor fuses pointwise and reduction chains automatically",
                     "cuda_libs": "memory-bound work gains little from library algorithm choices",
                     "custom_cuda": "hand-tiled kernels read and write each byte once (stencils, row reductions, "
                                    "fused chains)"},
    "compute-bound": {"pytorch": "max-autotune can find faster GEMM/conv templates and fuse epilogues",
                      "cuda_libs": "cuBLAS/cuDNN algorithm, layout and fused-epilogue choices are the main lever",
                      "custom_cuda": "custom GEMMs rarely beat the libraries; fuse only the epilogue"},
}


class ExpertPlanner:
    """Offline planning from expert rules: workload class, op mix, device."""

    name = "expert"

    def plan(self, spec: Spec) -> Plan:
        entries: list[PlanEntry] = []
        skipped: list[dict] = []
        priors = PRIORS[spec.workload_class]
        for key, strategy in sorted(strategies().items()):
            reason = strategy.applies(spec)
            if reason is None:
                skipped.append({"strategy": key, "reason": "does not apply to this workload"})
                continue
            if strategy.requires_cuda and spec.device != "cuda":
                skipped.append({"strategy": key, "reason": "needs a CUDA device (planning for CPU)"})
                continue
            score = priors.get(key, SPACE_PRIORS[spec.workload_class][strategy.space] * 0.9)
            entries.append(PlanEntry(key, strategy.space, strategy.title, round(score, 3), reason))
        entries.sort(key=lambda entry: -entry.score)
        spaces = []
        for space, title in SPACES.items():
            best = max((entry.score for entry in entries if entry.space == space), default=0.0)
            reason = SPACE_REASONS[spec.workload_class][space]
            if not any(entry.space == space for entry in entries):
                reason += " (no strategy applies here)"
            spaces.append(SpaceRank(space, title, best, reason))
        spaces.sort(key=lambda rank: -rank.score)
        summary = f"{spec.workload_class}: {workload_reason(spec)}"
        return Plan(self.name, spec.workload_class, summary, spaces, entries, skipped)


def render_plan(plan: Plan) -> str:
    lines = [f"Plan ({plan.planner}): {plan.summary}", "Spaces:"]
    for rank in plan.spaces:
        lines.append(f"  {rank.score:.2f}  {rank.title}: {rank.reason}")
    lines.append("Strategies, best first:")
    for index, entry in enumerate(plan.entries, start=1):
        lines.append(f"  {index}. [{entry.score:.2f}] {entry.strategy}: {entry.reason}")
    if plan.skipped:
        lines.append("Skipped: " + "; ".join(f"{s['strategy']} ({s['reason']})" for s in plan.skipped
                                              if "does not apply" not in s["reason"]))
    return "\n".join(lines)
