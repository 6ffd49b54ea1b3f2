"""Lowerings of the scans (cumsum, cumprod), flip and roll. Pure (no torch).

A scan over any dim is one kernel of the scan template, its pointwise prologue (`x * mask`)
computed as it is read. A flip stays symbolic while only scans and flips read it: a scan of a
flipped tensor is the reverse scan of the tensor, flipped (`x.flip(d).cumsum(d).flip(d)`, the
suffix sum, is one kernel and no copy); two flips over the same dims cancel. A flip anything
else reads is a torch.flip call. A roll along one dim is read in place: each leaf of the rolled
expression that spans that dim is read with the offset (`HI_ROLLED`), so a periodic stencil
spelled with torch.roll (`roll(u, 1, 0) + roll(u, -1, 0) + ... - 4 * u`) is one pointwise
kernel, not a copy per roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.spaces.custom_cuda.expr import Expr, leaf, leaves_in, substitute
from hiera_core.spaces.custom_cuda.graph import Op, Step, Unsupported
from hiera_core.spaces.custom_cuda.lower_reductions import covers_in, template_input
from hiera_core.spaces.custom_cuda.lowering import Deferred, Lowerer, register_lowering


@dataclass
class Flipped(Deferred):
    """`source` flipped over `dims` (sorted, non-negative)."""

    source: Expr
    dims: tuple[int, ...]
    name: str  # the FX node that flips it

    def computed(self, lw: Lowerer) -> Expr:
        return self.made_by_torch(lw, self.source, f"torch.flip({{}}, {self.dims!r})", self.source.shape, self.name)


def _dims(value, rank: int, op: Op) -> tuple[int, ...]:
    dims = value if isinstance(value, (list, tuple)) else (value,)
    if not dims or not all(isinstance(d, int) and -rank <= d < rank for d in dims):
        raise Unsupported(f"{op.fn} over {value!r} ({op.name}) of a rank-{rank} tensor")
    return tuple(sorted({d % rank for d in dims}))


def _covered_by_producer(lw: Lowerer, value: Expr, *nodes: str) -> None:
    """Flips that cancel cost nothing: the step that computed `value` covers them, so the region
    plan shows them in its kernel (a lazy value has no step yet: nothing to show them in)."""
    for step in lw.steps:
        if value.op == "leaf" and value.params[0] in step.targets:
            step.covers.extend(n for n in nodes if n not in step.covers)


@register_lowering("flip")
def flip(lw: Lowerer, op: Op, args: dict):
    value = lw.value(args["input"])
    if isinstance(value, Flipped) and value.dims == _dims(args.get("dims"), len(value.source.shape), op):
        _covered_by_producer(lw, value.source, value.name, op.name)
        return value.source
    x = lw.lazy(args["input"])
    return Flipped(x, _dims(args.get("dims"), len(x.shape), op), op.name)


@register_lowering("cumsum", "cumprod")
def scan(lw: Lowerer, op: Op, args: dict):
    if args.get("dtype") is not None:
        raise Unsupported(f"{op.fn} with a dtype ({op.name}) has no template")
    value = lw.value(args["input"])
    flipped = value if isinstance(value, Flipped) else None
    x = flipped.source if flipped is not None else lw.lazy(args["input"])
    if not x.shape:
        raise Unsupported(f"{op.fn} of a 0-d tensor ({op.name}) has no template")
    (dim,) = _dims(args.get("dim"), len(x.shape), op)
    if flipped is not None and flipped.dims != (dim,):  # flipped over other dims too: scan the flip itself
        flipped, x = None, lw.lazy(args["input"])
    x = template_input(lw, op, x)
    config = {"op": op.fn.removeprefix("cum"), "dim": dim, "reverse": flipped is not None}
    # the same scan of the same value again (Mamba's cumsum of A, in and out of segsum): its result
    same = next((s for s in lw.steps if s.family == "scan" and s.exprs == [x] and s.config == config), None)
    if same is not None:
        same.covers.append(op.name)
        out = same.targets[0]
    else:
        out = lw.new_var(op.name)
        covers = covers_in(lw, x) + ([flipped.name] if flipped else [])
        lw.steps.append(Step("scan", [out], exprs=[x], covers=list(dict.fromkeys(covers + [op.name])), config=config))
    result = leaf(out, x.shape)
    # scan(flip(x)) = flip(reverse scan(x)): the flip stays symbolic, so a flip back cancels it
    return Flipped(result, (dim,), op.name) if flipped is not None else result


@register_lowering("roll")
def roll(lw: Lowerer, op: Op, args: dict) -> Expr:
    """torch.roll over one dim: the expression with its leaves read rolled (a leaf of size 1 along
    the dim is the same rolled or not); computed first where a leaf is already rolled or only
    partly spans the dim."""
    x = lw.lazy(args["input"])
    shifts, dims = args.get("shifts"), args.get("dims")
    shifts = shifts[0] if isinstance(shifts, (list, tuple)) and len(shifts) == 1 else shifts
    if dims is None or not isinstance(shifts, int) or not x.shape:
        raise Unsupported(f"roll ({op.name}) by {shifts!r} over {dims!r}: the template rolls one dim by a constant")
    (dim,) = _dims(dims, len(x.shape), op)
    x = template_input(lw, op, x)
    rolled = _rolled(x, dim, shifts)
    if rolled is None:
        (name,) = lw.materialize([x])
        rolled = _rolled(leaf(name, x.shape), dim, shifts)
    return lw.cover(op, rolled)


def _rolled(x: Expr, dim: int, shift: int) -> Expr | None:
    """x rolled by `shift` along `dim`, or None where a leaf cannot be read rolled."""
    rank = len(x.shape)
    mapping: dict[Expr, Expr] = {}
    for e in leaves_in([x]):
        along = dim - (rank - len(e.shape))  # the leaf's own dim that broadcasts against `dim`
        if along < 0 or e.shape[along] == 1:
            continue
        if e.shape != x.shape or any(isinstance(flag, tuple) for flag in e.params[1:]):
            return None
        mapping[e] = Expr("leaf", params=(*e.params, ("roll", dim, shift)), shape=e.shape)
    return substitute(x, mapping)
