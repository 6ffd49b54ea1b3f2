"""Regions of a module: the traced graph cut around its anchor ops, each planned on its own. Pure (no torch).

An *anchor* is an op that sets a region's character (a GEMM, a convolution, attention, a norm, a
reduction, a softmax, pooling). Pointwise ops join the region that produces their input (its
epilogue); pointwise ops that only feed a norm, a reduction, a softmax or pooling join it as its
prologue (a row kernel reads the tensor once either way); views cost nothing and go with their
input; anything else (a copy, an op no vocabulary knows) is a region of its own. Each region gets
its slice of the contract: shapes, FLOPs and bytes estimated from the graph's shapes, its roofline
bound, its workload class, and its share of the reference's measured time (the profile's share of
each op kind, split over the regions holding that kind by their bounds).

`plan_regions` then ranks, per region, what serves it: the space and approach, with the reason,
from the region's own workload and from what the custom-CUDA lowering would actually do with its
nodes (a generated kernel, a library call, or the node left to PyTorch and why).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from hiera_core.spaces.attention import attention_matches, unread_attention_weights
from hiera_core.spec.model import DTYPE_BYTES, Spec, node_refs, node_users

ANCHOR_KINDS = ("matmul", "conv", "attention", "norm", "reduction", "softmax", "pool")
TAKES_PROLOGUE = {"norm", "reduction", "softmax", "pool"}
FREE_KINDS = {"view"}
LAUNCH_BOUND_MS = 0.005  # a region whose bound is below a few microseconds is paced by its launch


@dataclass
class RegionChoice:
    space: str  # "pytorch" | "cuda_libs" | "custom_cuda"
    approach: str  # e.g. "cuBLAS GEMM", "generated row kernel", "left to PyTorch"
    reason: str
    # The registry key whose candidate is this choice on its own, where one is (the planner scores
    # it from this region's workload): "cuda_libs.cublaslt_epilogue", "pytorch.compile_max_autotune".
    strategy: str = ""


@dataclass
class Region:
    index: int
    kind: str  # the anchor's kind, "pointwise" or "other"
    anchor: str | None  # the anchor node's name
    nodes: list[str]  # FX node names, in graph order
    inputs: list[list[int]]  # shapes of the tensors entering the region
    outputs: list[list[int]]  # shapes of the tensors it hands on
    flops: float
    bytes: float
    bound_ms: float
    workload_class: str  # "compute-bound" | "memory-bound" | "launch-bound"
    share: float  # of the reference's time
    share_source: str  # "measured" (the profile's op shares) | "estimated" (the bounds)
    choices: list[RegionChoice] = field(default_factory=list)  # ranked, best first

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Region:
        return cls(**{**data, "choices": [RegionChoice(**c) for c in data.get("choices", [])]})

    def describe(self) -> str:
        """'region 2 (conv, 61% of the time): cuda_libs / cuDNN convolution: ...'"""
        what = f"{self.kind} {self.anchor}" if self.anchor else self.kind
        head = f"region {self.index} ({what}; {len(self.nodes)} op(s); {100 * self.share:.0f}% of the time"
        head += ", estimated" if self.share_source == "estimated" else ""
        head += f"; {self.workload_class})"
        if not self.choices:
            return head
        best = self.choices[0]
        return f"{head}: {best.space} / {best.approach}: {best.reason}"


def partition(spec: Spec) -> list[Region]:
    """The spec's traced graph as regions, in graph order; [] when the forward was not traceable."""
    graph = spec.graph or {}
    if not graph.get("traceable"):
        return []
    nodes = [n for n in graph.get("nodes", []) if n["op"] in ("call_function", "call_method", "call_module")]
    by_name = {n["name"]: n for n in graph.get("nodes", [])}
    users = node_users(graph.get("nodes", []))
    members: list[list[str]] = []
    kinds: list[str] = []
    anchors: list[str | None] = []
    region_of: dict[str, int] = {}

    def new_region(name: str, kind: str, anchor: str | None) -> int:
        members.append([name])
        kinds.append(kind)
        anchors.append(anchor)
        return len(members) - 1

    # Attention written by hand (q @ k^T, its scaling and masks, softmax, @ v) is one region, anchored
    # at the scores: SDPA serves it whole.
    attention = {name: match.scores for match in attention_matches(graph)
                 for name in (match.scores, *match.chain, match.softmax, *match.identities, match.out)}
    attention_region: dict[str, int] = {}
    for node in nodes:
        kind = node.get("kind") or "other"
        if node["name"] in attention:
            scores = attention[node["name"]]
            if scores in attention_region:
                members[attention_region[scores]].append(node["name"])
            else:
                attention_region[scores] = new_region(node["name"], "attention", scores)
            region_of[node["name"]] = attention_region[scores]
            continue
        producers = sorted({region_of[ref] for ref in node_refs(node) if ref in region_of})
        if kind in FREE_KINDS or (kind == "pointwise" and producers):
            if producers:
                target = producers[-1]
                members[target].append(node["name"])
                region_of[node["name"]] = target
            continue  # a view of an input is an input
        if kind == "pointwise":
            region_of[node["name"]] = new_region(node["name"], "pointwise", None)
            continue
        region_kind = kind if kind in ANCHOR_KINDS else "other"
        prologue = [p for p in producers if kinds[p] == "pointwise" and region_kind in TAKES_PROLOGUE
                    and _feeds_only(members[p], node["name"], users)]
        if prologue:
            target = prologue[-1]
            members[target].append(node["name"])
            kinds[target], anchors[target] = region_kind, node["name"]
        else:
            target = new_region(node["name"], region_kind, node["name"])
        region_of[node["name"]] = target
    regions = []
    for index, (names, kind, anchor) in enumerate(zip(members, kinds, anchors)):
        inside = set(names)
        entering = {ref for name in names for ref in node_refs(by_name[name]) if ref not in inside}
        leaving = [name for name in names if users.get(name, set()) - inside]
        inputs = [list(by_name[ref]["shape"]) for ref in sorted(entering)
                  if ref in by_name and by_name[ref].get("shape") is not None]
        outputs = [list(by_name[name]["shape"]) for name in leaving if by_name[name].get("shape") is not None]
        moved = sum(_tensor_bytes(by_name[ref]) for ref in entering if ref in by_name) + \
            sum(_tensor_bytes(by_name[name]) for name in leaving)
        moved += sum(_parameter_bytes(spec, by_name[name]) for name in names)
        flops = sum(_flops(spec, by_name, by_name[name]) for name in names)
        regions.append(Region(index + 1, kind, anchor, names, inputs, outputs, flops, moved, 0.0, "", 0.0, ""))
    _bounds_and_shares(spec, regions, by_name)
    return regions


def _feeds_only(names: list[str], consumer: str, users: dict[str, set[str]]) -> bool:
    """Whether the values of the region `names` are read only inside it and by `consumer`."""
    inside = set(names)
    return all(users.get(name, set()) <= inside | {consumer} for name in names)


def _numel(shape) -> int:
    return math.prod(shape) if shape else 1


def _tensor_bytes(node: dict) -> float:
    if node.get("shape") is None:
        return 0.0
    return float(_numel(node["shape"]) * DTYPE_BYTES.get(node.get("dtype") or "float32", 4))


def _parameter_bytes(spec: Spec, node: dict) -> float:
    """Bytes of a module's own parameters (a Linear's weight, a conv's filters) read by `node`."""
    if node["op"] != "call_module":
        return 0.0
    prefix = f"{node['target']}."
    return float(sum(_numel(p.shape) * DTYPE_BYTES.get(p.dtype, 4) for p in spec.parameters
                     if p.name.startswith(prefix) and "." not in p.name[len(prefix):]))


def _weight_shape(spec: Spec, by_name: dict, node: dict) -> list[int] | None:
    if node["op"] == "call_module":
        weight = next((p for p in spec.parameters if p.name == f"{node['target']}.weight"), None)
        return list(weight.shape) if weight else None
    refs = node_refs(node)
    if len(refs) >= 2 and by_name.get(refs[1], {}).get("shape") is not None:
        return list(by_name[refs[1]]["shape"])
    return None


def _flops(spec: Spec, by_name: dict, node: dict) -> float:
    """An estimate from shapes: 2 per multiply-add for GEMMs and convolutions, one per element read
    for the rest (the profile's counts stay the module's figure; this splits it over regions)."""
    out = node.get("shape")
    kind = node.get("kind")
    refs = [by_name[r] for r in node_refs(node) if r in by_name and by_name[r].get("shape") is not None]
    first = refs[0]["shape"] if refs else None
    if kind == "matmul" and out is not None and first:
        # addmm(bias, mat1, mat2) and its kin add their first argument: the product's is the second.
        added = node["target"].rsplit(".", 1)[-1].lstrip("_").startswith(("addmm", "addbmm", "baddbmm", "addmv"))
        product = refs[1]["shape"] if added and len(refs) > 1 else first
        return 2.0 * _numel(out) * product[-1]
    if kind == "conv" and out is not None and first:
        weight = _weight_shape(spec, by_name, node)
        if weight and len(weight) >= 3:
            transposed = "transpose" in (node.get("module_type") or node["target"]).lower()
            per_output = weight[0] * _numel(weight[2:]) if transposed else weight[1] * _numel(weight[2:])
            return 2.0 * (_numel(first) if transposed else _numel(out)) * per_output
    if node.get("module_type") == "MultiheadAttention" and len(refs) >= 2:
        return _multihead_flops(node, refs[0]["shape"], refs[1]["shape"])
    if kind in ("reduction", "softmax", "norm", "pool", "attention") and first:
        return 5.0 * _numel(first) if kind in ("softmax", "norm") else float(_numel(first))
    return float(_numel(out)) if out is not None else 0.0


# The profile's op kinds a library module runs inside it, which its region holds: nn.MultiheadAttention's
# projections and products, its softmax, and the average of its weights over the heads.
INSIDE_MODULES = {"MultiheadAttention": ("matmul", "softmax", "reduction")}


def _multihead_flops(node: dict, query: list, key: list) -> float:
    """nn.MultiheadAttention's: its four projections (q and the output over the queries, k and v over
    the keys) and q k^T and @ v in each batch, 2 per multiply-add."""
    width = query[-1]
    batch_first = (node.get("constants") or {}).get("batch_first")
    batch = (query[0] if batch_first else query[1]) if len(query) == 3 else 1
    queries, keys = _numel(query) // width, _numel(key) // width
    return 2.0 * 2 * (queries + keys) * width * width + 4.0 * queries * (keys // batch) * width


def _bounds_and_shares(spec: Spec, regions: list[Region], by_name: dict) -> None:
    roofline = spec.roofline
    ridge = roofline.peak_flops / roofline.peak_bw if roofline.peak_bw else 0.0
    for region in regions:
        compute = region.flops / roofline.peak_flops if roofline.peak_flops else 0.0
        memory = region.bytes / roofline.peak_bw if roofline.peak_bw else 0.0
        region.bound_ms = 1000 * max(compute, memory)
        if region.bound_ms < LAUNCH_BOUND_MS:
            region.workload_class = "launch-bound"
        elif region.bytes and region.flops / region.bytes > ridge:
            region.workload_class = "compute-bound"
        else:
            region.workload_class = "memory-bound"
    # The profile's share of each op kind, split over the regions holding nodes of that kind.
    kind_share: dict[str, float] = {}
    for op in spec.ops:
        kind_share[op.kind] = kind_share.get(op.kind, 0.0) + op.share
    if spec.measured and sum(kind_share.values()) > 0:
        holders: dict[str, list[Region]] = {}
        for region in regions:
            kinds = {by_name[name].get("kind") or "other" for name in region.nodes}
            for name in region.nodes:
                kinds.update(INSIDE_MODULES.get(by_name[name].get("module_type") or "", ()))
            for kind in kinds:
                holders.setdefault(kind, []).append(region)
        for kind, share in kind_share.items():
            holding = holders.get(kind) or holders.get("other") or []
            weights = [max(r.bound_ms, 1e-9) for r in holding]
            for region, weight in zip(holding, weights):
                region.share += share * weight / sum(weights)
                region.share_source = "measured"
    total = sum(r.share for r in regions)
    if total <= 0:
        bounds = sum(r.bound_ms for r in regions) or 1.0
        for region in regions:
            region.share, region.share_source = region.bound_ms / bounds, "estimated"
    else:
        for region in regions:
            region.share /= total
            region.share_source = region.share_source or "measured"


# ---- per-region planning ---------------------------------------------------------------------

LIBRARY_APPROACH = {"matmul": "cuBLAS GEMM", "conv": "cuDNN convolution", "attention": "fused attention (SDPA)"}
KERNEL_APPROACH = {"pointwise": "generated pointwise kernel", "rows": "generated row kernel",
                   "reduce": "generated reduction kernel", "total": "generated reduction kernel",
                   "scan": "generated scan kernel", "group_norm": "generated group-norm kernel",
                   "pool": "generated pooling kernel", "stencil": "generated stencil kernel"}


def plan_regions(spec: Spec, regions: list[Region], lowering) -> list[Region]:
    """Each region's ranked choices. `lowering`: the custom-CUDA lowering of the graph
    (hiera_core.spaces.custom_cuda.graph.Lowering), or why there is none (a string)."""
    covered: dict[str, list] = {}
    fallbacks: dict[str, str] = {}
    if not isinstance(lowering, str):
        fallbacks = lowering.fallbacks
        for step in lowering.steps:
            for name in step.covers:
                covered.setdefault(name, []).append(step)
    # The GEMMs whose output goes through what cuBLASLt's epilogues compute (found once: each match
    # evaluates its candidate epilogues on sample points).
    from hiera_core.spaces.gemm_epilogue import gemm_epilogues

    epilogue_gemms = {match.gemm for match in gemm_epilogues(spec.graph)} \
        if spec.device == "cuda" and any(region.kind == "matmul" for region in regions) else set()
    # Attention SDPA can run: written by hand (anchored at its scores), or a module whose weights
    # nothing reads (hiera_core.spaces.attention).
    fusable = {match.scores for match in attention_matches(spec.graph)} | set(unread_attention_weights(spec.graph))
    for region in regions:
        region.choices = _choices(spec, region, covered, fallbacks, lowering, epilogue_gemms)
        if region.kind == "attention" and region.anchor in fusable:
            region.choices.insert(0, RegionChoice(
                "pytorch", "F.scaled_dot_product_attention",
                f"{region.workload_class}: one fused kernel computes q k^T, its mask, softmax and @ v without "
                "writing the scores (bound {:.3g} us)".format(1000 * region.bound_ms), "pytorch.sdpa"))
    return regions


def _choices(spec: Spec, region: Region, covered: dict, fallbacks: dict, lowering,
             epilogue_gemms: set[str]) -> list[RegionChoice]:
    choices: list[RegionChoice] = []
    on_gpu = spec.device == "cuda"
    kernels = list({id(step): step for name in region.nodes for step in covered.get(name, [])
                    if step.family != "library"}.values())
    fusing = [step for step in kernels if step.family != "pointwise" or _fused(step) >= 2]
    left = {name: fallbacks[name] for name in region.nodes if name in fallbacks}
    epilogue = sorted({name for step in kernels if step.family == "pointwise" for name in step.covers})
    if region.kind in LIBRARY_APPROACH and on_gpu and region.anchor not in left:
        if region.kind == "conv" and any(step.family == "stencil" for step in kernels):
            choices.append(RegionChoice("custom_cuda", "generated stencil kernel",
                                        "a depthwise or single-channel small filter is a stencil: a tiled kernel "
                                        "reads each input once, where cuDNN's general algorithms do not"))
        approach = LIBRARY_APPROACH[region.kind]
        reason = ("compute-bound: the library's tensor-core kernels are near peak"
                  if region.workload_class == "compute-bound"
                  else f"{region.workload_class}: the library call is kept, the gain is in what is fused around it")
        if region.kind == "conv" and not spec.dynamic_dims:
            approach += ", algorithm autotuned for these shapes"
        strategy = ""
        if region.kind == "matmul" and region.anchor in epilogue_gemms:
            approach = "cuBLASLt GEMM with its bias and activation fused as the epilogue"
            strategy = "cuda_libs.cublaslt_epilogue"
        elif any(step.family == "pointwise" for step in fusing):
            approach += " + generated epilogue kernel"
            reason += f"; its epilogue ({', '.join(epilogue)}) runs as one kernel instead of one per op"
        elif epilogue:
            reason += f"; its epilogue ({', '.join(epilogue)}) is one op: nothing to fuse"
        if spec.precision == "tf32" and region.kind in ("matmul", "conv"):
            reason += "; TF32 tensor cores (the contract allows it)"
        choices.append(RegionChoice("cuda_libs", approach, reason, strategy))
    elif fusing and on_gpu:
        families = list(dict.fromkeys(_kernel_approach(step) for step in fusing))
        fused = sorted({name for step in fusing for name in step.covers if name in region.nodes})
        approach = " + ".join(families)
        reason = (f"{region.workload_class}: {len(fused)} op(s) computed in {len(fusing)} kernel(s), each "
                  f"tensor read and written once (bound {1000 * region.bound_ms:.3g} us)")
        if left:
            approach = f"{', '.join(left)} left to PyTorch + {approach}"
            reason += "; " + "; ".join(f"{name}: {why}" for name, why in left.items())
        choices.append(RegionChoice("custom_cuda", approach, reason))
    elif left:
        reasons = "; ".join(f"{name}: {why}" for name, why in left.items())
        choices.append(RegionChoice("pytorch", "left to PyTorch (torch.compile may fuse it)",
                                    f"no template computes it ({reasons})"))
    elif isinstance(lowering, str) and region.kind not in LIBRARY_APPROACH:
        choices.append(RegionChoice("pytorch", "torch.compile", f"no custom kernel for this graph ({lowering})"))
    compile_reason = {"launch-bound": "launch-bound: inductor fuses and CUDA graphs remove launches",
                      "memory-bound": "memory-bound: inductor fuses the chain into few kernels",
                      "compute-bound": "compute-bound: max-autotune searches GEMM/conv templates"}[region.workload_class]
    if not any(c.space == "pytorch" for c in choices):
        # A compute-bound GEMM is where max-autotune's template search pays (not a convolution's:
        # there it compiles for minutes).
        autotuned = region.kind == "matmul" and region.workload_class == "compute-bound"
        choices.append(RegionChoice("pytorch", "torch.compile", compile_reason,
                                    "pytorch.compile_max_autotune" if autotuned else ""))
    return choices


def _kernel_approach(step) -> str:
    if step.family == "stencil" and "steps" in step.config:  # one kernel for this region and the next
        return f"generated stencil kernel, {len(step.config['steps'])} steps fused in time"
    return KERNEL_APPROACH.get(step.family, step.family)


def _fused(step) -> int:
    from hiera_core.spaces.custom_cuda.graph import fused_op_count

    return fused_op_count(step)

