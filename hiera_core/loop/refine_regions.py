"""Region work of the refinement chains: which regions of the plan a chain may ask to have rewritten,
the composed offline candidate it starts from, and the region's slice of the contract and of that
candidate's code for its prompt."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hiera_core.plan.planner import Plan
from hiera_core.plan.regions import Region
from hiera_core.spec.model import Spec, node_refs

# A region whose best choice is one of these, measured below this share of its roofline bound (as
# reference.AT_LIMIT_SHARE for the whole module), can gain from a rewrite of its own.
REGION_SPACES = ("cuda_libs", "custom_cuda")
REGION_AT_BOUND_SHARE = 0.9


@dataclass
class RegionWork:
    """What a region chain works on: one region of the plan, rewritten in the best composed offline
    candidate (custom CUDA, which computes every region), whose other regions its answers keep."""

    region: Region
    start: dict  # that offline candidate


def region_work(plan: Plan, spec: Spec, chains: int, region_chains: int, evaluated: list[tuple[dict, object]],
                offline: list[dict]) -> dict[int, RegionWork]:
    """Chain position (0-based) -> the region it works on: the last `region_chains` chains (at most
    all but one, so one chain always asks for the whole module), each the next region that
    qualifies, largest share first; none without a composed offline candidate to start from."""
    count = min(region_chains, chains - 1)
    start = composed_start(evaluated, offline) if count > 0 else None
    targets = region_targets(plan, spec) if start else []
    if not targets:
        return {}
    first = chains - count
    return {first + k: RegionWork(targets[k % len(targets)], start) for k in range(count)}


def composed_start(evaluated: list[tuple[dict, object]], offline: list[dict]) -> dict | None:
    """The best composed offline candidate: of the custom-CUDA ones (they compute every region),
    the fastest verified, else the first not evaluated yet; None when there is none (or every one
    failed: no base to keep the other regions from)."""
    verified = [(outcome.speedup or 0.0, candidate) for candidate, outcome in evaluated
                if candidate["space"] == "custom_cuda" and outcome.status == "verified"]
    if verified:
        return max(verified, key=lambda pair: pair[0])[1]
    return next((candidate for candidate in offline if candidate["space"] == "custom_cuda"), None)


def region_strategy(work: RegionWork) -> dict:
    """A region chain's strategy: the region's best choice, in the space of its starting point
    (its answers keep that candidate's other regions, so they are checked as that space)."""
    best = work.region.choices[0]
    return {"space": work.start["space"], "strategy": f"region {work.region.index}: {best.approach}",
            "reason": best.reason}


def region_targets(plan: Plan, spec: Spec) -> list[Region]:
    """The regions a chain may work on, largest share of the reference's time first: those whose
    best choice is a library call or a custom kernel, unless measured at REGION_AT_BOUND_SHARE of
    their roofline bound already (their share of the reference's measured time)."""
    def at_bound(region: Region) -> bool:
        spent_ms = region.share * (spec.reference_ms or 0.0)
        return (spec.measured and region.share_source == "measured" and spent_ms > 0
                and region.bound_ms >= REGION_AT_BOUND_SHARE * spent_ms)

    qualifying = [region for region in plan.regions
                  if region.choices and region.choices[0].space in REGION_SPACES and not at_bound(region)]
    return sorted(qualifying, key=lambda region: -region.share)


def region_text(spec: Spec, region: Region, regions: int) -> str:
    """A region's slice of the contract for its prompt: nodes, tensors in and out, work, bound,
    share of the reference's time, and its ranked choices with their reasons."""
    nodes = {node["name"]: node for node in spec.graph.get("nodes", [])}
    inside = set(region.nodes)
    entering = sorted({ref for name in region.nodes for ref in node_refs(nodes.get(name, {})) if ref not in inside})
    leaving = [name for name in region.nodes
               if any(name in node_refs(node) for node in nodes.values() if node["name"] not in inside)]

    def tensors(names: list[str]) -> str:
        return "; ".join(f"`{name}` {nodes[name].get('dtype') or '?'} {nodes[name].get('shape')}"
                         for name in names if name in nodes) or "none"

    anchor = f", anchored at `{region.anchor}`" if region.anchor else ""
    lines = [f"Region {region.index} of {regions}: {region.kind}{anchor}; FX nodes (graph order): "
             + ", ".join(f"`{name}`" for name in region.nodes),
             f"Entering it: {tensors(entering)}",
             f"Leaving it: {tensors(leaving)}",
             (f"Work: {region.flops:.4g} FLOPs, {region.bytes:.4g} bytes; roofline bound "
              f"{1000 * region.bound_ms:.3g} us on {spec.roofline.device_name} ({region.workload_class})")]
    share = f"Share of the reference's time: {100 * region.share:.0f}% ({region.share_source})"
    if spec.reference_ms and region.share_source == "measured":
        spent_ms = region.share * spec.reference_ms
        share += (f", about {1000 * spent_ms:.3g} us of its {1000 * spec.reference_ms:.3g} us: at "
                  f"{100 * region.bound_ms / spent_ms:.0f}% of its bound" if spent_ms > 0 else "")
    lines.append(share)
    lines.append("Ranked choices for it (best first):")
    lines += [f"  {rank}. {choice.space} / {choice.approach}: {choice.reason}"
              for rank, choice in enumerate(region.choices, start=1)]
    return "\n".join(lines)


_KERNEL_COMMENT = re.compile(r"\s*# \w+ kernel: (.*)$")  # hiera_core/spaces/custom_cuda/codegen.py
_ASSIGNED = re.compile(r"\s*(v_\w+(?:\s*,\s*v_\w+)*)\s*,?\s*=[^=]")
_SOURCE_CONSTANT = re.compile(r"\b_HIERA_SRC_\d+\b")


def region_lines(code: str, nodes: list[str]) -> list[int]:
    """Lines (1-based) of a custom-CUDA candidate that compute `nodes`: a kernel's call under its
    `# <family> kernel: <nodes>` comment, a library call assigned to `v_<node>`, and the
    definitions of the kernel sources those calls launch."""
    wanted = set(nodes)
    variables = {"v_" + "".join(c if c.isalnum() else "_" for c in name) for name in nodes}
    lines = code.splitlines()
    marked: list[int] = []
    for number, line in enumerate(lines, start=1):
        comment = _KERNEL_COMMENT.match(line)
        if comment and wanted & {name.strip() for name in comment[1].split(",")}:
            marked += [number, number + 1] if number < len(lines) else [number]
        elif (assigned := _ASSIGNED.match(line)) and variables & {v.strip() for v in assigned[1].split(",")}:
            marked.append(number)
    constants = {name for number in marked for name in _SOURCE_CONSTANT.findall(lines[number - 1])}
    marked += [number for number, line in enumerate(lines, start=1)
               if any(line.startswith(f"{name} = ") for name in constants)]
    return sorted(set(marked))


def region_lines_text(code: str, nodes: list[str]) -> str:
    """The lines of the starting point that compute the region, quoted with their numbers."""
    numbers = region_lines(code, nodes)
    if not numbers:
        return ("No line of the starting point is marked with these nodes: find where its forward computes "
                + ", ".join(f"`{name}`" for name in nodes) + ".")
    lines = code.splitlines()
    return (f"Lines {', '.join(map(str, numbers))} of the starting point compute "
            + ", ".join(f"`{name}`" for name in nodes) + ":\n"
            + "\n".join(f"  {number:4d} | {lines[number - 1]}" for number in numbers))
