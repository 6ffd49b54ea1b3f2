"""Attention written by hand, found from what the graph computes: softmax over the last dim of
`q @ k^T` (a matmul with k transposed, or an einsum) under positive scaling, additive masks, masked
fills and views, times `v`.

`softmax(f(q @ k^T)) @ v` is F.scaled_dot_product_attention when `f` is affine in the scores with a
positive slope: `f(S) = c * S + f(0)`. That holds for products and quotients by positive numbers,
the addition of tensors that do not read the scores, masked fills of very negative values from
conditions that do not read them (`masked_fill`, `torch.where`), and views that come back to the
scores' shape. So `c` is SDPA's scale and `f(0)`, the chain replayed on zeros, its additive mask.
When that mask does not depend on the inputs and is the lower triangle (0 on and below the
diagonal, -inf or a very negative number above it), SDPA runs it as `is_causal`, which never reads
a mask: nanoGPT's buffer compare, LLaMA's finfo.min triangle. Dropout in eval mode and same-dtype
conversions between the softmax and the product are identities.

nn.MultiheadAttention called for its output alone (its attention weights, the second output, read
by nothing) computes the same with `need_weights=False`, through F.scaled_dot_product_attention,
instead of writing the softmax and averaging it over the heads (unread_attention_weights).

The match works on the spec's JSON graph (spec/contract.trace_graph), so the planner (no FX graph)
and the generator (which rewrites the FX graph by the same node names) agree on what is attention.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.spaces.gemm_epilogue import SAME_DTYPE_IDENTITY
from hiera_core.spec.model import node_refs, node_users

MATMULS = {"operator.matmul", "torch.matmul", "torch.bmm", "matmul", "bmm"}
# Between the softmax and the product with v: identities in an inference contract.
IDENTITIES = {"dropout", "Dropout"} | SAME_DTYPE_IDENTITY
# A masked fill or an additive mask at most this value removes a score from the softmax as -inf does
# (exp(-1e4) underflows float32 and half); finfo.min triangles and -1e9 fills qualify.
MASKED_BELOW = -1e4
SCALINGS = {"operator.mul": "mul", "torch.mul": "mul", "mul": "mul",
            "operator.truediv": "div", "torch.div": "div", "div": "div", "truediv": "div"}
ADDITIONS = {"operator.add": "add", "torch.add": "add", "add": "add",
             "operator.sub": "sub", "torch.sub": "sub", "sub": "sub"}
SHAPE_VIEWS = {"view", "reshape", "torch.reshape"}


@dataclass(frozen=True)
class AttentionMatch:
    """One hand-written attention (names of the spec's graph nodes)."""

    scores: str  # q @ k^T
    query: str
    key: str  # k, before its transpose
    value: str
    chain: tuple[str, ...]  # from the scores (exclusive) to the softmax's input (inclusive), in order
    scales: tuple[tuple[str, object], ...]  # ("mul" | "div", a number or a scalar node's name), in order
    masked: bool  # the chain adds or fills a mask
    elementwise: bool  # the chain has no views: the mask can be replayed over the batch dims alone
    softmax: str
    identities: tuple[str, ...]  # between the softmax and the product with v
    out: str  # the product with v, which SDPA replaces


def _indexed(graph: dict) -> tuple[list[dict], dict[str, dict], dict[str, set[str]]]:
    """The spec graph's nodes, by name, and each one's readers; no nodes when it was not traced."""
    nodes = graph.get("nodes", []) if graph.get("traceable") else []
    return nodes, {node["name"]: node for node in nodes}, node_users(nodes)


def attention_matches(graph: dict) -> list[AttentionMatch]:
    """The spec graph's hand-written attentions, in graph order."""
    nodes, by_name, users = _indexed(graph)
    found = []
    for node in nodes:
        if _is_product(node):
            match = _match(node, by_name, users)
            if match is not None:
                found.append(match)
    return found


def _op(node: dict) -> str:
    if node["op"] == "call_module":
        return node.get("module_type") or ""
    if node["op"] == "call_method":
        return node["target"]
    return node["target"] if node["op"] == "call_function" else ""


def _ref(value) -> str | None:
    return value["node"] if isinstance(value, dict) and set(value) == {"node"} else None


def _single_user(name: str, users: dict) -> bool:
    return len(users.get(name, set())) == 1


def _is_product(node: dict) -> bool:
    """A batched product of two tensors: a matmul, or a two-operand torch.einsum."""
    if _op(node) in MATMULS:
        return len(node.get("args", [])) == 2 and not node.get("kwargs")
    return _einsum(node) is not None


def _einsum(node: dict) -> tuple[str, str, str, list] | None:
    """(first operand's subscripts, second's, the output's, the two operands) of a two-operand
    torch.einsum, spaces removed and an ellipsis as one subscript; None otherwise."""
    args = node.get("args", [])
    if _op(node) not in ("torch.einsum", "torch.functional.einsum") or node.get("kwargs") or not args \
            or not isinstance(args[0], str):
        return None
    operands = args[1] if len(args) == 2 and isinstance(args[1], list) else args[1:]
    equation = args[0].replace(" ", "").replace("...", "*")
    if len(operands) != 2 or equation.count("->") != 1:
        return None
    inputs, output = equation.split("->")
    if inputs.count(",") != 1:
        return None
    first, second = inputs.split(",")
    return first, second, output, operands


def _operands(node: dict, by_name: dict, scores: bool) -> tuple[str, str] | None:
    """For the scores (`scores`), (q, k) of q @ k^T; else (p, v) of p @ v: the names of a product's
    operands when it computes that over the same leading dims, else None."""
    if _op(node) in MATMULS:
        left, right = (_ref(arg) for arg in node["args"])
        if left is None or right is None:
            return None
        return (left, _untransposed(by_name[right])) if scores else (left, right)
    first, second, output, operands = _einsum(node)
    left, right = (_ref(arg) for arg in operands)
    if left is None or right is None or min(len(first), len(second), len(output)) < 2:
        return None
    batch = first[:-2]
    if second[:-2] != batch or output[:-2] != batch or len(set(first + second[-2:])) != len(batch) + 3:
        return None
    row, inner = first[-2:]
    col = second[-2] if scores else second[-1]
    wanted = (second[-1] == inner and output[-2:] == row + col) if scores else \
        (second[-2] == inner and output[-2:] == row + col)
    return (left, right) if wanted else None


def _match(out: dict, by_name: dict, users: dict) -> AttentionMatch | None:
    found = _operands(out, by_name, scores=False)
    if found is None:
        return None
    probs_name, value_name = found
    probs = by_name[probs_name]
    identities = []
    while _is_identity(probs, by_name):  # dropout, same-dtype conversions
        if not _single_user(probs["name"], users):
            return None
        identities.append(probs["name"])
        probs = by_name[_ref(probs["args"][0])]
    if not _is_last_dim_softmax(probs, by_name) or not _single_user(probs["name"], users):
        return None
    softmax = probs
    chain: list[str] = []
    scales: list[tuple[str, object]] = []
    masked, elementwise = False, True
    current = by_name[_ref(softmax["args"][0])]
    while not _is_product(current):
        if not _single_user(current["name"], users):
            return None
        step = _chain_step(current, by_name)
        if step is None:
            return None
        kind, through, operand = step
        if kind in ("mul", "div"):
            scales.append((kind, operand))
        elif kind in ("add", "fill"):
            masked = True
        elif kind == "view":
            elementwise = False
        chain.append(current["name"])
        current = by_name[through]
    scores = current
    found = _operands(scores, by_name, scores=True)
    if not _single_user(scores["name"], users) or found is None or found[1] is None:
        return None
    query_name, key_name = found
    query, key, value = by_name[query_name], by_name[key_name], by_name[value_name]
    shapes = [node.get("shape") for node in (query, key, value, scores, softmax)]
    if any(not shape or len(shape) < 3 for shape in shapes):
        return None
    q_shape, k_shape, v_shape, s_shape, p_shape = shapes
    same_batch = q_shape[:-2] == k_shape[:-2] == v_shape[:-2]
    if not same_batch or q_shape[-1] != k_shape[-1] or k_shape[-2] != v_shape[-2] or p_shape != s_shape:
        return None
    dtypes = {node.get("dtype") for node in (query, key, value, scores, softmax, out)}
    if len(dtypes) != 1 or dtypes.pop() not in ("float32", "float16", "bfloat16"):
        return None
    return AttentionMatch(scores=scores["name"], query=query_name, key=key_name, value=value_name,
                          chain=tuple(reversed(chain)), scales=tuple(reversed(scales)), masked=masked, elementwise=elementwise,
                          softmax=softmax["name"], identities=tuple(reversed(identities)), out=out["name"])


def _is_identity(node: dict, by_name: dict) -> bool:
    op = _op(node).rsplit(".", 1)[-1]
    if op not in IDENTITIES or not node.get("args") or _ref(node["args"][0]) is None:
        return False
    source = by_name[_ref(node["args"][0])]
    if op in ("dropout", "Dropout"):  # eval mode (the inference contract), or p=0 called with training=True
        kwargs, constants = node.get("kwargs", {}), node.get("constants") or {}
        p = kwargs.get("p", constants.get("p", node["args"][1] if len(node["args"]) > 1 else 0.5))
        return kwargs.get("training") is not True or p == 0
    return node.get("dtype") == source.get("dtype") and node.get("shape") == source.get("shape")


def _is_last_dim_softmax(node: dict, by_name: dict) -> bool:
    op = _op(node)
    if op not in ("torch.softmax", "torch.nn.functional.softmax", "softmax", "Softmax") or not node.get("args"):
        return False
    source_name = _ref(node["args"][0])
    if source_name is None:
        return False
    source = by_name[source_name]
    if op == "Softmax":
        dim = (node.get("constants") or {}).get("dim")
    else:
        dim = node.get("kwargs", {}).get("dim", node["args"][1] if len(node["args"]) > 1 else None)
    rank = len(source.get("shape") or [])
    return isinstance(dim, int) and rank > 0 and dim % rank == rank - 1 and node.get("dtype") == source.get("dtype")


def _is_scalar(value, by_name: dict) -> bool:
    """A Python number, or a node computing one (from sizes: `1 / math.sqrt(k.size(-1))`)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    name = _ref(value)
    return name is not None and by_name[name].get("shape") is None and by_name[name].get("dtype") is None


def _chain_step(node: dict, by_name: dict) -> tuple[str, str, object] | None:
    """(kind, the scores-side node it reads, its other operand) for one op of the chain, or None when
    the op is not affine in the scores with a positive slope."""
    args, kwargs = node.get("args", []), node.get("kwargs", {})
    op = _op(node)
    if op == "torch.where" and len(args) == 3 and not kwargs:  # where(cond, scores, -inf) or (cond, -inf, scores)
        condition, kept, fill = args if _ref(args[1]) is not None else (args[0], args[2], args[1])
        if _ref(condition) is None or _ref(kept) is None or not isinstance(fill, (int, float)) \
                or fill > MASKED_BELOW or by_name[_ref(kept)].get("shape") != node.get("shape"):
            return None
        return "fill", _ref(kept), _ref(condition)
    if op in SCALINGS and SCALINGS[op] == "mul" and len(args) == 2 and not kwargs \
            and _is_scalar(args[0], by_name) and not _is_scalar(args[1], by_name):
        args = [args[1], args[0]]  # scale * scores
    first = _ref(args[0]) if args else None
    if first is None:
        return None
    if op in SCALINGS and len(args) == 2 and not kwargs and _is_scalar(args[1], by_name):
        number = args[1]
        if isinstance(number, (int, float)) and number <= 0:
            return None
        return SCALINGS[op], first, number if _ref(number) is None else _ref(number)
    if op in ADDITIONS and len(args) == 2 and not kwargs:
        other = _ref(args[1])
        if ADDITIONS[op] == "add" and by_name[first].get("shape") != node.get("shape") and other is not None \
                and by_name[other].get("shape") == node.get("shape"):
            first, other = other, first  # mask + scores
        if by_name[first].get("shape") != node.get("shape"):
            return None  # the mask broadcasts the scores to a larger shape
        return "add", first, other
    if op in ("masked_fill", "torch.masked_fill") and len(args) == 3 and not kwargs:
        fill = args[2]
        if _ref(args[1]) is None or not isinstance(fill, (int, float)) or fill > MASKED_BELOW:
            return None
        if by_name[first].get("shape") != node.get("shape"):
            return None
        return "fill", first, _ref(args[1])
    if op in SHAPE_VIEWS and not kwargs:
        return "view", first, None
    return None


def _untransposed(node: dict) -> str | None:
    """`k` for a node that is `k` with its last two dims swapped, else None."""
    shape = node.get("shape") or []
    rank = len(shape)
    args = node.get("args", [])
    source = _ref(args[0]) if args else None
    if source is None or rank < 2:
        return None
    op = _op(node)
    if op in ("transpose", "torch.transpose") and len(args) == 3 and all(isinstance(a, int) for a in args[1:]):
        return source if {args[1] % rank, args[2] % rank} == {rank - 2, rank - 1} else None
    if op in ("permute", "torch.permute"):
        dims = args[1:] if len(args) > 2 else list(args[1]) if len(args) == 2 and isinstance(args[1], list) else []
        if len(dims) == rank and all(isinstance(d, int) for d in dims):
            expected = list(range(rank - 2)) + [rank - 1, rank - 2]
            return source if [d % rank for d in dims] == expected else None
    return None


def mask_reads_inputs(match: AttentionMatch, graph: dict) -> bool:
    """Whether the chain's masks read the forward's inputs (beyond their sizes, which are static)."""
    nodes = graph.get("nodes", [])
    by_name = {node["name"]: node for node in nodes}
    seen: set[str] = set()
    stack = [ref for name in match.chain for ref in node_refs(by_name[name]) if ref not in match.chain]
    stack = [ref for ref in stack if ref != match.scores]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        node = by_name[name]
        if node["op"] == "placeholder":
            return True
        if node.get("shape") is None and node.get("dtype") is None:
            continue  # a size or a number computed from sizes
        stack.extend(node_refs(node))
    return False


def causal_mask(mask) -> bool:
    """Whether `mask` (..., L, S), a chain replayed on zero scores, is 0 on and below the diagonal and
    at most MASKED_BELOW above it, in every leading index: what SDPA's `is_causal` computes."""
    import torch

    rows, cols = mask.shape[-2:]
    below = torch.ones(rows, cols, dtype=torch.bool, device=mask.device).tril()
    kept = mask == 0
    removed = mask <= MASKED_BELOW
    return bool((kept == below).all()) and bool((removed == ~below).all())


def tensor_ops_on_inputs(graph: dict) -> list[str]:
    """The graph's ops that compute tensors from the forward's inputs (not views, not constants made
    from buffers alone, not numbers from sizes): what a compiler could fuse around the attention."""
    computes_on_inputs: set[str] = set()
    found = []
    for node in graph.get("nodes", []):
        if node["op"] == "placeholder":
            computes_on_inputs.add(node["name"])
            continue
        if node.get("shape") is None or not set(node_refs(node)) & computes_on_inputs:
            continue
        computes_on_inputs.add(node["name"])
        if node.get("kind") not in ("view", "output", "get_attr"):
            found.append(node["name"])
    return found


# nn.MultiheadAttention.forward(query, key, value, key_padding_mask, need_weights, ...): its fifth
# positional argument is need_weights.
MHA_NEED_WEIGHTS_POSITION = 4


def unread_attention_weights(graph: dict) -> list[str]:
    """The spec graph's nn.MultiheadAttention calls that compute their attention weights (need_weights
    not already False) for nothing: every reader takes the output alone (`out, _ = self.attn(...)`)."""
    nodes, by_name, users = _indexed(graph)
    found = []
    for node in nodes:
        if node["op"] != "call_module" or node.get("module_type") != "MultiheadAttention":
            continue
        if len(node.get("args", [])) > MHA_NEED_WEIGHTS_POSITION or node.get("kwargs", {}).get("need_weights") is False:
            continue
        readers = [by_name[name] for name in users.get(node["name"], ())]
        if readers and all(_op(reader) == "operator.getitem" and (reader["args"][1] == 0 or not users.get(reader["name"]))
                           for reader in readers):
            found.append(node["name"])
    return found
