"""Lowerings of ops that are compositions of the templates' pieces, as Inductor decomposes them:
vector norms and F.normalize, logsumexp, variance and standard deviation, the smooth L1, Huber,
triplet margin, KL divergence, cross-entropy and NLL losses, cosine similarity, and the activations with a threshold
or a weight (hardshrink, softshrink, PReLU). Each is written out in pointwise expressions, row
reductions (one row kernel with its prologue and epilogue), a dim reduction or a total, so it
fuses with what surrounds it instead of ending a kernel. Pure (no torch).
"""

from __future__ import annotations

import math

from hiera_core.spaces.custom_cuda.expr import Expr, const, leaf, row_reduction, without_dim
from hiera_core.spaces.custom_cuda.graph import Op, Step, Unsupported, attr_expr
from hiera_core.spaces.custom_cuda.lower_norms import is_last_dim, row_dim
from hiera_core.spaces.custom_cuda.lower_reductions import dims_reduction, reduced_dims, reduction, total
from hiera_core.spaces.custom_cuda.lowering import Lowerer, register_lowering

# reduction= of the losses -> what follows the elementwise loss
_REDUCTIONS = ("none", "mean", "sum")


def _row(fn: str, e: Expr, dim: int | None = None) -> Expr:
    """A reduction of e over `dim` (the last by default), kept as a dim of 1 (rsum, rmax)."""
    return row_reduction(fn, e, dim)


def _unary(fn: str, e: Expr, *params: float) -> Expr:
    return Expr(fn, (e,), params, e.shape)


def _kept(lw: Lowerer, op: Op, value: Expr, keepdim: bool, dim: int | None = None) -> Expr:
    """A row value (its `dim`, the last by default, of size 1) as the op returns it: with the dim
    kept or dropped."""
    dropped = without_dim(value.shape, len(value.shape) - 1 if dim is None else dim)
    return lw.cover(op, value if keepdim else Expr("dropdim", (value,), shape=dropped))


@register_lowering("norm")
def norm(lw: Lowerer, op: Op, args: dict) -> Expr:
    """torch.norm / Tensor.norm with p = 2 ("fro") or 1: over every element, the last dim or one dim."""
    x = lw.lazy(args["input"])
    p, dim, keepdim = args.get("p", "fro"), args.get("dim"), bool(args.get("keepdim", False))
    if args.get("dtype") is not None or args.get("out") is not None:
        raise Unsupported(f"norm with a dtype or out ({op.name}) has no template")
    if p in ("fro", 2, 2.0):
        terms, root = _unary("square", x), True
    elif p in (1, 1.0):
        terms, root = _unary("abs", x), False
    else:
        raise Unsupported(f"norm with p={p!r} ({op.name}) has no template")
    finish = (lambda e: _unary("sqrt", e)) if root else (lambda e: e)
    if dim is None and not keepdim:
        return lw.cover(op, finish(total(lw, op, terms, mean=False)))
    if is_last_dim(x, dim):
        return _kept(lw, op, finish(_row("rsum", terms)), keepdim)
    summed = Op(op.name, "call_function", "sum", "torch.sum", None, [], {}, op.shape, op.dtype)
    return lw.cover(op, finish(reduction(lw, summed, {"input": terms, "dim": dim, "keepdim": keepdim})))


@register_lowering("logsumexp")
def logsumexp(lw: Lowerer, op: Op, args: dict) -> Expr:
    """max + log(sum(exp(x - max))) over one dim: the log-softmax's row statistics."""
    x = lw.lazy(args["input"])
    dim = row_dim(lw, op, x, args.get("dim"))
    peak = _row("rmax", x, dim)
    shifted = Expr("sub", (x, peak), (1.0,), x.shape)
    value = Expr("add", (peak, _unary("log", _row("rsum", _unary("exp", shifted), dim))), (1.0,), peak.shape)
    return _kept(lw, op, value, bool(args.get("keepdim", False)), dim)


@register_lowering("var", "std")
def variance(lw: Lowerer, op: Op, args: dict) -> Expr:
    """sum((x - mean)^2) / (n - correction) over one dim (its square root for std), the two-pass
    form a layer norm's row kernel computes."""
    x = lw.lazy(args["input"])
    correction = _correction(op, args)
    if isinstance(args.get("dim"), (list, tuple)) and len(args["dim"]) > 1:
        return lw.cover(op, _dims_variance(lw, op, x, args["dim"], correction, bool(args.get("keepdim", False))))
    dim = row_dim(lw, op, x, args.get("dim"))
    summed = _row("rsum", x, dim)
    mean = Expr("mul", (summed, Expr("inv_n")), shape=summed.shape)
    squares = _row("rsum", _unary("square", Expr("sub", (x, mean), (1.0,), x.shape)), dim)
    # sum / (n - c) = sum * inv_n / (1 - c * inv_n): n is the row's length at run time
    scale = Expr("sub", (const(1.0), Expr("mul", (const(correction), Expr("inv_n")), shape=mean.shape)), (1.0,),
                 mean.shape)
    value = Expr("div", (Expr("mul", (squares, Expr("inv_n")), shape=mean.shape), scale), shape=mean.shape)
    return _kept(lw, op, _unary("sqrt", value) if op.fn == "std" else value, bool(args.get("keepdim", False)), dim)


def _dims_variance(lw: Lowerer, op: Op, x: Expr, dims, correction: float, keepdim: bool) -> Expr:
    """var/std over several dims (a batch norm's statistics over (0, 2, 3)): the mean of the squared
    deviations from the mean, both reduced as dims_reduction does, scaled by n / (n - correction)."""
    reduced = reduced_dims(op, op.fn, dims, len(x.shape))
    sizes = [x.shape[d] for d in reduced]
    count = math.prod(sizes) if all(isinstance(size, int) for size in sizes) else None
    if count is None or count <= correction:
        raise Unsupported(f"{op.fn} over {dims!r} ({op.name}): the count of values must be known and above "
                          f"the correction {correction:g}")
    kept = tuple(1 if d in reduced else size for d, size in enumerate(x.shape))
    averaged = Op(op.name, "call_function", "mean", "torch.mean", None, [], {}, kept, op.dtype)
    mean = dims_reduction(lw, averaged, "mean", x, reduced, keepdim=True)
    squares = _unary("square", Expr("sub", (x, mean), (1.0,), x.shape))
    spread = dims_reduction(lw, averaged if keepdim else op, "mean", squares, reduced, keepdim)
    value = Expr("mul", (spread, const(count / (count - correction))), shape=spread.shape) if correction else spread
    return _unary("sqrt", value) if op.fn == "std" else value


def _correction(op: Op, args: dict) -> float:
    """Bessel's correction from correction= or the older unbiased (a bool, also given by position)."""
    if args.get("correction") is not None:
        return float(args["correction"])
    unbiased = args.get("unbiased", True)
    if not isinstance(unbiased, bool):
        raise Unsupported(f"{op.fn} ({op.name}) with unbiased={unbiased!r}")
    return 1.0 if unbiased else 0.0


@register_lowering("smooth_l1_loss", "huber_loss")
def smooth_loss(lw: Lowerer, op: Op, args: dict) -> Expr:
    """With m = min(|d|, beta): smooth L1 = m^2 / (2 beta) + |d| - m, Huber = m^2 / 2 + delta (|d| - m)
    (each piece of torch's two branches, without a branch); then the reduction."""
    prediction, target = lw.lazy(args["input"]), lw.lazy(args["target"])
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    reduction_kind = module.reduction if module is not None else args.get("reduction", "mean")
    smooth_l1 = op.fn == "smooth_l1_loss"
    width = float(getattr(module, "beta" if smooth_l1 else "delta", None) if module is not None
                  else args.get("beta" if smooth_l1 else "delta", 1.0))
    if prediction.shape != target.shape:
        raise Unsupported(f"{op.fn} ({op.name}) of differently shaped tensors (broadcast) has no template")
    if reduction_kind not in _REDUCTIONS or args.get("size_average") is not None or args.get("reduce") is not None:
        raise Unsupported(f"{op.fn} ({op.name}) with reduction={reduction_kind!r} or size_average/reduce")
    shape = prediction.shape
    error = _unary("abs", Expr("sub", (prediction, target), (1.0,), shape))
    if smooth_l1 and width == 0.0:
        loss = error  # torch: plain L1 when beta is 0
    else:
        inside = Expr("minimum", (error, const(width)), shape=shape)
        quadratic = Expr("mul", (Expr("square", (inside,), shape=shape), const(0.5 / width if smooth_l1 else 0.5)),
                         shape=shape)
        linear = Expr("sub", (error, inside), (1.0,), shape)
        if not smooth_l1:
            linear = Expr("mul", (linear, const(width)), shape=shape)
        loss = Expr("add", (quadratic, linear), (1.0,), shape)
    if reduction_kind == "none":
        return lw.cover(op, loss)
    return total(lw, op, loss, reduction_kind == "mean")


@register_lowering("cosine_similarity")
def cosine_similarity(lw: Lowerer, op: Op, args: dict) -> Expr:
    """sum(a b) / (max(|a|, eps) max(|b|, eps)) over the last dim, as torch clamps each norm."""
    a, b = lw.lazy(args["input"]), lw.lazy(args.get("x2", args.get("other")))
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    dim = module.dim if module is not None else args.get("dim", 1)
    eps = float(module.eps if module is not None else args.get("eps", 1e-8))
    if a.shape != b.shape or not is_last_dim(a, dim):
        raise Unsupported(f"cosine_similarity over dim {dim!r} of {a.shape} and {b.shape} ({op.name}): the row "
                          f"template handles the last dim of equal shapes")

    def clamped_norm(e: Expr) -> Expr:
        return Expr("clamp", (_unary("sqrt", _row("rsum", _unary("square", e))),), (eps, float("inf")),
                    a.shape[:-1] + (1,))

    dot = _row("rsum", Expr("mul", (a, b), shape=a.shape))
    value = Expr("div", (dot, Expr("mul", (clamped_norm(a), clamped_norm(b)), shape=dot.shape)), shape=dot.shape)
    return _kept(lw, op, value, keepdim=False)


@register_lowering("triplet_margin_loss")
def triplet_margin_loss(lw: Lowerer, op: Op, args: dict) -> Expr:
    """mean or sum of relu(d(a, p) - d(a, n) + margin), d(x, y) = |x - y + eps| over the last dim (torch's
    pairwise_distance): two row norms in one row kernel, then the total. p = 2 without swap only."""
    anchor, positive, negative = (lw.lazy(args.get(name)) for name in ("input", "positive", "negative"))
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    source = {k: getattr(module, k) for k in ("margin", "p", "eps", "swap", "reduction")} if module is not None else args
    margin, eps = float(source.get("margin", 1.0)), float(source.get("eps", 1e-6))
    p, swap, reduction_kind = source.get("p", 2), bool(source.get("swap", False)), source.get("reduction", "mean")
    if not (anchor.shape == positive.shape == negative.shape) or len(anchor.shape) != 2:
        raise Unsupported(f"triplet_margin_loss ({op.name}) of other than three equally shaped (N, D) tensors")
    if p not in (2, 2.0) or swap or reduction_kind not in _REDUCTIONS or args.get("size_average") is not None \
            or args.get("reduce") is not None:
        raise Unsupported(f"triplet_margin_loss ({op.name}) with p={p!r}, swap={swap} or reduction={reduction_kind!r}")

    def distance(other: Expr) -> Expr:
        gap = Expr("add", (Expr("sub", (anchor, other), (1.0,), anchor.shape), const(eps)), (1.0,), anchor.shape)
        return _unary("sqrt", _row("rsum", _unary("square", gap)))

    closer = Expr("add", (Expr("sub", (distance(positive), distance(negative)), (1.0,), (anchor.shape[0], 1)),
                          const(margin)), (1.0,), (anchor.shape[0], 1))
    loss = Expr("dropdim", (_unary("relu", closer),), shape=anchor.shape[:1])
    if reduction_kind == "none":
        return lw.cover(op, loss)
    return total(lw, op, loss, reduction_kind == "mean")


@register_lowering("kl_div")
def kl_div(lw: Lowerer, op: Op, args: dict) -> Expr:
    """target * (log target - input) with torch's xlogy (0 where the target is 0, NaN where it is
    negative), or exp(target) * (target - input) for a log target; then the reduction, batchmean
    dividing the sum by the first dim's size at run time."""
    prediction, target = lw.lazy(args["input"]), lw.lazy(args["target"])
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    source = {k: getattr(module, k) for k in ("reduction", "log_target")} if module is not None else args
    reduction_kind, log_target = source.get("reduction", "mean"), bool(source.get("log_target", False))
    if prediction.shape != target.shape or not prediction.shape:
        raise Unsupported(f"kl_div ({op.name}) of differently shaped or 0-d tensors has no template")
    if reduction_kind not in _REDUCTIONS + ("batchmean",) or args.get("size_average") is not None \
            or args.get("reduce") is not None:
        raise Unsupported(f"kl_div ({op.name}) with reduction={reduction_kind!r} or size_average/reduce")
    shape = prediction.shape
    if log_target:
        loss = Expr("mul", (_unary("exp", target), Expr("sub", (target, prediction), (1.0,), shape)), shape=shape)
    else:
        xlogy = Expr("where", (Expr("eq", (target, const(0.0)), shape=shape), const(0.0),
                               Expr("mul", (target, _unary("log", target)), shape=shape)), shape=shape)
        loss = Expr("sub", (xlogy, Expr("mul", (target, prediction), shape=shape)), (1.0,), shape)
    if reduction_kind == "none":
        return lw.cover(op, loss)
    return total(lw, op, lw.cover(op, loss), reduction_kind == "mean", per_first_dim=reduction_kind == "batchmean")


@register_lowering("cross_entropy", "nll_loss")
def class_loss(lw: Lowerer, op: Op, args: dict) -> Expr:
    """Over (N, C) scores and int64 class targets: cross entropy is the row's logsumexp minus its
    target's score (one row kernel reading the scores once: no log-softmax written), NLL minus the
    target's score; the target's score is gathered by PyTorch (N values). Rows whose target is
    ignore_index count nothing; a mean divides by the rows that count, as torch does."""
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    names = ("reduction", "ignore_index", "weight", "label_smoothing")
    source = {k: getattr(module, k) for k in names if hasattr(module, k)} if module is not None else args
    reduction_kind, ignore = source.get("reduction", "mean"), source.get("ignore_index", -100)
    if (source.get("weight") is not None or float(source.get("label_smoothing", 0.0) or 0.0) != 0.0
            or reduction_kind not in _REDUCTIONS or not isinstance(ignore, int)
            or args.get("size_average") is not None or args.get("reduce") is not None):
        raise Unsupported(f"{op.fn} ({op.name}) with class weights, label smoothing or size_average/reduce has "
                          f"no template")
    scores = lw.lazy(args["input"])
    target_ref = args["target"]
    target_op = lw.ops_by_name.get(getattr(target_ref, "name", ""))
    if (len(scores.shape) != 2 or target_op is None or target_op.dtype != "int64"
            or tuple(target_op.shape or ()) != scores.shape[:1]):
        raise Unsupported(f"{op.fn} ({op.name}) other than of (N, C) scores and N class indices has no template")
    (held,) = lw.materialize([scores])
    target = lw.render(target_ref, materialize=True)
    rows, shape = leaf(held, scores.shape), (scores.shape[0], 1)
    # clamped: an ignored row's index (-100) must not reach gather; its loss is masked below
    picked = leaf(f"{held}.gather(1, {target}.clamp(0, {held}.shape[1] - 1).unsqueeze(1))", shape)
    if op.fn == "cross_entropy":
        peak = _row("rmax", rows, 1)
        spread = _row("rsum", _unary("exp", Expr("sub", (rows, peak), (1.0,), rows.shape)), 1)
        value = Expr("sub", (Expr("add", (peak, _unary("log", spread)), (1.0,), shape), picked), (1.0,), shape)
    else:
        value = _unary("neg", picked)
    # as floats: a byte mask's four-lane reads made the 64-bit total kernel spill
    counted = leaf(f"({target} != {ignore}).float().unsqueeze(1)", shape)
    loss = Expr("where", (counted, value, const(0.0)), shape=shape)
    if reduction_kind == "none":
        return lw.cover(op, Expr("dropdim", (loss,), shape=shape[:1]))
    if reduction_kind == "mean":
        loss = Expr("div", (loss, leaf(f"({target} != {ignore}).sum().float()", ())), shape=shape)
    return total(lw, op, lw.cover(op, loss), mean=False)


@register_lowering("normalize")
def normalize(lw: Lowerer, op: Op, args: dict) -> Expr:
    """F.normalize: x / max(||x||_p, eps) along one dim (p = 2 or 1), one row kernel."""
    x = lw.lazy(args["input"])
    p, eps = args.get("p", 2.0), float(args.get("eps", 1e-12))
    if p not in (1, 1.0, 2, 2.0) or args.get("out") is not None:
        raise Unsupported(f"normalize with p={p!r} ({op.name}) has no template")
    dim = row_dim(lw, op, x, args.get("dim", 1))
    terms = _unary("square", x) if p in (2, 2.0) else _unary("abs", x)
    length = _row("rsum", terms, dim)
    if p in (2, 2.0):
        length = _unary("sqrt", length)
    clamped = Expr("clamp", (length,), (eps, float("inf")), length.shape)
    return lw.cover(op, Expr("div", (x, clamped), shape=x.shape))


@register_lowering("hardshrink", "softshrink")
def shrink(lw: Lowerer, op: Op, args: dict) -> Expr:
    """hardshrink: x where |x| > lambd, else 0; softshrink: x - lambd, x + lambd or 0 by the band."""
    x = lw.lazy(args["input"])
    module = lw.resolver.module(op.target) if op.op == "call_module" else None
    lambd = float(module.lambd if module is not None else args.get("lambd", 0.5))
    outside = Expr("gt", (_unary("abs", x), const(lambd)), shape=x.shape)
    if op.fn == "hardshrink":
        return lw.cover(op, Expr("where", (outside, x, const(0.0)), shape=x.shape))
    toward_zero = Expr("sub", (x, Expr("mul", (_unary("sign", x), const(lambd)), shape=x.shape)), (1.0,), x.shape)
    return lw.cover(op, Expr("where", (outside, toward_zero, const(0.0)), shape=x.shape))


@register_lowering("prelu")
def prelu(lw: Lowerer, op: Op, args: dict) -> Expr:
    """x where x > 0, else weight * x; the weight one value or one per channel (dim 1)."""
    x = lw.lazy(args["input"])
    weight = _prelu_weight(lw, op, args, x)
    positive = Expr("gt", (x, const(0.0)), shape=x.shape)
    return lw.cover(op, Expr("where", (positive, x, Expr("mul", (weight, x), shape=x.shape)), shape=x.shape))


def _prelu_weight(lw: Lowerer, op: Op, args: dict, x: Expr) -> Expr:
    """The weight as the kernel reads it: a constant (`torch.tensor([0.25])` in the forward), or the
    parameter, one value or viewed (C, 1, ...) to broadcast along dim 1."""
    if op.op == "call_module":
        path = f"{op.target}.weight"
        shape, weight_expr = lw.resolver.tensor_shape(path), attr_expr(path)
    else:
        value = lw.value(args.get("weight"))
        if isinstance(value, Expr) and value.op == "const":
            return value
        if not isinstance(value, Expr) or value.op != "leaf":
            raise Unsupported(f"prelu ({op.name}): its weight is computed in the graph, not a tensor")
        shape, weight_expr = value.shape, value.params[0]
    if shape is None or len(shape) != 1 or (shape[0] != 1 and (len(x.shape) < 2 or shape[0] != x.shape[1])):
        raise Unsupported(f"prelu ({op.name}) with a weight of shape {shape} for an input of {x.shape}")
    per_channel = (shape[0],) + (1,) * (len(x.shape) - 2) if shape[0] != 1 else (1,)
    if len(per_channel) > 1:
        view = lw.new_var(f"{op.name}_weight")
        lw.steps.append(Step("library", [view], call=f"{weight_expr}.view{per_channel!r}", covers=[op.name]))
        weight_expr = view
    return leaf(weight_expr, per_channel)
