"""Planning: rank the three implementation spaces and the strategies inside them from the spec.

`Planner` is the interface; `ExpertPlanner` is the offline implementation (rules below);
`LLMPlanner` asks a model to choose the space and strategy given the spec and that ranking, and
falls back to the ranking when the answer is unusable. Pure: the strategies' `applies` functions
read only the spec; the model is reached through the `ask` callable it is given.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Protocol

from hiera_core.cuda.nvrtc import custom_cuda_unavailable
from hiera_core.plan.regions import Region, partition, plan_regions
from hiera_core.spaces import strategies
from hiera_core.spaces.algebra import EXACT_REWRITES
from hiera_core.spaces.custom_cuda import lower_spec
from hiera_core.spaces.strategy import SPACES
from hiera_core.spec.model import Spec

# Expert priors: how well each strategy tends to pay for each workload class (0..1). Strategies
# not listed fall back to their space's prior below. SDPA for attention written by hand is high in
# every class: on nanoGPT's causal attention (H100, 2026-12-06) it took 0.073 ms of GPU work against
# 0.140 for the ops written out and 0.081 for inductor's kernels.
PRIORS: dict[str, dict[str, float]] = {
    # Launch-bound (H200, proxy levels 2-3, 2026-12-02): the winners replay a lean CUDA graph, of the
    # eager module or, through the host-bound refinement, of the candidate with the least GPU work
    # (inductor's, or a region plan's kernels); reduce-overhead's CUDA-graph trees cost 40-90 us of
    # host time per call on these modules (level2/13: 0.26 ms against the eager graph's 0.060 ms).
    "launch-bound": {
        "pytorch.cuda_graph": 0.95, "pytorch.compile_default": 0.9, "custom_cuda.pointwise_chain": 0.85,
        "custom_cuda.row_reduction": 0.85, "custom_cuda.stencil": 0.85, "custom_cuda.pooling": 0.85,
        "pytorch.compile_reduce_overhead": 0.8, "pytorch.sdpa": 0.85, "pytorch.sdpa_compiled": 0.9,
    },
    "memory-bound": {
        "custom_cuda.stencil": 0.97, "custom_cuda.row_reduction": 0.9, "custom_cuda.pointwise_chain": 0.9,
        "custom_cuda.pooling": 0.88, "pytorch.compile_default": 0.85, "pytorch.sdpa": 0.9,
        "pytorch.sdpa_compiled": 0.88,
        "pytorch.cuda_graph": 0.3, "pytorch.compile_reduce_overhead": 0.5, "cuda_libs.cudnn_benchmark": 0.4,
        "cuda_libs.cudnn_nhwc": 0.35, "pytorch.channels_last": 0.3,
    },
    # Max-autotune's GEMM templates beat cuBLAS's float32 kernels or tied them on the H100
    # (2026-12-06): GPT-2's MLP 0.130 ms against 0.160-0.170 for every cuBLAS form, LLaMA's decode MLP
    # and timm's GluMlp within 1%.
    "compute-bound": {
        "cuda_libs.cublaslt_epilogue": 0.9, "cuda_libs.tf32": 0.9, "cuda_libs.cudnn_nhwc": 0.85,
        "cuda_libs.cudnn_benchmark": 0.8, "pytorch.compile_max_autotune": 0.88, "pytorch.sdpa": 0.9,
        "pytorch.sdpa_compiled": 0.89,
        "pytorch.compile_default": 0.65, "pytorch.channels_last": 0.6, "custom_cuda.pointwise_chain": 0.55,
        "pytorch.cuda_graph": 0.2, "pytorch.compile_reduce_overhead": 0.4,
    },
}
# A strategy named by a region's choice is planned from that region's workload when the region
# holds at least this share of the reference's time.
REGION_PLANNED_SHARE = 0.25
# Strategies whose prior for the workload class is below this are not planned: each candidate costs a
# worker process (tens of seconds with a compile), and these rarely pay (on the H200, 2026-11-29, CUDA
# graphs of single-kernel memory-bound examples timed 0.44x-0.85x of eager: the input copies into
# the graph's buffers cost more than the launch they save).
MIN_PRIOR = 0.45
# A candidate must beat the reference by more than timing noise to be proposed (optimize); a custom-CUDA
# strategy that could not, with its regions at their bounds and the rest of the measured time
# unchanged, is not planned.
MIN_SPEEDUP = 1.03
# cuDNN's algorithm search gets no boost for references far from their roofline: boosted that way on
# the H200 (2026-11-30) it lost on all five suite convolutions (0.40x-0.77x of eager).

# Exact rewrites that remove the reference's dominant op (a GEMM whose outputs are only summed):
# when one applies it pays whatever the workload class.
EXACT_REWRITE_PRIORS = {f"pytorch.{name}": 0.98 for name in EXACT_REWRITES}
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
    choice: dict | None = None  # LLM planning: SpaceChoice as a dict (the model's, or the fallback's and why)
    regions: list[Region] = field(default_factory=list)  # the module's regions, each with its ranked choices

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Plan:
        return cls(planner=data["planner"], workload_class=data["workload_class"], summary=data["summary"],
                   spaces=[SpaceRank(**s) for s in data["spaces"]], entries=[PlanEntry(**e) for e in data["entries"]],
                   skipped=data.get("skipped", []), choice=data.get("choice"),
                   regions=[Region.from_dict(r) for r in data.get("regions", [])])

    def region_lines(self) -> list[str]:
        """One line per region: its share of the time and the best choice for it, with the reason."""
        return [region.describe() for region in self.regions]

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


class Planner(Protocol):
    name: str

    def plan(self, spec: Spec) -> Plan: ...


def workload_reason(spec: Spec) -> str:
    r = spec.roofline
    ridge = r.peak_flops / r.peak_bw if r.peak_bw else 0.0
    if spec.workload_class == "launch-bound" and spec.reference_bound == "host":
        return (f"measured on {r.device_name}: the reference's host time per call ({spec.reference_ms * 1000:.3g} us) "
                f"exceeds its GPU time ({spec.reference_gpu_ms * 1000:.3g} us), so launches and Python set its pace: "
                f"fewer launches (graphs, fusion) pay most")
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


NEEDS_CUDA = "needs a CUDA device (planning for CPU)"


class ExpertPlanner:
    """Offline planning from expert rules: workload class, op mix, device."""

    name = "expert"

    def plan(self, spec: Spec) -> Plan:
        entries: list[PlanEntry] = []
        skipped: list[dict] = []
        regions = plan_regions(spec, partition(spec), lower_spec(spec))
        served = [r for r in regions if _gets_kernels(r)]
        kernel_ceiling = best_case_speedup(spec, regions, served)
        needs_cuda: set[str] = set()  # spaces with a strategy that applies but needs a GPU
        for key, strategy in sorted(strategies().items()):
            reason = strategy.applies(spec)
            if reason is None:
                skipped.append({"strategy": key, "reason": "does not apply to this workload"})
                continue
            if strategy.requires_cuda and spec.device != "cuda":
                skipped.append({"strategy": key, "reason": NEEDS_CUDA})
                needs_cuda.add(strategy.space)
                continue
            if strategy.space == "custom_cuda" and (missing := custom_cuda_unavailable()):
                skipped.append({"strategy": key, "reason": missing})
                continue
            if strategy.space == "custom_cuda" and kernel_ceiling is not None and kernel_ceiling < MIN_SPEEDUP:
                skipped.append({"strategy": key, "reason": f"at best {kernel_ceiling:.3f}x: its kernels serve regions "
                                                           f"that take little of the measured time, even at their bounds"})
                continue
            score = EXACT_REWRITE_PRIORS.get(key) or _prior(key, strategy.space, spec.workload_class)
            # A strategy pays as the workload of the regions it serves does, not the module's.
            if strategy.space == "custom_cuda":
                # The candidate keeps the library's calls for its library regions and generates kernels
                # for the rest (a GEMM-bound module's reduction after the GEMM is memory-bound).
                serving, label = served, "the regions its kernels serve"
            else:
                # A region's own choice, where that region holds enough of the time: GPT-2's MLP is
                # host-bound in eager mode, its first GEMM compute-bound and 94% of the GPU time.
                serving = [region for region in regions if region.share >= REGION_PLANNED_SHARE
                           and any(choice.strategy == key for choice in region.choices)]
                label = f"region {', '.join(str(region.index) for region in serving)}"
            region_score = max((_prior(key, strategy.space, region.workload_class) for region in serving), default=0.0)
            if region_score > score:
                score = region_score
                reason += f" (planned from {label}: {', '.join(sorted({r.workload_class for r in serving}))})"
            elif strategy.space != "custom_cuda" and (weighted := time_weighted_prior(key, strategy.space, spec,
                                                                                      regions)) > score:
                score = weighted
                reason += f" (planned from the regions' time: {time_by_class(spec, regions)})"
            if score < MIN_PRIOR:
                skipped.append({"strategy": key, "reason": f"rarely pays for {spec.workload_class} work "
                                                           f"(expert prior {score:.2f} < {MIN_PRIOR})"})
                continue
            entries.append(PlanEntry(key, strategy.space, strategy.title, round(score, 3), reason))
        entries.sort(key=lambda entry: -entry.score)
        spaces = []
        for space, title in SPACES.items():
            best = max((entry.score for entry in entries if entry.space == space), default=0.0)
            reason = SPACE_REASONS[spec.workload_class][space]
            if not any(entry.space == space for entry in entries):
                reason += f" ({NEEDS_CUDA})" if space in needs_cuda else " (no strategy applies here)"
            spaces.append(SpaceRank(space, title, best, reason))
        spaces.sort(key=lambda rank: -rank.score)
        summary = f"{spec.workload_class}: {workload_reason(spec)}"
        return Plan(self.name, spec.workload_class, summary, spaces, entries, skipped, regions=regions)


def _prior(key: str, space: str, workload_class: str) -> float:
    return PRIORS[workload_class].get(key, SPACE_PRIORS[workload_class][space] * 0.9)


def time_weighted_prior(key: str, space: str, spec: Spec, regions: list[Region]) -> float:
    """A whole-module strategy's prior with each region's share of the time at its own class: LeNet-5
    at batch 4096 reads as compute-bound (200 FLOP/B on an H100), yet 95% of its time is in
    memory-bound convolutions and pools, and torch.compile's default mode was its best (0.739 ms
    against eager's 0.819, H100, 2026-12-07). 0 when the host sets the pace (launch-bound: the
    regions' GPU work is not what a candidate must shorten) or no region has a share."""
    total = sum(region.share for region in regions)
    if spec.workload_class == "launch-bound" or total <= 0:
        return 0.0
    return sum(region.share * _prior(key, space, _gpu_class(region, spec)) for region in regions) / total


def _gpu_class(region: Region, spec: Spec) -> str:
    """A region's class where the module's GPU work sets its pace: a region too small to outlast its
    launch is the module's class (launches overlap GPU work that is not launch-bound)."""
    return spec.workload_class if region.workload_class == "launch-bound" else region.workload_class


def time_by_class(spec: Spec, regions: list[Region]) -> str:
    """'95% memory-bound, 5% compute-bound': the regions' shares of the time by workload class."""
    total = sum(region.share for region in regions) or 1.0
    by_class: dict[str, float] = {}
    for region in regions:
        name = _gpu_class(region, spec)
        by_class[name] = by_class.get(name, 0.0) + region.share / total
    return ", ".join(f"{100 * share:.0f}% {name}" for name, share in sorted(by_class.items(), key=lambda kv: -kv[1]))


def _gets_kernels(region: Region) -> bool:
    """Whether the custom-CUDA candidate computes (part of) this region in generated kernels."""
    best = region.choices[0] if region.choices else None
    return best is not None and (best.space == "custom_cuda" or "generated" in best.approach)


def best_case_speedup(spec: Spec, regions: list[Region], served: list[Region]) -> float | None:
    """The most a candidate serving `served` (of the module's `regions`) can gain (Amdahl): those
    regions at their roofline bounds, the rest of the measured time unchanged; None when the time
    was not measured. Serving every region, its kernels may fuse across them, so no intermediate
    between them need reach memory: the module's own bound is their floor, not the sum of the
    regions' (a norm's three regions each read and write the whole tensor, and on an H100 eager
    RMSNorm ran at that sum, which skipped the one-pass row kernel that the H200 measured at 3.3x)."""
    if not (spec.measured and spec.reference_ms and served) or any(r.share_source != "measured" for r in served):
        return None
    rest = spec.reference_ms * (1.0 - sum(region.share for region in served))
    floor = sum(region.bound_ms for region in served)
    if len(served) == len(regions) and spec.roofline is not None:
        floor = min(floor, spec.roofline.bound_ms)
    best = rest + floor
    return spec.reference_ms / best if best > 0 else None


def render_plan(plan: Plan) -> str:
    lines = [f"Plan ({plan.planner}): {plan.summary}"]
    if plan.choice:
        by = ("the model" if plan.choice["source"] == "model"
              else f"fallback to the offline ranking ({plan.choice['problem']})")
        lines.append(f"Chosen by {by}: {plan.choice['space']} / {plan.choice['strategy']}: {plan.choice['reason']}")
    # With a choice the scores are still the offline ranking's; the chosen space and strategy come first.
    ranked = " (offline expert scores, the chosen one first)" if plan.choice else ""
    lines.append(f"Spaces{ranked}:")
    for rank in plan.spaces:
        lines.append(f"  {rank.score:.2f}  {rank.title}: {rank.reason}")
    if plan.regions:
        lines.append("Regions (each planned from its own workload; share of the reference's time):")
        lines += [f"  {line}" for line in plan.region_lines()]
    lines.append(f"Strategies{ranked}:" if ranked else "Strategies, best first:")
    for index, entry in enumerate(plan.entries, start=1):
        lines.append(f"  {index}. [{entry.score:.2f}] {entry.strategy}: {entry.reason}")
    if plan.skipped:
        lines.append("Skipped: " + "; ".join(f"{s['strategy']} ({s['reason']})" for s in plan.skipped
                                              if "does not apply" not in s["reason"]))
    return "\n".join(lines)


# ---- planning with a model ----------------------------------------------------------------------
SPACE_MEANINGS = {
    "pytorch": "PyTorch operators: rewrites with torch ops, torch.compile modes, CUDA graphs, fused ops (SDPA)",
    "cuda_libs": "CUDA libraries: cuBLAS(Lt)/cuDNN algorithm, layout and fused-epilogue choices through torch",
    "custom_cuda": "custom CUDA kernels: your own kernels compiled with NVRTC (or load_inline), launched from torch",
}


@dataclass
class SpaceChoice:
    space: str
    strategy: str
    reason: str
    source: str  # "model" | "fallback"
    problem: str = ""  # fallback only: why the model's answer was not used


def open_spaces(device: str) -> list[str]:
    """Spaces a candidate can run in on this device: without a GPU only PyTorch operators."""
    return list(SPACES) if device == "cuda" else ["pytorch"]


def parse_space_choice(text: str, allowed: list[str], device: str) -> SpaceChoice:
    """The model's {"space", "strategy", "reason"}; raises BadAnswer when it cannot be used."""
    from hiera_core.llm.answers import BadAnswer, parse_choice

    data = parse_choice(text)
    space, strategy, reason = (data.get(key) for key in ("space", "strategy", "reason"))
    if space not in SPACES:
        raise BadAnswer(f"space {space!r} is not one of {', '.join(SPACES)}")
    if space not in allowed:
        raise BadAnswer(f"space {space!r} needs a CUDA device; this run is on {device}")
    if not isinstance(strategy, str) or not strategy.strip() or len(strategy) > 200:
        raise BadAnswer("strategy must be a short non-empty string")
    if not isinstance(reason, str) or not reason.strip():
        raise BadAnswer("reason must be a non-empty string")
    return SpaceChoice(space, strategy.strip(), " ".join(reason.split()), "model")


def fallback_choice(offline: Plan, allowed: list[str], problem: str) -> SpaceChoice:
    """The offline ranking's best open space and its best strategy."""
    ranked = [rank for rank in offline.spaces if rank.space in allowed]
    rank = next((r for r in ranked if any(e.space == r.space for e in offline.entries)), ranked[0])
    entry = next((e for e in offline.entries if e.space == rank.space), None)
    return SpaceChoice(rank.space, entry.strategy if entry else rank.title, rank.reason, "fallback", problem)


class LLMPlanner:
    """Space selection by a model, given the spec and the offline ranking (issue 4, stage a).

    `ask(messages) -> answer text` reaches the model (and records the exchange); it raises the
    client's RequestFailed for a lost request, which falls back like an invalid answer, and
    ModelUnavailable, which propagates (the run then goes on without the model).
    """

    name = "llm"

    def __init__(self, ask, device_text: str, fallback: Planner | None = None):
        self.ask = ask
        self.device_text = device_text
        self.fallback = fallback or ExpertPlanner()

    def messages(self, spec: Spec, offline: Plan) -> list[dict]:
        from hiera_core import prompts
        from hiera_core.spec.model import render_text

        spaces = "\n".join(f"- {key}: {SPACE_MEANINGS[key]}" for key in open_spaces(spec.device))
        return [{"role": "system", "content": prompts.load("system").render(device=self.device_text)},
                {"role": "user", "content": prompts.load("plan").render(
                    spec=render_text(spec), offline_plan=render_plan(offline), device=self.device_text, spaces=spaces)}]

    def plan(self, spec: Spec) -> Plan:
        from hiera_core.llm.answers import BadAnswer
        from hiera_core.llm.client import RequestFailed

        offline = self.fallback.plan(spec)
        allowed = open_spaces(spec.device)
        try:
            choice = parse_space_choice(self.ask(self.messages(spec, offline)), allowed, spec.device)
        except (BadAnswer, RequestFailed) as problem:
            choice = fallback_choice(offline, allowed, str(problem))
        return chosen_plan(offline, choice)


def chosen_plan(offline: Plan, choice: SpaceChoice) -> Plan:
    """The offline plan with the chosen space (and strategy, when it is an offline one) first."""
    spaces = sorted(offline.spaces, key=lambda rank: rank.space != choice.space)
    entries = sorted(offline.entries, key=lambda entry: entry.strategy != choice.strategy)
    how = "the model chose" if choice.source == "model" else "offline ranking used (no usable answer from the model)"
    summary = f"{offline.summary}; {how}: {choice.space} / {choice.strategy}"
    return Plan(LLMPlanner.name, offline.workload_class, summary, spaces, entries, offline.skipped, asdict(choice),
                offline.regions)
