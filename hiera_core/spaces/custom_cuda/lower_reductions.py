"""Lowerings of the reductions and of pooling. Pure (no torch).

A reduction over the last dim stays a lazy row reduction (fused into a row kernel with its
prologue and epilogue), and so does one over a short other dim of many rows (a channels-first
layer norm's statistics over C: `fused_column_rows`); over another dim, and argmax/argmin, it is
a step of the dim-reduction template; over several dims, the trailing ones by rows and each other
by the dim template; over every element (sum, mean, mse_loss) one of the total template. A product over a dim (any dim, the
last too) is a step of the dim-reduction template. torch.max/min(x, dim)
is a pair the getitem that follows resolves (`lower_library`). Pooling has its own template, which
applies the pointwise ops before it as it reads (`_pool_input`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hiera_core.spaces.custom_cuda.expr import (
    Expr,
    is_mask,
    leaf,
    leaves_in,
    reductions_in,
    renamed,
    row_reduction,
    scalars_in,
    substitute,
    without_dim,
)
from hiera_core.spaces.custom_cuda.fused import TEMPLATE_OUTPUT
from hiera_core.spaces.custom_cuda.graph import Op, Ref, Step, Unsupported
from hiera_core.spaces.custom_cuda.lowering import Lowerer, PyValue, register_lowering


@dataclass
class TupleOfReduction:
    """torch.max/min(x, dim): values and indices, resolved by the getitem that follows."""

    op: str  # "max" | "min"
    input: Expr
    dim: int
    keepdim: bool
    covers: str


@register_lowering("sum", "mean", "amax", "amin", "argmax", "argmin", "max", "min", "prod")
def reduction(lw: Lowerer, op: Op, args: dict):
    fn = op.fn
    dim = args.get("dim", args.get("other"))
    if fn in ("max", "min") and isinstance(dim, Ref):  # torch.max(a, b): the elementwise maximum
        return lw.node(op, "maximum" if fn == "max" else "minimum", (lw.lazy(args["input"]), lw.operand(dim)))
    if fn == "prod" and dim is None:
        raise Unsupported(f"prod of every element ({op.name}) has no template")
    if dim is None and fn in ("sum", "mean") and not args.get("keepdim") and args.get("dtype") is None:
        return total(lw, op, lw.lazy(args["input"]), fn == "mean")
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    if args.get("dtype") is not None:
        raise Unsupported(f"{fn} with a dtype ({op.name}) has no template")
    keepdim = bool(args.get("keepdim", False))
    if isinstance(dim, (list, tuple)) and fn in ("sum", "mean", "amax", "amin"):
        return dims_reduction(lw, op, fn, lw.lazy(args["input"]), dim, keepdim)
    if not isinstance(dim, int):
        raise Unsupported(f"{fn} over {dim!r} ({op.name}): the templates reduce one given dim")
    x = lw.lazy(args["input"])
    rank = len(x.shape)
    dim = dim % rank if rank else 0
    if fn in ("max", "min"):
        return TupleOfReduction(fn, x, dim, keepdim, op.name)
    if fn in ("argmax", "argmin", "prod"):  # the dim-reduction template, over the last dim too
        return _reduce_step(lw, op, fn, x, dim, keepdim)
    if dim != rank - 1 and not column_rows_fit(x.shape, dim):
        return _reduce_step(lw, op, fn, x, dim, keepdim)
    value = row_reduction({"sum": "rsum", "mean": "rsum", "amax": "rmax", "amin": "rmin"}[fn], x, dim)
    if fn == "mean":
        value = Expr("mul", (value, Expr("inv_n")), shape=value.shape)
    if not keepdim:
        value = Expr("dropdim", (value,), shape=without_dim(x.shape, dim))
    return lw.cover(op, value)


def column_rows_fit(shape: tuple, dim: int) -> bool:
    """Whether a reduction over `dim`, not the last, is a row reduction (a column-row kernel, fused
    with what reads and uses it) rather than a dim-reduction step of its own: where the dim is short
    (its rows' kernel walks it) and its rows many (enough warps). ConvNeXt's layer norm over 96
    channels of (16, 96, 56, 56) took 4 kernels as steps, 4.6x torch.compile's GPU time (H100)."""
    extent = shape[dim]
    rows = math.prod(shape) // extent if extent else 0
    return 1 < extent <= 256 and rows >= max(16384, 16 * extent)


def dims_reduction(lw: Lowerer, op: Op, fn: str, x: Expr, dims, keepdim: bool) -> Expr:
    """sum/mean/amax/amin over several dims. Over trailing ones, one row reduction
    (trailing_reduction); over others (a batch norm's statistics over (0, 2, 3)), the trailing run
    first and then each other dim, the innermost first, by the dim-reduction template: the first
    pass reads x once and the others its per-row results (a mean of equally sized means is the mean)."""
    rank = len(x.shape)
    reduced = reduced_dims(op, fn, dims, rank)
    if len(reduced) == 1:
        return reduction(lw, op, {"input": x, "dim": reduced[0], "keepdim": keepdim})
    first = rank
    while first - 1 in reduced:
        first -= 1
    first = max(first, 1)  # every dim: the trailing ones by rows, the first by the dim template
    if first < rank and first == reduced[0]:
        return trailing_reduction(lw, op, fn, x, reduced, keepdim)
    key = (fn, x, tuple(reduced))

    def stage(dims_now: list[int]) -> Op:
        kept = tuple(1 if d in dims_now else size for d, size in enumerate(x.shape))
        return Op(op.name, "call_function", fn, f"torch.{fn}", None, [], {}, kept, op.dtype)

    if key not in lw.reduced:
        done, value = [d for d in reduced if d >= first], x
        if done:
            value = trailing_reduction(lw, stage(done), fn, x, done, keepdim=True)
        for d in reversed([d for d in reduced if d < first]):
            done.append(d)
            value = _reduce_step(lw, stage(done), fn, value, d, keepdim=True)
        lw.reduced[key] = value
    value = lw.reduced[key]
    if keepdim:
        return value
    (kept,) = lw.materialize([value])
    out = lw.new_var(op.name)
    lw.steps.append(Step("library", [out], call=f"{kept}.squeeze({tuple(reduced)})", covers=[op.name]))
    return leaf(out, tuple(size for d, size in enumerate(x.shape) if d not in reduced))


def reduced_dims(op: Op, fn: str, dims, rank: int) -> list[int]:
    """The dims `fn` reduces of a rank-`rank` tensor, non-negative and sorted; Unsupported unless each
    is an int naming one of its dims."""
    if not all(isinstance(d, int) and -rank <= d < rank for d in dims):
        raise Unsupported(f"{fn} over {dims!r} ({op.name}) of a rank-{rank} tensor")
    return sorted({d % rank for d in dims})


def trailing_reduction(lw: Lowerer, op: Op, fn: str, x: Expr, dims, keepdim: bool) -> Expr:
    """sum/mean/amax/amin over the trailing dims (a global average pool's [2, 3]): a row reduction over
    the last dim of x with those dims flattened into one (a view of the materialized x); with
    keepdim, the per-row result viewed back with ones in their place."""
    rank = len(x.shape)
    reduced = reduced_dims(op, fn, dims, rank)
    first = reduced[0] if reduced else rank
    if reduced != list(range(first, rank)) or first == 0:
        raise Unsupported(f"{fn} over dims {dims!r} ({op.name}): the templates reduce the trailing dims of a batch")
    rows = _flattened(lw, op, x, first)
    if rows is None:  # not elementwise over the flattened dims: computed first, then viewed
        (source,) = lw.materialize([x])
        flat = lw.new_var(f"{op.name}_rows")
        lw.steps.append(Step("library", [flat], call=f"{source}.flatten({first})", covers=[op.name]))
        rows = leaf(flat, x.shape[:first] + (math.prod(x.shape[first:]),))
    as_row = Op(op.name, "call_function", fn, f"torch.{fn}", None, [], {}, x.shape[:first], op.dtype)
    value = reduction(lw, as_row, {"input": rows, "dim": first, "keepdim": False})
    if not keepdim:
        return value
    (per_row,) = lw.materialize([value])
    out = lw.new_var(op.name)
    lw.steps.append(Step("library", [out], call=f"{per_row}[(...,{' None,' * (rank - first)})]", covers=[op.name]))
    return leaf(out, x.shape[:first] + (1,) * (rank - first))


def _flattened(lw: Lowerer, op: Op, x: Expr, first: int) -> Expr | None:
    """x, a pointwise expression, with its dims from `first` on flattened into one, computed where
    it is read: each leaf viewed with its trailing dims flattened (those dims either all x's or all
    1: a per-channel bias stays a broadcast). None where that does not hold, or x has reductions."""
    rank, trailing = len(x.shape), x.shape[first:]
    count = len(trailing)
    if reductions_in([x]):
        return None
    memo: dict[Expr, Expr] = {}

    def shape_of(shape: tuple) -> tuple | None:
        if len(shape) < count:
            return shape if all(size == 1 for size in shape) else None
        tail = shape[len(shape) - count:]
        size = 1 if all(t == 1 for t in tail) else math.prod(tail) if tail == trailing else None
        return None if size is None else shape[:len(shape) - count] + (size,)

    def rebuild(node: Expr) -> Expr | None:
        if node not in memo:
            shape = shape_of(node.shape)
            if node.op == "const" or shape is None:
                memo[node] = node if node.op == "const" else None
            elif node.op == "leaf":
                if shape == node.shape:
                    memo[node] = node
                else:
                    flat = lw.new_var(f"{node.params[0].split('.')[-1].removeprefix('v_')}_rows")
                    lw.steps.append(Step("library", [flat], call=f"{node.params[0]}.flatten({-count})",
                                         covers=[op.name]))
                    memo[node] = renamed(node, flat, shape)
            else:
                args = [rebuild(arg) for arg in node.args]
                memo[node] = None if any(a is None for a in args) else Expr(node.op, tuple(args), node.params, shape)
                if memo[node] is not None and node in lw.covers:
                    lw.covers.setdefault(memo[node], lw.covers[node])
        return memo[node]

    return rebuild(x) if rank > count else None


@register_lowering(*(f"adaptive_{kind}_pool{rank}d" for kind in ("avg", "max") for rank in (1, 2, 3)))
def global_pool(lw: Lowerer, op: Op, args: dict) -> Expr:
    """Adaptive pooling to one point (a CNN's head): the mean (the max) over the pooled dims."""
    rank = int(op.fn[-2])
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    size = module.output_size if module is not None else args.get("output_size")
    if (module.return_indices if module is not None and hasattr(module, "return_indices")
            else args.get("return_indices")):
        raise Unsupported(f"{op.fn} ({op.name}) with return_indices has no template")
    if op.op == "call_module" and module is None:  # planning: the module's size is checked at generation
        size = 1
    sizes = tuple(size) if isinstance(size, (list, tuple)) else (size,) * rank
    if any(s != 1 for s in sizes):
        raise Unsupported(f"{op.fn} ({op.name}) to {size!r}: only pooling to one point has a template")
    x = lw.lazy(args["input"])
    return trailing_reduction(lw, op, "mean" if "avg" in op.fn else "amax", x, list(range(-rank, 0)), keepdim=True)


def tuple_item(lw: Lowerer, op: Op, pair: TupleOfReduction, index) -> Any:
    """Item `index` of torch.max/min(x, dim): its values (0), by amax/amin, or its indices."""
    fn = ("a" if index == 0 else "arg") + pair.op
    fake = Op(pair.covers, "call_function", fn, pair.op, None, [], {}, op.shape, op.dtype)
    if index == 0:
        return reduction(lw, fake, {"input": pair.input, "dim": pair.dim, "keepdim": pair.keepdim})
    return _reduce_step(lw, fake, fn, pair.input, pair.dim, pair.keepdim)


def _reduce_step(lw: Lowerer, op: Op, fn: str, x: Expr, dim: int, keepdim: bool) -> Expr | PyValue:
    (source,) = lw.materialize([x])
    out = lw.new_var(op.name)
    lw.steps.append(Step("reduce", [out], inputs=[source], covers=[op.name],
                         config={"op": fn, "dim": dim, "keepdim": keepdim}))
    return PyValue(out) if fn.startswith("arg") else leaf(out, op.shape or ())


def template_input(lw: Lowerer, op: Op, x: Expr) -> Expr:
    """x as a template that computes its input as it reads it takes it: a pointwise expression of
    leaves (reductions inside it computed first, by their own kernel)."""
    if reductions_in([x]):
        (name,) = lw.materialize([x])
        x = leaf(name, x.shape)
    if not leaves_in([x]):
        raise Unsupported(f"{op.fn} of a constant ({op.name}) has no template")
    return x


def covers_in(lw: Lowerer, x: Expr) -> list[str]:
    """The FX nodes expression x computes."""
    return [lw.covers[node] for node in x.walk() if node in lw.covers]


def total(lw: Lowerer, op: Op, x: Expr, mean: bool, per_first_dim: bool = False) -> Expr:
    """Sum or mean of every element of x (per_first_dim: the sum divided by the size of x's first
    dim, a batch mean): its pointwise expression is computed and summed in one kernel (never
    written), a second adds the per-block partials."""
    x = template_input(lw, op, x)
    out = lw.new_var(op.name)
    lw.steps.append(Step("total", [out], exprs=[x], covers=list(dict.fromkeys(covers_in(lw, x) + [op.name])),
                         config={"divide": "all" if mean else "first_dim" if per_first_dim else "none"}))
    return leaf(out, ())


@register_lowering("mse_loss")
def mse_loss(lw: Lowerer, op: Op, args: dict) -> Expr:
    if args.get("size_average") is not None or args.get("reduce") is not None:
        raise Unsupported(f"mse_loss ({op.name}) with the deprecated size_average/reduce arguments")
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    reduction = module.reduction if module is not None else args.get("reduction", "mean")
    prediction, target = lw.lazy(args["input"]), lw.lazy(args["target"])
    if prediction.shape != target.shape:
        raise Unsupported(f"mse_loss ({op.name}) of differently shaped tensors (broadcast) has no template")
    error = lw.cover(op, Expr("square", (Expr("sub", (prediction, target), (1.0,), prediction.shape),),
                              shape=prediction.shape))
    if reduction == "none":
        return error
    if reduction not in ("mean", "sum"):
        raise Unsupported(f"mse_loss ({op.name}) with reduction={reduction!r}")
    return total(lw, op, error, reduction == "mean")


@register_lowering(*(f"{kind}_pool{rank}d" for kind in ("max", "avg") for rank in (1, 2, 3)))
def pool(lw: Lowerer, op: Op, args: dict) -> Expr:
    fn = op.fn
    x = lw.lazy(args["input"])
    rank = int(fn[-2])
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    if op.op == "call_module" and module is None:  # planning: a placeholder, attributes come at generation
        config = {"kind": fn[:3], "rank": rank, "kernel": (1,) * rank, "stride": (1,) * rank,
                  "padding": (0,) * rank, "dilation": (1,) * rank, "ceil_mode": False,
                  "count_include_pad": True, "divisor_override": None}
    else:
        source = {k: getattr(module, k) for k in ("kernel_size", "stride", "padding", "dilation", "ceil_mode",
                                                   "count_include_pad", "divisor_override", "return_indices")
                  if hasattr(module, k)} if module is not None else args
        config = pool_config(fn, rank, source)
    if config is None:
        raise Unsupported(f"{fn} ({op.name}) with return_indices has no template")
    if len(x.shape) not in (rank + 1, rank + 2):
        raise Unsupported(f"{fn} ({op.name}) on a rank-{len(x.shape)} input")
    source_var, prologue, per_channel = _pool_input(lw, x, batched=len(x.shape) == rank + 2)
    if prologue is not None:
        config.update(prologue=prologue, per_channel=per_channel)
    out = lw.new_var(op.name)
    covers = covers_in(lw, x) if prologue is not None else []
    lw.steps.append(Step("pool", [out], inputs=[source_var], covers=[*covers, op.name], config=config))
    return leaf(out, op.shape or ())


def _pool_input(lw: Lowerer, x: Expr, batched: bool) -> tuple[str, Expr | None, list[Expr]]:
    """What a pooling kernel reads: (the tensor, the prologue it applies to each value, the
    per-channel tensors that prologue reads). A pointwise expression of one map of x's shape and of
    the module's per-channel tensors (a batch norm and ReLU after a convolution) is applied as the
    kernel reads the map, instead of a kernel of its own writing the activated map for the pool to
    read again; anything else is computed first (prologue None)."""
    if x.op != "leaf" and batched and not reductions_in([x]) and not scalars_in([x]):
        leaves = leaves_in([x])
        maps = [e for e in leaves if e.shape == x.shape]
        others = [e for e in leaves if e.shape != x.shape]
        if len(maps) == 1 and not is_mask(maps[0]) and all(lw.per_channel(e, x.shape) for e in others):
            return maps[0].params[0], substitute(x, {maps[0]: leaf(TEMPLATE_OUTPUT, x.shape)}), others
    (source_var,) = lw.materialize([x])
    return source_var, None, []


def pool_config(fn: str, rank: int, args: dict) -> dict | None:
    if args.get("return_indices"):
        return None

    def expand(value, default):
        value = default if value is None else value
        return tuple(value) if isinstance(value, (list, tuple)) else (int(value),) * rank

    kernel = expand(args.get("kernel_size"), 1)
    return {"kind": fn[:3], "rank": rank, "kernel": kernel,
            "stride": expand(args.get("stride") or None, kernel), "padding": expand(args.get("padding"), 0),
            "dilation": expand(args.get("dilation"), 1), "ceil_mode": bool(args.get("ceil_mode", False)),
            "count_include_pad": bool(args.get("count_include_pad", True)),
            "divisor_override": args.get("divisor_override")}
