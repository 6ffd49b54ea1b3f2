"""The contract-augmented task specification: data model and text rendering. Pure (no torch).

Built by `hiera_core.spec.contract` from running (or meta-tracing) the reference; consumed by the
planner, the implementers, the verifier, prompts and hovers.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

WORKLOAD_CLASSES = ("launch-bound", "memory-bound", "compute-bound")
DTYPE_BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "int16": 2,
               "int8": 1, "uint8": 1, "bool": 1}


@dataclass
class ValueStats:
    min: float
    max: float
    mean: float
    std: float
    zero_fraction: float
    nonnegative: bool
    finite: bool


@dataclass
class TensorInfo:
    name: str
    shape: list[int]
    dtype: str  # torch dtype without the "torch." prefix, e.g. "float32"
    stride: list[int]
    contiguous: bool
    device: str
    stats: ValueStats | None = None  # None when only meta-traced

    @property
    def numel(self) -> int:
        total = 1
        for size in self.shape:
            total *= size
        return total

    def describe(self) -> str:
        layout = "contiguous" if self.contiguous else f"strides {self.stride}"
        return f"{self.name}: {self.dtype}{self.shape} {layout}"


@dataclass
class ScalarInfo:
    name: str
    type: str
    value: str  # repr


@dataclass
class ParamInfo:
    name: str
    shape: list[int]
    dtype: str
    kind: str  # "parameter" | "buffer"


@dataclass
class OpShare:
    op: str  # aten op name, e.g. "aten::convolution"
    kind: str  # op kind: matmul, conv, pointwise, reduction, softmax, norm, pool, attention, copy, other
    count: int
    flops: float
    bytes: float
    share: float  # fraction of reference time (measured) or of roofline time (estimated)


@dataclass
class Tolerance:
    rtol: float
    atol_rel: float  # atol as a fraction of the reference output's RMS (each input set its own)
    atol: float  # absolute, for the task's own inputs
    note: str


@dataclass
class Roofline:
    device: str  # peaks table key
    device_name: str
    peak_flops: float
    peak_bw: float
    compute_ms: float
    memory_ms: float
    bound_ms: float
    limiter: str  # "compute" | "memory"


@dataclass
class Spec:
    file: str
    class_name: str
    task_format: str  # "kernelbench" | "directive"
    source_sha256: str
    device: str  # "cpu" | "cuda"
    inputs: list[TensorInfo | ScalarInfo]
    outputs: list[TensorInfo]
    init_args: list[str]
    parameters: list[ParamInfo]
    precision: str
    dynamic_dims: list[list]  # [[input_name, dim], ...]
    tolerance: dict[str, Tolerance]  # per output name
    flops: float
    bytes_min: float
    intensity: float
    roofline: Roofline
    ops: list[OpShare]
    op_kinds: list[str]
    kernel_launches: int
    workload_class: str
    graph: dict  # {"traceable": bool, "reason": str, "traced": how (spec/trace.py), "nodes": [...]}
    mutated_inputs: list[str] | None = None  # None = not measured
    deterministic: bool | None = None
    reference_ms: float | None = None
    # GPU: the reference's GPU time (CUDA events), and whether its host time per call was the larger
    # ("host": launches and Python set its pace) or not ("gpu"); reference_ms is the larger of the two.
    reference_gpu_ms: float | None = None
    reference_bound: str | None = None
    reference_precision_notes: list[str] = field(default_factory=list)
    measured: bool = True
    not_measured: list[str] = field(default_factory=list)  # "field: why"
    environment: dict = field(default_factory=dict)

    # ---- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_dict(cls, data: dict) -> Spec:
        data = dict(data)

        def tensor_or_scalar(item: dict):
            if "shape" in item:
                stats = item.get("stats")
                return TensorInfo(**{**item, "stats": ValueStats(**stats) if stats else None})
            return ScalarInfo(**item)

        data["inputs"] = [tensor_or_scalar(i) for i in data["inputs"]]
        data["outputs"] = [tensor_or_scalar(o) for o in data["outputs"]]
        data["parameters"] = [ParamInfo(**p) for p in data["parameters"]]
        data["tolerance"] = {k: Tolerance(**v) for k, v in data["tolerance"].items()}
        data["roofline"] = Roofline(**data["roofline"])
        data["ops"] = [OpShare(**o) for o in data["ops"]]
        return cls(**data)

    # ---- views -----------------------------------------------------------------------------
    @property
    def tensor_inputs(self) -> list[TensorInfo]:
        return [i for i in self.inputs if isinstance(i, TensorInfo)]

    @property
    def call_bytes(self) -> int:
        """One call's tensor inputs and outputs."""
        return sum(t.numel * DTYPE_BYTES.get(t.dtype, 4) for t in self.tensor_inputs + self.outputs)

    @property
    def main_dtype(self) -> str:
        tensors = self.tensor_inputs + self.outputs
        floating = [t.dtype for t in tensors if t.dtype.startswith(("float", "bfloat"))]
        return floating[0] if floating else (tensors[0].dtype if tensors else "float32")

    def contract_lines(self) -> list[str]:
        """One line per assumption a proposal relies on (shown in proposal headers and hovers)."""
        lines = [f"input {t.describe()}" for t in self.tensor_inputs]
        lines += [f"input {s.name}: {s.type} = {s.value}" for s in self.inputs if isinstance(s, ScalarInfo)]
        lines += [f"output {o.describe()}" for o in self.outputs]
        if self.dynamic_dims:
            lines.append("dynamic dims: " + ", ".join(f"{n}:{d}" for n, d in self.dynamic_dims))
        else:
            lines.append("static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)")
        lines.append(f"precision: {self.precision}")
        return lines


def human_bytes(count: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(count) < 1000 or unit == "TB":
            return f"{count:.3g} {unit}"
        count /= 1000
    return f"{count:.3g} TB"


def human_flops(count: float) -> str:
    for unit in ("", "K", "M", "G", "T", "P"):
        if abs(count) < 1000 or unit == "P":
            return f"{count:.3g} {unit}FLOP"
        count /= 1000
    return f"{count:.3g} PFLOP"


def render_text(spec: Spec) -> str:
    """The spec as plain text, for terminals, prompts and hovers."""
    out = [f"Task {spec.file}::{spec.class_name} ({spec.task_format}, sha256 {spec.source_sha256[:12]})",
           f"Device: {spec.device}; roofline target {spec.roofline.device_name}"]
    if not spec.measured:
        # The reason (--meta, or the memory the task needs) is in not_measured: it may well fit.
        out.append("NOTE: meta-device trace only, nothing was run; not measured: "
                   + "; ".join(spec.not_measured))
    elif spec.not_measured:
        out.append("Not measured: " + "; ".join(spec.not_measured))
    out.append("Contract:")
    for item in spec.inputs:
        if isinstance(item, TensorInfo):
            stats = ""
            if item.stats:
                s = item.stats
                stats = f"  values [{s.min:.3g}, {s.max:.3g}] mean {s.mean:.3g} std {s.std:.3g}"
            out.append(f"  in  {item.describe()} on {item.device}{stats}")
        else:
            out.append(f"  in  {item.name}: {item.type} = {item.value}")
    for item in spec.outputs:
        stats = ""
        if item.stats:
            s = item.stats
            stats = f"  values [{s.min:.3g}, {s.max:.3g}] mean {s.mean:.3g} std {s.std:.3g}"
        tol = spec.tolerance.get(item.name)
        tol_text = f"  tolerance |out-ref| <= {tol.atol:.2g} + {tol.rtol:.2g}*|ref|" if tol else ""
        out.append(f"  out {item.describe()}{stats}{tol_text}")
    if spec.parameters:
        total = sum(_numel(p.shape) for p in spec.parameters)
        out.append(f"  parameters: {len(spec.parameters)} tensors, {total} values ("
                   + ", ".join(f"{p.name} {p.dtype}{p.shape}" for p in spec.parameters[:6])
                   + (", ..." if len(spec.parameters) > 6 else "") + ")")
    if spec.init_args:
        out.append("  constructor args: " + ", ".join(spec.init_args))
    mutation = ("not measured" if spec.mutated_inputs is None
                else ("mutates " + ", ".join(spec.mutated_inputs)) if spec.mutated_inputs else "does not mutate inputs")
    determinism = {None: "not measured", True: "deterministic", False: "NOT deterministic"}[spec.deterministic]
    out.append(f"  forward {mutation}; {determinism}")
    out.append(f"  precision policy: {spec.precision}"
               + (f" ({'; '.join(spec.reference_precision_notes)})" if spec.reference_precision_notes else ""))
    out.append("  dynamic dims: " + (", ".join(f"{n}:{d}" for n, d in spec.dynamic_dims) or "none (static shapes)"))
    graph = spec.graph or {}
    traced = f" (torch.fx: {graph['traced']})" if graph.get("traced") else ""
    out.append(f"  graph: {len(graph.get('nodes', []))} nodes{traced}" if graph.get("traceable")
               else f"  graph: none ({graph.get('reason') or 'not traced'}): strategies that rewrite it do not apply")
    r = spec.roofline
    out.append("Workload:")
    out.append(f"  {human_flops(spec.flops)}, {human_bytes(spec.bytes_min)} moved at least, "
               f"intensity {spec.intensity:.3g} FLOP/B; {spec.kernel_launches} ops launched")
    out.append(f"  roofline bound {r.bound_ms * 1000:.3g} us ({r.limiter}-limited: compute {r.compute_ms * 1000:.3g} us, "
               f"memory {r.memory_ms * 1000:.3g} us on {r.device_name})")
    if spec.reference_ms is not None:
        pct = 100 * r.bound_ms / spec.reference_ms if spec.reference_ms else 0
        out.append(f"  reference {spec.reference_ms:.4g} ms = {pct:.3g}% of roofline"
                   + (f" (host-bound: its GPU time is {spec.reference_gpu_ms:.4g} ms)"
                      if spec.reference_bound == "host" else ""))
    out.append(f"  class: {spec.workload_class}; op kinds: {', '.join(spec.op_kinds) or 'none'}")
    if spec.ops:
        out.append("  op breakdown:")
        for op in spec.ops[:8]:
            out.append(f"    {op.share * 100:5.1f}%  {op.op} x{op.count} ({op.kind})")
    return "\n".join(out)


def _numel(shape: list[int]) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


def node_refs(node: dict) -> list[str]:
    """Names of the nodes `node` reads (the spec's JSON args hold them as {"node": name})."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, dict):
            if set(value) == {"node"}:
                found.append(value["node"])
            else:
                for item in value.values():
                    walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    walk(node.get("args", []))
    walk(node.get("kwargs") or {})
    return found


def node_users(nodes: list[dict]) -> dict[str, set[str]]:
    """For each node of the spec's JSON graph that something reads, the names of the nodes reading it."""
    users: dict[str, set[str]] = {}
    for node in nodes:
        for ref in node_refs(node):
            users.setdefault(ref, set()).add(node["name"])
    return users
