"""Exact algebraic rewrites in the PyTorch-operator space: work the reference does that its result
does not need.

`sum_through_linear`: a sum (or mean) over the output features of a linear map, with only scaling
by constants in between, equals the input times the weights summed over those features:

    (x @ W^T * c).sum(-1)  ==  x @ (c * W.sum(0))      (+ c * b.sum() with a bias)

a matrix-vector product: the (rows, features) product is never formed, its FLOPs and its memory
traffic are gone. Exact in real arithmetic; in floating point only the summation order changes,
which the verifier's tolerances judge. The summed weights are kept between calls while the
weights are unchanged (see the helper) and recomputed under autograd.

The matcher reads the spec's graph summary (pure: the planner calls it); the rewrite edits the
FX graph in the worker.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.spaces.codegen import model_new, rewritten_forward_source
from hiera_core.spaces.strategy import Candidate, ImplementContext, Strategy, register
from hiera_core.spec.model import Spec

SUMMED_HELPER = '''
_HIERA_SUMMED = {}


def _hiera_summed(tensor, dim, factor):
    """tensor.sum(dim) * factor, kept while `tensor` is unchanged: the key holds its version
    counter (every in-place write bumps it: optimizer steps, load_state_dict, copy_) and its storage
    address (`.data =` replaces it). Under autograd it is recomputed so gradients reach `tensor`."""
    if torch.is_grad_enabled() and tensor.requires_grad:
        return tensor.sum(dim) * factor
    key = (tensor._version, tensor.data_ptr(), tensor.device, dim, factor)
    entry = _HIERA_SUMMED.get(id(tensor))
    if entry is None or entry[0]() is not tensor or entry[1] != key:
        entry = _HIERA_SUMMED[id(tensor)] = (weakref.ref(tensor), key, tensor.sum(dim) * factor)
    return entry[2]
'''

# Engine strategies whose candidates compute the reference's result with fewer FLOPs than its ops
# (the verifier's roofline check then holds them to the bytes moved, not the reference's FLOPs).
EXACT_REWRITES = {"sum_through_linear", "scan_as_masked_matmul", "diagonal_as_scale"}  # algebra_scan, algebra_diagonal
SCALINGS = {"operator.mul", "operator.truediv", "torch.mul", "torch.div", "mul", "div", "truediv"}
DIVISIONS = {"operator.truediv", "torch.div", "div", "truediv"}
MATMULS = {"torch.matmul", "operator.matmul", "torch.mm", "matmul", "mm"}
TRANSPOSES = {"t", "torch.t", "transpose", "torch.transpose"}


def rewrites_the_work(space: str, strategy: str) -> bool:
    """Whether a candidate of this space and strategy is an engine's exact rewrite, as generated or
    composed (compiled, replayed as a CUDA graph: "<rewrite>+compiled+graph"). A model's candidates
    never are: their strategies read "llm: ..."."""
    return space == "pytorch" and strategy.split("+", 1)[0] in EXACT_REWRITES


@dataclass
class SumFold:
    """One match: node `replaced` equals (x @ weight-summed * factor) [+ bias-summed * factor]."""

    replaced: str  # the node the rewrite replaces: the sum/mean, or the last constant scaling of it
    chain: list[str]  # the nodes that become dead, readers first: scalings, the reduction, scalings, the linear
    x: str  # the linear's input node
    weight: str  # get_attr target of the weight
    summed_dim: int  # 0: the weight is (out, in) as nn.Linear's; -1: it is (in, out) as a matmul's right side
    bias: str | None  # get_attr target of the bias, or "<module>.bias" for an nn.Linear (checked in the worker)
    module: str | None  # the nn.Linear's path, when the linear is a module call
    factor: float
    keepdim: bool


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _ref(value) -> str | None:
    return value["node"] if isinstance(value, dict) and set(value) == {"node"} else None


def _arg(node: dict, index: int, keyword: str, default=None):
    args = node.get("args", [])
    return args[index] if len(args) > index else node.get("kwargs", {}).get(keyword, default)


def _readers(nodes: list[dict]) -> dict[str, list[str]]:
    """The names of the nodes reading each node (args and kwargs, nested; once per read)."""
    readers: dict[str, list[str]] = {}

    def visit(value, reader: str):
        name = _ref(value)
        if name is not None:
            readers.setdefault(name, []).append(reader)
        elif isinstance(value, dict):
            for item in value.values():
                visit(item, reader)
        elif isinstance(value, list):
            for item in value:
                visit(item, reader)

    for node in nodes:
        visit(node.get("args", []), node["name"])
        visit(node.get("kwargs", {}), node["name"])
    return readers


def _scaling(node: dict, operand: str) -> float | None:
    """The constant factor when `node` only multiplies or divides `operand` by a number."""
    args = node.get("args", [])
    if node["target"] not in SCALINGS or node.get("kwargs") or len(args) != 2:
        return None
    if _ref(args[0]) == operand and _number(args[1]) and args[1] != 0:
        return 1.0 / args[1] if node["target"] in DIVISIONS else float(args[1])
    if _ref(args[1]) == operand and _number(args[0]) and node["target"] not in DIVISIONS:
        return float(args[0])
    return None


def _reduced_last_dim(node: dict, source: dict) -> tuple[str, bool] | None:
    """("sum"|"mean", keepdim) when `node` sums or averages `source` over its last dim only."""
    base = node["target"].rsplit(".", 1)[-1]
    if node["op"] not in ("call_method", "call_function") or base not in ("sum", "mean") \
            or (node["op"] == "call_function" and not node["target"].startswith("torch.")):
        return None
    if set(node.get("kwargs", {})) - {"dim", "keepdim"} or len(node.get("args", [])) > 3 or not source.get("shape"):
        return None
    dim = _arg(node, 1, "dim")
    dims = dim if isinstance(dim, list) else [dim]
    rank = len(source["shape"])
    if len(dims) != 1 or not isinstance(dims[0], int) or isinstance(dims[0], bool) or not -rank <= dims[0] < rank \
            or dims[0] % rank != rank - 1:
        return None
    keepdim = _arg(node, 2, "keepdim", False)
    return (base, keepdim) if isinstance(keepdim, bool) else None


def _linear(node: dict, by_name: dict[str, dict], readers: dict[str, list[str]]) -> dict | None:
    """x, weight, summed dim, bias, module of a linear map node (nn.Linear, F.linear, matmul with a
    parameter), or None."""
    if node["op"] == "call_module" and node.get("module_type") == "Linear" and len(node["args"]) == 1:
        return {"x": _ref(node["args"][0]), "weight": f"{node['target']}.weight", "summed_dim": 0,
                "bias": f"{node['target']}.bias", "module": node["target"], "dead": []}
    if node["op"] == "call_function" and node["target"] == "torch.nn.functional.linear":
        weight = by_name.get(_ref(_arg(node, 1, "weight")) or "")
        bias_ref = _arg(node, 2, "bias")
        bias = by_name.get(_ref(bias_ref) or "")
        if weight is None or weight["op"] != "get_attr" or (bias_ref is not None and (bias is None or bias["op"] != "get_attr")):
            return None
        return {"x": _ref(_arg(node, 0, "input")), "weight": weight["target"], "summed_dim": 0,
                "bias": bias["target"] if bias else None, "module": None, "dead": []}
    if node["target"] in MATMULS and node["op"] in ("call_function", "call_method") and len(node["args"]) == 2:
        right = by_name.get(_ref(node["args"][1]) or "")
        if right is None:
            return None
        if right["op"] == "get_attr" and len(right.get("shape") or []) == 2:
            return {"x": _ref(node["args"][0]), "weight": right["target"], "summed_dim": -1, "bias": None,
                    "module": None, "dead": []}
        if right["target"] in TRANSPOSES and len(readers.get(right["name"], [])) == 1:
            weight = by_name.get(_ref(right["args"][0]) if right["args"] else "")
            dims = [d % 2 for d in right["args"][1:3] if isinstance(d, int)]
            if weight is not None and weight["op"] == "get_attr" and len(weight.get("shape") or []) == 2 \
                    and (right["target"].endswith("t") and len(right["args"]) == 1 or sorted(dims) == [0, 1]):
                return {"x": _ref(node["args"][0]), "weight": weight["target"], "summed_dim": 0, "bias": None,
                        "module": None, "dead": [right["name"]]}
    return None


def sum_folds(graph: dict) -> list[SumFold]:
    """Every sum or mean over a linear map's output features, reached through constant scalings only,
    where no other op reads the product."""
    nodes = graph.get("nodes", []) if graph.get("traceable") else []
    by_name = {node["name"]: node for node in nodes}
    readers = _readers(nodes)

    def only_reader(name: str) -> dict | None:
        found = readers.get(name, [])
        return by_name[found[0]] if len(found) == 1 else None

    folds = []
    for node in nodes:
        source = by_name.get(_ref(_arg(node, 0, "input")) or "") if node["op"] != "output" else None
        reduced = _reduced_last_dim(node, source) if source else None
        if reduced is None:
            continue
        factor, chain, current = 1.0, [node["name"]], source
        # Constant scalings before the reduction (of the product) and after it (of the sums) fold in.
        while only_reader(current["name"]) is not None:
            operand = next((_ref(a) for a in current.get("args", []) if _ref(a)), None)
            scale = _scaling(current, operand) if operand else None
            if scale is None:
                break
            factor, chain, current = factor * scale, chain + [current["name"]], by_name[operand]
        replaced = node
        while (reader := only_reader(replaced["name"])) is not None:
            scale = _scaling(reader, replaced["name"])
            if scale is None:
                break
            factor, replaced = factor * scale, reader
            chain.insert(0, reader["name"])
        linear = _linear(current, by_name, readers) if only_reader(current["name"]) is not None else None
        if linear is None or linear["x"] is None:
            continue
        if reduced[0] == "mean":
            factor /= current["shape"][-1]
        folds.append(SumFold(replaced=replaced["name"], chain=chain + [current["name"]] + linear["dead"],
                             x=linear["x"], weight=linear["weight"], summed_dim=linear["summed_dim"],
                             bias=linear["bias"], module=linear["module"], factor=factor, keepdim=reduced[1]))
    return folds


def applies_sum_through_linear(spec: Spec) -> str | None:
    folds = sum_folds(spec.graph)
    if not folds:
        return None
    return (f"{'a sum' if len(folds) == 1 else f'{len(folds)} sums'} over a linear map's output features: by "
            f"linearity x @ W^T summed equals x @ W.sum(0), a matrix-vector product; the product matrix is never formed")


def generate_sum_through_linear(ctx: ImplementContext) -> Candidate | None:
    if ctx.graph is None:
        return None
    folds = sum_folds(ctx.spec.graph)
    if not folds:
        return None
    # The FX graph calls the same helper that the candidate's source defines at module level.
    namespace: dict = {"__name__": "hiera_generated"}
    exec(compile("import torch\nimport weakref\n" + SUMMED_HELPER, "<hiera-helper>", "exec"), namespace)
    summed = namespace["_hiera_summed"]
    import torch

    def edit(graph_module, nodes: dict) -> None:
        graph = graph_module.graph
        for fold in folds:
            bias = fold.bias
            if fold.module is not None and graph_module.get_submodule(fold.module).bias is None:
                bias = None
            replaced = nodes[fold.replaced]
            with graph.inserting_before(replaced):
                weight = graph.create_node("call_function", summed,
                                           (graph.get_attr(fold.weight), fold.summed_dim, fold.factor), name="summed_weight")
                value = graph.call_function(torch.matmul, (nodes[fold.x], weight))
                if bias is not None:
                    value = graph.call_function(torch.add, (value, graph.create_node(
                        "call_function", summed, (graph.get_attr(bias), 0, fold.factor), name="summed_bias")))
                if fold.keepdim:
                    value = graph.call_method("unsqueeze", (value, -1))
            replaced.replace_all_uses_with(value)
            for name in fold.chain:  # the weights' get_attr nodes the erased linears read go as dead code
                graph.erase_node(nodes[name])

    imports, forward = rewritten_forward_source(ctx.graph, edit, {"_hiera_summed": summed})
    code = model_new(ctx.reference_class,
                     "A sum over a linear map's output features computed as x @ (weights summed over those "
                     "features): a matrix-vector product instead of the GEMM and its reduction.",
                     forward=forward, helpers=SUMMED_HELPER, imports=imports + "\nimport weakref")
    return Candidate(name="pytorch.sum_through_linear", space="pytorch", strategy="sum_through_linear", code=code,
                     reason=applies_sum_through_linear(ctx.spec) or "")


register(Strategy("pytorch", "sum_through_linear", "a sum over a linear map's outputs taken through its weights",
                  applies_sum_through_linear, generate_sum_through_linear))
