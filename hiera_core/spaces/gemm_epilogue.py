"""GEMMs whose output goes through what cuBLASLt's epilogue computes, found from what the graph
computes rather than how it is spelled.

A GEMM (an nn.Linear, F.linear, or torch.addmm with a vector bias, as transformers' Conv1D writes
it), then optionally the views of its output and the addition of a vector parameter, then pointwise
ops on that value alone. Those ops are evaluated in float64 on sample points and matched against
the epilogues cuBLASLt has, ReLU and the tanh GELU, times a positive scale. So GPT-2's GELU spelled
out in eight ops matches, and an exact-erf GELU or a sigmoid approximation does not.

Works on the spec's JSON graph (spec/contract.trace_graph), so the planner (no FX graph) and the
generator (which rewrites the FX graph by the same node names) agree on what fuses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hiera_core.spec.model import node_refs, node_users

# Views of the GEMM's output the epilogue may follow: a pointwise epilogue commutes with them.
OUTPUT_VIEWS = {"view", "reshape", "flatten", "unflatten", "view_as"}
# Conversions that keep the value when the dtype is already the GEMM's.
SAME_DTYPE_IDENTITY = {"float", "to", "type_as", "contiguous", "clone"}
# The epilogue searched is at most this many pointwise nodes (GPT-2's GELU is eight).
MOST_EPILOGUE_NODES = 32
SAMPLES = 4001  # points in [-8, 8] the epilogue is evaluated at


@dataclass(frozen=True)
class GemmEpilogue:
    """One GEMM and the epilogue cuBLASLt computes for it (names of the spec's graph nodes)."""

    gemm: str
    form: str  # "linear_module" | "linear" | "addmm"
    views: tuple[str, ...]  # views of the GEMM's output, applied to the fused result as the reference did
    extra_bias: str | None  # a vector parameter added after the GEMM
    activation: str  # "relu" | "gelu" (tanh form)
    scale: float  # positive: activation(z) * scale
    epilogue: tuple[str, ...]  # the pointwise nodes the fused call replaces, the last one's users read it


def gemm_epilogues(graph: dict) -> list[GemmEpilogue]:
    """The spec graph's GEMMs with an epilogue cuBLASLt computes, in graph order."""
    if not graph.get("traceable"):
        return []
    nodes = graph.get("nodes", [])
    index = {node["name"]: i for i, node in enumerate(nodes)}
    users = node_users(nodes)
    found = []
    for node in nodes:
        form = _gemm_form(node, nodes, index)
        if form is None:
            continue
        match = _match(node, form, nodes, index, users)
        if match is not None:
            found.append(match)
    return found


def _base(node: dict) -> str:
    return node["target"].rsplit(".", 1)[-1]


def _gemm_form(node: dict, nodes: list[dict], index: dict) -> str | None:
    """Which GEMM form `node` is, or None: its output must be a matrix per row of the input."""
    if node["op"] == "call_module" and node.get("module_type") == "Linear":
        return "linear_module"
    if node["op"] != "call_function":
        return None
    if node["target"] == "torch.nn.functional.linear":
        return "linear"
    if node["target"] == "torch.addmm" and len(node["args"]) == 3 \
            and all(node.get("kwargs", {}).get(k, 1) == 1 for k in ("beta", "alpha")):
        bias = node["args"][0]
        shape = nodes[index[bias["node"]]].get("shape") if isinstance(bias, dict) and "node" in bias else None
        return "addmm" if shape is not None and len(shape) == 1 else None
    return None


def _only_user(node: dict, nodes: list[dict], index: dict, users: dict) -> dict | None:
    readers = users.get(node["name"], set())
    return nodes[index[next(iter(readers))]] if len(readers) == 1 else None


def _match(gemm: dict, form: str, nodes: list[dict], index: dict, users: dict) -> GemmEpilogue | None:
    start, views = gemm, []
    while (user := _only_user(start, nodes, index, users)) is not None and user["op"] in ("call_method", "call_function") \
            and _base(user) in OUTPUT_VIEWS and node_refs(user)[0] == start["name"]:
        views.append(user["name"])
        start = user
    extra_bias = None
    if (user := _only_user(start, nodes, index, users)) is not None:
        other = _vector_addend(user, start, nodes, index)
        if other is not None:
            extra_bias, start = other, user
    found = _activation(start, nodes, index, users)
    if found is None:
        return None
    activation, scale, epilogue = found
    if extra_bias is not None:
        epilogue = (start["name"],) + epilogue
    return GemmEpilogue(gemm=gemm["name"], form=form, views=tuple(views), extra_bias=extra_bias,
                        activation=activation, scale=scale, epilogue=epilogue)


def _vector_addend(node: dict, value: dict, nodes: list[dict], index: dict) -> str | None:
    """The get_attr vector (shape [N] or [1, N]) that `node` adds to `value`, or None."""
    if node["op"] != "call_function" or node["target"] not in ("operator.add", "torch.add") \
            or len(node["args"]) != 2 or node.get("kwargs"):
        return None
    names = [a["node"] if isinstance(a, dict) and "node" in a else None for a in node["args"]]
    if value["name"] not in names:
        return None
    other = names[1 - names.index(value["name"])]
    if other is None:
        return None
    addend = nodes[index[other]]
    width = (value.get("shape") or [None])[-1]
    if addend["op"] != "get_attr" or addend.get("shape") not in ([width], [1, width]):
        return None
    return other


def _activation(start: dict, nodes: list[dict], index: dict, users: dict) -> tuple[str, float, tuple[str, ...]] | None:
    """(activation, scale, epilogue nodes) for the largest pointwise subgraph of `start` alone that
    computes a cuBLASLt epilogue, or None."""
    reach = {start["name"]}
    region: list[dict] = []
    for node in nodes[index[start["name"]] + 1:]:
        args = node_refs(node)
        if args and set(args) <= reach and _pointwise(node):
            reach.add(node["name"])
            region.append(node)
            if len(region) >= MOST_EPILOGUE_NODES:
                break
    best = None
    for exit_node in region:
        inside = _ancestors(exit_node, reach, nodes, index)
        closed = all(users.get(name, set()) <= inside for name in inside - {exit_node["name"]}) \
            and users.get(start["name"], set()) <= inside
        if not closed:
            continue
        members = [node for node in region if node["name"] in inside]
        match = _identify(start, members, exit_node["name"])
        if match is not None:
            best = (*match, tuple(node["name"] for node in members))
    return best


def _ancestors(node: dict, reach: set[str], nodes: list[dict], index: dict) -> set[str]:
    inside, stack = set(), [node["name"]]
    while stack:
        name = stack.pop()
        if name in inside or name not in reach:
            continue
        inside.add(name)
        stack.extend(node_refs(nodes[index[name]]))
    return inside


def _pointwise(node: dict) -> bool:
    return node.get("kind") == "pointwise" and node["op"] in ("call_function", "call_method", "call_module")


def _identify(start: dict, members: list[dict], exit_name: str) -> tuple[str, float] | None:
    """Evaluate the members on sample points; (activation, scale) that they compute, or None."""
    import torch

    x = torch.linspace(-8.0, 8.0, SAMPLES, dtype=torch.float64)
    values = {start["name"]: x}
    try:
        with torch.no_grad():
            for node in members:
                values[node["name"]] = _evaluate(node, values, start.get("dtype"))
    except Exception:  # an op this evaluation cannot run on a float64 vector: not an epilogue it knows
        return None
    result = values[exit_name]
    if not isinstance(result, torch.Tensor) or result.shape != x.shape or not bool(torch.isfinite(result).all()):
        return None
    references = {"relu": x.clamp_min(0.0),
                  "gelu": 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))}
    one = int(torch.argmin((x - 1.0).abs()))
    for activation, reference in references.items():
        scale = float(result[one] / reference[one])
        if scale > 0 and torch.allclose(result, scale * reference, rtol=1e-6, atol=1e-9):
            return activation, scale
    return None


def _evaluate(node: dict, values: dict, dtype: str | None):
    import operator

    import torch
    import torch.nn.functional as F

    def resolve(value):
        if isinstance(value, dict) and set(value) == {"node"}:
            return values[value["node"]]
        if isinstance(value, (list, tuple)):
            return type(value)(resolve(v) for v in value)
        if isinstance(value, str) and value.startswith("torch."):
            raise ValueError(f"unresolved constant {value}")
        return value

    args = [resolve(a) for a in node.get("args", [])]
    kwargs = {k: resolve(v) for k, v in node.get("kwargs", {}).items()}
    name = _base(node)
    if node["op"] == "call_module":
        module = getattr(torch.nn, node["module_type"])(**(node.get("constants") or {}))
        return module.eval()(*args)
    if name in SAME_DTYPE_IDENTITY:
        if node.get("dtype") != dtype:
            raise ValueError("a conversion to another dtype")
        return args[0]
    if node["op"] == "call_method":
        return getattr(args[0], name)(*args[1:], **kwargs)
    owner = {"operator": operator, "torch": torch, "torch.nn.functional": F,
             "torch.special": torch.special}[node["target"].rsplit(".", 1)[0]]
    return getattr(owner, name)(*args, **kwargs)
